"""End-to-end harness: the real survey-form binary, real X key events, AT-SPI.

Run through `Tests/EndToEnd/run`, which provides the private session bus, the
X server (Xvfb), the accessibility bus and SURVEY_FORM_BINARY. Each test gets
a fresh HOME, XDG_DATA_HOME and XDG_CONFIG_HOME; every app it starts is killed
and reaped when it ends.

GTK 4.8 does not expose the text inside a GtkEntry to AT-SPI, so entry
contents are checked through the summary label (the view model's summary),
the draft file, the database and the CSV export.
"""

import contextlib
import csv
import io
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib  # noqa: E402

APP_ID = "io.github.surveyform.SurveyForm"
CSV_HEADER = "submitted_at,name,company,years_of_experience,current_employer,approx_salary,comments"
# Every export starts with it, so that spreadsheets read UTF-8 as UTF-8.
BOM = b"\xef\xbb\xbf"

# Every wait polls up to this long; a healthy run needs a fraction of it.
TIMEOUT = float(os.environ.get("SURVEY_FORM_E2E_TIMEOUT", "20"))


# ---------------------------------------------------------------------------
# Waiting


def field_text(field):
    """What a text field holds (GTK 4.8 takes no -1 for "to the end")."""
    return Atspi.Text.get_text(field, 0, Atspi.Text.get_character_count(field))


def wait_for(probe, what, timeout=TIMEOUT, interval=0.05):
    """Polls `probe` until it returns something truthy and returns that.

    Exceptions from the probe (an AT-SPI call to a busy app, say) count as
    "not yet". On time-out the test fails, saying what it waited for and what
    it saw last.
    """
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = probe()
            if value:
                return value
            last = value
        except Exception as error:  # noqa: BLE001 - reported on time-out
            last = error
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}; last saw {last!r}")
        time.sleep(interval)


def wait_until_equal(probe, expected, what, timeout=TIMEOUT):
    """Polls until `probe()` equals `expected`; fails showing the last value."""
    seen = []

    def check():
        value = probe()
        seen[:] = [value]
        return value == expected

    try:
        wait_for(check, what, timeout)
    except AssertionError:
        raise AssertionError(
            f"timed out after {timeout:.0f} s waiting for {what}: expected {expected!r}, last saw {seen[0] if seen else None!r}"
        ) from None
    return expected


# ---------------------------------------------------------------------------
# The session: X display, session bus, accessibility bus


def session_bus():
    return Gio.bus_get_sync(Gio.BusType.SESSION, None)


def name_has_owner(name):
    reply = session_bus().call_sync(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
        GLib.Variant("(s)", (name,)), GLib.VariantType("(b)"), Gio.DBusCallFlags.NONE, 2000, None,
    )
    return reply.unpack()[0]


@pytest.fixture(scope="session", autouse=True)
def desktop_session():
    """Checks once that the harness has what it needs: missing pieces fail, never skip."""
    problems = []
    binary = os.environ.get("SURVEY_FORM_BINARY", "")
    if not binary or not os.access(binary, os.X_OK):
        problems.append(f"SURVEY_FORM_BINARY is not an executable ({binary!r}); run through Tests/EndToEnd/run")
    if not os.environ.get("DISPLAY"):
        problems.append("no DISPLAY: run through Tests/EndToEnd/run (Xvfb)")
    else:
        result = subprocess.run(["xdotool", "getdisplaygeometry"], capture_output=True, text=True, timeout=10)
        if result.returncode != 0:
            problems.append(f"xdotool cannot reach the display: {result.stderr.strip()}")
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        problems.append("no session bus: run through Tests/EndToEnd/run (dbus-run-session)")
    if os.environ.get("NO_AT_BRIDGE") or os.environ.get("GTK_A11Y") == "none":
        problems.append("the accessibility bridge is switched off (NO_AT_BRIDGE / GTK_A11Y=none)")
    if not problems:
        try:
            wait_for(lambda: name_has_owner("org.a11y.Bus"), "the accessibility bus launcher (org.a11y.Bus)", timeout=10)
            Atspi.get_desktop(0).get_child_count()
        except Exception as error:  # noqa: BLE001
            problems.append(f"the AT-SPI bus is not usable: {error}")
    if problems:
        pytest.fail("end-to-end environment is incomplete:\n  " + "\n  ".join(problems), pytrace=False)
    yield


