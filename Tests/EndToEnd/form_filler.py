"""A form-driven filler: completes any form by keyboard alone, as a person
would, from what the form itself says.

It reads the form's description (`survey-form --describe-form`), walks the
window with Tab, and answers each question it reaches by what its control is
to a screen reader and what the form says of it: a typed answer of the
question's type (a number its constraint names, a date, a coordinate), the
first choice of a select, a generated file for an attachment. Then it submits
with Ctrl+S; where the window refuses, it is at the refused question, and it
tries that question's next candidate, until the response is saved (or,
after a bounded number of tries, fails saying where it stopped).
"""

import datetime
import re
import struct
import time
import zlib
from pathlib import Path

from conftest import Atspi, GLib, choose_in_file_dialog, has_state, wait_for

# Buttons the walk passes over: they add, remove, reorder, navigate or open
# something that is not an answer.
PASSED_OVER = re.compile(
    r"^(Add |Remove|Move |Clear|Open Link|Back$|Undo|Redo|Show Guidance|Hide Guidance|Choose Date|"
    r"Choose Time|Main Menu|Menu$|Close$|Summary)"
)
# An attachment's name and size, once stored: `1764403200123.png (1 KB)`.
STORED_FILE = re.compile(r"[\w-]+\.\w+ \((?!missing).+\)")
ATTACHMENTS = {"image", "audio", "video", "file", "background-audio", "osm"}
TYPED = {"text", "integer", "decimal", "date", "time", "dateTime", "geopoint", "geotrace", "geoshape", "barcode",
         "email", "phonenumber", "username", "start-geopoint"}
DROP_DOWNS = {"select_one", "select_one_from_file", "select_one_external", "range"}
NUMBER = re.compile(r"(?<![\w$.])-?\d+(?:\.\d+)?(?![\w.])")


def plain(text):
    """A label as a screen reader hears it: no Markdown marks, no tags, one space between words."""
    text = re.sub(r"<[^>]+>", "", text or "")
    text = re.sub(r"[*_#`]", "", text)
    return " ".join(text.split())


class Question:
    """One row of the form's description, with what the filler needs of it."""

    def __init__(self, row):
        self.row = row
        self.name = row["name"]
        self.type = row["type"]
        self.appearance = (row.get("appearance") or "").split()
        self.constraint = row.get("constraint") or ""
        self.labels = {plain(text) for text in (row.get("label") or {}).values() if text}
        # A loop's row is shown once per choice, with the choice's values in
        # place of `%(label)s` and the like: its labels are patterns.
        self.label_patterns = [re.compile(r"(?:.+?)".join(re.escape(part.replace("%%", "%"))
                                                         for part in re.split(r"%\(\w+\)s", label)))
                               for label in self.labels if "%(" in label]

    def __repr__(self):
        return f"{self.type} {self.name!r}"

    def is_labelled(self, name):
        return name in self.labels or any(pattern.fullmatch(name) for pattern in self.label_patterns)

    def constraint_numbers(self):
        """The numbers the constraint names, and their neighbours: where a range's edges are."""
        found = []
        for text in NUMBER.findall(self.constraint):
            number = float(text)
            for near in (number, number + 1, number - 1):
                found.append(int(near) if near == int(near) else near)
        return found

    def typed_candidates(self):
        """Answers to type, the likeliest valid first."""
        today = datetime.date.today()
        numbers = self.constraint_numbers()
        if self.type == "integer":
            return unique(["3", *(str(int(n)) for n in numbers), "1", "0", "10", "100", "1000"])
        if self.type == "decimal":
            return unique(["2.5", *(str(n) for n in numbers), "1", "0", "10.5", "100"])
        if self.type == "date":
            if "year" in self.appearance:
                return [str(today.year), "2000"]
            if "month-year" in self.appearance:
                return [today.strftime("%Y-%m"), "2000-01"]
            return [today.isoformat(), "2000-01-01", (today + datetime.timedelta(days=30)).isoformat()]
        if self.type == "time":
            return ["12:30", "08:00", "23:00"]
        if self.type == "dateTime":
            return [f"{today.isoformat()} 12:30", "2000-01-01 08:00"]
        if self.type in ("geopoint", "start-geopoint"):
            return ["12.5, -1.25", "0.5, 0.5"]
        if self.type == "geotrace":
            return ["12.5, -1.25\n12.6, -1.3"]
        if self.type == "geoshape":
            return ["12.5, -1.25\n12.6, -1.3\n12.55, -1.2\n12.5, -1.25"]
        if self.type == "barcode":
            return ["4006381333931"]
        if self.type == "email":
            return ["ada@example.org"]
        if "numbers" in self.appearance or self.type == "phonenumber":
            return unique(["12345", *(str(int(n)) for n in numbers if n >= 0), "0"])
        return unique(["Sample answer", "12345", "abc", *(str(n) for n in numbers), "a", "yes"])


