"""The sandbox checks' harness: the installed Flatpak, run with `flatpak run`
under the private X server, session bus and accessibility bus of
Tests/Sandbox/run, driven as the end-to-end tests drive the binary (their
harness, Tests/EndToEnd/conftest.py, is reused here).

Inside the sandbox the app has its own process ids, so it is found by name
on the accessibility bus and by its window class on the display; its files
are under ~/.var/app/io.github.surveyform.SurveyForm, the only folder of
the user's it may write.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
END_TO_END = HERE.parent / "EndToEnd"
sys.path.insert(0, str(END_TO_END))
_spec = importlib.util.spec_from_file_location("end_to_end_harness", END_TO_END / "conftest.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)

APP_ID = harness.APP_ID
# The program's name, which GTK gives its window class and its AT-SPI application.
PROGRAM = "survey-form"


def flatpak(*arguments):
    return ["flatpak", "--user", "run", *arguments]


class SandboxProfile(harness.Profile):
    """A fresh HOME; the app's files where the sandbox puts them."""

    @property
    def sandbox(self) -> Path:
        """~/.var/app/ID: the app's private folder, the same path inside and out."""
        return self.home / ".var" / "app" / APP_ID

    @property
    def data_dir(self) -> Path:
        # XDG_DATA_HOME is the sandbox's own data folder, whatever the caller's.
        return self.sandbox / "data" / APP_ID

    def environment(self, **extra):
        env = super().environment(**extra)
        for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            env.pop(name, None)
        return env

    def run(self, *arguments, stdin=None, **extra):
        """survey-form ARGUMENTS inside the sandbox, to its end."""
        return subprocess.run(flatpak(APP_ID, *arguments), input=stdin, capture_output=True, text=True,
                              env=self.environment(**extra), timeout=120)

    def written_outside(self):
        """Files under HOME that are not the sandbox's: there should be none."""
        return sorted(str(path.relative_to(self.home)) for path in self.home.rglob("*")
                      if path.is_file() and not path.is_relative_to(self.home / ".var"))


class SandboxApp(harness.App):
    def __init__(self, profile, env, args=()):
        super().__init__(profile, env, args, prefix=flatpak(), binary=APP_ID)

    def kill(self, sig=None):
        """Ends the sandboxed app itself: a signal to `flatpak run` would
        reach only flatpak, and the app in its sandbox would live on."""
        if not self._log.closed and self.process.poll() is None:
            subprocess.run(["flatpak", "kill", APP_ID], env=self.env, capture_output=True, timeout=60)
        super().kill()

    def is_mine(self, accessible):
        return (accessible.get_name() or "") == PROGRAM

    def x_search(self, title=None):
        # One app on the display: its dialogs by title, its window by class.
        return ["--name", title] if title else ["--classname", PROGRAM]


@pytest.fixture
def profile(tmp_path):
    return SandboxProfile(tmp_path)


@pytest.fixture
def launch(profile):
    """Starts the Flatpak for the test's profile and waits for its window;
    each one started is killed at the end of the test."""
    yield from harness.launching(lambda args, **extra_env: SandboxApp(profile, profile.environment(**extra_env), args))


@pytest.fixture(scope="session", autouse=True)
def sandbox_session():
    """What the checks need; anything missing fails, never skips."""
    problems = []
    if not os.environ.get("DISPLAY"):
        problems.append("no DISPLAY: run through Tests/Sandbox/run (Xvfb)")
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        problems.append("no session bus: run through Tests/Sandbox/run")
    if not os.environ.get("FLATPAK_USER_DIR"):
        problems.append("FLATPAK_USER_DIR is not set: run through Tests/Sandbox/run")
    installed = subprocess.run(["flatpak", "--user", "info", APP_ID], capture_output=True, text=True)
    if installed.returncode != 0:
        problems.append(f"{APP_ID} is not installed (build-aux/flatpak/build-local): {installed.stderr.strip()}")
    if not problems:
        try:
            harness.wait_for(lambda: harness.name_has_owner("org.a11y.Bus"), "the accessibility bus", timeout=10)
        except AssertionError as error:
            problems.append(str(error))
    if problems:
        pytest.fail("sandbox environment is incomplete:\n  " + "\n  ".join(problems), pytrace=False)
    yield
