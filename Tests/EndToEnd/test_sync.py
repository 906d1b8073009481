"""Server sync from the command line, against a PostgreSQL server of the
test's own: set-up as the owner, responses submitted in the window queued
and sent once, a server that is down keeping them queued, and the password
in the desktop keyring (a private gnome-keyring in the test's session)."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import Atspi, field_text, private_keyring, wait_for
from private_postgres import PostgresError, PrivatePostgres
from test_export_and_language import submit
from test_forms import HEAD, HOUSEHOLD

ADMIN_PASSWORD = "admin secret"
LAPTOP_PASSWORD = "laptop secret"


@pytest.fixture
def server():
    server = PrivatePostgres(Path(tempfile.mkdtemp(prefix="survey-form-pg-")), ADMIN_PASSWORD, LAPTOP_PASSWORD,
                             settings=["fsync=off"], reader_login="results", tls=True)
    yield server
    try:
        server.stop()
    except PostgresError:
        pass
    shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def keyring(profile):
    """An unlocked login keyring of the test's own, serving the test's session bus."""
    with private_keyring(profile):
        yield


def cli(profile, *arguments, stdin=None):
    return subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], *arguments], input=stdin, capture_output=True, text=True,
        env=profile.environment(), timeout=60,
    )


def server_options(server, user):
    return ["--server", "127.0.0.1", "--port", str(server.port), "--database", "survey_responses",
            "--user", user, "--ca-file", str(server.ca_file)]


def test_responses_submitted_are_sent_once_and_a_server_that_is_down_loses_nothing(server, keyring, profile, launch):
    # The administrator sets the server up as the tables' owner.
    admin = server_options(server, "survey_form_admin")
    stored = cli(profile, "--store-password", *admin, stdin=ADMIN_PASSWORD + "\n")
    assert stored.returncode == 0, stored.stderr
    setup = cli(profile, "--server-setup", *admin)
    assert setup.returncode == 0, setup.stderr
    assert "is set up (schema version 4, was 0)" in setup.stdout

    # No server in the settings: the responses stay here, and status says so.
    status = cli(profile, "--sync-status")
    assert status.returncode == 0, status.stderr
    assert "Server: none set" in status.stdout

    app = launch()
    submit(app, "Ada Lovelace", "Analytical Engines")
    submit(app, "Grace Hopper")
    app.quit()
    status = cli(profile, "--sync-status")
    assert "Waiting: 2" in status.stdout, status.stdout

    # This laptop's settings, as Preferences saves them; the password in the keyring.
    profile.write_settings(server_host="'127.0.0.1'", server_port=str(server.port),
                           server_user="'laptop_1'", server_ca_file=f"'{server.ca_file}'")
    assert cli(profile, "--store-password", stdin=LAPTOP_PASSWORD + "\n").returncode == 0

    server.stop()
    down = cli(profile, "--sync-now")
    assert down.returncode == 1
    assert "cannot be reached" in down.stderr, down.stderr
    status = cli(profile, "--sync-status")
    assert "Failed, to be tried again: 2" in status.stdout, status.stdout
    assert "Last error: The server 127.0.0.1:" in status.stdout

    server.start()
    sent = cli(profile, "--sync-now")
    assert sent.returncode == 0, sent.stderr
    assert "Sent 2 responses to laptop_1@127.0.0.1" in sent.stdout
    assert server.count() == 2
    assert server.psql("-c", "SELECT answers->>'name' FROM survey_form.submissions ORDER BY submitted_at").split() == [
        "Ada", "Lovelace", "Grace", "Hopper"]
    again = cli(profile, "--sync-now")
    assert "Sent 0 responses" in again.stdout
    assert server.count() == 2
    status = cli(profile, "--sync-status")
    assert "Sent: 2" in status.stdout and "Waiting: 0" in status.stdout, status.stdout

    # Sending deleted nothing here.
    exported = profile.export_csv(profile.home / "out.csv")
    assert "Exported 2 responses" in exported.stdout

    # A form is published once; whoever gathers the results exports what
    # the server holds, the built-in survey's as this laptop's own export.
    form = Path(__file__).parent / "forms" / "regions.md"
    # A collector's login may not publish; the owner's may.
    refused = cli(profile, "--publish-form", str(form))
    assert refused.returncode != 0 and "may not publish forms" in refused.stderr, refused
    published = cli(profile, "--publish-form", str(form), *admin)
    assert published.returncode == 0, published.stderr
    assert "is on the server now" in published.stdout
    assert "was on the server already" in cli(profile, "--publish-form", str(form), *admin).stdout
    assert cli(profile, "--store-password", "--user", "results", stdin=LAPTOP_PASSWORD + "\n").returncode == 0
    folder = profile.home / "from-server"
    result = cli(profile, "--export-csv", str(folder), "--from-server", "--user", "results")
    assert result.returncode == 0, result.stderr
    assert "Exported 2 responses to" in result.stdout
    assert (folder / "survey_form-v1.csv").read_bytes() == (profile.home / "out.csv").read_bytes()
    again = cli(profile, "--export-csv", str(folder), "--from-server", "--user", "results")
    assert again.returncode == 1 and "Add --force to replace the files." in again.stderr, again.stderr


def test_a_wrong_password_is_said_plainly(server, keyring, profile):
    profile.write_settings(server_host="'127.0.0.1'", server_port=str(server.port),
                           server_user="'laptop_1'", server_ca_file=f"'{server.ca_file}'")
    assert cli(profile, "--store-password", stdin="not it\n").returncode == 0
    result = cli(profile, "--server-setup")
    assert result.returncode == 1
    assert "refused the login of laptop_1" in result.stderr, result.stderr


def test_insecure_sends_no_stored_password_only_one_typed_for_the_run(server, keyring, profile):
    set_up(server, profile)
    unchecked = [option for option in server_options(server, "survey_form_admin") if option != "--ca-file"
                 and option != str(server.ca_file)] + ["--insecure"]
    refused = cli(profile, "--server-setup", *unchecked)
    assert refused.returncode == 1, refused
    assert (f"The password kept in the keyring is not sent to 127.0.0.1:{server.port} over a connection that does "
            "not check the server's certificate") in refused.stderr, refused.stderr
    assert "--ask-password" in refused.stderr
    typed = cli(profile, "--server-setup", *unchecked, "--ask-password", stdin=ADMIN_PASSWORD + "\n")
    assert typed.returncode == 0, typed.stderr
    assert "is set up" in typed.stdout
    # Asked for and not given: refused before any connection.
    empty = cli(profile, "--server-setup", *unchecked, "--ask-password", stdin="")
    assert empty.returncode == 1 and "No password was given on standard input." in empty.stderr, empty


def test_without_a_server_the_sync_options_say_what_to_set(profile):
    result = cli(profile, "--sync-now")
    assert result.returncode == 2
    assert "No server is set. Set it in Preferences, or with --server, --database and --user." in result.stderr


def laptop_settings(profile, server):
    profile.write_settings(server_host="'127.0.0.1'", server_port=str(server.port),
                           server_user="'laptop_1'", server_ca_file=f"'{server.ca_file}'")
    assert cli(profile, "--store-password", stdin=LAPTOP_PASSWORD + "\n").returncode == 0


def set_up(server, profile):
    admin = server_options(server, "survey_form_admin")
    assert cli(profile, "--store-password", *admin, stdin=ADMIN_PASSWORD + "\n").returncode == 0
    assert cli(profile, "--server-setup", *admin).returncode == 0


def sync_line(app):
    """The line under the stored responses' heading that tells where they stand."""
    found = app.find_all(Atspi.Role.LABEL, where=lambda node: any(
        part in (node.get_name() or "") for part in ("to the server", "waiting to be sent.", "Sending ")))
    return found[0].get_name() if found else ""


