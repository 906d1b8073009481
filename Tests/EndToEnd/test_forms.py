"""Forms opened from files: rendered as native widgets, bound both ways to
the form's rules, completed with the keyboard alone, stored and exported."""

import os
import re
import subprocess
from pathlib import Path

from conftest import Atspi, choose_in_file_dialog, field_text, has_state, wait_for, wait_until_equal

FORMS = Path(__file__).parent / "forms"
CORPUS = Path(__file__).parent.parent / "FormCorpus"
VISIT = FORMS / "visit.md"

PATIENT = (Atspi.Role.TEXT, "Patient name")
# Its constraint gives the age a range: a spin button offering it.
AGE = (Atspi.Role.SPIN_BUTTON, "Age")
PER_DAY = (Atspi.Role.TEXT, "Cigarettes per day")
# A select_one's choice: a radio button to a screen reader.
SMOKER_YES = (Atspi.Role.RADIO_BUTTON, "Yes")
CONSENT = (Atspi.Role.CHECK_BOX, "The patient agrees")
# The built-in survey's first field.
NAME_FIELD = (Atspi.Role.TEXT, "Name")


def message_shown(app, text):
    return app.find_all(Atspi.Role.LABEL, name=text)


def refused(app, field, text, message, what):
    """Types `text` into `field`, sees `message` once focus leaves, and comes
    back to the field with its text selected and deleted."""
    app.type(text)
    app.key("Tab")
    wait_for(lambda: message_shown(app, message), what)
    app.key("shift+Tab")
    app.wait_focus(field)
    app.key("ctrl+a", "BackSpace")


