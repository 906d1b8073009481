"""A stored response edited from the list: Edit brings its answers into the
form, Submit stores a new revision that replaces it in the list and the
export while the one it replaces stays as history; Cancel Edit leaves it as
it was; an edit survives SIGKILL as an edit."""

import json
import signal
import sqlite3

from conftest import Atspi, wait_for
from test_form_drafts import HOUSEHOLD, dialog_buttons, draft_file, text_in
from test_forms import HEAD, message_shown, tab_to


def revisions(profile):
    """(instance id, the one it replaces, head of household) of every stored row, in order."""
    with sqlite3.connect(profile.database) as db:
        rows = db.execute("SELECT instanceID, deprecatedID, answers FROM form_response ORDER BY id").fetchall()
    return [(instance, replaced, next(a["value"] for a in json.loads(answers) if a["path"] == "head"))
            for instance, replaced, answers in rows]


def open_response(app, name):
    tab_to(app, lambda node: (node.get_name() or "").startswith(f"Open the response of {name}"), f"the response of {name}")
    app.key("Return")
    wait_for(lambda: dialog_buttons(app, "Edit"), "the response's Edit button")


def edit_response(app, name):
    open_response(app, name)
    app.press(Atspi.Role.PUSH_BUTTON, "Edit")
    app.wait_status(f"Editing the response of {name}")
    app.wait_focus(HEAD, "the edit starts in the first question")
    assert text_in(app, HEAD) == name


def edit_the_stored_response(app, question, text):
    """Edits the one stored response: `question` (role, name), where the edit
    starts, becomes `text`, and the edit is saved."""
    open_response(app, "")
    app.press(Atspi.Role.PUSH_BUTTON, "Edit")
    app.wait_status("Editing the response of")
    app.wait_focus(question)
    app.key("ctrl+a")
    app.type(text)
    app.key("ctrl+s")
    app.wait_status("Response saved")


def test_a_stored_response_is_edited_into_a_new_revision_and_the_old_one_kept(launch, profile, tmp_path):
    app = launch(args=[str(HOUSEHOLD)])
    app.wait_focus(HEAD)
    app.type("Ada")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: message_shown(app, "1 stored response"), "the list's heading")

    edit_response(app, "Ada")
    assert "Editing the response of Ada" in app.title() or app.find_all(
        where=lambda n: (n.get_name() or "") == "Editing the response of Ada"), "the header says which response is edited"
    app.key("ctrl+a")
    app.type("Ada Lovelace")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    # One response, as edited; its first revision kept as its history.
    wait_for(lambda: app.find_all(where=lambda n: (n.get_name() or "").startswith("Open the response of Ada Lovelace")),
             "the edit in the list")
    wait_for(lambda: message_shown(app, "1 stored response"), "one response listed")
    [(first, none, head), (second, replaced, edited)] = revisions(profile)
    assert (head, edited) == ("Ada", "Ada Lovelace")
    assert none is None and replaced == first and second != first

    # Opened, it says it was edited.
    open_response(app, "Ada Lovelace")
    assert app.find_all(Atspi.Role.LABEL, where=lambda n: "Edited: 1 earlier revision is kept." in (n.get_name() or ""))
    app.key("Escape")

    # Cancelled, an edit stores nothing and leaves the response as it was.
    edit_response(app, "Ada Lovelace")
    app.key("ctrl+a")
    app.type("Someone else")
    app.key("F10")
    wait_for(lambda: app.find_all(Atspi.Role.MENU_ITEM, "Cancel Edit"), "Cancel Edit in the menu")
    app.down_to("Cancel Edit")
    app.key("Return")
    app.wait_status("The edit was cancelled: the response of Ada Lovelace is as it was.")
    wait_for(lambda: text_in(app, HEAD) == "", "a blank form after the edit is cancelled")
    assert [row[2] for row in revisions(profile)] == ["Ada", "Ada Lovelace"]
    assert not draft_file(profile, "household", "1").exists()
    app.quit()

    # The export holds the current revision only.
    _, rows = profile.exported_form_rows(tmp_path, HOUSEHOLD)
    assert [(row["head"], row["instance_id"]) for row in rows] == [("Ada Lovelace", second)]


def test_an_edit_left_by_a_crash_comes_back_as_that_edit(launch, profile):
    app = launch(args=[str(HOUSEHOLD)])
    app.wait_focus(HEAD)
    app.type("Grace")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    edit_response(app, "Grace")
    app.key("ctrl+a")
    app.type("Grace Hopper")
    draft = draft_file(profile, "household", "1")
    wait_for(lambda: draft.exists() and "Grace Hopper" in draft.read_text(), "the edit's draft")
    app.kill(signal.SIGKILL)

    app = launch(args=[str(HOUSEHOLD)])
    app.wait_status("Your unsent answers from last time were restored.")
    wait_for(lambda: app.find_all(where=lambda n: (n.get_name() or "") == "Editing a stored response"),
             "the header to say a stored response is edited")
    app.wait_focus(HEAD)
    assert text_in(app, HEAD) == "Grace Hopper"
    app.key("ctrl+s")
    app.wait_status("Response saved")
    [(first, _, head), (_, replaced, edited)] = revisions(profile)
    assert (head, edited, replaced) == ("Grace", "Grace Hopper", first)
    wait_for(lambda: message_shown(app, "1 stored response"), "one response, edited")
    app.quit()