# ---------------------------------------------------------------------------
# Several sessions sharing the files


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """Under `Tests/EndToEnd/run --sessions N`, each session (its own bus, X
    server and HOME) runs whole test files, taking the next one no other
    session has taken: the work balances itself, and a module's fixtures stay
    in one session. Alone, pytest's own loop runs everything."""
    claims = os.environ.get("SURVEY_FORM_E2E_CLAIMS")
    if not claims or session.config.option.collectonly or session.testsfailed:
        return None
    mine = {}
    items = session.items
    for index, item in enumerate(items):
        module = item.nodeid.split("::")[0]
        if module not in mine:
            mine[module] = claim(Path(claims) / module.replace("/", "_"))
        if not mine[module]:
            continue
        # The next item, even another session's, so that this module's
        # fixtures are torn down once it is done.
        nextitem = items[index + 1] if index + 1 < len(items) else None
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
        if session.shouldfail:
            raise session.Failed(session.shouldfail)
        if session.shouldstop:
            raise session.Interrupted(session.shouldstop)
    return True


def claim(path):
    """True for the one session that creates `path` first."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        return True
    except FileExistsError:
        return False


# ---------------------------------------------------------------------------
# A fresh user per test


SECRET_SERVICE = "org.freedesktop.secrets"


def secret_service_pid(bus):
    """The process that holds the Secret Service's name on the session bus, or None."""
    try:
        reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "GetConnectionUnixProcessID", GLib.Variant("(s)", (SECRET_SERVICE,)),
                              GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, -1, None)
    except GLib.Error:
        return None
    return reply.unpack()[0]


@contextlib.contextmanager
def private_keyring(profile):
    """An unlocked login keyring in the profile's HOME, serving the session bus.

    The daemon is the caller's child, in the foreground: it has left the bus
    before the next test starts its own, and the caller goes on only once the
    Secret Service's name is held by it. A daemon started in the background
    returns before it holds the name, and one still shutting down from the
    test before can take the new one's place and then vanish.
    """
    runtime = profile.root / "keyring-runtime"
    runtime.mkdir(mode=0o700)
    log_path = profile.root / "gnome-keyring.log"
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    # The bus may not yet have seen an earlier test's daemon go.
    wait_for(lambda: secret_service_pid(bus) is None, "an earlier test's keyring to leave the session bus")
    with log_path.open("w") as log:
        daemon = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                                  stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True,
                                  env=profile.environment(XDG_RUNTIME_DIR=str(runtime)))
        daemon.stdin.write("keyring secret")
        daemon.stdin.close()
        try:
            wait_for(lambda: daemon.poll() is not None or secret_service_pid(bus) == daemon.pid,
                     "the test's keyring to serve the session bus")
            assert daemon.poll() is None, f"gnome-keyring-daemon stopped: {log_path.read_text()}"
            yield
        finally:
            daemon.terminate()
            daemon.wait(timeout=60)


