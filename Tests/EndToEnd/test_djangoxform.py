"""A real OpenRosa server of KoboToolbox's lineage: djangoxform (see
djangoxform.py) on loopback, behind its login. A form it serves with a
media file is listed once the login is given, downloaded with the file,
filled in the window with a photo, and its response reaches it once with
the photo, through a link that loses the server's first answer; edited in
the window, it reaches the server as an edit."""

import json
import re
import socket
import threading
from pathlib import Path

import pytest

from conftest import ANY_FOCUS, Atspi, wait_for
from djangoxform import DjangoXForm
from form_filler import FormFiller
from test_form_edits import edit_the_stored_response
from test_openrosa_forms import run, versions
from test_sync import keyring, sync_line  # noqa: F401 - keyring is a fixture

# A CSV XLSForm, as djangoxform's pinned pyxform 0.13 reads it: a photo, a
# choice, and a value looked up in the form's media file.
FORM = """survey,,,,,
,type,name,label,parameters,calculation
,today,today,,,
,deviceid,deviceid,,,
,text,respondent,Respondent name,,
,integer,age,Age,,
,select_one yn,consent,Consent?,,
,image,photo,Photo,max-pixels=1024,
,calculate,fruit,,,"pulldata('fruits', 'label', 'name', 'b')"
,note,fruit_note,Fruit: ${fruit},,
choices,,,,,
,list_name,name,label,,
,yn,yes,Yes,,
,yn,no,No,,
settings,,,,,
,form_title,form_id,version,,
,Field visit,field_visit,2026120201,,
"""
FRUITS = "name,label\na,Apple\nb,Banana\n"


class AnswerLosingRelay:
    """Passes each connection on to `port`, except that on the first one
    that carries a submission POST it closes both ends as the server's
    answer begins: the server has stored the response, and the sender
    never hears so."""

    def __init__(self, port):
        self.target = port
        self.cuts = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            state = {"posted": False}
            threading.Thread(target=self._pump, args=(client, server, state, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, state, False), daemon=True).start()

    def _pump(self, source, sink, state, from_client):
        try:
            while data := source.recv(65536):
                if from_client and b"POST /submission" in data:
                    state["posted"] = True
                if not from_client and state["posted"] and self.cuts == 0:
                    self.cuts += 1
                    break
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def stop(self):
        self.listener.close()


@pytest.fixture
def server(tmp_path):
    (tmp_path / "field_visit.csv").write_text(FORM)
    (tmp_path / "fruits.csv").write_text(FRUITS)
    xform = DjangoXForm(tmp_path / "djangoxform", [(tmp_path / "field_visit.csv", [tmp_path / "fruits.csv"])],
                        "collector", "s3cret")
    yield xform
    xform.stop()


def test_a_form_from_djangoxform_behind_its_login_is_filled_and_its_response_and_photo_reach_it_once(
        profile, keyring, server, launch, tmp_path):
    relay = AnswerLosingRelay(server.port)
    base = f"http://127.0.0.1:{relay.port}"
    try:
        # Without a login the server challenges, and the command says what is missing.
        refused = run(profile, "--list-forms", base)
        assert refused.returncode == 1, refused
        assert "password" in refused.stderr or "login" in refused.stderr, refused.stderr
        assert run(profile, "--list-forms", base, "--user", "collector", "--ask-password",
                   stdin="wrong\n").returncode == 1

        listed = run(profile, "--list-forms", base, "--user", "collector", "--ask-password", stdin="s3cret\n")
        assert listed.returncode == 0, listed
        assert listed.stdout.splitlines() == ["field_visit: Field visit, version 2026120201 (not downloaded)"]

        # The login given is kept, and brings the form with its media file.
        got = run(profile, "--get-forms", base, "--user", "collector")
        assert got.returncode == 0, got
        assert "(1 media files fetched)" in got.stdout, got.stdout
        [form] = versions(profile, "field_visit")
        assert (form.parent / "field_visit-media" / "fruits.csv").read_text() == FRUITS
        # The server lists a new random hash at each request; the form is the
        # same, so it stays one version.
        again = run(profile, "--get-forms", base, "--user", "collector")
        assert again.returncode == 0 and "up to date" in again.stdout, again
        assert versions(profile, "field_visit") == [form]

        description = json.loads(run(profile, "--describe-form", str(form)).stdout)
        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        FormFiller(app, description, tmp_path / "files").fill()
        # The server stored it, and its answer was lost on the way: the
        # window keeps it queued and says so.
        wait_for(lambda: "1 response waiting to be sent." in sync_line(app) or None,
                 f"the window to say the response waits (it says {sync_line(app)!r})")
        app.quit()
        assert relay.cuts == 1
        [(instance, xml, files)] = server.submissions()

        # Sent again: the server answers that it holds it (202), and it is
        # delivered, stored there once.
        sent = run(profile, "--sync-now")
        assert sent.returncode == 0 and "Sent 1 response to" in sent.stdout, sent
        assert "Sent: 1" in run(profile, "--sync-status").stdout
        assert [uuid for uuid, _, _ in server.submissions()] == [instance]
        assert run(profile, "--sync-now").returncode == 0
        assert len(server.submissions()) == 1

        # The instance Collect would send: its id, the value looked up in the
        # media file, and the photo named in the XML and stored beside it.
        assert f"<instanceID>uuid:{instance}</instanceID>" in xml, xml
        assert "<fruit>Banana</fruit>" in xml, xml
        photo = re.search(r"<photo>([^<]+)</photo>", xml).group(1)
        [stored] = [path for path in (profile.data_dir / "attachments").rglob(photo)]
        assert files == {photo: stored.read_bytes()}

        # Edited in the window, the response goes as an edit naming the
        # revision it replaces, which this server applies in place.
        app = launch(args=[str(form)], focus_role=ANY_FOCUS)
        edit_the_stored_response(app, (Atspi.Role.TEXT, "Respondent name"), "Edited Name")
        app.quit()
        # Sent by the window or by this, whichever comes first.
        assert run(profile, "--sync-now").returncode == 0
        assert "Sent: 2" in run(profile, "--sync-status").stdout
        [(edited, xml, _)] = server.submissions()
        assert edited != instance
        assert f"<instanceID>uuid:{edited}</instanceID>" in xml and f"<deprecatedID>uuid:{instance}</deprecatedID>" in xml, xml
        assert "<respondent>Edited Name</respondent>" in xml and f"<photo>{photo}</photo>" in xml, xml
    finally:
        relay.stop()
