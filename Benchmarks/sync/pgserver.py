"""What the delivery benchmarks share: a private PostgreSQL server set up as
docs/server-roles.sql says, a private keyring holding the passwords, and
the app's own set-up of both.

Imported by Benchmarks/sync/run (throughput beside COPY) and
Benchmarks/sync/drain.py (frames while a queue drains).
"""

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "EndToEnd"))
from private_postgres import PrivatePostgres  # noqa: E402

APP_ID = "io.github.surveyform.SurveyForm"
ADMIN_PASSWORD = "bench admin"
LAPTOP_PASSWORD = "bench laptop"
COLUMNS = "instance_id, form_id, form_version, device_id, started_at, submitted_at, batch_id, answers"


class Server(PrivatePostgres):
    """The end-to-end tests' private server, with each session's length in
    its log: the server's own measure of a delivery, the same for every
    client."""

    def __init__(self, folder: Path):
        # TLS, as a real server has: the keyring's password goes only to a checked certificate.
        super().__init__(folder, ADMIN_PASSWORD, LAPTOP_PASSWORD, settings=["log_disconnections=on"], tls=True)

    def empty(self):
        self.psql("-c", "TRUNCATE survey_form.attachments, survey_form.submissions, survey_form.batches")

    def last_session(self, user):
        """Seconds the last session of `user` lasted, from login to logout."""
        found = re.findall(r"disconnection: session time: (\d+):(\d+):([\d.]+) user=(\S+)",
                           (self.folder / "log").read_text())
        hours, minutes, seconds = next((h, m, s) for h, m, s, who in reversed(found) if who == user)
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


class Keyring:
    """gnome-keyring's secret service on the session bus (the caller runs
    under dbus-run-session), unlocked with a throwaway password."""

    def __init__(self, env):
        result = subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets"], input="bench",
                                capture_output=True, text=True, env=env)
        if result.returncode != 0:
            sys.exit(f"pgserver: no keyring: {result.stderr}")
        self.pid = next((line.split("=", 1)[1] for line in result.stdout.splitlines()
                         if line.startswith("GNOME_KEYRING_PID=")), None)

    def stop(self):
        if self.pid:
            subprocess.run(["kill", self.pid])


def options(server, user):
    """The command-line options that point the app at `server` as `user`."""
    return ["--server", "127.0.0.1", "--port", str(server.port), "--database", "survey_responses",
            "--user", user, "--ca-file", str(server.ca_file)]


def set_up_app(app, server, env):
    """Stores both passwords, creates the server's tables as their owner, and
    has the app make its database (which --sync-status opens)."""
    for user, password in (("survey_form_admin", ADMIN_PASSWORD), ("laptop_1", LAPTOP_PASSWORD)):
        subprocess.run([app, "--store-password", *options(server, user)], input=password + "\n", text=True, env=env,
                       check=True, capture_output=True)
    subprocess.run([app, "--server-setup", *options(server, "survey_form_admin")], env=env, check=True,
                   capture_output=True)
    subprocess.run([app, "--sync-status", *options(server, "laptop_1")], env=env, check=True, capture_output=True)
