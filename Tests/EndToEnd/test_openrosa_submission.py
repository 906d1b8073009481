"""Responses to a form from an OpenRosa server go back to that server
(`--sync-now`), against the project's Central-like test server on loopback:
the instance XML Collect would submit with every file its answers name, sent
after a HEAD, split across requests under the server's limit, and stored on
the server exactly once whatever the server or the link does meanwhile."""

import json
import os
import re
from pathlib import Path

from central_like import CentralLike
from conftest import ANY_FOCUS, Atspi, field_text, wait_for
from form_filler import FormFiller
from test_form_drafts import dialog_buttons
from test_form_edits import edit_the_stored_response
from test_openrosa_forms import run, versions
from test_sync import keyring, send_now, sync_line  # noqa: F401 - keyring is a fixture

XFORMS = Path(os.environ.get("SURVEY_FORM_XFORMS", ""))


def status(profile):
    result = run(profile, "--sync-status")
    assert result.returncode == 0, result
    return result.stdout


def get_and_fill(profile, launch, server, form_id, files):
    """Gets the server's forms, fills the form `form_id` in the window from
    its own rules (`files` for what it attaches) and closes it; returns the
    form's file."""
    assert run(profile, "--get-forms", server.base).returncode == 0
    [form] = versions(profile, form_id)
    description = json.loads(run(profile, "--describe-form", str(form)).stdout)
    app = launch(args=[str(form)], focus_role=ANY_FOCUS)
    FormFiller(app, description, files).fill()
    app.quit()
    return form


def test_a_response_reaches_the_server_its_form_came_from_exactly_once(profile, keyring, launch, tmp_path):
    server = CentralLike()
    try:
        server.add_form(XFORMS / "all-types.xml", XFORMS / "all-types-media")
        # The login that brings the form is kept in the keyring, and sends its responses.
        server.login = ("collector", "s3cret")
        got = run(profile, "--get-forms", server.base, "--user", "collector", "--ask-password", stdin="s3cret\n")
        assert got.returncode == 0, got
        [form] = versions(profile, "all-types")

        description = json.loads(run(profile, "--describe-form", str(form)).stdout)
        # The window sends each submit by itself; this server fails the first
        # time, then says it holds another response by that id. Set now, not
        # after the failure: the window tries again after its back-off, however
        # long the test takes, and that try must meet the conflict too.
        server.fail_posts = 1
        server.conflict_posts = 2
        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        FormFiller(app, description, tmp_path / "files").fill()
        wait_for(lambda: "1 response waiting to be sent." in sync_line(app) and "(HTTP 500)" in sync_line(app) or None,
                 f"the window to say why the response waits (it says {sync_line(app)!r})")
        assert server.submissions == {} and len(server.posts) == 1

        files = sorted(path for path in (profile.data_dir / "attachments").rglob("*") if path.is_file())
        assert len(files) >= 2, f"the form's attachment questions were answered: {files}"
        # From now on the server takes the XML with its largest file, and no
        # more, in one request: the files must be spread over several.
        xml_size = len(server.posts[0]["xml_submission_file"])
        server.accept_length = xml_size + max(path.stat().st_size for path in files) + 3072

        # Send Now; the server says it holds another response by that id:
        # the response stays queued, with the server's reason.
        send_now(app)
        wait_for(lambda: "already holds a different response" in sync_line(app) or None,
                 f"the window to show the conflict (it says {sync_line(app)!r})")
        app.quit()
        server.conflict_posts = 0
        assert "Failed, to be tried again: 1" in status(profile)
        assert server.submissions == {}

        # Stored, and the answer lost on the way back: sent again, stored once.
        server.drop_answers = 1
        assert run(profile, "--sync-now").returncode == 1
        assert len(server.submissions) == 1
        sent = run(profile, "--sync-now")
        assert sent.returncode == 0, sent
        assert "Sent 1 response to" in sent.stdout and "/key/…/" in sent.stdout, sent.stdout
        assert "Sent: 1" in status(profile)
        assert "Server: http://127.0.0.1:" in status(profile) and "(OpenRosa" in status(profile)
        assert "none set" not in status(profile)

        [(instance_id, stored)] = server.submissions.items()
        assert instance_id.startswith("uuid:")
        xml = stored["xml"].decode()
        # The root as the form's primary instance names it, with its id and version.
        root = re.search(r"<instance>\s*<([\w.-]+) [^>]*id=\"all_types\"[^>]*>", (XFORMS / "all-types.xml").read_text())
        assert root, "the form's primary instance"
        assert xml.startswith(f'<?xml version="1.0" encoding="UTF-8"?>\n<{root.group(1)} id="all_types" version="3">'), xml[:120]
        assert f"<instanceID>{instance_id}</instanceID>" in xml
        # Every file arrived whole, named as the XML names it.
        assert sorted(stored["files"]) == sorted(path.name for path in files)
        for path in files:
            assert stored["files"][path.name] == path.read_bytes(), path.name
            assert f">{path.name}<" in xml, path.name
        posts = [post for post in server.posts if post.get("xml_submission_file", b"").find(instance_id.encode()) >= 0]
        assert any(post.get("*isIncomplete*") == b"yes" for post in posts), "split across requests"
        assert all(post["xml_submission_file"] == stored["xml"] for post in posts), "the same XML every time"

        # Every request said it speaks OpenRosa and logged in; the HEAD came first.
        submission = [r for r in server.requests if r.path.endswith("/submission")]
        assert submission[0].method == "HEAD"
        assert all(r.headers.get("x-openrosa-version") == "1.0" and r.headers.get("date") for r in submission)
        assert all(r.headers.get("authorization", "").startswith("Basic ") for r in submission)
        # The password is in the keyring only, in no file of the app's.
        for path in profile.home.rglob("*"):
            if path.is_file() and "keyrings" not in path.parts:
                assert b"s3cret" not in path.read_bytes(), path

        # Nothing is sent twice, and nothing was deleted because it was sent.
        before = len(server.posts)
        again = run(profile, "--sync-now")
        assert again.returncode == 0 and "Sent 0 responses" in again.stdout, again
        assert len(server.posts) == before
        assert all(path.exists() for path in files)
    finally:
        server.stop()


