"""Kiosk mode: a respondent at the keyboard reaches no earlier answer."""


import pytest

from conftest import COMPANY, NAME, Atspi, wait_for

STORED_NAME = "Ada Lovelace"


def store_one_response(launch):
    app = launch()
    app.wait_focus(NAME)
    app.type(STORED_NAME)
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type("Analytical Engines")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: app.heading_count_label() is not None, "the stored-responses heading")
    app.quit()


def names_in(app):
    names = []
    for node in app.tree():
        try:
            names.append(node.get_name() or "")
        except Exception:  # noqa: BLE001 - a node gone while walking
            continue
    return names


def assert_nothing_stored_is_reachable(app):
    names = names_in(app)
    assert not [name for name in names if "stored response" in name], names
    assert not [name for name in names if STORED_NAME in name], "an earlier answer is in the accessibility tree"
    # Every focus stop, forwards through the whole window.
    seen = []
    for _ in range(14):
        app.key("Tab")
        focused = app.focused()
        seen.append((focused.get_role_name(), focused.get_name()) if focused else None)
    assert not [stop for stop in seen if stop and ("stored" in (stop[1] or "") or stop[0] == "list")], seen
    # Ctrl+E would ask where to export; nothing opens.
    app.key("ctrl+e")
    app.key("F10")
    menu_items = wait_for(
        lambda: app.find_all(Atspi.Role.MENU_ITEM) or None, "the main menu to open"
    )
    labels = [item.get_name() for item in menu_items]
    assert "About Survey Form" in labels, labels
    assert not [label for label in labels if "Export" in label], labels
    app.key("Escape")
    assert not export_dialog_is_open(app), "an export dialog opened in kiosk mode"


def export_dialog_is_open(app):
    return app.dialog("Export") is not None


@pytest.mark.parametrize("how", ["option", "setting"])
def test_kiosk_hides_stored_responses_their_count_and_export(launch, profile, how):
    store_one_response(launch)
    if how == "setting":
        profile.write_settings(kiosk="true")
        app = launch()
    else:
        app = launch(args=["--kiosk"])
    # The form itself is all there.
    app.wait_focus(NAME)
    assert_nothing_stored_is_reachable(app)


def test_without_kiosk_the_same_profile_shows_the_count(launch, profile):
    store_one_response(launch)
    app = launch()
    assert app.heading_count_label().get_name() == "1 stored response"
    # What the kiosk test shows closed is open here: the same keys reach export.
    app.key("ctrl+e")
    wait_for(lambda: export_dialog_is_open(app), "Ctrl+E to open the export dialog")