class Profile:
    """A user's HOME and XDG folders, and where the app keeps its files."""

    def __init__(self, root: Path):
        self.root = root
        self.home = root / "home"
        self.data_home = self.home / ".local" / "share"
        self.config_home = self.home / ".config"
        for folder in (self.home, self.data_home, self.config_home):
            folder.mkdir(parents=True, exist_ok=True)

    @property
    def data_dir(self) -> Path:
        return self.data_home / APP_ID

    @property
    def database(self) -> Path:
        return self.data_dir / "responses.sqlite3"

    @property
    def draft(self) -> Path:
        """The built-in survey's draft: the form draft of survey_form version 1."""
        return self.data_dir / "form-drafts" / "survey_form@1.json"

    @property
    def legacy_draft(self) -> Path:
        """Where versions before the one form stack kept the survey's draft."""
        return self.data_dir / "draft.json"

    def environment(self, **extra):
        env = dict(os.environ)
        env.update(
            HOME=str(self.home),
            XDG_DATA_HOME=str(self.data_home),
            XDG_CONFIG_HOME=str(self.config_home),
            GDK_BACKEND="x11",
            GSK_RENDERER="cairo",
            # Settings land in the profile's own file, as dconf would keep them.
            GSETTINGS_BACKEND="keyfile",
            # The app speaks English unless a test asks otherwise.
            LANG="C.UTF-8",
            LC_ALL="",
            LANGUAGE="",
        )
        env.pop("NO_AT_BRIDGE", None)
        env.pop("GTK_A11Y", None)
        env.update(extra)
        return env

    def export_csv(self, destination: Path, *options, **extra):
        """`survey-form --export-csv`, with no display and no session bus."""
        env = self.environment(**extra)
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"):
            env.pop(name, None)
        return subprocess.run(
            [os.environ["SURVEY_FORM_BINARY"], "--export-csv", str(destination), *options],
            env=env, capture_output=True, text=True, timeout=60,
        )

    def exported_rows(self, tmp: Path):
        """The stored responses, through the command-line export, as dicts."""
        destination = tmp / f"export-{time.monotonic_ns()}.csv"
        result = self.export_csv(destination)
        assert result.returncode == 0, f"export failed ({result.returncode}): {result.stderr}"
        raw = destination.read_bytes()
        return parse_csv(raw)

    def exported_form_rows(self, tmp: Path, form: Path):
        """A form's stored responses, through `--export-csv --form`: the header and the rows as dicts."""
        destination = tmp / f"export-{time.monotonic_ns()}.csv"
        result = self.export_csv(destination, "--form", str(form))
        assert result.returncode == 0, f"export failed ({result.returncode}): {result.stderr}"
        return parse_csv_rows(destination.read_bytes())

    @property
    def settings_file(self) -> Path:
        return self.config_home / "glib-2.0" / "settings" / "keyfile"

    def write_settings(self, **values):
        """Sets the app's GSettings keys (GVariant text) before it starts."""
        self.settings_file.parent.mkdir(parents=True, exist_ok=True)
        lines = ["[io/github/surveyform/SurveyForm]"] + [f"{key.replace('_', '-')}={value}" for key, value in values.items()]
        self.settings_file.write_text("\n".join(lines) + "\n")

    def set_aside_files(self, name):
        return sorted(self.data_dir.glob(f"{name}.corrupt-*"))


def parse_csv(raw: bytes):
    """Checks the RFC 4180 framing of an export and returns its rows as dicts."""
    assert raw.startswith(BOM), "an export starts with the UTF-8 byte-order mark"
    text = raw[len(BOM):].decode("utf-8")
    # The seven leading columns, which scripts read by position; the form's
    # calculations and the response's metadata may follow.
    assert text.startswith((CSV_HEADER + "\r\n", CSV_HEADER + ",")), f"unexpected header: {text[:120]!r}"
    assert text.endswith("\r\n"), "the last record must end with CRLF"
    rows = list(csv.DictReader(io.StringIO(text, newline=""), strict=True))
    return rows


def parse_csv_rows(raw: bytes):
    """Any export: checks its framing; its header and its rows as dicts."""
    assert raw.startswith(BOM), "an export starts with the UTF-8 byte-order mark"
    text = raw[len(BOM):].decode("utf-8")
    assert text.endswith("\r\n"), "the last record must end with CRLF"
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    rows = list(reader)
    return reader.fieldnames, rows


@pytest.fixture
def profile(tmp_path):
    return Profile(tmp_path)


# ---------------------------------------------------------------------------
# The running app


def walk(node, depth=0, limit=40):
    """Every accessible under `node`, depth first, in child order."""
    if node is None or depth > limit:
        return
    yield node
    try:
        count = node.get_child_count()
    except GLib.Error:
        return
    for index in range(count):
        try:
            child = node.get_child_at_index(index)
        except GLib.Error:
            continue
        yield from walk(child, depth + 1, limit)


def has_state(accessible, state):
    return accessible.get_state_set().contains(state)


def text_of(accessible):
    """A label's text: its accessible name, read fresh from the app."""
    return accessible.get_name() or ""


