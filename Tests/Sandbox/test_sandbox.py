"""The installed Flatpak, run in its sandbox: what only a sandbox can get
wrong. Each check is one the finish-args must allow; they allow nothing more."""

import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

from conftest import APP_ID, harness

Atspi = harness.Atspi
wait_for = harness.wait_for
NAME = harness.NAME


def submit(app, name):
    app.wait_focus(NAME)
    app.type(name)
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.wait_summary(name="--")


def test_the_installed_app_names_its_version(profile):
    result = subprocess.run(["flatpak", "--user", "run", "--command=survey-form", APP_ID, "--version"],
                            capture_output=True, text=True, env=profile.environment(), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("survey-form "), result.stdout


def test_the_window_renders_in_english_and_in_german(launch):
    app = launch()
    assert app.title() == "Survey Form"
    app.find(Atspi.Role.TEXT, "Company")
    app.kill()
    # The German texts come from the app's Locale extension, as Flathub ships them.
    app = launch(LANGUAGE="de")
    wait_for(lambda: app.title() == "Umfrageformular", "the German window title")
    app.find(Atspi.Role.TEXT, "Firma")
    app.find(Atspi.Role.PUSH_BUTTON, "Absenden")


def test_a_response_is_stored_in_the_sandbox_and_nowhere_else(launch, profile):
    app = launch()
    submit(app, "Ada Lovelace")
    app.quit()
    database = profile.database
    assert database.exists(), f"no database at {database}"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    assert stat.S_IMODE(profile.data_dir.stat().st_mode) == 0o700
    assert profile.written_outside() == []
    # And the export, inside the sandbox too, finds it.
    destination = profile.sandbox / "out.csv"
    result = profile.run("--export-csv", str(destination))
    assert result.returncode == 0, result.stderr
    assert "Exported 1 response" in result.stdout
    rows = harness.parse_csv(destination.read_bytes())
    assert [row["name"] for row in rows] == ["Ada Lovelace"]


def test_export_without_a_portal_uses_gtks_own_chooser(launch, profile):
    # The test's session bus offers no portal: GTK's chooser, in the sandbox,
    # can still save into the app's own folder.
    app = launch()
    submit(app, "Grace Hopper")
    destination = profile.sandbox / "chosen.csv"
    window = app.window_id
    app.key("ctrl+e")
    app.window_id = wait_for(lambda: app.dialog("Export Responses"), "GTK's own save dialog")
    # Its name field takes a whole path, and has the focus.
    app.wait_focus((Atspi.Role.TEXT, "Name:"))
    app.key("ctrl+a")
    app.type(str(destination))
    app.key("Return")
    wait_for(lambda: app.dialog("Export Responses") is None, "the dialog to close")
    app.window_id = window
    app.wait_status("Exported 1 response")
    assert [row["name"] for row in harness.parse_csv(destination.read_bytes())] == ["Grace Hopper"]


def test_a_form_named_on_the_command_line_opens(launch, profile):
    # A path the sandbox can see: its own folder (others come through the
    # document portal, which the desktop file's %f gives a real desktop).
    forms = profile.sandbox / "forms"
    forms.mkdir(parents=True)
    form = forms / "visit.md"
    shutil.copy(Path(__file__).resolve().parents[1] / "EndToEnd" / "forms" / "visit.md", form)
    app = launch(args=[str(form)], focus_role=harness.ANY_FOCUS)
    assert app.title() == "Clinic visit"


def test_the_network_and_the_keyring_reach_a_server_on_loopback(launch, profile):
    from private_postgres import PrivatePostgres

    admin_password, laptop_password = "sandbox admin", "sandbox laptop"
    server = PrivatePostgres(Path(tempfile.mkdtemp(prefix="survey-form-pg-")), admin_password, laptop_password,
                             settings=["fsync=off"], tls=True)
    try:
        with harness.private_keyring(profile):
            # The server's authority where the sandbox can read it.
            profile.sandbox.mkdir(parents=True, exist_ok=True)
            authority = profile.sandbox / "server-ca.pem"
            shutil.copy(server.ca_file, authority)

            def options(user):
                return ["--server", "127.0.0.1", "--port", str(server.port), "--database", "survey_responses",
                        "--user", user, "--ca-file", str(authority)]

            for user, password in (("survey_form_admin", admin_password), ("laptop_1", laptop_password)):
                stored = profile.run("--store-password", *options(user), stdin=password + "\n")
                assert stored.returncode == 0, stored.stderr
            setup = profile.run("--server-setup", *options("survey_form_admin"))
            assert setup.returncode == 0, setup.stderr

            app = launch()
            submit(app, "Katherine Johnson")
            app.quit()
            sent = profile.run("--sync-now", *options("laptop_1"))
            assert sent.returncode == 0, sent.stderr + sent.stdout
            assert server.count() == 1
            names = server.psql("-At", "-c", "SELECT answers->>'name' FROM survey_form.submissions")
            assert names.strip() == "Katherine Johnson"
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


def test_a_form_comes_from_an_openrosa_server_and_its_response_goes_back(launch, profile):
    from central_like import TOKEN, CentralLike

    server = CentralLike()
    try:
        server.add_form(Path(__file__).resolve().parent / "forms" / "sandbox-visit.xml")
        got = profile.run("--get-forms", server.base)
        assert got.returncode == 0, got.stderr + got.stdout
        assert TOKEN not in got.stdout + got.stderr
        [form] = [path for path in (profile.data_dir / "forms").glob("*/sandbox-visit/*/sandbox-visit.xml")
                  if not path.parent.name.startswith(".")]
        assert form.read_bytes() == server.forms["sandbox-visit"].xml

        # Opened from the library as a file, answered, submitted: the window
        # sends it to the server the form came from by itself.
        app = launch(args=[str(form)])
        assert app.title() == "Sandbox visit"
        app.wait_focus((Atspi.Role.TEXT, "Visitor"))
        app.type("Mary Jackson")
        app.key("ctrl+s")
        wait_for(lambda: len(server.submissions) == 1 or None, "the response on the OpenRosa server")
        [stored] = server.submissions.values()
        assert b"<visitor>Mary Jackson</visitor>" in stored["xml"]
    finally:
        server.stop()
