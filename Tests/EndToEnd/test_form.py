"""The form driven with real key events: values, focus order, submit, undo."""

import subprocess
from pathlib import Path

from conftest import (
    COMMENTS, COMPANY, CURRENT_EMPLOYER, NAME, SALARY, YEARS,
    Atspi, has_state, wait_for, wait_until_equal,
)

BLANK = dict(name="--", company="--", experience="--", current_employer="NO", salary="--", comments="--")


def fill_form(app, *, name, company, years, current_employer, salary_pages, salary_steps, comments):
    """Types every answer, moving on with Tab, starting with focus in Name."""
    app.wait_focus(NAME)
    app.type(name)
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type(company)
    app.key("Tab")
    app.wait_focus(YEARS)
    app.type(years)
    app.key("Tab")
    app.wait_focus(CURRENT_EMPLOYER)
    if current_employer:
        app.key("space")
    app.key("Tab")
    app.wait_focus(SALARY)
    app.key(*(["Page_Up"] * salary_pages + ["Right"] * salary_steps))
    app.key("Tab")
    app.wait_focus(COMMENTS)
    app.type(comments)


def test_typed_values_reach_summary_widgets_and_database(app, profile, tmp_path):
    assert app.summary() == BLANK
    fill_form(
        app, name="Ada Lovelace", company="Analytical Engines, Ltd.", years="12.5",
        current_employer=True, salary_pages=8, salary_steps=5,
        comments='Loves "notes", commas\nand a second line',
    )

    summary = app.wait_summary(
        name="Ada Lovelace", company="Analytical Engines, Ltd.", experience="12.5 yrs",
        current_employer="YES", salary="85.0k", comments='Loves "notes", commas\nand a second line',
    )
    assert summary["comments"] == 'Loves "notes", commas\nand a second line'
    # The widgets hold the same values as the view model.
    assert app.value_of(*YEARS) == 12.5
    assert app.value_of(*SALARY) == 85000
    assert app.is_checked(CURRENT_EMPLOYER[1])

    app.key("ctrl+s")
    app.wait_status("Response saved")
    rows = profile.exported_rows(tmp_path)
    assert len(rows) == 1
    row = rows[0]
    assert row["name"] == "Ada Lovelace"
    assert row["company"] == "Analytical Engines, Ltd."
    assert row["years_of_experience"] == "12.5"
    assert row["current_employer"] == "true"
    assert row["approx_salary"] == "85000"
    assert row["comments"] == 'Loves "notes", commas\nand a second line'
    wait_until_equal(lambda: app.heading_count_label().get_name(), "1 stored response", "the stored-responses heading")


def test_tab_order_is_the_visual_order(app):
    app.type("Ada")  # a valid form, so that Submit takes focus too
    wait_for(app.submit_sensitive, "Submit to become sensitive")
    order = [NAME, COMPANY, YEARS, CURRENT_EMPLOYER, SALARY, COMMENTS, (Atspi.Role.PUSH_BUTTON, "Submit")]
    app.wait_focus(order[0])
    for control in order[1:]:
        app.key("Tab")
        app.wait_focus(control, f"Tab to move focus to {control[1]}")
    for control in reversed(order[:-1]):
        app.key("shift+Tab")
        app.wait_focus(control, f"Shift+Tab to move focus back to {control[1]}")


def test_submit_is_insensitive_until_the_form_is_valid(app):
    assert not app.submit_sensitive(), "Submit must be insensitive on a blank form"
    app.type("   ")
    app.wait_summary(name="--")
    assert not app.submit_sensitive(), "a name of spaces is blank: Submit must stay insensitive"
    app.type("Ada")
    wait_for(app.submit_sensitive, "Submit to become sensitive once the name is given")
    app.key(*["BackSpace"] * 6)
    app.wait_summary(name="--")
    wait_for(lambda: not app.submit_sensitive(), "Submit to become insensitive again when the name is erased")


def test_ctrl_s_stores_confirms_resets_and_focuses_name(app, profile, tmp_path):
    fill_form(
        app, name="Grace Hopper", company="US Navy", years="30", current_employer=False,
        salary_pages=1, salary_steps=2, comments="COBOL",
    )
    app.wait_summary(name="Grace Hopper", company="US Navy", experience="30.0 yrs", salary="12.0k", comments="COBOL")
    app.key("ctrl+s")
    assert "Response saved" in app.wait_status("Response saved")
    # The form is blank again, its widgets too, and Name has the focus.
    app.wait_summary(**BLANK)
    app.wait_focus(NAME, "focus back in Name after submitting")
    assert app.value_of(*YEARS) == 0
    assert app.value_of(*SALARY) == 0
    assert not app.is_checked(CURRENT_EMPLOYER[1])
    assert not app.submit_sensitive()
    rows = profile.exported_rows(tmp_path)
    assert [(row["name"], row["company"], row["years_of_experience"], row["approx_salary"], row["comments"]) for row in rows] == [
        ("Grace Hopper", "US Navy", "30", "12000", "COBOL")
    ]
    # No draft is left behind for a stored response.
    wait_for(lambda: not profile.draft.exists(), "the draft to be removed after submitting", timeout=5)