def test_a_form_that_cannot_run_exits_2_and_lists_its_problems_by_row(profile):
    broken = CORPUS / "invalid" / "duplicate-name.md"
    result = subprocess.run(
        [__import__("os").environ["SURVEY_FORM_BINARY"], str(broken)],
        env=profile.environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2, result
    assert "cannot be used" in result.stderr
    assert "row" in result.stderr, result.stderr
    assert not profile.database.exists(), "a form that cannot run opens nothing"


def test_a_form_from_a_file_is_filled_in_with_the_keyboard_and_exported(launch, profile, tmp_path):
    app = launch(args=[str(VISIT)])
    assert app.title() == "Clinic visit"
    app.wait_focus(PATIENT, "focus in the first question")
    patient = app.control(*PATIENT)
    assert patient.get_description() == "Required\nAs on the insurance card", "required, then the hint, as the accessible description"

    app.type("Ada Lovelace")
    app.key("Return")
    app.wait_focus(AGE, "Enter to move on to the next question")

    # Typed input that is not a whole number is refused beside the question.
    refused(app, AGE, "abc", "“abc” is not a number", "the type message")
    app.type("150")
    app.key("Tab")
    wait_for(lambda: message_shown(app, "Age must be between 0 and 120."), "the constraint message")
    # A screen reader hears the message as the field's description.
    assert app.control(*AGE).get_description() == "Age must be between 0 and 120.\nRequired"

    # The refused number was not clamped into the range: the age is unanswered.
    assert field_text(app.control(*AGE)) == ""

    # A note shows a calculation.
    app.key("shift+Tab")
    app.wait_focus(AGE)
    app.type("42")
    app.key("Tab")
    wait_for(lambda: message_shown(app, "That is 504 months."), "the note to follow the age")
    assert not message_shown(app, "Age must be between 0 and 120.")

    # Skip logic: the follow-up question exists only for a smoker.
    assert not app.find_all(*PER_DAY), "a question that is not relevant is not in the accessibility tree"
    app.wait_focus(SMOKER_YES)
    app.key("space")
    wait_for(lambda: app.find_all(*PER_DAY), "the follow-up question to appear")

    # Submit refused: the first question missing an answer takes focus.
    app.key("ctrl+s")
    app.wait_focus(PER_DAY, "focus on the first question missing an answer")
    assert "requires an answer" in app.wait_status("requires an answer")
    app.type("5")
    # Down to the symptoms and the consent with Tab, checking with space.
    app.key("Tab")
    app.wait_focus((Atspi.Role.CHECK_BOX, "Cough"))
    app.key("space", "Tab", "Tab", "space")
    wait_for(lambda: has_state(app.control(Atspi.Role.CHECK_BOX, "Rash"), Atspi.StateType.CHECKED), "Rash checked")
    app.key("Tab")
    app.wait_focus((Atspi.Role.SLIDER, "Pain"))
    app.key("Right", "Right", "Right")
    app.key("Tab")
    app.wait_focus(CONSENT)
    app.key("space")
    wait_for(lambda: has_state(app.control(*CONSENT), Atspi.StateType.CHECKED), "the consent switch on")
    app.key("ctrl+Return")
    app.wait_status("Response saved")
    app.wait_focus(PATIENT, "a blank form for the next person")

    header, rows = profile.exported_form_rows(tmp_path, VISIT)
    assert header == [
        "submitted_at", "patient", "age", "months", "smoker", "per_day", "symptoms", "pain", "consent",
        "instance_id", "form_version", "started_at",
    ]
    assert len(rows) == 1
    row = rows[0]
    assert (row["patient"], row["age"], row["months"], row["smoker"], row["per_day"]) == ("Ada Lovelace", "42", "504", "yes", "5")
    assert row["symptoms"] == "cough rash"
    assert row["pain"] == "3"
    assert row["consent"] == "true", "an acknowledgement is exported as a boolean"
    assert row["form_version"] == "2"
    assert len(row["instance_id"]) > 30

    # The built-in survey's own export is untouched by it.
    assert profile.exported_rows(tmp_path) == []


def test_the_last_form_opened_reopens_at_start(launch):
    app = launch(args=[str(VISIT)])
    assert app.title() == "Clinic visit"
    app.quit()
    app = launch()
    wait_until_equal(app.title, "Clinic visit", "the window title")


def open_recent(app, item):
    """Main menu (F10), Open Recent, then `item`, with the keyboard."""
    app.key("F10")
    wait_for(lambda: app.find_all(Atspi.Role.MENU_ITEM, "Open Recent"), "the main menu")
    app.down_to("Open Recent")
    app.key("Return")
    wait_for(lambda: app.find_all(where=lambda node: node.get_name() == item), f"{item!r} among the recent forms")
    app.down_to(item)
    app.key("Return")


def test_recent_forms_and_the_built_in_survey_are_offered_in_the_main_menu(launch):
    app = launch(args=[str(VISIT)])
    assert app.title() == "Clinic visit"
    handed = subprocess.run([__import__("os").environ["SURVEY_FORM_BINARY"], str(FORMS / "pages.md")],
                            env=app.env, capture_output=True, text=True, timeout=60)
    assert handed.returncode == 0, handed
    wait_until_equal(app.title, "Intake, paged", "the second form")

    open_recent(app, "visit.md")
    wait_until_equal(app.title, "Clinic visit", "the recent form to open")
    app.wait_focus(PATIENT)

    open_recent(app, "Built-in Survey")
    wait_until_equal(app.title, "Survey Form", "the built-in survey")
    # Chosen last, the built-in survey is what the next start shows.
    app.quit()
    app = launch()
    assert app.title() == "Survey Form"
    open_recent(app, "pages.md")
    wait_until_equal(app.title, "Intake, paged", "a recent form from the built-in survey's menu")


def open_with_ctrl_o(app, path):
    """Ctrl+O, the path typed into GTK's open dialog, Enter."""
    app.key("ctrl+o")
    choose_in_file_dialog(app, "Open Form", path)


def test_open_form_opens_a_form_and_explains_one_that_cannot_run(launch):
    app = launch()
    assert app.title() == "Survey Form"
    open_with_ctrl_o(app, VISIT)
    wait_until_equal(app.title, "Clinic visit", "the chosen form")
    app.wait_focus(PATIENT)
    app.type("Ada")

    # A form that cannot run opens no half-form: a dialog lists its problems.
    open_with_ctrl_o(app, CORPUS / "invalid" / "duplicate-name.md")
    problems = wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: "row" in (node.get_name() or "")),
                        "the dialog listing the form's problems")
    assert any("duplicate-name.md has problems" in (node.get_name() or "") for node in app.find_all(Atspi.Role.LABEL)), problems
    app.key("Escape")
    wait_for(lambda: not app.find_all(Atspi.Role.LABEL, where=lambda node: "row" in (node.get_name() or "")),
             "Escape to close the dialog")
    assert app.title() == "Clinic visit"
    assert field_text(app.control(*PATIENT)) == "Ada", "the form shown keeps its answers"


