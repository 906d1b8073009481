"""Photos and files: chosen with the keyboard through GTK's file dialog,
scaled to the form's max-pixels, stored with the response and exported
beside the CSV."""

import re
import struct
import subprocess

from conftest import Atspi, choose_in_file_dialog, wait_for
from form_filler import write_png

FORM = """\
| survey |
| | type | name | label | parameters | body::accept |
| | text | visitor | Visitor | | |
| | image | house | Photo of the house | max-pixels=32 | |
| | file | report | Report | | .pdf |

| settings |
| | form_id | form_title |
| | house_visit | House visit |
"""

VISITOR = (Atspi.Role.TEXT, "Visitor")
HOUSE = (Atspi.Role.PUSH_BUTTON, "Photo of the house")
REPORT = (Atspi.Role.PUSH_BUTTON, "Report")


def png_size(path):
    data = path.read_bytes()
    return struct.unpack(">II", data[16:24])


def test_a_photo_is_chosen_with_the_keyboard_scaled_stored_and_exported_beside_the_csv(launch, profile, tmp_path):
    form = tmp_path / "visit.md"
    form.write_text(FORM)
    photo = tmp_path / "house.png"
    write_png(photo, 200, 100)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a report")

    app = launch(args=[str(form)])
    app.wait_focus(VISITOR)
    app.type("Ada")
    app.key("Tab")
    app.wait_focus(HOUSE, "Tab to the photo's Choose button")
    app.key("space")
    choose_in_file_dialog(app, "Choose Photo", photo)
    stored = wait_for(
        lambda: next(iter(app.find_all(Atspi.Role.LABEL, where=lambda node: re.fullmatch(r"\d+\.png \(.*\)", node.get_name() or ""))), None),
        "the stored photo's name and size",
    )
    name = stored.get_name().split(" ")[0]

    # With no window manager here, nothing gives the window the focus back
    # when the dialog goes, as a desktop's would.
    app.focus_window()
    # A file that is not what the question takes is refused at the question.
    app.wait_focus(HOUSE)
    app.key("Tab", "Tab")
    app.wait_focus(REPORT, "past Remove to the report's Choose button")
    app.key("space")
    choose_in_file_dialog(app, "Choose File", notes)
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: "notes.txt is text/plain" in (node.get_name() or "")),
             "the refusal, at the question")
    app.focus_window()

    app.key("ctrl+s")
    app.wait_status("Response saved")
    header, rows = profile.exported_form_rows(tmp_path, form)
    assert [row["house"] for row in rows] == [name]
    assert rows[0]["report"] == ""
    exported = sorted(tmp_path.glob("export-*-media"))
    assert len(exported) == 1, exported
    assert png_size(exported[0] / name) == (32, 16), "scaled by its longer side to max-pixels"
    assert png_size(photo) == (200, 100), "the chosen file is left as it was"


SIGNATURE_FORM = """\
| survey |
| | type | name | label | appearance |
| | image | consent | Sign here | signature |
"""


def test_a_signature_is_drawn_with_the_mouse_and_stored_as_the_answer(launch, tmp_path):
    form = tmp_path / "consent.md"
    form.write_text(SIGNATURE_FORM)
    app = launch(args=[str(form)], focus_role=Atspi.Role.PUSH_BUTTON)
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Sign here"), "Choose, for the keyboard, takes the focus")
    pad = app.find(name="Signature pad")
    extents = pad.get_extents(Atspi.CoordType.WINDOW)
    middle_x, middle_y = extents.x + extents.width // 2, extents.y + extents.height // 2
    # A real pointer, through the X server: button down, across, up.
    subprocess.run(
        ["xdotool", "mousemove", "--window", app.window_id, str(middle_x - 120), str(middle_y), "mousedown", "1",
         "mousemove", "--window", app.window_id, str(middle_x), str(middle_y + 20),
         "mousemove", "--window", app.window_id, str(middle_x + 120), str(middle_y), "mouseup", "1"],
        check=True, timeout=60,
    )
    wait_for(
        lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: re.fullmatch(r"\d+\.png \(.*\)", node.get_name() or "")),
        "the drawing stored as the answer",
    )


AUDIT_FORM = """\
| survey |
| | type | name | label | parameters |
| | audit | | | track-changes=true |
| | text | visitor | Visitor | |
| | integer | age | Age | |

| settings |
| | form_id |
| | audited |
"""


def test_an_audit_log_of_the_questions_visited_is_stored_and_exported_with_the_response(launch, profile, tmp_path):
    form = tmp_path / "audited.md"
    form.write_text(AUDIT_FORM)
    app = launch(args=[str(form)])
    app.wait_focus(VISITOR)
    app.type("Ada")
    app.key("Tab")
    app.wait_focus((Atspi.Role.TEXT, "Age"))
    app.type("36")
    app.key("ctrl+s")
    app.wait_status("Response saved")

    header, rows = profile.exported_form_rows(tmp_path, form)
    assert rows[0]["audit"] == "audit.csv"
    exported = sorted(tmp_path.glob("export-*-media"))
    log = (exported[0] / "audit.csv").read_text().splitlines()
    assert log[0] == "event,node,start,end,old-value,new-value"
    events = [line.split(",") for line in log[1:]]
    assert [event[0] for event in events] == ["form start", "question", "question", "form finalize"], log
    assert events[1][1:2] + events[1][4:] == ["/data/visitor", "", "Ada"], log
    assert events[2][1:2] + events[2][4:] == ["/data/age", "", "36"], log
    assert int(events[1][2]) <= int(events[1][3]) <= int(events[2][2]) <= int(events[2][3]), "entered and left in order"