def choose_in_file_dialog(app, title, path, focused=None):
    """In GTK's file dialog `title`, just opened: the path typed into its
    location entry, Enter; back to the window once it has closed. `focused`,
    if given, says where the focus is faster than walking the app's tree."""
    focused = focused or app.focused
    window = app.window_id
    app.window_id = wait_for(lambda: app.dialog(title), f"the file dialog {title!r}")
    app.key("ctrl+l")
    location = (Atspi.Role.TEXT, "GtkFileChooserEntry")
    entry = wait_for(
        lambda: (lambda node: node if node is not None and (node.get_role(), node.get_name()) == location else None)(focused()),
        "the chooser's location entry",
    )
    app.type(str(path))

    def typed():
        return Atspi.Text.get_text(entry, 0, Atspi.Text.get_character_count(entry))

    # Enter before the entry has settled its completion is taken by it.
    wait_until_equal(typed, str(path), "the path in the location entry")
    # The entry's completion works off the main loop: a Return that lands while
    # its popup is still up is taken by the popup, the path stays and the
    # chooser stays open. A user presses Return again; so does the test.
    deadline = time.monotonic() + TIMEOUT
    while True:
        app.key("Return")
        try:
            wait_for(lambda: app.dialog(title) is None, "the chooser to close", timeout=4)
            break
        except AssertionError:
            still_waiting = app.dialog(title) and typed() == str(path)
            if time.monotonic() > deadline or not still_waiting:
                raise
    app.window_id = window


