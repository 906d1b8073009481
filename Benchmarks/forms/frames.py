#!/usr/bin/env python3
"""Frames under load: the longest time survey-form's main loop is busy
(handling input, laying out, painting; nothing else can be drawn meanwhile)
while a user types or pastes, each beside a lighter peer.

    frames.py RESULTS PROBE SURVEY_FORM

Run under Xvfb and a D-Bus session (Benchmarks/forms/window). The probe
(libFirstFrameProbe.so, $STALL_FILE) notes every stall of the main loop over
2 ms. Each scenario runs three times, alternating with its peer; the worst
stall counts. Lines in RESULTS/frames.tsv: "stall SCENARIO NS".

- typing: xdotool types 31 characters, 40 ms apart, into the first question
  of a form where 100 questions' `relevant` reads it ("relevance"), and of
  the same form without the expressions ("plain"). The typed text must reach
  the form's draft, or the run is refused: typing nowhere measures nothing.
- submitting, in the built-in survey over 100,000 stored responses
  ("submit-many"), beside the same over none ("submit-none"): xdotool
  types a name and presses Ctrl+S; the response must reach the database.
  The stretch runs on for two seconds (the list, the toast).
- searching a long list: a form whose first question is a select_one from
  a 100,000-row CSV file beside it ("search-list"): Enter opens the list,
  and from the first key xdotool types "Village 42137" into its search, 40
  ms apart, and Enter picks the match, which must reach the draft; beside
  typing into a plain text question ("plain").
- opening a long list: Enter opens that list and the stretch runs on for
  two seconds ("open-long"), beside the same with a 20-row file
  ("open-short"): GTK builds the rows it shows as the list first opens.
- attaching a photo: a form asking for a photo scaled to max-pixels=1024;
  Space opens GTK's file dialog, the photo's path is typed into it, and
  from the Return that chooses it until two seconds after the scaled copy
  is stored, beside the same with a small photo: a 20-megapixel JPEG
  ("photo-20mp", 5472 × 3648 pixels of noise, the slowest to decode)
  beside a 0.3-megapixel one ("photo-small", 640 × 480). The dialog's own
  opening is not counted: it is the same for both, and GTK's.
- pasting, in the built-in survey: 100,000 characters into the name
  ("paste-name") and the comments ("paste-comments"), 100,000 letters into
  the spin button ("paste-years"), beside 100 characters into the name
  ("paste-short"). A paste must reach the draft too (the spin button's
  letters are refused, so there the app must simply still be running).
"""
import glob
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generated import fill  # noqa: E402
from stalls import longest as stalls_longest  # noqa: E402

results, probe, app = sys.argv[1:4]
work = tempfile.mkdtemp()
TEXT = "Typing into the question drives"  # 31 characters
APP_ID = "io.github.surveyform.SurveyForm"


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


def village_form(folder, count):
    """A form choosing one of `count` villages from a CSV file beside it."""
    path = os.path.join(folder, f"villages-{count}.md")
    with open(path, "w") as out:
        out.write(f"| survey |\n| | type | name | label |\n| | select_one_from_file villages-{count}.csv | village | Village |\n"
                  "| settings |\n| | form_id | version |\n| | search_list | 1 |\n")
    with open(os.path.join(folder, f"villages-{count}.csv"), "w") as out:
        out.write("name,label\n")
        for row in range(count):
            out.write(f"v{row},Village {row}\n")
    return path


def search_list(window):
    keys(window, "Return")
    time.sleep(0.5)
    # The stretch starts at the first key of the search: the list's opening
    # is timed apart ("open-long").
    launched["start"] = time.monotonic_ns()
    subprocess.run(["xdotool", "type", "--delay", "40", "Village 42137"], timeout=60, check=True)
    keys(window, "Return")


def open_list(window):
    keys(window, "Return")


def strings_in(value):
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def draft_holds(data_home, text):
    # NB: a GtkEntry keeps only the first 65,534 characters of a paste.
    start = text[:65_534]
    for path in glob.glob(os.path.join(data_home, APP_ID, "**", "*.json"), recursive=True):
        try:
            if any(value.startswith(start) for value in strings_in(json.load(open(path)))):
                return True
        except ValueError:
            continue
    return False


