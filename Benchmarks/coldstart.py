#!/usr/bin/env python3
"""Start to the first frame: survey-form against a C program that loads the
same widgets from a .ui file (used by Benchmarks/run, under Xvfb and a D-Bus
session).

    coldstart.py RESULTS PROBE NAME APP [ARG…] -- PEER [ARG…]

Both programs get the same preloaded probe (libFirstFrameProbe.so), which
writes the CLOCK_MONOTONIC time of the window's first frame-clock
"after-paint" and exits; the launch time is taken just before the process
starts. Both run with the same fresh HOME and XDG folders; one untimed launch
of each first (page cache, the app's first-run files), then 9 alternating
launches of each. Output: "app|c <ns>" lines in RESULTS/NAME.tsv.
"""
import os
import subprocess
import sys
import tempfile
import time

results, probe, name = sys.argv[1:4]
split = sys.argv.index("--")
programs = {"app": sys.argv[4:split], "c": sys.argv[split + 1:]}
home = tempfile.mkdtemp()


def launch(command):
    path = os.path.join(home, "first-frame")
    if os.path.exists(path):
        os.remove(path)
    env = dict(os.environ, LD_PRELOAD=probe, FIRST_FRAME_FILE=path, HOME=home,
               XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
               XDG_CACHE_HOME=home + "/cache", XDG_STATE_HOME=home + "/state",
               # Settings stay in the launch's own folder, not the session's dconf.
               GSETTINGS_BACKEND="keyfile")
    start = time.monotonic_ns()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    with open(path) as handle:
        return int(handle.read()) - start


for command in programs.values():
    launch(command)
with open(os.path.join(results, name + ".tsv"), "w") as out:
    for _ in range(9):
        for who, command in programs.items():
            out.write(f"{who} {launch(command)}\n")