def test_a_second_launch_hands_its_form_to_the_running_window(launch, profile):
    app = launch(args=[str(VISIT)])
    app.wait_focus(PATIENT)
    app.type("Ada")
    second = lambda form: subprocess.run(  # noqa: E731
        [__import__("os").environ["SURVEY_FORM_BINARY"], str(form)],
        env=app.env, capture_output=True, text=True, timeout=60,
    )
    # The same form again: the window stays, with what was typed.
    assert second(VISIT).returncode == 0
    assert field_text(app.control(*PATIENT)) == "Ada"
    # Another form: the running window shows it, and no second one opens.
    result = second(FORMS / "pages.md")
    assert result.returncode == 0, result
    wait_until_equal(app.title, "Intake, paged", "the running window to show the form")
    # A form that cannot run is refused by the launch that named it.
    broken = second(CORPUS / "invalid" / "duplicate-name.md")
    assert broken.returncode == 2 and "row" in broken.stderr, broken
    assert app.title() == "Intake, paged"


DATES = FORMS / "dates.md"
SEEN = (Atspi.Role.TEXT, "Date of visit")
CALL = (Atspi.Role.TEXT, "Best time to call")


def test_dates_and_times_are_typed_or_picked_with_the_keyboard(launch, profile, tmp_path):
    app = launch(args=[str(DATES)])
    app.wait_focus(SEEN)
    refused(app, SEEN, "2024-02-30", "Enter a date as YYYY-MM-DD.", "the type message")
    refused(app, SEEN, "1999-12-31", "The visit must be in 2000 or later.", "the constraint message")
    app.type("2024-02-29")

    # The calendar beside the field picks a day with the keyboard: arrows move
    # its focus, space picks. (GTK 4.8's calendar starts its keyboard focus on
    # a cell of its own, not on the day shown, so which day is not asserted.)
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Pick a day for Date of visit"))
    app.key("space")
    wait_for(lambda: app.focused_description() == (Atspi.Role.FILLER, "Date of visit"), "focus in the calendar")
    app.key("Right", "space")
    picked = wait_for(
        lambda: (lambda text: text if text != "2024-02-29" else None)(field_text(app.control(*SEEN))),
        "the field to follow the calendar",
    )
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", picked), picked
    app.key("Escape")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Pick a day for Date of visit"), "Escape closes the calendar")
    app.key("shift+Tab")
    app.wait_focus(SEEN)
    app.key("ctrl+a", "BackSpace")
    app.type("2024-03-01")
    app.key("Tab")
    assert not message_shown(app, "The visit must be in 2000 or later.")

    app.key("Tab")
    app.wait_focus((Atspi.Role.TEXT, "Next appointment"))
    app.type("2024-03-08 09:30")

    # A time's hour and minute are spin buttons in a popover beside it.
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Pick a day for Next appointment"))
    app.key("Tab")
    app.wait_focus(CALL)
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Pick a time for Best time to call"))
    app.key("space")
    app.wait_focus((Atspi.Role.SPIN_BUTTON, "Hour of Best time to call"), "focus on the hour")
    app.key("ctrl+a")
    app.type("14")
    app.key("Tab")
    app.wait_focus((Atspi.Role.SPIN_BUTTON, "Minute of Best time to call"))
    wait_for(lambda: field_text(app.control(*CALL)) == "14:00", "the field to follow the hour")
    app.key("Up", "Up")
    wait_for(lambda: field_text(app.control(*CALL)) == "14:02", "the field to follow the minute")
    app.key("Escape")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Pick a time for Best time to call"), "Escape closes the popover")
    app.key("ctrl+s")
    app.wait_status("Response saved")

    _, rows = profile.exported_form_rows(tmp_path, DATES)
    assert [row["seen"] for row in rows] == ["2024-03-01"]
    # Times as Collect stores them: to the millisecond, with the desktop's offset.
    assert re.fullmatch(r"2024-03-08T09:30:00\.000[+-]\d\d:\d\d", rows[0]["next"]), rows[0]["next"]
    assert re.fullmatch(r"14:02:00\.000[+-]\d\d:\d\d", rows[0]["call"]), rows[0]["call"]