def measure(args, act, expect=None, data=None):
    """Launches the app with `args` (over a copy of the data folder `data`,
    if given), runs `act(window)` and returns the longest stall from its
    start until the input reached the draft (two seconds, when nothing is
    expected there)."""
    home = tempfile.mkdtemp(dir=work)
    launched["data"] = os.path.join(home, "data", APP_ID)
    if data:
        shutil.copytree(data, launched["data"])
    stalls = os.path.join(home, "stalls")
    env = dict(os.environ, LD_PRELOAD=probe, STALL_FILE=stalls, HOME=home,
               XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
               XDG_CACHE_HOME=home + "/cache", XDG_STATE_HOME=home + "/state",
               # Settings stay in the launch's own folder, not the session's dconf.
               GSETTINGS_BACKEND="keyfile")
    process = subprocess.Popen([app, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not os.path.exists(stalls + ".ready"):
        if time.monotonic() > deadline or process.poll() is not None:
            sys.exit(f"frames.py: {current}: the window did not come up")
        time.sleep(0.05)
    window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(process.pid)],
                            capture_output=True, text=True, timeout=30).stdout.split()[0]
    subprocess.run(["xdotool", "windowfocus", "--sync", window], timeout=30, check=True)
    time.sleep(0.5)
    start = launched["start"] = time.monotonic_ns()
    act(window)
    if expect is not None:
        # The autosave writes the draft a second after the last change; a
        # paste arrives in pieces, and may be handled after act() returns.
        deadline = time.monotonic() + 60
        while not draft_holds(env["XDG_DATA_HOME"], expect):
            if time.monotonic() > deadline:
                process.kill()
                found = [len(value) for path in glob.glob(os.path.join(env["XDG_DATA_HOME"], APP_ID, "**", "*.json"),
                                                           recursive=True) for value in strings_in(json.load(open(path)))]
                sys.exit(f"frames.py: {current}: the input never reached the draft (its texts' lengths: {found})")
            time.sleep(0.1)
    else:
        time.sleep(2)
    # Every stall from the first key until now counts.
    end = time.monotonic_ns()
    if process.poll() is not None:
        sys.exit("frames.py: the app died under the input")
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    # act() may start the stretch later (after a dialog it opened first).
    start = launched["start"]
    return stalls_longest(stalls, start, end, debug=current if os.environ.get("FRAMES_DEBUG") else None)


# Real key events (XTEST) to the focused window: GTK takes a synthetic
# (XSendEvent) Ctrl+V for nothing.
def keys(window, *names):
    subprocess.run(["xdotool", "key", "--delay", "60", *names], timeout=60, check=True)


def type_text(window):
    subprocess.run(["xdotool", "type", "--delay", "40", TEXT], timeout=60, check=True)


def paste(text, *before, after=()):
    """Puts `text` on the clipboard (xclip serves it) and pastes it after `before`."""
    def act(window):
        server = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-i"], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server.stdin.write(text.encode())
        server.stdin.close()
        deadline = time.monotonic() + 10
        while len(subprocess.run(["xclip", "-selection", "clipboard", "-o"], capture_output=True,
                                 timeout=10).stdout) != len(text.encode()):
            if time.monotonic() > deadline:
                sys.exit("frames.py: xclip did not take the clipboard")
            time.sleep(0.05)
        if before:
            keys(window, *before)
        keys(window, "ctrl+v", *after)
        time.sleep(0.5)
        server.kill()
        server.wait()
    return act


def stored(count):
    """A data folder whose database (made by the app) holds `count`
    generated responses."""
    home = tempfile.mkdtemp(dir=work)
    env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
               GSETTINGS_BACKEND="keyfile")
    subprocess.run([app, "--screenshot", os.path.join(home, "shot.png")], env=env, check=True,
                   capture_output=True, timeout=120)
    data = os.path.join(home, "data", APP_ID)
    fill(Path(data) / "responses.sqlite3", count)
    return data


# The data folder of the app measure() launched last.
launched = {}


def submit():
    """Types a name, submits with Ctrl+S and waits for the response to be
    stored."""
    def count():
        with sqlite3.connect(f"file:{launched['data']}/responses.sqlite3?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT count(*) FROM form_response").fetchone()[0]

    def act(window):
        before = count()
        subprocess.run(["xdotool", "type", "--delay", "40", "Ada"], timeout=60, check=True)
        if os.environ.get("FRAMES_DEBUG"):
            print("submitting at", round((time.monotonic_ns() - launched["start"]) / 1e6), file=sys.stderr)
        keys(window, "ctrl+s")
        deadline = time.monotonic() + 30
        while count() != before + 1:
            if time.monotonic() > deadline:
                sys.exit(f"frames.py: {current}: the response never reached the database")
            time.sleep(0.05)
    return act