def test_the_window_sends_each_submit_and_says_where_the_responses_stand(server, keyring, profile, launch):
    set_up(server, profile)
    laptop_settings(profile, server)
    app = launch()
    submit(app, "Ada Lovelace")
    wait_for(lambda: server.count() == 1 or None, "the response on the server")
    wait_for(lambda: "1 response sent to the server." in sync_line(app) or None,
             f"the window to say it was sent (it says {sync_line(app)!r})")
    wait_for(lambda: app.find_all(where=lambda node: (node.get_name() or "").startswith("Ada Lovelace")
                                  and (node.get_name() or "").endswith("\nSent")) or None,
             "the response's row to say it was sent")

    # The server goes down: the next response waits, and the window says why.
    server.stop()
    submit(app, "Grace Hopper")
    wait_for(lambda: "1 response waiting to be sent. The server 127.0.0.1:" in sync_line(app) or None,
             f"the window to say a response waits (it says {sync_line(app)!r})")
    server.start()
    # Send Now, from the main menu, does not wait out the back-off.
    send_now(app)
    wait_for(lambda: server.count() == 2 or None, "the waiting response on the server")
    wait_for(lambda: "All 2 responses sent to the server." in sync_line(app) or None,
             f"the window to say both were sent (it says {sync_line(app)!r})")


def send_now(app):
    """Send Responses Now, from the main menu with the keyboard."""
    app.key("F10")
    wait_for(lambda: app.find_all(Atspi.Role.MENU_ITEM, "Send Responses Now"), "the main menu")
    app.down_to("Send Responses Now")
    app.key("Return")