def test_an_edit_of_a_response_edited_on_the_server_meanwhile_is_a_conflict_and_is_kept(profile, launch, tmp_path):
    server = CentralLike()
    try:
        server.add_form(XFORMS / "translations.xml")
        form = get_and_fill(profile, launch, server, "translations", tmp_path / "files")
        # Sent by the window or by this, whichever comes first.
        assert run(profile, "--sync-now").returncode == 0
        assert "Sent: 1" in status(profile)
        [(instance_id, stored)] = server.submissions.items()
        # Someone else's edit of it reached the server first.
        stored["replaced_by"] = "uuid:someone-elses-edit"

        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        edit_the_stored_response(app, (Atspi.Role.TEXT, "Your name"), "Edited Here")
        app.quit()

        refused = run(profile, "--sync-now")
        assert refused.returncode == 1, refused
        said = refused.stdout + refused.stderr
        assert "refused the edit" in said and f"the response it replaces, {instance_id}, was changed on the server" in said, said
        assert "Failed, to be tried again: 1" in status(profile)
        # Kept here, and the server holds what it held; sent again (Send
        # Now), it meets the same refusal, and nothing is lost.
        assert list(server.submissions) == [instance_id]
        again = run(profile, "--sync-now")
        assert again.returncode == 1 and "refused the edit" in again.stdout + again.stderr, again
        assert list(server.submissions) == [instance_id]
        assert "Failed, to be tried again: 1" in status(profile)
    finally:
        server.stop()


