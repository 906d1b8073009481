#!/usr/bin/env python3
"""Frames while typing: the longest time survey-form's main loop is busy
(handling a key, laying out, painting; nothing else can be drawn meanwhile)
while a question is typed into, in a form where 100 other questions' relevance
reads that answer, beside the same typing where nothing reads it.

    typing.py RESULTS PROBE SURVEY_FORM

Run by Benchmarks/forms/run under Xvfb and a D-Bus session. The probe
(libFirstFrameProbe.so, $STALL_FILE) notes every stall of the main loop over
2 ms; xdotool types 30 characters, 40 ms apart, into the first question,
which has focus when the window opens. The typed answer must then reach the
form's draft, or the run is refused: a benchmark that typed nowhere measures
nothing. Three alternating launches of each form. Output in
RESULTS/typing.tsv: "stall relevance|plain NS" (the longest stall of a launch)
and "frames relevance|plain N" (stalls over 2 ms counted, for the record).
"""
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

results, probe, app = sys.argv[1:4]
work = tempfile.mkdtemp()
TEXT = "Typing into the question drives"  # 31 characters


def form(path, relevance):
    rows = ["| survey |", "| | type | name | label | relevant |", "| | text | driver | Type here | |"]
    for k in range(100):
        # Each keystroke changes what string-length() gives, so each one
        # evaluates all 100 expressions and shows about three more questions.
        relevant = f"string-length(${{driver}}) > {k * 30 // 100}" if relevance else ""
        rows.append(f"| | text | q{k} | Question {k} | {relevant} |")
    rows += ["| settings |", "| | form_id | version |", f"| | typing_{relevance} | 1 |"]
    with open(path, "w") as out:
        out.write("\n".join(rows) + "\n")


def draft_answer(data_home):
    for path in glob.glob(os.path.join(data_home, "*", "form-drafts", "*.json")):
        try:
            answers = json.load(open(path))["draft"]["answers"]
        except (ValueError, KeyError):
            continue
        for answer in answers:
            if answer["path"] == "driver":
                return answer["value"]
    return None


def run(form_path):
    home = tempfile.mkdtemp(dir=work)
    stalls = os.path.join(home, "stalls")
    env = dict(os.environ, LD_PRELOAD=probe, STALL_FILE=stalls, HOME=home,
               XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
               XDG_CACHE_HOME=home + "/cache", XDG_STATE_HOME=home + "/state")
    process = subprocess.Popen([app, form_path], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not os.path.exists(stalls + ".ready"):
        if time.monotonic() > deadline or process.poll() is not None:
            sys.exit("typing.py: the window did not come up")
        time.sleep(0.05)
    window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(process.pid)],
                            capture_output=True, text=True, timeout=30).stdout.split()[0]
    subprocess.run(["xdotool", "windowfocus", "--sync", window], timeout=30, check=True)
    time.sleep(0.5)
    start = time.monotonic_ns()
    subprocess.run(["xdotool", "type", "--window", window, "--delay", "40", TEXT], timeout=60, check=True)
    time.sleep(0.3)
    end = time.monotonic_ns()
    # The autosave writes the draft a second after the last change.
    deadline = time.monotonic() + 10
    while draft_answer(env["XDG_DATA_HOME"]) != TEXT:
        if time.monotonic() > deadline:
            process.kill()
            sys.exit(f"typing.py: the typed text never reached the form (draft: {draft_answer(env['XDG_DATA_HOME'])!r})")
        time.sleep(0.1)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    during = [int(length) for finished, length in (line.split() for line in open(stalls))
              if start <= int(finished) <= end]
    return max(during, default=0), len(during)


forms = {}
for relevance in (True, False):
    forms["relevance" if relevance else "plain"] = path = os.path.join(work, f"typing-{relevance}.md")
    form(path, relevance)
worst = {who: 0 for who in forms}
frames = {who: 0 for who in forms}
for _ in range(3):
    for who, path in forms.items():
        stall, count = run(path)
        worst[who] = max(worst[who], stall)
        frames[who] = max(frames[who], count)
with open(os.path.join(results, "typing.tsv"), "w") as out:
    for who in forms:
        out.write(f"stall {who} {worst[who]}\n")
        out.write(f"frames {who} {frames[who]}\n")