class App:
    """One survey-form process, driven with xdotool and read through AT-SPI."""

    def __init__(self, profile: Profile, env: dict, args=(), prefix=(), binary=None):
        self.profile = profile
        self.env = env
        self.log_path = profile.root / f"app-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "wb")
        if name_has_owner(APP_ID):
            raise AssertionError(f"another survey-form instance still owns {APP_ID} on the session bus")
        self.process = subprocess.Popen(
            [*prefix, binary or os.environ["SURVEY_FORM_BINARY"], *args], env=env, stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self.pid = self.process.pid
        self.accessible = None
        self.window_id = None

    # -- start and stop

    def wait_until_ready(self, focus_role=None):
        """Waits for the window and its first focus: a text field, or `focus_role`
        (`ANY_FOCUS`: whatever the form's first control is)."""
        focus_role = focus_role or Atspi.Role.TEXT

        def find_app():
            self._check_alive()
            desktop = Atspi.get_desktop(0)
            desktop.clear_cache()
            for index in range(desktop.get_child_count()):
                app = desktop.get_child_at_index(index)
                if app is not None and self.is_mine(app) and app.get_child_count() > 0:
                    return app
            return None

        self.accessible = wait_for(find_app, f"survey-form (pid {self.pid}) on the AT-SPI bus")
        wait_for(lambda: self.frame(), "the survey window's frame")

        self.window_id = wait_for(self._find_window, "the survey window on the X display")
        self.focus_window()
        # The window puts focus in its first question when it opens.
        if focus_role is ANY_FOCUS:
            wait_for(lambda: self.focused_role() is not None, "initial focus in a control")
        else:
            wait_for(lambda: self.focused_role() == focus_role, f"initial focus in a {focus_role.value_nick}")
        return self

    def is_mine(self, accessible):
        """Whether an application on the AT-SPI bus is this process."""
        return accessible.get_process_id() == self.pid

    def x_search(self, title=None):
        """xdotool search's options that find this process's windows (those
        whose title holds `title`, if given)."""
        return ["--pid", str(self.pid), *(["--name", title] if title else [])]

    def _find_window(self):
        self._check_alive()
        result = subprocess.run(
            ["xdotool", "search", "--onlyvisible", *self.x_search()],
            capture_output=True, text=True, timeout=10,
        )
        ids = result.stdout.split()
        return ids[-1] if ids else None

    def dialog(self, title):
        """The X window of the app's dialog whose title holds `title`, if one is open."""
        found = subprocess.run(
            ["xdotool", "search", "--all", "--onlyvisible", *self.x_search(title)],
            capture_output=True, text=True, timeout=10,
        ).stdout.split()
        return found[-1] if found else None

    def _check_alive(self):
        code = self.process.poll()
        if code is not None:
            raise AssertionError(f"survey-form exited with status {code}; its output:\n{self.output()}")

    def output(self):
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def kill(self, sig=signal.SIGKILL):
        """Ends the process at once and waits until it is gone from the bus."""
        if self._log.closed:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.wait(timeout=TIMEOUT)
        # The next instance must not find this one's name and hand over to it.
        wait_for(lambda: not name_has_owner(APP_ID), f"{APP_ID} to leave the session bus")
        self._log.close()

    def quit(self):
        """Ctrl+Q: the app's own way out, which flushes its draft."""
        self.key("ctrl+q")
        self.process.wait(timeout=TIMEOUT)
        self.kill()

    @property
    def running(self):
        return self.process.poll() is None

    # -- X input

    def focus_window(self):
        result = subprocess.run(["xdotool", "windowfocus", "--sync", self.window_id], timeout=TIMEOUT, capture_output=True)
        if result.returncode != 0:
            # The window found was a dialog, closed since: the app's window is left.
            self.window_id = wait_for(self._find_window, "the survey window on the X display")
            subprocess.run(["xdotool", "windowfocus", "--sync", self.window_id], check=True, timeout=TIMEOUT)

    def type(self, text, delay_ms=8):
        """Types `text` with real key events; a newline is the Return key."""
        self.focus_window()
        for index, line in enumerate(text.split("\n")):
            if index:
                subprocess.run(["xdotool", "key", "Return"], check=True, timeout=60)
            if line:
                subprocess.run(["xdotool", "type", "--delay", str(delay_ms), "--", line], check=True, timeout=300)

    def key(self, *keys, delay_ms=30):
        self.focus_window()
        subprocess.run(["xdotool", "key", "--delay", str(delay_ms), "--", *keys], check=True, timeout=60)

    # -- AT-SPI

    def tree(self):
        self.accessible.clear_cache()
        return walk(self.accessible)

    def frame(self):
        self.accessible.clear_cache()
        for index in range(self.accessible.get_child_count()):
            child = self.accessible.get_child_at_index(index)
            if child is not None and child.get_role() == Atspi.Role.FRAME:
                return child
        return None

    def title(self):
        return self.frame().get_name()

    def find_all(self, role=None, name=None, where=None):
        found = []
        for node in self.tree():
            try:
                if role is not None and node.get_role() != role:
                    continue
                if name is not None and node.get_name() != name:
                    continue
                if where is not None and not where(node):
                    continue
            except GLib.Error:
                continue
            found.append(node)
        return found

    def find(self, role=None, name=None, where=None):
        """The first matching accessible; waits for it to appear."""
        return wait_for(
            lambda: next(iter(self.find_all(role, name, where)), None),
            f"an accessible with role {role and role.value_nick} and name {name!r}",
        )

    def focused(self):
        for node in self.tree():
            try:
                if node.get_role() != Atspi.Role.FRAME and has_state(node, Atspi.StateType.FOCUSED):
                    return node
            except GLib.Error:
                continue
        return None

    def focused_role(self):
        node = self.focused()
        return node.get_role() if node is not None else None

    def focused_description(self):
        node = self.focused()
        if node is None:
            return None
        return (node.get_role(), node.get_name())

    def down_to(self, name, limit=12):
        """Presses Down in an open menu until the item named `name` has focus."""
        for _ in range(limit):
            focused = self.focused()
            if focused is not None and focused.get_name() == name:
                return
            self.key("Down")
        raise AssertionError(f"no menu item {name!r} within {limit} steps down")

    def press(self, role, name):
        """Presses the button `name` as a pointer would: its AT-SPI action.

        A toast's button is named after its mnemonic label too under GTK 4.8
        and libadwaita 1.2 (`_Undo Undo`), so that form counts as `name`, and
        comes first: the header bar's Undo (of answers) has the plain name.
        """
        def mnemonic_named(node):
            shown = node.get_name() or ""
            return shown.endswith(" " + name) and shown[:-len(name) - 1].replace("_", "") == name

        def named(node):
            return (node.get_name() or "") == name or mnemonic_named(node)

        node = self.find(role, where=named)
        toast = self.find_all(role, where=mnemonic_named)
        Atspi.Action.do_action(toast[0] if toast else node, 0)

    def wait_focus(self, control, what=None):
        """Waits until `control`, a (role, accessible name) pair, has the keyboard focus."""
        return wait_until_equal(self.focused_description, tuple(control), what or f"focus on {control[1]!r}")

    # The form's controls, by role and accessible name (their labels).

    def control(self, role, name):
        return self.find(role, name)

    def submit_button(self):
        return self.find(Atspi.Role.PUSH_BUTTON, where=lambda node: node.get_name() in SUBMIT_NAMES)

    def submit_sensitive(self):
        return has_state(self.submit_button(), Atspi.StateType.SENSITIVE)

    def status_label(self):
        """The label beside Submit that tells what just happened."""
        button = self.submit_button()
        parent = button.get_parent()
        for index in range(parent.get_child_count()):
            child = parent.get_child_at_index(index)
            if child is not None and child.get_role() == Atspi.Role.LABEL:
                return child
        raise AssertionError("no status label beside the Submit button")

    def status(self):
        """The status label's text ('' when empty: GTK names an empty label 'GtkLabel')."""
        text = text_of(self.status_label())
        return "" if text == "GtkLabel" else text

    def wait_status(self, contains, what=None):
        return wait_for(
            lambda: (lambda text: text if contains in text else None)(self.status()),
            what or f"a status message containing {contains!r} (status now {self.status()!r})",
        )

    def summary_label(self):
        return self.find(Atspi.Role.LABEL, where=lambda node: (node.get_name() or "").startswith(SUMMARY_PREFIXES))

    def summary(self):
        """The summary label's text, parsed into a dict of its six lines."""
        return parse_summary(text_of(self.summary_label()))

    def wait_summary(self, what="the summary", timeout=TIMEOUT, **expected):
        """Waits until the summary's fields equal `expected` (keys: name, company, ...)."""

        def matches():
            summary = self.summary()
            return summary if all(summary[key] == value for key, value in expected.items()) else None

        try:
            return wait_for(matches, what, timeout)
        except AssertionError:
            raise AssertionError(f"timed out waiting for {what}: expected {expected}, summary is {self.summary()}") from None

    def value_of(self, role, name):
        return self.control(role, name).get_current_value()

    def is_checked(self, name):
        return has_state(self.control(Atspi.Role.CHECK_BOX, name), Atspi.StateType.CHECKED)

    def heading_count_label(self):
        return self.find(Atspi.Role.LABEL, where=lambda node: "stored response" in (node.get_name() or ""))


SUBMIT_NAMES = ("Submit", "Absenden")
# `launch(focus_role=ANY_FOCUS)`: the window is ready once any control has the focus.
ANY_FOCUS = "any"
SUMMARY_PREFIXES = ("Name: ",)
SUMMARY_KEYS = ("name", "company", "experience", "current_employer", "salary", "comments")


def parse_summary(text):
    """Six 'Label: value' lines; the comments (last) may span lines."""
    lines = text.split("\n")
    fields = {}
    for key, line in zip(SUMMARY_KEYS[:5], lines[:5]):
        fields[key] = line.split(": ", 1)[1] if ": " in line else line
    rest = "\n".join(lines[5:])
    fields["comments"] = rest.split(": ", 1)[1] if ": " in rest else rest
    return fields


def launching(make_app):
    """A launch fixture's body: yields `start(args, focus_role, **options)`,
    which makes an app with `make_app(args, **options)` and waits for its
    window; every app started is killed and reaped when the test ends."""
    started = []

    def start(args=(), focus_role=None, **options):
        app = make_app(args, **options)
        started.append(app)
        return app.wait_until_ready(focus_role)

    yield start
    for app in reversed(started):
        try:
            app.kill()
        except Exception:  # noqa: BLE001 - the test's own failure matters more
            pass
        # Shown by pytest only when the test failed.
        print(f"--- survey-form pid {app.pid}, exit status {app.process.returncode}:\n{app.output()}")


@pytest.fixture
def launch(profile):
    """Starts survey-form for the test's profile and waits for its window.

    `launch(**env)` adds environment variables, `prefix` a command that execs
    the app in its own process (so that its pid is the app's).
    """
    yield from launching(lambda args, prefix=(), **extra_env: App(profile, profile.environment(**extra_env), args, prefix))


@pytest.fixture
def app(launch):
    return launch()


# Accessible names of the form's controls, in English.
NAME = (Atspi.Role.TEXT, "Name")
COMPANY = (Atspi.Role.TEXT, "Company")
YEARS = (Atspi.Role.SPIN_BUTTON, "Years of experience")
CURRENT_EMPLOYER = (Atspi.Role.CHECK_BOX, "Current employer")
SALARY = (Atspi.Role.SLIDER, "Approximate salary")
COMMENTS = (Atspi.Role.TEXT, "Comments")