HOUSEHOLD = FORMS / "household.md"
HEAD = (Atspi.Role.TEXT, "Head of household")


def delete_buttons(app):
    return app.find_all(Atspi.Role.PUSH_BUTTON, where=lambda n: (n.get_name() or "").startswith("Delete the response of"))


def tab_to(app, probe, what, limit=24):
    seen = []
    for _ in range(limit):
        if probe(app.focused()):
            return
        seen.append(app.focused_description())
        app.key("Tab")
    raise AssertionError(f"{limit} Tabs never reached {what}; focus on {app.focused_description()}; {seen}")


def test_stored_responses_are_listed_opened_and_deleted_with_undo(launch, profile):
    app = launch(args=[str(HOUSEHOLD)])
    wait_for(lambda: message_shown(app, "0 stored responses"), "the list's heading, counting none")
    app.wait_focus(HEAD)
    app.type("Ada")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: message_shown(app, "1 stored response"), "the list's heading")

    # The row opens the response read-only, under the questions' labels.
    tab_to(app, lambda node: (node.get_name() or "").startswith("Open the response of Ada"), "the stored response")
    app.key("Return")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda n: "Head of household: Ada" in (n.get_name() or "")),
             "the response shown read-only")
    app.key("Escape")

    # Deleted with the keyboard, and back with the toast's Undo.
    tab_to(app, lambda node: (node.get_name() or "").startswith("Delete the response of"), "the delete button")
    app.key("space")
    app.wait_status("Response deleted")
    wait_for(lambda: message_shown(app, "0 stored responses"), "the list's heading, counting none again")
    app.press(Atspi.Role.PUSH_BUTTON, "Undo")
    app.wait_status("The response was stored again.")
    wait_for(lambda: message_shown(app, "1 stored response"), "the response back in the list")
    app.quit()

    # A respondent sees none of it.
    app = launch(args=[str(HOUSEHOLD), "--kiosk"])
    app.wait_focus(HEAD)
    assert not message_shown(app, "1 stored response") and not message_shown(app, "0 stored responses")
    assert not delete_buttons(app)


def test_the_about_window_is_libadwaitas_and_closes_with_escape(launch):
    app = launch(args=[str(VISIT)])
    app.wait_focus(PATIENT)
    app.key("F10")
    wait_for(lambda: app.find_all(Atspi.Role.MENU_ITEM, "About Survey Form"), "the main menu")
    app.down_to("About Survey Form")
    app.key("Return")
    version = subprocess.run(
        [__import__("os").environ["SURVEY_FORM_BINARY"], "--version"], capture_output=True, text=True, timeout=30,
    ).stdout.split()[-1]
    # AdwAboutWindow shows the version as a button of its own, and credits
    # and legal pages that GtkAboutDialog lays out differently.
    wait_for(lambda: app.find_all(where=lambda n: n.get_name() == version), "the version in the About window")
    assert app.find_all(where=lambda n: n.get_name() == "The Survey Form developers")
    app.key("Escape")
    wait_for(lambda: not app.find_all(where=lambda n: n.get_name() == version), "the About window to close")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Main Menu"), "focus back on the menu that opened it")


