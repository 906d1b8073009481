#!/usr/bin/env python3
"""Frames while the outbox drains: the longest time survey-form's main loop
is busy (nothing can be drawn meanwhile) while the window is open and the
background sender delivers 10,000 queued responses to a local PostgreSQL
server, beside the same window over the same 10,000 responses with no
server set; then the same with the responses queued for an OpenRosa
endpoint on loopback (openrosa_sink.py), one in ten with a 100 KB photo,
beside the window over them with no server to send to. Writes
RESULTS/drain.tsv:

    stall drain NS / stall idle NS      (the worst of three launches each)
    drain seconds S                     (median: the stretch start to all sent)
    stall openrosa NS / stall openrosa-idle NS / openrosa seconds S

    drain.py RESULTS PROBE SURVEY_FORM

Run under Xvfb and a D-Bus session (Benchmarks/run does). The probe
(libFirstFrameProbe.so, $STALL_FILE) notes every stall of the main loop over
2 ms from the window's first frame on. The measured stretch starts half a
second after the first frame, once the window has settled (its list read),
and ends a second after the last response is marked sent (the window reads
its list again then). The app starts sending a second after it starts, so
the whole drain falls inside the stretch: a run where any response was sent
before it began is refused, as is one after which the server (or the
endpoint) does not hold exactly the 10,000 responses. DRAIN_DEBUG=1 prints each launch's stalls
over 4 ms, in milliseconds from the stretch's start, to look into one.
"""
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
from generated import fill  # noqa: E402
from stalls import longest as stalls_longest  # noqa: E402
from pgserver import APP_ID, Keyring, Server, set_up_app  # noqa: E402
from openrosa_sink import Sink  # noqa: E402

COUNT = 10_000
RUNS = 3
SETTLE = 0.5  # seconds after the first frame


def unsent(database: Path):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
        return db.execute("SELECT count(*) FROM delivery WHERE state <> 'sent'").fetchone()[0]


