"""Appearances, by keyboard and as a screen reader meets them: digits only,
grouped thousands, a month, a likert scale, star ratings and a minimal
select_multiple, each stored in XForms notation."""

from pathlib import Path

from conftest import Atspi, has_state, wait_for, wait_until_equal

APPEARANCES = Path(__file__).parent / "forms" / "appearances.md"


def typed(field):
    return Atspi.Text.get_text(field, 0, Atspi.Text.get_character_count(field))


def test_appearance_controls_are_filled_by_keyboard_and_store_xforms_answers(launch, profile, tmp_path):
    app = launch(args=[str(APPEARANCES)])
    app.wait_focus((Atspi.Role.TEXT, "Phone"), "focus in the first question")
    app.type("0049x")
    app.key("Tab")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Enter digits only."), "a letter refused")
    app.key("shift+Tab")
    app.wait_focus((Atspi.Role.TEXT, "Phone"))
    # Focus selects the text: End keeps it, and the letter goes.
    app.key("End", "BackSpace")
    app.key("Tab")

    people = (Atspi.Role.TEXT, "People")
    app.wait_focus(people)
    app.type("12000")
    app.key("Tab")
    # The thousands grouped as the locale writes them (C: a comma).
    wait_until_equal(lambda: typed(app.control(*people)), "12,000", "the number grouped")

    app.wait_focus((Atspi.Role.TEXT, "Month"))
    app.type("2025-7")
    app.key("Tab")

    # A likert point is a radio button named by its label, which stands under it.
    app.wait_focus((Atspi.Role.RADIO_BUTTON, "Disagree"))
    app.key("Right", "Right")
    app.wait_focus((Atspi.Role.RADIO_BUTTON, "Agree"))
    app.key("space")
    wait_for(lambda: has_state(app.control(Atspi.Role.RADIO_BUTTON, "Agree"), Atspi.StateType.CHECKED), "Agree picked")

    # Each star is heard as a radio button named for its place, the
    # rating's own checked; every star up to it is lit (pressed).
    def star(place):
        return (Atspi.Role.RADIO_BUTTON, f"{place} of 5")

    app.key("Tab")
    app.wait_focus(star(1))
    app.key("Tab", "Tab", "Tab")
    app.wait_focus(star(4))
    app.key("space")
    wait_for(lambda: has_state(app.control(*star(4)), Atspi.StateType.CHECKED), "the fourth star chosen")
    assert has_state(app.control(*star(3)), Atspi.StateType.PRESSED), "stars up to the fourth lit"
    assert not has_state(app.control(*star(3)), Atspi.StateType.CHECKED), "one star is the rating"
    assert not has_state(app.control(*star(5)), Atspi.StateType.PRESSED)

    # minimal: a button naming the choices made, opening check boxes; a
    # screen reader hears the question, then what is chosen.
    app.key("Tab", "Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Several Choose…"))
    app.key("Return")
    app.wait_focus((Atspi.Role.CHECK_BOX, "Disagree"), "the choices open, focus on the first")
    app.key("Tab")
    app.wait_focus((Atspi.Role.CHECK_BOX, "Neutral"))
    app.key("space")
    wait_for(lambda: has_state(app.control(Atspi.Role.CHECK_BOX, "Neutral"), Atspi.StateType.CHECKED), "Neutral ticked")
    app.key("Escape")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Several Neutral"), "the list closed, focus back on its button")

    app.key("ctrl+s")
    app.wait_status("Response saved")
    _, rows = profile.exported_form_rows(tmp_path, APPEARANCES)
    row = rows[0]
    assert row["phone"] == "0049", row
    assert row["people"] == "12000", row
    assert row["month"] == "2025-07-01", row
    assert row["scale"] == "3", row
    assert row["stars"] == "4", row
    assert row["several"] == "2", row


def test_a_german_desktop_groups_thousands_with_points(launch, profile, tmp_path):
    # LANG names the desktop's locale, whether or not the C library has it generated.
    app = launch(args=[str(APPEARANCES)], LANG="de_DE.UTF-8", LANGUAGE="de")
    app.wait_focus((Atspi.Role.TEXT, "Phone"), "focus in the first question")
    app.key("Tab")
    people = (Atspi.Role.TEXT, "People")
    app.wait_focus(people)
    app.type("1234567")
    app.key("Tab")
    wait_until_equal(lambda: typed(app.control(*people)), "1.234.567", "the number grouped as German writes it")
    # The summary reads the answer as the control shows it.
    app.find(Atspi.Role.LABEL, where=lambda node: "People: 1.234.567" in (node.get_name() or ""))
    app.key("ctrl+s")
    # In German where the C library has the locale; here it may not.
    wait_for(lambda: any(word in app.status() for word in ("gespeichert", "saved")), "the response saved")
    _, rows = profile.exported_form_rows(tmp_path, APPEARANCES)
    assert rows[0]["people"] == "1234567", rows[0]