def test_a_form_that_did_not_finish_opening_is_not_reopened_and_the_window_says_why(launch, profile):
    # As a crash or a hang while opening leaves the settings: the form still
    # marked as being opened.
    path = str(VISIT.resolve())
    profile.write_settings(recent_forms=f"['{path}']", opening_form=f"'{path}'")
    # The dialog has the focus, on its Close button.
    app = launch(focus_role=Atspi.Role.PUSH_BUTTON)
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: "did not finish opening" in (node.get_name() or "")),
             "the dialog saying why the last form was not reopened")
    app.key("Escape")
    wait_until_equal(app.title, "Survey Form", "the built-in survey, opened instead")
    app.quit()

    # Opened again by hand, it opens, and once drawn it reopens at the next start.
    app = launch(args=[path])
    wait_until_equal(app.title, "Clinic visit", "the form opened by hand")
    app.quit()
    assert "opening-form=''" in profile.settings_file.read_text() or "opening-form" not in profile.settings_file.read_text()
    app = launch()
    wait_until_equal(app.title, "Clinic visit", "the form reopened at start")


def hold_openings(tmp_path):
    """A FIFO the app's form readings wait at (`SURVEY_FORM_TEST_HOLD_OPENING`)
    once the file is read, until `release` writes to it: the test sees the
    window while a form is being opened, however fast the machine is."""
    hold = tmp_path / "hold-opening"
    os.mkfifo(hold)
    return hold


def release(hold):
    # Opening a FIFO to write waits for its reader: the reading held there.
    with open(hold, "w"):
        pass


def opening_shown(app, name):
    return app.find_all(Atspi.Role.LABEL, name=f"Opening {name}")


def test_a_form_is_read_off_the_main_thread_and_its_reading_can_be_cancelled(launch, tmp_path):
    hold = hold_openings(tmp_path)
    app = launch(args=[str(VISIT)], SURVEY_FORM_TEST_HOLD_OPENING=str(hold))
    app.type("Ada")
    # Another launch hands a form over; the running window reads it off its
    # main thread (held at the FIFO) and, meanwhile, draws a dialog saying so.
    env = {key: value for key, value in app.env.items() if key != "SURVEY_FORM_TEST_HOLD_OPENING"}
    second = lambda form: subprocess.run(  # noqa: E731
        [os.environ["SURVEY_FORM_BINARY"], str(form)], env=env, capture_output=True, text=True, timeout=60,
    )
    assert second(FORMS / "pages.md").returncode == 0
    wait_for(lambda: opening_shown(app, "pages.md"), "the dialog saying the form is being read")
    # Cancel (Escape): the window stays as it was, answers and all.
    app.key("Escape")
    wait_for(lambda: not opening_shown(app, "pages.md"), "Escape to cancel the reading")
    release(hold)
    assert app.title() == "Clinic visit"
    assert field_text(app.control(*PATIENT)) == "Ada", "the form shown keeps its answers"

    # Read to the end, it replaces the form shown, and the dialog goes.
    assert second(FORMS / "pages.md").returncode == 0
    wait_for(lambda: opening_shown(app, "pages.md"), "the dialog saying the form is being read")
    release(hold)
    wait_until_equal(app.title, "Intake, paged", "the form, once read")
    wait_for(lambda: not opening_shown(app, "pages.md"), "the dialog to close once the form is read")


def test_the_form_opened_last_is_read_behind_a_window_with_cancel(launch, profile, tmp_path):
    path = str(VISIT.resolve())
    profile.write_settings(recent_forms=f"['{path}']")
    hold = hold_openings(tmp_path)
    # While it is read, a window names it, its Cancel button focused.
    app = launch(focus_role=Atspi.Role.PUSH_BUTTON, SURVEY_FORM_TEST_HOLD_OPENING=str(hold))
    wait_for(lambda: opening_shown(app, "visit.md"), "the window saying the last form is being read")
    # Cancel opens the built-in survey instead, at this start and the next.
    app.key("Return")
    wait_for(lambda: app.find_all(*NAME_FIELD), "the built-in survey, opened instead")
    release(hold)
    assert app.title() == "Survey Form"
    app.quit()
    settings = profile.settings_file.read_text()
    assert "reopen-form=false" in settings, settings
    assert "opening-form='" + path not in settings, settings

    # Read to the end, it replaces the window that waited for it.
    profile.write_settings(recent_forms=f"['{path}']")
    app = launch(focus_role=Atspi.Role.PUSH_BUTTON, SURVEY_FORM_TEST_HOLD_OPENING=str(hold))
    wait_for(lambda: opening_shown(app, "visit.md"), "the window saying the last form is being read")
    release(hold)
    wait_until_equal(app.title, "Clinic visit", "the form, once read")
    app.wait_focus(PATIENT)