def row_says(app, text):
    """A stored response's row, "TITLE\nSTATE" of `text`: its title, when it
    was submitted, and where it stands."""
    title, state = text.split("\n", 1)
    return app.find_all(Atspi.Role.LABEL, where=lambda node: (lambda name: name.startswith(title + "\n")
                        and name.endswith("\n" + state))(node.get_name() or "")) or None


def row_starts(app, title, state):
    """A stored response's row whose state begins with `state`."""
    return app.find_all(Atspi.Role.LABEL, where=lambda node: (lambda name: name.startswith(title + "\n")
                        and ("\n" + state) in name)(node.get_name() or "")) or None


def test_a_forms_stored_responses_say_where_each_stands(server, keyring, profile, launch):
    set_up(server, profile)
    laptop_settings(profile, server)
    app = launch(args=[str(HOUSEHOLD)])
    app.wait_focus(HEAD)
    app.type("Ada")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: server.count() == 1 or None, "the response on the server")
    wait_for(lambda: row_says(app, "Ada\nSent"), "Ada's row to say it was sent")

    server.stop()
    app.wait_focus(HEAD)
    app.type("Grace")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: row_says(app, "Grace\nWaiting to be sent") or row_starts(app, "Grace", "Not sent yet"), "Grace's row")
    wait_for(lambda: row_starts(app, "Grace", "Not sent yet: The server 127.0.0.1:"),
             "Grace's row to say why she was not sent", timeout=30)
    assert row_says(app, "Ada\nSent")
    server.start()
    send_now(app)
    wait_for(lambda: server.count() == 2 or None, "Grace's response on the server")
    wait_for(lambda: row_says(app, "Grace\nSent"), "Grace's row to say she was sent")


def test_without_a_server_the_window_shows_nothing_of_sync(app):
    submit(app, "Ada Lovelace")
    assert sync_line(app) == ""
    assert app.find_all(where=lambda node: (node.get_name() or "").endswith("\nWaiting to be sent")) == []


def test_preferences_set_the_server_and_keep_the_password_in_the_keyring(server, keyring, profile, launch):
    set_up(server, profile)
    app = launch()
    submit(app, "Ada Lovelace")
    app.key("ctrl+comma")
    wait_for(lambda: app.find_all(Atspi.Role.TEXT, "Server") or None, "the Preferences window's Server row")
    # Keys go to the Preferences window (Xvfb has no window manager to focus it).
    main_window = app.window_id
    app.window_id = wait_for(lambda: (lambda found: found if found != main_window else None)(app._find_window()),
                             "the Preferences window on the X display")
    # Focus starts in the first row; each row below is reached with Tab
    # (an action row is a stop of its own before its control). Typing before
    # the row has focus would lose the first keys.
    app.type("127.0.0.1")
    # Keys typed while the new window is still taking focus can be lost
    # (Xvfb, no window manager): typed again over what arrived.
    server_row = app.find(Atspi.Role.TEXT, "Server")
    for _ in range(3):
        if field_text(server_row) == "127.0.0.1":
            break
        app.key("ctrl+a")
        app.type("127.0.0.1")
    assert field_text(server_row) == "127.0.0.1", field_text(server_row)
    app.key("Tab", "Tab")
    app.key("ctrl+a")
    app.type(str(server.port))
    app.key("Tab", "Tab")          # past Database, kept as it is
    app.type("laptop_1")
    app.key("Tab")
    app.type(LAPTOP_PASSWORD)
    # The certificate is checked, against the test server's own authority.
    certificate = (Atspi.Role.CHECK_BOX, "Check the Server's Certificate")
    for _ in range(6):
        if app.focused_description() == certificate:
            break
        app.key("Tab")
    app.wait_focus(certificate)
    assert app.is_checked("Check the Server's Certificate"), "checked unless turned off"
    authority = (Atspi.Role.TEXT, "Certificate Authority File (PEM, optional)")
    # The next row, the authority's file (its entry is not reported focused
    # by GTK 4.8's accessibility, so what it holds shows it was reached).
    app.key("Tab")
    app.type(str(server.ca_file))
    wait_for(lambda: field_text(app.control(*authority)) == str(server.ca_file) or None, "the authority's file typed")
    app.key("Escape")
    app.window_id = main_window
    wait_for(lambda: server.count() == 1 or None, "the response on the server, sent with the new settings")
    settings = profile.settings_file.read_text()
    assert "server-host='127.0.0.1'" in settings, settings
    assert "server-user='laptop_1'" in settings, settings
    assert LAPTOP_PASSWORD not in settings
    assert LAPTOP_PASSWORD not in "".join(p.read_text(errors="ignore") for p in profile.home.rglob("*.ini"))
