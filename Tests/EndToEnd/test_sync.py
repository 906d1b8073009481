"""Server sync from the command line, against a PostgreSQL server of the
test's own: set-up as the owner, responses submitted in the window queued
and sent once, a server that is down keeping them queued, and the password
in the desktop keyring (a private gnome-keyring in the test's session)."""

import glob
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from test_export_and_language import submit

ROOT = Path(__file__).resolve().parents[2]
ADMIN_PASSWORD = "admin secret"
LAPTOP_PASSWORD = "laptop secret"


class Server:
    """initdb into a folder, loopback and a private socket; as root the
    server runs as the postgres user, since PostgreSQL refuses root."""

    def __init__(self):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            pytest.fail("PostgreSQL's server is not installed (run build-aux/setup)", pytrace=False)
        self.bin = Path(found[-1]).parent
        self.folder = Path(tempfile.mkdtemp(prefix="survey-form-pg-"))
        os.chmod(self.folder, 0o755)
        (self.folder / "pw").write_text("postgres secret")
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(self.folder / "pw", "postgres", "postgres")
        self.run("initdb", "-D", self.folder / "data", "-U", "postgres", f"--pwfile={self.folder / 'pw'}",
                 "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self.port = random.randrange(20000, 40000)
        self.start()
        roles = self.folder / "server-roles.sql"
        shutil.copy(ROOT / "docs/server-roles.sql", roles)
        self.psql("-v", f"admin_password='{ADMIN_PASSWORD}'", "-f", roles, database="postgres")
        self.psql("-c", f"CREATE ROLE laptop_1 LOGIN PASSWORD '{LAPTOP_PASSWORD}' IN ROLE survey_form_collectors",
                  database="postgres")

    def run(self, program, *arguments):
        command = [str(self.bin / program), *map(str, arguments)]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/",
                                stdin=subprocess.DEVNULL)
        assert result.returncode == 0, f"{program} failed:\n{result.stdout}"
        return result.stdout

    def psql(self, *arguments, database="survey_responses"):
        return self.run("psql", "-h", self.folder, "-p", self.port, "-U", "postgres", "-X", "-q", "-tA",
                        "-v", "ON_ERROR_STOP=1", "-d", database, *arguments)

    def count(self):
        return int(self.psql("-c", "SELECT count(*) FROM survey_form.submissions").strip())

    def start(self):
        # The log goes to a file: a pipe would stay open as long as the server runs.
        self.run("pg_ctl", "-D", self.folder / "data", "-l", self.folder / "log", "-w", "-o",
                 f"-k {self.folder} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self):
        self.run("pg_ctl", "-D", self.folder / "data", "-m", "immediate", "-w", "stop")


@pytest.fixture
def server():
    server = Server()
    yield server
    try:
        server.stop()
    except AssertionError:
        pass
    shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def keyring(profile):
    """An unlocked login keyring in the test's session bus, for its HOME."""
    env = profile.environment()
    daemon = subprocess.run(
        ["gnome-keyring-daemon", "--unlock", "--components=secrets"],
        input="keyring secret", capture_output=True, text=True, env=env,
    )
    assert daemon.returncode == 0, daemon.stderr
    pid = next((line.split("=", 1)[1] for line in daemon.stdout.splitlines() if line.startswith("GNOME_KEYRING_PID=")), None)
    yield
    if pid:
        subprocess.run(["kill", pid])


def cli(profile, *arguments, stdin=None):
    return subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], *arguments], input=stdin, capture_output=True, text=True,
        env=profile.environment(), timeout=60,
    )


def server_options(server, user):
    return ["--server", "127.0.0.1", "--port", str(server.port), "--database", "survey_responses",
            "--user", user, "--insecure"]


def test_responses_submitted_are_sent_once_and_a_server_that_is_down_loses_nothing(server, keyring, profile, launch):
    # The administrator sets the server up as the tables' owner.
    admin = server_options(server, "survey_form_admin")
    stored = cli(profile, "--store-password", *admin, stdin=ADMIN_PASSWORD + "\n")
    assert stored.returncode == 0, stored.stderr
    setup = cli(profile, "--server-setup", *admin)
    assert setup.returncode == 0, setup.stderr
    assert "is set up (schema version 1, was 0)" in setup.stdout

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
                           server_user="'laptop_1'", server_security="'insecure'")
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


def test_a_wrong_password_is_said_plainly(server, keyring, profile):
    profile.write_settings(server_host="'127.0.0.1'", server_port=str(server.port),
                           server_user="'laptop_1'", server_security="'insecure'")
    assert cli(profile, "--store-password", stdin="not it\n").returncode == 0
    result = cli(profile, "--server-setup")
    assert result.returncode == 1
    assert "refused the login of laptop_1" in result.stderr, result.stderr


def test_without_a_server_the_sync_options_say_what_to_set(profile):
    result = cli(profile, "--sync-now")
    assert result.returncode == 2
    assert "No server is set. Set it in Preferences, or with --server, --database and --user." in result.stderr