FIELDWORK = FORMS / "fieldwork.md"


def test_a_location_a_line_a_barcode_and_metadata_are_collected_by_keyboard(launch, profile, tmp_path):
    profile.write_settings(metadata_username="'ada'")
    app = launch(args=[str(FIELDWORK)])
    assert app.title() == "Field work"
    site = (Atspi.Role.TEXT, "Site")
    app.wait_focus(site, "focus in the location")

    # Coordinates as a map tool copies them, refused while out of range.
    refused(app, site, "95, 2", "The latitude 95.0 is outside -90 to 90.", "the range message")
    app.type("48.8584 N, 2.2945 E")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: node.get_name() == "48.858400° N, 2.294500° E"),
             "the location read back as degrees")
    app.key("Return")
    app.wait_focus((Atspi.Role.TEXT, "Path walked"), "Enter to move on to the line")
    app.type("0, 0")
    app.key("Return")
    app.type("1, 0")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: node.get_name() == "2 points, 111.32 km long"),
             "the line read back by its length")
    app.key("Tab")
    app.wait_focus((Atspi.Role.TEXT, "Sample barcode"))
    # A scanner types the code and ends with Enter.
    app.type("4006381333931")
    app.key("Return")
    app.key("ctrl+s")
    app.wait_status("Response saved")

    header, rows = profile.exported_form_rows(tmp_path, FIELDWORK)
    assert len(rows) == 1, rows
    row = rows[0]
    assert row["site"] == "48.8584 2.2945 0.0 0.0", "stored as XForms stores a point"
    assert row["path"] == "0.0 0.0 0.0 0.0;1.0 0.0 0.0 0.0"
    assert row["sample"] == "4006381333931"
    assert row["user"] == "ada", "the collector's name from Preferences"
    assert row["device"], "the installation's device id"
    assert row["phone"] == "", "no phone number set: blank, not refused"


SITE_FORM = """\
| survey |
| | type | name | label | required | read_only |
| | text | site | Site code | yes | yes |
| | text | visitor | Visitor | | |

| settings |
| | form_id | form_title |
| | site_visit | Site visit |
"""
REQUIRED = "This question requires an answer."


def test_a_required_read_only_question_left_blank_is_reached_by_the_keyboard(launch, tmp_path):
    # Collect refuses to finalize such a response too; the form's author must
    # fix it, and whoever fills it in must be able to find out why.
    form = tmp_path / "site.md"
    form.write_text(SITE_FORM)
    app = launch(args=[str(form)])
    app.wait_focus((Atspi.Role.TEXT, "Visitor"), "focus in the first question that takes an answer")
    app.type("Ada")
    app.key("ctrl+s")
    app.wait_focus((Atspi.Role.LABEL, REQUIRED), "focus on the read-only question's message")
    assert REQUIRED in app.status()


def test_a_default_read_from_the_last_saved_response_carries_over_to_the_next_and_after_a_restart(launch):
    form = CORPUS / "valid" / "last-saved.md"
    enumerator, village = (Atspi.Role.TEXT, "Enumerator"), (Atspi.Role.TEXT, "Village")
    app = launch(args=[str(form)])
    app.wait_focus(enumerator)
    assert field_text(app.control(*enumerator)) == "", "no response saved yet"
    app.type("Ada")
    app.key("Tab")
    app.wait_focus(village)
    app.type("Kibera")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    # The next response starts with the saved one's answers, and what reads them follows.
    wait_until_equal(lambda: field_text(app.control(*enumerator)), "Ada", "the enumerator carried over")
    assert field_text(app.control(*village)) == "Kibera"
    wait_for(lambda: message_shown(app, "Last saved in after Kibera"), "the note over the calculation reading it")
    app.quit()

    # Read from the stored responses when the form opens again.
    app = launch(args=[str(form)])
    app.wait_focus(enumerator)
    wait_until_equal(lambda: field_text(app.control(*enumerator)), "Ada", "the enumerator read from the store")
    assert field_text(app.control(*village)) == "Kibera"