def unique(items):
    seen = set()
    return [item for item in items if not (item in seen or seen.add(item))]


class FormFiller:
    """Completes one form in a running app; `fill()` returns the questions answered."""

    # Steps of the walk, and submits, before the filler gives up and says where it was.
    WALK_LIMIT = 400
    SUBMIT_LIMIT = 40

    def __init__(self, app, description, files: Path):
        self.app = app
        self.questions = [Question(row) for row in description["questions"]]
        self.files = files
        self.files.mkdir(parents=True, exist_ok=True)
        self.attempts = {}
        self.answered = []
        self.log = []
        self.started = time.monotonic()
        self.focus = FocusTracker(app)

    # -- where the focus is

    def focused(self):
        """The focused control, as the app last announced it: a screen reader's
        way, where walking the whole tree at each step would take seconds on a
        long form."""
        return self.focus.node()

    def focused_role(self):
        node = self.focused()
        return node.get_role() if node is not None else None

    def focused_description(self):
        node = self.focused()
        return None if node is None else (node.get_role(), node.get_name())

    # -- what a focused control is

    def question_labelled(self, name, types=None):
        """The question labelled `name`: of several, the first not answered yet."""
        name = plain(name)
        found = [question for question in self.questions
                 if question.is_labelled(name) and (types is None or question.type in types)]
        # A question labelled by an image alone is named for a screen reader by its name.
        found = found or [question for question in self.questions
                          if not question.labels and question.name == name and (types is None or question.type in types)]
        return next((question for question in found if question not in self.answered), found[0] if found else None)

    def question_unanswered(self, types):
        return next((question for question in self.questions if question.type in types and question not in self.answered), None)

    def question_holding(self, node, levels=4):
        """The question whose card holds `node`: the nearest enclosing panel named by a question's label."""
        try:
            node = node.get_parent()
            for _ in range(levels):
                if node is None:
                    return None
                question = self.question_labelled(node.get_name() or "")
                if question is not None:
                    return question
                node = node.get_parent()
        except Exception:  # noqa: BLE001 - a node gone since
            return None
        return None

    def attempt(self, key):
        count = self.attempts.get(key, 0)
        self.attempts[key] = count + 1
        return count

    # -- acting on the focused control

    def act(self, node, repair=False):
        """Answers the question whose control `node` is, if it is one; says whether it did."""
        role, name = node.get_role(), node.get_name() or ""
        if not has_state(node, Atspi.StateType.SENSITIVE):
            return False
        if role in (Atspi.Role.TEXT, Atspi.Role.SPIN_BUTTON, Atspi.Role.ENTRY):
            return self.type_answer(node, name)
        if role == Atspi.Role.RADIO_BUTTON:
            return self.pick_radio(node, name, repair)
        if role == Atspi.Role.CHECK_BOX:
            return self.tick(node, name, repair)
        if role == Atspi.Role.SLIDER:
            count = self.attempt((role, name))
            self.app.key("Right")
            self.note(self.question_labelled(name), f"slider {name!r} +{count + 1}")
            return True
        if role in (Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON):
            return self.press(node, name)
        return False

    def note(self, question, what):
        self.log.append(f"{time.monotonic() - self.started:6.1f} {what}")
        if question is not None and question not in self.answered:
            self.answered.append(question)

    def type_answer(self, node, name):
        if not has_state(node, Atspi.StateType.EDITABLE) and node.get_role() != Atspi.Role.SPIN_BUTTON:
            return False
        question = self.question_labelled(name, TYPED)
        candidates = question.typed_candidates() if question else ["1", "Sample answer"]
        count = self.attempt((Atspi.Role.TEXT, name))
        text = candidates[count % len(candidates)]
        self.app.key("ctrl+a", "BackSpace")
        self.app.type(text)
        self.note(question, f"typed {text!r} into {name!r}")
        return True

    def pick_radio(self, node, name, repair):
        question = self.question_holding(node)
        if not repair and question is not None and question in self.answered:
            # A row of radio buttons each a Tab stop (a rating's stars): one pick on the way through.
            return False
        count = self.attempt((Atspi.Role.RADIO_BUTTON, question or name))
        if count:
            self.app.key("Down")
        self.app.key("space")
        self.note(question, f"picked {name!r}{' and the next' if count else ''}")
        return True

    def tick(self, node, name, repair):
        acknowledged = self.question_labelled(name, {"acknowledge"})
        if acknowledged is not None:
            if not has_state(node, Atspi.StateType.CHECKED):
                self.app.key("space")
            self.note(acknowledged, f"acknowledged {name!r}")
            return True
        question = self.question_holding(node)
        if not repair and question is not None and question in self.answered:
            # One choice of a select_multiple on the way through; a refusal asks for more.
            return False
        if has_state(node, Atspi.StateType.CHECKED):
            key = (node.get_role(), name, position(node))
            self.app.key("Tab")
            self.wait_focus_leaves(key, "the next choice")
            if self.focused_role() != Atspi.Role.CHECK_BOX or has_state(self.focused(), Atspi.StateType.CHECKED):
                return False
        self.app.key("space")
        self.note(question, f"ticked {name!r}")
        return True

    def press(self, node, name):
        if name in ("Keep This Order",):
            self.app.key("space")
            self.note(self.rank_around(node), "kept the rank's order")
            return True
        if name == "Background recording":
            question = self.question_unanswered({"background-audio"})
            return question is not None and self.attach(question, name)
        if name.endswith(" Choose…"):
            return self.choose_several(node, name[: -len(" Choose…")])
        if PASSED_OVER.match(name):
            return False
        question = self.question_labelled(name)
        if question is None:
            return False
        if question.type in ATTACHMENTS or {"signature", "draw", "annotate"} & set(question.appearance):
            return self.attach(question, name)
        if question.type in DROP_DOWNS:
            return self.drop_down(node, question, name)
        return False

    def rank_around(self, node):
        """The rank whose Keep button `node` is: its list, beside the buttons, carries the label."""
        box = node.get_parent().get_parent()
        for index in range(box.get_child_count()):
            question = self.question_labelled(box.get_child_at_index(index).get_name() or "", {"rank"})
            if question is not None:
                return question
        return self.question_holding(node, levels=6)

    def choose_several(self, node, label):
        question = self.question_labelled(label)
        self.app.key("Return")
        self.wait(lambda: self.focused_role() == Atspi.Role.CHECK_BOX, f"the choices of {label!r} open")
        count = self.attempt((Atspi.Role.PUSH_BUTTON, label))
        for _ in range(count):
            self.app.key("Tab")
        self.app.key("space")
        self.app.key("Escape")
        self.wait(lambda: self.focused_role() == Atspi.Role.PUSH_BUTTON, f"focus back on {label!r}")
        self.note(question, f"chose from {label!r}")
        return True

    def drop_down(self, node, question, name):
        count = self.attempt((Atspi.Role.PUSH_BUTTON, name))
        self.app.key("Return")
        self.wait(lambda: self.focused() is not None and self.focused().get_name() != name,
                 f"the list of {name!r} open")
        self.app.key(*["Down"] * (count + 1), "Return")
        # A pick moves on to the next question, as Collect does.
        self.wait(lambda: self.focused_description() not in (None, (Atspi.Role.PUSH_BUTTON, name)),
                 f"the pick in {name!r} taken")
        if self.focused_description() in ((Atspi.Role.SCROLL_PANE, ""), (Atspi.Role.TEXT, f"Search {name}")):
            # Still in the open list, which is empty (its search or filter
            # offers no choice): close it, as a person would.
            self.app.key("Escape")
            self.wait(lambda: self.focused_description() == (Atspi.Role.PUSH_BUTTON, name), f"the empty list of {name!r} closed")
            self.log.append(f"nothing to pick in {name!r}")
            return True
        self.note(question, f"picked in {name!r}")
        return True

    def attach(self, question, name, kind=None):
        """Space on the question's Choose button, a sample file typed into the
        dialog; where the question refuses it, a file of a kind it names."""
        path = self.sample_file(question, kind)
        card = self.focused().get_parent().get_parent()
        shown_before = labels_under(card)
        self.app.key("space")
        title = self.wait(lambda: self.dialog_title(), f"a file dialog for {name!r}")
        choose_in_file_dialog(self.app, title, path, focused=self.focused)
        self.app.focus_window()

        def outcome():
            shown = [text for text in labels_under(card) if text not in shown_before]
            if any(STORED_FILE.fullmatch(text) for text in shown):
                return "stored"
            return next((text for text in shown if text.startswith(path.name + " ")), None)

        result = self.wait(outcome, f"the file for {name!r} stored or refused")
        if result != "stored":
            if kind is not None:
                raise AssertionError(f"{path.name} refused at {name!r}: {result}\n" + self.trail())
            self.log.append(f"refused {path.name}: {result}")
            accepted = re.search(r"it takes ([^)]*)\)", result)
            return self.attach(question, name, kind=accepted.group(1).split(",")[0].strip() if accepted else "*")
        self.note(question, f"attached {path.name} to {name!r}")
        return True

    def dialog_title(self):
        for title in ("Choose Photo", "Choose Recording", "Choose Video", "Choose File", "Choose Image", "Choose Map Data"):
            if self.app.dialog(title):
                return title
        return None

    def sample_file(self, question, kind=None):
        """A small file of the kind the question takes: by its type, or `kind`
        (an extension or media type the question named when it refused one)."""
        kind = kind or {"image": "image/*", "audio": "audio/*", "background-audio": "audio/*",
                        "video": "video/*", "osm": ".osm"}.get(question.type, ".txt")
        if kind.startswith("image/"):
            return self.sample("sample.png", lambda path: write_png(path, 40, 30))
        if kind.startswith("audio/"):
            return self.sample("sample.wav", lambda path: path.write_bytes(wav_bytes()))
        if kind.startswith("video/"):
            return self.sample("sample.mp4", lambda path: path.write_bytes(mp4_bytes()))
        if kind == ".osm":
            return self.sample("sample.osm", lambda path: path.write_text(OSM))
        if kind == ".pdf" or kind == "application/pdf":
            return self.sample("sample.pdf", lambda path: path.write_bytes(PDF))
        extension = kind if kind.startswith(".") else ".txt"
        return self.sample("sample" + extension, lambda path: path.write_text("A sample file.\n"))

    def sample(self, name, write):
        path = self.files / name
        if not path.exists():
            write(path)
        return path

    # -- the walk and the submit

    def fill(self):
        """Walks the form answering what it reaches, then submits until saved; the questions answered."""
        try:
            self.walk()
            self.submit()
        finally:
            self.focus.close()
        print("\n".join(self.log))
        return self.answered

    def walk(self):
        visits = {}
        turned_page = False
        for _ in range(self.WALK_LIMIT):
            node = self.wait(self.focused, "a focused control")
            role, name = node.get_role(), node.get_name() or ""
            if role == Atspi.Role.PUSH_BUTTON and name in ("Submit", "Absenden"):
                return
            if role == Atspi.Role.PUSH_BUTTON and name == "Next":
                # One button on every page: not a place the walk has been.
                self.next_page()
                turned_page = True
                continue
            key = (role, name, position(node))
            visits[key] = visits.get(key, 0) + 1
            if visits[key] > 1 and not turned_page:
                # Tab came round again without meeting Submit (insensitive
                # until the form is valid): the submit says what is missing.
                return
            if visits[key] > self.SUBMIT_LIMIT:
                raise AssertionError(f"Next was refused at {name!r} ({role.value_nick}) again and again:\n" + self.trail())
            if visits[key] > 1:
                # Next was refused, and the window came back to this answer.
                self.log.append(f"refused at {name!r}")
                self.act(node, repair=True)
                self.move_on(key)
                self.next_page()
                continue
            turned_page = False
            self.act(node)
            self.move_on(key)
        raise AssertionError(f"the walk did not reach Submit in {self.WALK_LIMIT} steps:\n" + self.trail())

    def next_page(self):
        """Alt+Right: the next page's first question, or back to a refused answer."""
        self.log.append("next page")
        key = self.focused_key()
        self.app.key("alt+Right")
        self.wait_focus_leaves(key, "the next page, or the refused answer")

    def move_on(self, key):
        """Tab, unless acting has moved the focus on already (a drop-down's pick)."""
        if self.focused_key() == key:
            self.app.key("Tab")
            self.wait_focus_leaves(key, f"Tab to move on from {key[1]!r}")

    def focused_key(self):
        node = self.focused()
        return None if node is None else (node.get_role(), node.get_name() or "", position(node))

    def wait_focus_leaves(self, key, what):
        self.wait(lambda: self.focused_key() not in (None, key), what)

    def wait(self, probe, what):
        """`wait_for`, failing with the filler's last steps."""
        try:
            return wait_for(probe, what)
        except AssertionError as error:
            raise AssertionError(f"{error}\n{self.trail()}") from None

    def submit(self):
        for _ in range(self.SUBMIT_LIMIT):
            self.app.key("ctrl+s")
            status = self.wait(lambda: self.status(), "the submit's outcome")
            if "Response saved" in status:
                return
            node = self.wait(self.focused, "focus on the refused question")
            key = (node.get_role(), node.get_name() or "", position(node))
            self.log.append(f"refused: {status!r} at {key[1]!r}")
            if not self.act(node, repair=True):
                raise AssertionError(
                    f"the submit was refused ({status!r}) at {key[1]!r} ({key[0].value_nick}),"
                    " which the filler cannot answer:\n" + self.trail())
            self.move_on(key)
            # The changed answer clears the refusal: the next submit's outcome is news.
            self.wait(lambda: self.status() == "", f"the new answer at {key[1]!r} to clear the refusal")
        raise AssertionError(f"no response saved after {self.SUBMIT_LIMIT} submits:\n" + self.trail())

    def status(self):
        """The line beside Submit (or Next, before the last page) that says what the window did."""
        button = self.wait(lambda: next(iter(self.app.find_all(
            Atspi.Role.PUSH_BUTTON, where=lambda node: node.get_name() in ("Submit", "Next"))), None),
            "the Submit or Next button")
        parent = button.get_parent()
        for index in range(parent.get_child_count()):
            child = parent.get_child_at_index(index)
            if child is not None and child.get_role() == Atspi.Role.LABEL:
                text = child.get_name() or ""
                return "" if text == "GtkLabel" else text
        raise AssertionError("no status line beside the Submit or Next button")

    def trail(self):
        return "\n".join(f"  {line}" for line in self.log[-40:])