def test_an_entity_form_creates_its_entity_on_the_server_once_and_an_edit_submits_the_same_entity(profile, launch, tmp_path):
    server = CentralLike()
    try:
        server.add_form(XFORMS / "entities.xml", form_id="tree_register")
        form = get_and_fill(profile, launch, server, "tree_register", tmp_path / "files")
        assert run(profile, "--sync-now").returncode == 0
        [(instance_id, stored)] = server.submissions.items()
        xml = stored["xml"].decode()
        species, height, alive = (re.search(f"<{name}>([^<]*)</{name}>", xml).group(1) for name in ("species", "height", "alive"))
        # The entity as the form's entities sheet declares it, from the answers given.
        entity = re.search(r'<meta><entity dataset="trees" create="(\w+)" id="([0-9a-f-]{36})"><label>([^<]*)</label></entity>'
                           r"<instanceID>", xml)
        assert entity, xml
        assert alive == "yes", "the filler picks a select's first choice"
        assert entity.group(1) == "true", entity.group(0)
        assert entity.group(3) == f"{species} ({height} m)"
        entity_id = entity.group(2)
        assert server.entities == {"trees": {entity_id: {
            "label": f"{species} ({height} m)", "properties": {"species": species, "height": height},
            "version": 1, "conflict": False, "submissions": [instance_id]}}}

        # An edit is the same response: it names the same entity, so the
        # server never holds two entities for one tree.
        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        edit_the_stored_response(app, (Atspi.Role.TEXT, "Species"), "Birch")
        app.quit()
        assert run(profile, "--sync-now").returncode == 0
        [edited] = [stored for key, stored in server.submissions.items() if key != instance_id]
        edited_xml = edited["xml"].decode()
        assert f"<deprecatedID>{instance_id}</deprecatedID>" in edited_xml
        assert f' id="{entity_id}"><label>Birch ({height} m)</label>' in edited_xml, edited_xml
        [(edit_id, _)] = [(key, stored) for key, stored in server.submissions.items() if key != instance_id]
        assert server.entities["trees"][entity_id]["submissions"] == [instance_id, edit_id], "one entity for one tree"
        assert list(server.entities["trees"]) == [entity_id] and server.entity_errors == []
    finally:
        server.stop()


def test_an_entity_per_repeat_instance_reaches_the_server_as_one_entity_per_instance(profile, launch):
    server = CentralLike()
    try:
        server.add_form(XFORMS / "entities-in-a-repeat.xml", form_id="plot_trees")
        assert run(profile, "--get-forms", server.base).returncode == 0
        [form] = versions(profile, "plot_trees")
        app = launch(args=[str(form)])
        app.wait_focus((Atspi.Role.TEXT, "Plot"))
        app.type("North")
        # The first tree is there already; its Remove button comes first.
        app.key("Tab")
        app.wait_focus((Atspi.Role.PUSH_BUTTON, "Remove Tree 1"))
        app.key("Tab")
        app.wait_focus((Atspi.Role.TEXT, "Species"))
        app.type("Oak")
        app.key("Tab", "Tab")
        app.wait_focus((Atspi.Role.PUSH_BUTTON, "Add Tree"))
        app.key("space")
        wait_for(lambda: len(app.find_all(Atspi.Role.TEXT, "Species")) == 2, "a second tree")
        app.wait_focus((Atspi.Role.TEXT, "Species"))
        app.type("Birch")
        app.key("ctrl+s")
        app.wait_status("Response saved")
        app.quit()
        assert run(profile, "--sync-now").returncode == 0
        [(instance_id, stored)] = server.submissions.items()
        xml = stored["xml"].decode()
        # Each tree carries its own entity, at the end of its instance.
        ids = re.findall(r'<species>(\w+)</species><girth/><meta><entity dataset="trees" create="1" id="([0-9a-f-]{36})">'
                         r"<label>North: \1</label></entity></meta></tree>", xml)
        assert [species for species, _ in ids] == ["Oak", "Birch"], xml
        assert len({entity_id for _, entity_id in ids}) == 2, "one entity per tree"
        assert server.entities == {"trees": {entity_id: {
            "label": f"North: {species}", "properties": {"species": species, "girth": ""},
            "version": 1, "conflict": False, "submissions": [instance_id]} for species, entity_id in ids}}
        assert server.entity_errors == []
    finally:
        server.stop()