def queue_for_openrosa(data: Path, endpoint: str):
    """Queues the stored responses for the OpenRosa endpoint instead, with
    the instance XML the app would have made, every tenth naming a 100 KB
    photo stored with it; the form library records the endpoint as the
    server a form came from, so that the window's sender goes to it."""
    photo = os.urandom(100_000)
    with sqlite3.connect(data / "responses.sqlite3") as db:
        db.execute("DELETE FROM delivery")
        rows = db.execute("SELECT id, instanceID, answers FROM form_response ORDER BY id").fetchall()
        for number, (row, instance, answers) in enumerate(rows, start=1):
            name = f"photo-{number}.jpg" if number % 10 == 0 else ""
            if name:
                db.execute("UPDATE form_response SET answers = json_insert(answers, '$[#]', "
                           "json_object('path', 'photo', 'value', ?, 'kind', 'attachment')) WHERE id = ?", (name, row))
                folder = data / "attachments" / instance.replace(":", "%3A")
                folder.mkdir(parents=True, exist_ok=True)
                (folder / name).write_bytes(photo)
            xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<data id="survey_form" version="1">'
                   f"<name>Respondent {number}</name>" + (f"<photo>{name}</photo>" if name else "<photo/>")
                   + f"<meta><instanceID>{instance}</instanceID></meta></data>\n")
            db.execute("INSERT INTO delivery (instanceID, source, responseID, state, queuedAt, destination, submission) "
                       "VALUES (?, 'form', ?, 'waiting', datetime('now'), ?, ?)", (instance, row, endpoint, xml))
    record = data / "forms" / "endpoint" / "server.json"
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({"url": endpoint, "user": ""}))
    record.chmod(0o600)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: drain.py RESULTS PROBE SURVEY_FORM")
    results, probe, app = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    if not os.environ.get("DISPLAY") or not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        sys.exit("drain.py: run it under Xvfb and a D-Bus session (Benchmarks/run does)")
    work = Path(tempfile.mkdtemp())
    os.chmod(work, 0o755)
    server = keyring = sink = None
    try:
        server = Server(work / "server")
        config = work / "config"
        env = dict(os.environ, XDG_DATA_HOME=str(work / "data"), XDG_CONFIG_HOME=str(config), HOME=str(work),
                   GSETTINGS_BACKEND="keyfile")
        keyring = Keyring(env)
        set_up_app(app, server, env)
        data = work / "data" / APP_ID
        database = data / "responses.sqlite3"
        fill(database, COUNT, queued=True)
        template = work / "template"
        shutil.copytree(data, template)
        sink = Sink()
        queue_for_openrosa(data, sink.base)
        openrosa_template = work / "openrosa-template"
        shutil.copytree(data, openrosa_template)
        # The same responses with no server to send them to.
        idle_openrosa_template = work / "openrosa-idle-template"
        shutil.copytree(data, idle_openrosa_template)
        shutil.rmtree(idle_openrosa_template / "forms")
        settings = config / "glib-2.0" / "settings" / "keyfile"
        settings.parent.mkdir(parents=True, exist_ok=True)

        def launch(kind, until):
            """The longest stall from the first frame until `until()` says so;
            `kind` is drain, idle, openrosa or openrosa-idle."""
            shutil.rmtree(data)
            shutil.copytree({"openrosa": openrosa_template, "openrosa-idle": idle_openrosa_template}.get(kind, template), data)
            server.empty()
            sink.instances.clear()
            keys = ["[io/github/surveyform/SurveyForm]"]
            if kind == "drain":
                keys += ["server-host='127.0.0.1'", f"server-port={server.port}",
                         "server-database='survey_responses'", "server-user='laptop_1'", f"server-ca-file='{server.ca_file}'"]
            settings.write_text("\n".join(keys) + "\n")
            stalls = work / "stalls"
            ready = Path(f"{stalls}.ready")
            ready.unlink(missing_ok=True)
            process = subprocess.Popen([app], env=dict(env, LD_PRELOAD=probe, STALL_FILE=str(stalls)),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            while not ready.exists() or not ready.read_text().strip():
                if time.monotonic() > deadline or process.poll() is not None:
                    sys.exit("drain.py: the window did not come up")
                time.sleep(0.02)
            first_frame = int(ready.read_text())
            start = first_frame + int(SETTLE * 1e9)
            time.sleep(max(start - time.monotonic_ns(), 0) / 1e9)
            if unsent(database) != COUNT:
                sys.exit("drain.py: responses were sent before the measured stretch began")
            until()
            end = time.monotonic_ns()
            if process.poll() is not None:
                sys.exit("drain.py: the app died")
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
            label = f"{kind} {round((end - start) / 1e6)} ms" if os.environ.get("DRAIN_DEBUG") else None
            return stalls_longest(stalls, start, end, debug=label), (end - start) / 1e9

        def drained(held):
            deadline = time.monotonic() + 120
            while unsent(database):
                if time.monotonic() > deadline:
                    sys.exit(f"drain.py: {unsent(database)} responses were still not sent after two minutes")
                time.sleep(0.1)
            # The window reads its list again once the round is over.
            time.sleep(1)
            if held() != COUNT:
                sys.exit(f"drain.py: the server holds {held()} responses, not {COUNT}")

        figures = {}
        for busy, calm, held in (("drain", "idle", server.count), ("openrosa", "openrosa-idle", lambda: len(sink.instances))):
            stalls = {busy: [], calm: []}
            seconds = []
            for _ in range(RUNS):
                stall, duration = launch(busy, lambda: drained(held))
                stalls[busy].append(stall)
                seconds.append(duration - 1)
                stall, _ = launch(calm, lambda: time.sleep(duration))
                stalls[calm].append(stall)
            figures[busy] = (max(stalls[busy]), max(stalls[calm]), statistics.median(seconds))
        with open(results / "drain.tsv", "w") as out:
            busy, calm, seconds = figures["drain"]
            out.write(f"stall drain {busy}\nstall idle {calm}\ndrain seconds {seconds:.3f}\n")
            busy, calm, seconds = figures["openrosa"]
            out.write(f"stall openrosa {busy}\nstall openrosa-idle {calm}\nopenrosa seconds {seconds:.3f}\n")
    finally:
        if sink:
            sink.stop()
        if server:
            server.stop()
        if keyring:
            keyring.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
