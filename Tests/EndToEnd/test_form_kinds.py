"""The kinds of question the other forms leave out, with real keys: Enter
from question to question (past a date's picker and a read-only answer), a
required question as a screen reader meets it, decimals, a multiline text,
a scale's live value, repeats counted by an answer or added and removed,
Ctrl+Z and Ctrl+Shift+Z question by question, the toast's Undo, and the
menu's export."""

import sqlite3

from conftest import Atspi, field_text, has_state, parse_csv_rows, wait_for, wait_until_equal
from test_forms import FORMS

KINDS = FORMS / "kinds.md"
VISITOR = (Atspi.Role.TEXT, "Visitor")
SEEN = (Atspi.Role.TEXT, "Date seen")
WEIGHT = (Atspi.Role.TEXT, "Weight in kg")
HEIGHT = (Atspi.Role.SPIN_BUTTON, "Height in m")
CLINIC = (Atspi.Role.TEXT, "Clinic")
NOTES = (Atspi.Role.TEXT, "Notes")
MOOD = (Atspi.Role.SLIDER, "Mood")
CHILDREN = (Atspi.Role.TEXT, "Children")
CHILD = (Atspi.Role.TEXT, "Child's name")
PHONE = (Atspi.Role.TEXT, "Phone number")


def stored_count(profile):
    with sqlite3.connect(f"file:{profile.database}?mode=ro", uri=True, timeout=5) as db:
        return db.execute("SELECT count(*) FROM form_response").fetchone()[0]


def test_ctrl_z_undoes_the_answers_question_by_question(launch):
    app = launch(args=[str(KINDS)])
    app.wait_focus(VISITOR)
    app.type("Ada Lovelace")
    app.key("Return")
    app.wait_focus(SEEN)
    app.type("2026-11-24")
    app.key("Return")
    app.wait_focus(WEIGHT)
    app.type("61.5")
    wait_until_equal(lambda: field_text(app.control(*WEIGHT)), "61.5", "the weight typed")

    # The weight's typing is one step, the date's another; the name stays.
    app.key("ctrl+z")
    wait_until_equal(lambda: field_text(app.control(*WEIGHT)), "", "Ctrl+Z to undo the weight")
    assert field_text(app.control(*SEEN)) == "2026-11-24"
    app.key("ctrl+z")
    wait_until_equal(lambda: field_text(app.control(*SEEN)), "", "Ctrl+Z again to undo the date")
    assert field_text(app.control(*VISITOR)) == "Ada Lovelace"
    app.key("ctrl+shift+z")
    wait_until_equal(lambda: field_text(app.control(*SEEN)), "2026-11-24", "Ctrl+Shift+Z to redo the date")
    app.key("ctrl+y")
    wait_until_equal(lambda: field_text(app.control(*WEIGHT)), "61.5", "Ctrl+Y to redo the weight")


def summary_lines(app):
    return [node.get_name() for node in app.find_all(Atspi.Role.LABEL, where=lambda n: "Visitor:" in (n.get_name() or ""))]


def test_the_summary_is_open_follows_the_answers_and_closes_with_alt_u(launch):
    app = launch(args=[str(KINDS)])
    app.wait_focus(VISITOR)
    app.type("Ada")
    wait_for(lambda: any("Visitor: Ada" in line for line in summary_lines(app)), "the summary with the visitor")
    summary = summary_lines(app)[0]
    assert "Weight in kg: --" in summary, summary
    app.key("ctrl+z")
    wait_for(lambda: any("Visitor: --" in line for line in summary_lines(app)), "the summary to follow the undo")
    app.key("alt+u")
    wait_for(lambda: not summary_lines(app), "the summary closed")
    app.key("alt+u")
    wait_for(lambda: any("Visitor: --" in line for line in summary_lines(app)), "the summary open again")