def test_a_form_that_encrypts_its_responses_sends_them_sealed_and_the_server_opens_them_whole(profile, launch, tmp_path):
    server = CentralLike()
    try:
        server.add_form(XFORMS / "all-types.xml", XFORMS / "all-types-media")
        server.encrypt("all-types")
        form = get_and_fill(profile, launch, server, "all-types", tmp_path / "files")
        # Stored, and the answer lost on the way back: the retry sends the
        # same envelope, which the server takes as the one it holds.
        server.drop_answers = 1
        assert run(profile, "--sync-now").returncode == 1
        sent = run(profile, "--sync-now")
        assert sent.returncode == 0, sent
        [(instance_id, stored)] = server.submissions.items()
        assert len(server.posts) == 2 and server.posts[0] == server.posts[1], "the same bytes each try"
        manifest = stored["xml"].decode()
        assert 'encrypted="yes"' in manifest and "<base64EncryptedKey>" in manifest, manifest
        # Nothing answered travels in the clear.
        for part in server.posts[0].values():
            assert b"Sample answer" not in part and b"<instanceID>" not in part
        xml, files = server.decrypted(instance_id)
        assert f"<instanceID>{instance_id}</instanceID>".encode() in xml and b"Sample answer" in xml, xml
        kept = {path.name: path.read_bytes() for path in (profile.data_dir / "attachments").rglob("*") if path.is_file()}
        assert files and files == kept, (sorted(files), sorted(kept))
        for name in files:
            assert f">{name}<".encode() in xml, name

        # As in Collect, a sent encrypted response is not edited: the server
        # could not read an edit as one.
        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        opener = wait_for(lambda: app.find_all(Atspi.Role.PUSH_BUTTON, where=lambda node: (
            node.get_name() or "").startswith("Open the response of")), "the stored response in the list")
        Atspi.Action.do_action(opener[0], 0)
        wait_for(lambda: dialog_buttons(app, "Close"), "the response's Close button")
        wait_for(lambda: app.find_all(where=lambda node: "takes no edit of one" in (node.get_name() or "")),
                 "the dialog to say why")
        assert not dialog_buttons(app, "Edit")
    finally:
        server.stop()


def form_server_row_in_preferences(app, button, row):
    """Presses `button` beside the delivery line; the form server's `row` in
    the Preferences window it opens (the shared server's rows come first in
    its Tab order, the form server's last), and the main window's id."""
    main_window = app.window_id
    app.press(Atspi.Role.PUSH_BUTTON, button)
    app.window_id = wait_for(lambda: (lambda found: found if found != main_window else None)(app._find_window()),
                             "the Preferences window on the X display")
    found = wait_for(lambda: app.find_all(Atspi.Role.TEXT, row)[1:] or None, f"the form server's {row!r} row")[-1]
    return found, main_window


def type_and_close_preferences(app, main_window, text, typed, what):
    """Types `text` over what the focused row holds until `typed`, then
    closes Preferences, which saves it."""
    # Keys typed while the new window is still taking focus can be lost
    # (Xvfb, no window manager): typed again over what arrived.
    for _ in range(3):
        app.key("ctrl+a", "BackSpace")
        app.type(text)
        try:
            wait_for(typed, what, timeout=5)
            break
        except AssertionError:
            pass
    wait_for(typed, what)
    app.key("Escape")
    app.window_id = main_window


def wait_until_sent(app, server, button, what):
    """The one response reaches `server`, the window says so, and `button` goes."""
    wait_for(lambda: len(server.submissions) == 1 or None, what)
    wait_for(lambda: "1 response sent to the server." in sync_line(app) or None,
             f"the window to say it was sent (it says {sync_line(app)!r})")
    wait_for(lambda: not app.find_all(Atspi.Role.PUSH_BUTTON, where=lambda node: (node.get_name() or "").endswith(button))
             or None, f"{button} to go once the server takes the response")


