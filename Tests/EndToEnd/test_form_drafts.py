"""Drafts of forms opened from files: one per form id and version, back
after a crash with their repeats, and carried over to a new version only when
the person asks."""

import json
import signal
import stat
from pathlib import Path

from conftest import Atspi, TIMEOUT, field_text, wait_for

FORMS = Path(__file__).parent / "forms"
VISIT = FORMS / "visit.md"
HOUSEHOLD = FORMS / "household.md"

PATIENT = (Atspi.Role.TEXT, "Patient name")
AGE = (Atspi.Role.SPIN_BUTTON, "Age")


def draft_file(profile, form_id, version):
    return profile.data_dir / "form-drafts" / f"{form_id}@{version}.json"


def draft_answers(path):
    """The draft's answers as {path: value}, or None while there is none."""
    try:
        return {a["path"]: a["value"] for a in json.loads(path.read_text())["draft"]["answers"]}
    except (FileNotFoundError, ValueError, KeyError):
        return None


def text_in(app, control):
    return field_text(app.control(*control))


def dialog_buttons(app, label):
    # libadwaita 1.2 names a dialog's button by its mnemonic and its label:
    # "_Carry Over Carry Over".
    return app.find_all(Atspi.Role.PUSH_BUTTON, where=lambda node: (node.get_name() or "").endswith(label))


def test_a_form_draft_with_repeats_comes_back_after_sigkill(launch, profile):
    app = launch(args=[str(HOUSEHOLD)])
    app.wait_focus((Atspi.Role.TEXT, "Head of household"))
    app.type("Ada")
    # Each member's Remove button comes before its questions.
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Remove Member 1"))
    app.key("Tab")
    app.wait_focus((Atspi.Role.TEXT, "Name"))
    app.type("Byron")
    # A second member, through the Add button, with the keyboard.
    app.key("Tab")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Add Member"))
    app.key("space")
    wait_for(lambda: len(app.find_all(Atspi.Role.TEXT, "Name")) == 2, "a second member")
    app.wait_focus((Atspi.Role.TEXT, "Name"))
    app.type("Lovelace")
    draft = draft_file(profile, "household", "1")
    wait_for(
        lambda: (draft_answers(draft) or {}).get("member[2]/name") == "Lovelace",
        "the draft to hold the second member", timeout=5,
    )
    assert stat.S_IMODE(draft.stat().st_mode) == 0o600, "a draft is private"
    app.kill(signal.SIGKILL)

    app = launch(args=[str(HOUSEHOLD)])
    app.wait_status("Your unsent answers from last time were restored.")
    names = wait_for(lambda: (lambda found: found if len(found) == 2 else None)(app.find_all(Atspi.Role.TEXT, "Name")),
                     "both members back")
    assert [field_text(name) for name in names] == ["Byron", "Lovelace"]
    assert text_in(app, (Atspi.Role.TEXT, "Head of household")) == "Ada"

    # Submitting ends the draft.
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: not draft.exists(), "the draft to go once the response is stored")


def test_termination_saves_a_form_draft(launch, profile):
    app = launch(args=[str(VISIT)])
    app.wait_focus(PATIENT)
    app.type("Signal Safe")

    # Well inside the autosave's second: only the signal's own save can keep it.
    app.process.send_signal(signal.SIGTERM)
    assert app.process.wait(timeout=TIMEOUT) == 0, app.output()
    assert (draft_answers(draft_file(profile, "visit", "2")) or {}).get("patient") == "Signal Safe"


def newer_visit(tmp_path):
    """The visit form at version 3, without the question about smoking."""
    text = VISIT.read_text()
    text = text.replace("| visit   | Clinic visit | 2       |", "| visit   | Clinic visit | 3       |")
    text = "\n".join(line for line in text.splitlines() if "| per_day " not in line)
    path = tmp_path / "visit-3.md"
    path.write_text(text)
    return path


def leave_a_draft_at_version_2(launch, profile):
    app = launch(args=[str(VISIT)])
    app.wait_focus(PATIENT)
    app.type("Grace Hopper")
    app.key("Tab")
    app.wait_focus(AGE)
    # A typed number counts once it is entered, as in any spin button.
    app.type("85")
    app.key("Tab")
    wait_for(lambda: (draft_answers(draft_file(profile, "visit", "2")) or {}).get("age") == "85", "the draft", timeout=5)
    app.quit()


def test_a_new_version_carries_the_draft_over_when_asked(launch, profile, tmp_path):
    leave_a_draft_at_version_2(launch, profile)
    app = launch(args=[str(newer_visit(tmp_path))], focus_role=Atspi.Role.PUSH_BUTTON)
    wait_for(lambda: dialog_buttons(app, "Carry Over"), "the question to carry the draft over")
    assert dialog_buttons(app, "Keep for Version 2")
    # Carrying over is the default: Enter takes it.
    app.key("Return")
    wait_for(lambda: text_in(app, PATIENT) == "Grace Hopper", "the carried-over name")
    assert text_in(app, AGE) == "85"
    app.wait_status("The answers to version 2 were carried over.")
    assert not draft_file(profile, "visit", "2").exists(), "the old version's draft is taken over, not copied"
    assert (draft_answers(draft_file(profile, "visit", "3")) or {}).get("patient") == "Grace Hopper"


def test_a_new_version_keeps_the_draft_for_the_old_one_when_asked(launch, profile, tmp_path):
    leave_a_draft_at_version_2(launch, profile)
    newer = newer_visit(tmp_path)
    app = launch(args=[str(newer)], focus_role=Atspi.Role.PUSH_BUTTON)
    wait_for(lambda: dialog_buttons(app, "Keep for Version 2"), "the question to carry the draft over")
    app.key("Escape")
    wait_for(lambda: not dialog_buttons(app, "Carry Over"), "the question to close")
    assert text_in(app, PATIENT) == ""
    app.quit()

    # The old version still has its draft.
    app = launch(args=[str(VISIT)])
    app.wait_status("Your unsent answers from last time were restored.")
    assert text_in(app, PATIENT) == "Grace Hopper"


def test_a_form_window_over_a_damaged_database_says_where_it_went(launch, profile):
    garbage = bytes(range(256)) * 64
    profile.data_dir.mkdir(parents=True)
    profile.database.write_bytes(garbage)

    app = launch(args=[str(VISIT)])
    message = app.wait_status("damaged")
    set_aside = profile.set_aside_files("responses.sqlite3")
    assert len(set_aside) == 1, f"expected one responses.sqlite3.corrupt-* file, found {set_aside}"
    assert set_aside[0].read_bytes() == garbage, "the damaged file must be kept as it was"
    assert set_aside[0].name in message, f"the message should say where the file went: {message!r}"


def test_a_form_window_over_a_database_that_cannot_be_opened_says_why(launch, profile):
    profile.database.mkdir(parents=True)  # a folder where the database file belongs
    app = launch(args=[str(VISIT)])
    message = app.wait_status("Could not open the response database")
    assert str(profile.database) in message