def test_every_kind_of_question_is_answered_with_the_keyboard(launch, profile, tmp_path):
    app = launch(args=[str(KINDS)])
    app.wait_focus(VISITOR)
    visitor = app.control(*VISITOR)
    # GTK 4.8 puts no required state on the bus: the description says it.
    assert visitor.get_description() == "Required\nFull name, as written", "a screen reader hears it is required"
    assert app.control(*SEEN).get_description() is None or app.control(*SEEN).get_description() == ""

    # A refused submit: the message is heard first, and the hint after it.
    app.key("ctrl+s")
    app.wait_focus(VISITOR)
    wait_for(lambda: has_state(app.control(*VISITOR), Atspi.StateType.INVALID), "the question marked invalid")
    description = app.control(*VISITOR).get_description()
    assert description == "This question requires an answer.\nRequired\nFull name, as written", description

    # Enter goes from question to question: past the date's picker button
    # and past the read-only clinic, which takes no input.
    app.type("Ada Lovelace")
    app.key("Return")
    app.wait_focus(SEEN)
    app.type("2026-11-24")
    app.key("Return")
    app.wait_focus(WEIGHT, "Enter to pass over the date's picker")
    app.type("61.5")
    app.key("Return")
    app.wait_focus(HEIGHT)
    app.type("1.72")
    clinic = app.control(*CLINIC)
    assert not has_state(clinic, Atspi.StateType.SENSITIVE), "a read-only question takes no input"
    assert field_text(clinic) == "North"
    app.key("Return")
    app.wait_focus(NOTES, "Enter to pass over the read-only question")

    # In a multiline text, Enter is a new line; Tab leaves.
    app.type("Came by bus.")
    app.key("Return")
    app.type("Asked for a leaflet.")
    app.key("Tab")
    app.wait_focus(MOOD)
    assert app.find_all(Atspi.Role.LABEL, "--"), "an unanswered range shows no value"
    app.key("Right", "Right")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "3"), "the scale's value shown beside it")

    # The number of children fixes the number of their sections.
    app.key("Tab")
    app.wait_focus(CHILDREN)
    assert not app.find_all(*CHILD)
    app.type("2")
    wait_for(lambda: len(app.find_all(*CHILD)) == 2, "a section per child")
    assert not app.find_all(Atspi.Role.PUSH_BUTTON, "Add Child"), "the form counts the children, not the user"
    app.key("BackSpace")
    app.type("1")
    wait_for(lambda: len(app.find_all(*CHILD)) == 1, "one section left")
    app.key("Tab")
    app.wait_focus(CHILD)
    app.type("Byron")

    # A repeat the user counts: added to and removed from with the keyboard.
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Remove Phone 1"))
    app.key("Tab")
    app.wait_focus(PHONE)
    app.type("555 0100")
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Add Phone"))
    app.key("space")
    wait_for(lambda: len(app.find_all(*PHONE)) == 2, "a second phone")
    app.wait_focus(PHONE)
    app.type("555 0199")
    app.key("shift+Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Remove Phone 2"))
    app.key("space")
    wait_for(lambda: len(app.find_all(*PHONE)) == 1, "the second phone removed")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Add Phone"), "focus stays in the repeat")
    assert field_text(app.control(*PHONE)) == "555 0100"

    # Submitted, taken back with the toast's Undo, submitted again.
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_until_equal(lambda: stored_count(profile), 1, "the response stored")
    app.wait_focus(VISITOR, "a blank form for the next person")
    app.press(Atspi.Role.PUSH_BUTTON, "Undo")
    wait_until_equal(lambda: stored_count(profile), 0, "Undo to take the response back")
    wait_until_equal(lambda: field_text(app.control(*VISITOR)), "Ada Lovelace", "the answers back in the form")
    assert field_text(app.control(*PHONE)) == "555 0100"
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_until_equal(lambda: stored_count(profile), 1, "the response stored again")

    # The menu's export, through GTK's save dialog, typed with the keyboard.
    destination = tmp_path / "intake.csv"
    app.key("ctrl+e")
    window = app.window_id
    # Keys go to the dialog's own X window while it is open.
    app.window_id = wait_for(lambda: app.dialog("Export"), "Ctrl+E to open the export dialog")
    app.wait_focus((Atspi.Role.TEXT, "Name:"))
    app.key("ctrl+a")
    app.type(str(destination))
    app.key("Return")
    wait_for(lambda: destination.exists() and destination.stat().st_size > 0, "the export written")
    app.window_id = window
    app.wait_status("Exported 1 response to")

    header, rows = profile.exported_form_rows(tmp_path, KINDS)
    menu_header, menu_rows = parse_csv_rows(destination.read_bytes())
    assert (menu_header, menu_rows) == (header, rows), "the menu's export is the command line's"
    assert header == [
        "submitted_at", "visitor", "seen", "weight", "height", "clinic", "source", "notes", "mood", "children",
        "child[1]-child_name", "phone[1]-number", "instance_id", "form_version", "started_at",
    ]
    (row,) = rows
    assert (row["visitor"], row["seen"], row["weight"], row["height"]) == ("Ada Lovelace", "2026-11-24", "61.5", "1.72")
    assert (row["clinic"], row["source"]) == ("North", "walk-in"), "read-only and hidden values are kept"
    assert row["notes"] == "Came by bus.\nAsked for a leaflet."
    assert (row["mood"], row["children"], row["child[1]-child_name"]) == ("3", "1", "Byron")
    assert row["phone[1]-number"] == "555 0100"