def test_a_login_the_server_refuses_is_typed_again_from_the_window_and_the_response_then_goes(profile, keyring, launch,
                                                                                                tmp_path):
    server = CentralLike()
    try:
        server.add_form(XFORMS / "translations.xml")
        server.login = ("collector", "s3cret")
        got = run(profile, "--get-forms", server.base, "--user", "collector", "--ask-password", stdin="s3cret\n")
        assert got.returncode == 0, got
        [form] = versions(profile, "translations")
        description = json.loads(run(profile, "--describe-form", str(form)).stdout)
        # The password was changed on the server since.
        server.login = ("collector", "n3w-s3cret")

        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        # The server its forms came from is named before anything is sent.
        wait_for(lambda: sync_line(app) == "Responses are sent to the server once submitted." or None,
                 f"the window to say where responses go (it says {sync_line(app)!r})")
        FormFiller(app, description, tmp_path / "files").fill()
        wait_for(lambda: "refused the login of collector" in sync_line(app) or None,
                 f"the window to say the login was refused (it says {sync_line(app)!r})")
        assert server.submissions == {}

        # Log In opens Preferences at that server's password.
        password, main_window = form_server_row_in_preferences(app, "Log In…", "Password (kept in the keyring)")
        type_and_close_preferences(app, main_window, "n3w-s3cret",
                                   lambda: Atspi.Text.get_character_count(password) == len("n3w-s3cret") or None,
                                   "the password typed into the form server's row")
        wait_until_sent(app, server, "Log In…", "the response on the server, sent with the new password")
        # The new password is the one kept, for the next response.
        status_now = status(profile)
        assert "Sent: 1" in status_now, status_now
    finally:
        server.stop()


def test_an_authority_file_that_moved_is_said_and_typed_again_in_preferences_and_the_response_then_goes(profile, launch,
                                                                                                         tmp_path):
    tls = tmp_path / "tls"
    tls.mkdir()
    server = CentralLike(tls_folder=tls)
    try:
        server.add_form(XFORMS / "translations.xml")
        got = run(profile, "--get-forms", server.base, "--ca-file", str(server.ca_file))
        assert got.returncode == 0, got
        [form] = versions(profile, "translations")
        description = json.loads(run(profile, "--describe-form", str(form)).stdout)
        # The team's authority file was moved since the form came.
        moved = tmp_path / "team-authority.pem"
        server.ca_file.rename(moved)
        requests_before = len(server.requests)

        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        wait_for(lambda: sync_line(app) == "Responses are sent to the server once submitted." or None,
                 f"the window to say where responses go (it says {sync_line(app)!r})")
        FormFiller(app, description, tmp_path / "files").fill()
        wait_for(lambda: f"The certificate authority file {server.ca_file} cannot be read." in sync_line(app) or None,
                 f"the window to say the authority's file is gone (it says {sync_line(app)!r})")
        assert server.submissions == {}
        assert len(server.requests) == requests_before, "nothing is sent without the authority"
        assert "Waiting: 1" in status(profile), "still queued"

        # Server Settings opens Preferences at that server's authority.
        authority, main_window = form_server_row_in_preferences(app, "Server Settings…",
                                                                "Certificate Authority File (PEM, optional)")
        assert field_text(authority) == str(server.ca_file), "the row holds the file recorded with the server"
        type_and_close_preferences(app, main_window, str(moved), lambda: field_text(authority) == str(moved) or None,
                                   "the moved file's path typed into the server's authority row")
        wait_until_sent(app, server, "Server Settings…", "the response on the server, trusted through the moved file")
        [record] = (profile.data_dir / "forms").glob("*/server.json")
        assert json.loads(record.read_text())["ca"] == str(moved), "kept with the server, for the next response"
    finally:
        server.stop()