def test_ctrl_enter_submits_from_an_entry_and_from_the_comments(app, profile, tmp_path):
    app.type("Alan Turing")
    app.wait_summary(name="Alan Turing")
    app.key("ctrl+Return")
    app.wait_status("Response saved")
    app.wait_summary(**BLANK)
    app.wait_focus(NAME)

    # In the comments, Ctrl+Enter submits instead of starting a new line.
    app.type("Katherine Johnson")
    app.key("Tab", "Tab", "Tab", "Tab", "Tab")
    app.wait_focus(COMMENTS)
    app.type("Orbits")
    app.wait_summary(name="Katherine Johnson", comments="Orbits")
    app.key("ctrl+Return")
    app.wait_summary(**BLANK)
    app.wait_focus(NAME)
    rows = profile.exported_rows(tmp_path)
    assert [(row["name"], row["comments"]) for row in rows] == [("Alan Turing", ""), ("Katherine Johnson", "Orbits")]


def test_empty_submit_stores_nothing_and_says_why(app, profile, tmp_path):
    app.key("ctrl+s")
    app.wait_status("Name is required.")
    app.wait_focus(NAME, "focus in Name, the field to fix")
    # The name field's own message is shown (it describes the entry).
    app.find(Atspi.Role.LABEL, "Name is required.")
    assert app.running
    assert profile.exported_rows(tmp_path) == []
    # Typing a name makes the form valid and clears the message.
    app.type("Ada")
    wait_for(app.submit_sensitive, "Submit to become sensitive")
    wait_until_equal(app.status, "", "the status message to clear on the next edit")


def test_undo_and_redo_reach_the_view_model_from_any_field(app):
    undo = app.find(Atspi.Role.PUSH_BUTTON, "Undo")
    assert not has_state(undo, Atspi.StateType.SENSITIVE), "nothing to undo on a blank form"

    app.type("Ada")
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type("ACME")
    app.wait_summary(name="Ada", company="ACME")
    wait_for(lambda: has_state(app.find(Atspi.Role.PUSH_BUTTON, "Undo"), Atspi.StateType.SENSITIVE), "Undo to become sensitive")

    # Ctrl+Z in the company entry undoes through the view model, one field at a time.
    app.key("ctrl+z")
    app.wait_summary(name="Ada", company="--")
    app.key("ctrl+z")
    app.wait_summary(name="--", company="--")
    app.key("ctrl+shift+z")
    app.wait_summary(name="Ada", company="--")
    app.key("ctrl+y")
    app.wait_summary(name="Ada", company="ACME")

    # Undo also covers the switch, the spin button and the comments.
    app.key("Tab")
    app.wait_focus(YEARS)
    app.type("7")
    app.key("Tab")
    app.wait_focus(CURRENT_EMPLOYER)
    app.key("space")
    app.wait_summary(experience="7.0 yrs", current_employer="YES")
    app.key("ctrl+z")
    app.wait_summary(experience="7.0 yrs", current_employer="NO")
    assert not app.is_checked(CURRENT_EMPLOYER[1])
    app.key("ctrl+z")
    app.wait_summary(experience="--", current_employer="NO")
    app.key("Tab", "Tab")
    app.wait_focus(COMMENTS)
    app.type("Hello")
    app.wait_summary(comments="Hello")
    app.key("ctrl+z")
    app.wait_summary(name="Ada", company="ACME", experience="--", comments="--")
    app.key("ctrl+shift+z")
    app.wait_summary(comments="Hello")


def test_window_title(app):
    assert app.title() == "Survey Form"


def test_the_window_gets_the_apps_icon_once_it_has_drawn(launch):
    # The icon where meson installs it is found through XDG_DATA_DIRS; the app
    # sets it after the first frame, so that reading the theme does not delay it.
    resources = Path(__file__).resolve().parents[2] / "Resources"
    app = launch(XDG_DATA_DIRS=f"{resources}:/usr/local/share:/usr/share")

    def icon():
        return subprocess.run(
            ["xprop", "-id", app.window_id, "_NET_WM_ICON"], capture_output=True, text=True, check=True
        ).stdout

    wait_for(lambda: "Icon (" in icon(), "the window's icon in _NET_WM_ICON")


def test_ctrl_question_opens_the_shortcuts_window(app):
    def windows():
        app.accessible.clear_cache()
        return app.accessible.get_child_count()

    before = windows()
    app.key("ctrl+question")
    wait_for(lambda: windows() == before + 1, "the shortcuts window to open")


def window_size(app):
    """The window's size as the X server sees it."""
    geometry = subprocess.run(
        ["xdotool", "getwindowgeometry", "--shell", app.window_id], capture_output=True, text=True, check=True
    ).stdout
    values = dict(line.split("=", 1) for line in geometry.split())
    return int(values["WIDTH"]), int(values["HEIGHT"])


def test_the_window_size_is_remembered_between_runs(launch):
    app = launch()
    subprocess.run(["xdotool", "windowsize", "--sync", app.window_id, "1100", "760"], check=True, timeout=10)
    wait_for(lambda: window_size(app) == (1100, 760), "the window to take its new size")
    app.quit()

    app = launch()
    wait_for(lambda: window_size(app) == (1100, 760), "the window to open at the size it was left at")
