"""A PostgreSQL server of a test's or a benchmark's own: initdb into a
folder, loopback and a private socket, set up as docs/server-roles.sql says
with one laptop login. As root the server runs as the postgres user, since
PostgreSQL refuses root. Used by the end-to-end tests and Benchmarks/sync."""

import glob
import os
import random
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class PostgresError(Exception):
    pass


class PrivatePostgres:
    def __init__(self, folder: Path, admin_password, laptop_password, *, settings=(), reader_login=None, tls=False):
        """`settings` are `name=value` server settings; `reader_login`, when
        given, is a login in survey_form_readers with the laptop's password;
        with `tls`, the server has a certificate for localhost and 127.0.0.1
        from an authority of its own, `ca_file`."""
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise PostgresError("PostgreSQL's server is not installed (Debian's postgresql; run build-aux/setup)")
        self.bin = Path(found[-1]).parent
        self.folder = folder
        self.settings = list(settings)
        folder.mkdir(exist_ok=True)
        os.chmod(folder, 0o755)
        self.ca_file = None
        if tls:
            self.ca_file = self._make_certificates()
            self.settings += ["ssl=on", f"ssl_cert_file={folder / 'server.pem'}", f"ssl_key_file={folder / 'server.key'}"]
        (folder / "pw").write_text("postgres secret")
        if os.getuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
            shutil.chown(folder / "pw", "postgres", "postgres")
        self.run("initdb", "-D", folder / "data", "-U", "postgres", f"--pwfile={folder / 'pw'}",
                 "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self.port = random.randrange(20000, 40000)
        self.start()
        roles = folder / "server-roles.sql"
        shutil.copy(ROOT / "docs/server-roles.sql", roles)
        self.psql("-v", f"admin_password='{admin_password}'", "-f", roles, database="postgres")
        self.psql("-c", f"CREATE ROLE laptop_1 LOGIN PASSWORD '{laptop_password}' IN ROLE survey_form_collectors",
                  database="postgres")
        if reader_login:
            self.psql("-c", f"CREATE ROLE {reader_login} LOGIN PASSWORD '{laptop_password}' IN ROLE survey_form_readers",
                      database="postgres")

    def _make_certificates(self):
        """A throwaway authority, and a certificate it signed for the server."""
        def openssl(*arguments):
            subprocess.run(["openssl", *map(str, arguments)], check=True, capture_output=True, cwd=self.folder)
        (self.folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                "-days", "2", "-subj", "/CN=Survey Form test authority")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
        key = self.folder / "server.key"
        os.chmod(key, 0o600)
        if os.getuid() == 0:
            shutil.chown(key, "postgres", "postgres")
        return self.folder / "ca.pem"

    def run(self, program, *arguments):
        command = [str(self.bin / program), *map(str, arguments)]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/",
                                stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise PostgresError(f"{program} failed:\n{result.stdout}")
        return result.stdout

    def psql(self, *arguments, database="survey_responses"):
        return self.run("psql", "-h", self.folder, "-p", self.port, "-U", "postgres", "-X", "-q", "-tA",
                        "-v", "ON_ERROR_STOP=1", "-d", database, *arguments)

    def count(self):
        return int(self.psql("-c", "SELECT count(*) FROM survey_form.submissions").strip())

    def start(self):
        # The log goes to a file: a pipe would stay open as long as the server runs.
        options = " ".join(f"-c {setting}" for setting in self.settings)
        self.run("pg_ctl", "-D", self.folder / "data", "-l", self.folder / "log", "-w", "-o",
                 f"-k {self.folder} -p {self.port} -c listen_addresses=127.0.0.1 {options}", "start")

    def stop(self):
        self.run("pg_ctl", "-D", self.folder / "data", "-m", "immediate", "-w", "stop")