def photo_form(folder):
    path = os.path.join(folder, "photo.md")
    with open(path, "w") as out:
        out.write("| survey |\n| | type | name | label | parameters |\n| | image | photo | Photo | max-pixels=1024 |\n"
                  "| settings |\n| | form_id | version |\n| | photo | 1 |\n")
    return path


def photo(width, height):
    path = os.path.join(work, f"photo-{width}x{height}.jpg")
    subprocess.run(["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "make-photo.py"),
                    str(width), str(height), path], check=True, timeout=120)
    return path


def attach(path):
    """Space on the question's Choose button, the path typed into GTK's file
    dialog; the stretch starts at the Return that chooses it and lasts until
    the stored copy is in the app's folder (and two seconds more, in measure())."""
    def stored():
        return [name for name in glob.glob(os.path.join(launched["data"], "**", "*.jpg"), recursive=True)]

    def act(window):
        keys(window, "space")
        deadline = time.monotonic() + 30
        while True:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Choose Photo"],
                                   capture_output=True, text=True, timeout=30).stdout.split()
            if found:
                break
            if time.monotonic() > deadline:
                sys.exit(f"frames.py: {current}: the file dialog did not open")
            time.sleep(0.1)
        subprocess.run(["xdotool", "windowfocus", "--sync", found[-1]], timeout=30, check=True)
        keys(window, "ctrl+l")
        time.sleep(0.5)
        subprocess.run(["xdotool", "type", "--delay", "10", path], timeout=60, check=True)
        # The location entry completes off the main loop; a Return taken by
        # its popup leaves the dialog open, and a second one chooses.
        time.sleep(1)
        launched["start"] = time.monotonic_ns()
        deadline = time.monotonic() + 60
        while not stored():
            if time.monotonic() > deadline:
                sys.exit(f"frames.py: {current}: the photo never reached the app's folder")
            if subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Choose Photo"],
                              capture_output=True, text=True, timeout=30).stdout.split():
                keys(window, "Return")
            time.sleep(0.5)
    return act


forms = {}
for relevance in (True, False):
    forms[relevance] = path = os.path.join(work, f"typing-{relevance}.md")
    form(path, relevance)
long_text, long_letters, short_text = "x" * 100_000, "abc" * 33_334, "y" * 100
many, none = stored(100_000), stored(0)
villages, short_villages = village_form(work, 100_000), village_form(work, 20)
photos = photo_form(work)
large_photo, small_photo = photo(5472, 3648), photo(640, 480)
scenarios = {
    "photo-20mp": lambda: measure([photos], attach(large_photo)),
    "photo-small": lambda: measure([photos], attach(small_photo)),
    "submit-many": lambda: measure([], submit(), data=many),
    "submit-none": lambda: measure([], submit(), data=none),
    "relevance": lambda: measure([forms[True]], type_text, TEXT),
    "plain": lambda: measure([forms[False]], type_text, TEXT),
    "search-list": lambda: measure([villages], search_list, "v42137"),
    "open-long": lambda: measure([villages], open_list),
    "open-short": lambda: measure([short_villages], open_list),
    "paste-name": lambda: measure([], paste(long_text), long_text),
    "paste-comments": lambda: measure([], paste(long_text, *["Tab"] * 5), long_text),
    "paste-years": lambda: measure([], paste(long_letters, "Tab", "Tab", "ctrl+a", after=("Tab",))),
    "paste-short": lambda: measure([], paste(short_text), short_text),
}
# FRAMES_ONLY=name,name runs some scenarios, once each (to look into one);
# FRAMES_DEBUG=1 prints each launch's stalls over 4 ms, in milliseconds from
# the first key.
only = [name for name in os.environ.get("FRAMES_ONLY", "").split(",") if name]
if only:
    scenarios = {name: scenarios[name] for name in only}
worst = {name: 0 for name in scenarios}
for _ in range(1 if only else 3):
    for name, run in scenarios.items():
        current = name
        worst[name] = max(worst[name], run())
with open(os.path.join(results, "frames.tsv"), "w") as out:
    for name, stall in worst.items():
        out.write(f"stall {name} {stall}\n")