class FocusTracker:
    """Follows the app's focus through AT-SPI's focus events."""

    def __init__(self, app):
        self.app = app
        self.current = None
        self.listener = Atspi.EventListener.new(self.on_focus)
        self.listener.register("object:state-changed:focused")
        # Focus given before the listener started is found once, the slow way.
        self.current = app.focused()

    def on_focus(self, event):
        try:
            if event.source.get_process_id() != self.app.pid:
                return
        except GLib.Error:
            return
        if event.detail1:
            self.current = event.source
        elif self.current is not None and self.current.path == event.source.path:
            self.current = None

    def node(self):
        context = GLib.MainContext.default()
        while context.iteration(False):
            pass
        return self.current

    def close(self):
        self.listener.deregister("object:state-changed:focused")


def labels_under(node, depth=3):
    """The texts of the labels within `depth` levels under `node`."""
    texts = []
    if node is None or depth < 0:
        return texts
    try:
        for index in range(node.get_child_count()):
            child = node.get_child_at_index(index)
            if child is None:
                continue
            if child.get_role() == Atspi.Role.LABEL:
                texts.append(child.get_name() or "")
            texts.extend(labels_under(child, depth - 1))
    except GLib.Error:
        pass
    return texts


def position(node):
    """The control's own object on the accessibility bus: tells apart two controls of one name."""
    return node.path


# The smallest PDF a content sniffer calls one.
# One traced way, as OpenMapKit hands Collect an `.osm` file.
OSM = """<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="survey-form-tests">
  <node id="-1" lat="52.5200" lon="13.4050"/>
  <node id="-2" lat="52.5201" lon="13.4052"/>
  <way id="-3"><nd ref="-1"/><nd ref="-2"/><tag k="building" v="yes"/></way>
</osm>
"""
PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


def write_png(path, width, height):
    """A red PNG of `width` × `height` pixels."""
    rows = b"".join(b"\0" + b"\xff\0\0" * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def wav_bytes(samples=800):
    """A tenth of a second of silence, 8 kHz mono, as a WAV file."""
    data = b"\0\0" * samples
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16)
            + b"data" + struct.pack("<I", len(data)) + data)


def mp4_bytes():
    """The smallest MP4 a content sniffer calls video: an ftyp box and an empty mdat."""
    ftyp = b"ftypisom" + struct.pack(">I", 512) + b"isomiso2mp41"
    return struct.pack(">I", len(ftyp) + 4) + ftyp + struct.pack(">I", 8) + b"mdat"
