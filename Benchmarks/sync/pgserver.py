"""What the delivery benchmarks share: a private PostgreSQL server set up as
docs/server-roles.sql says, a private keyring holding the passwords, and
the app's own set-up of both.

Imported by Benchmarks/sync/run (throughput beside COPY) and
Benchmarks/sync/drain.py (frames while a queue drains).
"""

import glob
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

APP_ID = "io.github.surveyform.SurveyForm"
ROOT = Path(__file__).resolve().parents[2]
ADMIN_PASSWORD = "bench admin"
LAPTOP_PASSWORD = "bench laptop"
COLUMNS = "instance_id, form_id, form_version, device_id, started_at, submitted_at, batch_id, answers"


class Server:
    def __init__(self, folder: Path):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            sys.exit("pgserver: PostgreSQL's server is needed (Debian's postgresql; build-aux/setup installs it)")
        self.bin = Path(found[-1]).parent
        self.folder = folder
        folder.mkdir()
        (folder / "pw").write_text("postgres secret")
        if os.getuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
            shutil.chown(folder / "pw", "postgres", "postgres")
        self.run("initdb", "-D", folder / "data", "-U", "postgres", f"--pwfile={folder / 'pw'}",
                 "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self.port = random.randrange(20000, 40000)
        # Each session's length goes to the log: the server's own measure of
        # a delivery, the same for every client.
        self.run("pg_ctl", "-D", folder / "data", "-l", folder / "log", "-w", "-o",
                 f"-k {folder} -p {self.port} -c listen_addresses=127.0.0.1 -c log_disconnections=on", "start")
        roles = folder / "server-roles.sql"
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
        if result.returncode != 0:
            sys.exit(f"pgserver: {program} failed:\n{result.stdout}")
        return result.stdout

    def psql(self, *arguments, database="survey_responses"):
        return self.run("psql", "-h", self.folder, "-p", self.port, "-U", "postgres", "-X", "-q", "-tA",
                        "-v", "ON_ERROR_STOP=1", "-d", database, *arguments)

    def count(self):
        return int(self.psql("-c", "SELECT count(*) FROM survey_form.submissions").strip())

    def empty(self):
        self.psql("-c", "TRUNCATE survey_form.submissions, survey_form.batches")

    def last_session(self, user):
        """Seconds the last session of `user` lasted, from login to logout."""
        found = re.findall(r"disconnection: session time: (\d+):(\d+):([\d.]+) user=(\S+)", (self.folder / "log").read_text())
        hours, minutes, seconds = next((h, m, s) for h, m, s, who in reversed(found) if who == user)
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)

    def stop(self):
        self.run("pg_ctl", "-D", self.folder / "data", "-m", "immediate", "-w", "stop")



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

    def last_session(self, user):
        """Seconds the last session of `user` lasted, from login to logout."""
        found = re.findall(r"disconnection: session time: (\d+):(\d+):([\d.]+) user=(\S+)", (self.folder / "log").read_text())
        hours, minutes, seconds = next((h, m, s) for h, m, s, who in reversed(found) if who == user)
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)

    def stop(self):
        if self.pid:
            subprocess.run(["kill", self.pid])


def options(server, user):
    """The command-line options that point the app at `server` as `user`."""
    return ["--server", "127.0.0.1", "--port", str(server.port), "--database", "survey_responses",
            "--user", user, "--insecure"]


def set_up_app(app, server, env):
    """Stores both passwords, creates the server's tables as their owner, and
    has the app make its database (which --sync-status opens)."""
    for user, password in (("survey_form_admin", ADMIN_PASSWORD), ("laptop_1", LAPTOP_PASSWORD)):
        subprocess.run([app, "--store-password", *options(server, user)], input=password + "\n", text=True, env=env,
                       check=True, capture_output=True)
    subprocess.run([app, "--server-setup", *options(server, "survey_form_admin")], env=env, check=True,
                   capture_output=True)
    subprocess.run([app, "--sync-status", *options(server, "laptop_1")], env=env, check=True, capture_output=True)
