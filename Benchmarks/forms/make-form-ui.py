#!/usr/bin/env python3
"""Writes a GtkBuilder .ui file holding the widgets survey-form builds for the
form make-large-form.py generates: the peer of the first-frame benchmark.

    make-form-ui.py N OUT.ui

Mirrors Sources/SurveyFormApp/FormWindow.swift and FormRenderer.swift: an
AdwApplicationWindow with a header bar (title, menu button), a toast overlay,
a scrolled clamp holding one AdwPreferencesGroup per group of 50, each question
a card (label, hint, control, message; the hint and the message hidden; a
question whose relevance is false at start hidden), the footer (status, Back,
page position, Next, Submit) and the stored-responses box. Controls: an entry
for text and for an integer without a closed range, check buttons in one
group for a select_one; calculations show nothing. The C peer loads it and
presents the window, nothing bound.
"""

import importlib.util
import sys
from pathlib import Path
from xml.sax.saxutils import escape

spec = importlib.util.spec_from_file_location("large_form", Path(__file__).with_name("make-large-form.py"))
large_form = importlib.util.module_from_spec(spec)
spec.loader.exec_module(large_form)

next_id = 0


def obj(cls, children=(), properties=(), classes=(), child_type=None):
    """A GtkBuilder <object>, as the <child> of its parent."""
    global next_id
    next_id += 1
    props = "".join(f'<property name="{name}">{escape(str(value))}</property>' for name, value in properties)
    style = "<style>" + "".join(f'<class name="{c}"/>' for c in classes) + "</style>" if classes else ""
    kids = "".join(children)
    kind = f' type="{child_type}"' if child_type else ""
    return f'<child{kind}><object class="{cls}" id="w{next_id}">{props}{style}{kids}</object></child>'


def label(text, visible=True, classes=()):
    properties = [("label", text), ("xalign", 0), ("wrap", "True"), ("wrap-mode", "word-char")]
    if not visible:
        properties.append(("visible", "False"))
    return obj("GtkLabel", properties=properties, classes=classes)


def control(kind):
    if kind == "select_one rating":
        group = None
        buttons = []
        for _, text in large_form.CHOICES:
            global next_id
            properties = [("label", text)]
            if group:
                properties.append(("group", group))
            buttons.append(obj("GtkCheckButton", properties=properties))
            group = group or f"w{next_id}"
        inner = obj("GtkBox", buttons, [("orientation", "vertical"), ("spacing", 2)])
        return obj("GtkBox", [inner], [("orientation", "vertical")])
    return obj("GtkEntry")


def question(kind, text, required, visible):
    title = text + (" *" if required else "")
    box = obj("GtkBox", [
        label(title),
        label("", visible=False, classes=("dim-label", "caption")),
        control(kind),
        label("", visible=False, classes=("error", "caption")),
    ], [("orientation", "vertical"), ("spacing", 6), ("margin-top", 12), ("margin-bottom", 12),
        ("margin-start", 12), ("margin-end", 12)])
    properties = [("orientation", "vertical"), ("margin-bottom", 12)]
    if not visible:
        properties.append(("visible", "False"))
    return obj("GtkBox", [box], properties, classes=("card",))


def sections(count):
    groups, rows = [], []
    title = None
    for row in large_form.survey_rows(count):
        kind = row[0]
        if kind in ("type", "calculate"):
            continue
        if kind == "begin group":
            title = row[2]
        elif kind == "end group":
            groups.append(obj("AdwPreferencesGroup", rows, [("title", title)]))
            rows = []
        else:
            relevant = row[3] if len(row) > 3 else None
            required = len(row) > 5 and row[5] == "yes"
            # Relevance reads the answer before, which is empty at start.
            rows.append(question(kind, row[2], required, visible=relevant is None))
    return groups


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-form-ui.py N OUT.ui")
    count, out = int(sys.argv[1]), sys.argv[2]
    title = f"Generated form of {count} questions"
    page = obj("GtkBox", sections(count), [("orientation", "vertical"), ("spacing", 24)])
    button = lambda text, suggested: obj(  # noqa: E731
        "GtkButton", properties=[("label", text), ("use-underline", "True"), ("visible", "False" if text != "_Submit" else "True")],
        classes=("pill", "suggested-action") if suggested else ("pill",))
    footer = obj("GtkBox", [
        obj("GtkLabel", properties=[("xalign", 0), ("wrap", "True"), ("hexpand", "True")]),
        button("_Back", False),
        obj("GtkLabel", properties=[("visible", "False")], classes=("dim-label",)),
        button("_Next", True),
        button("_Submit", True),
    ], [("spacing", 12)])
    responses = obj("GtkBox", properties=[("orientation", "vertical"), ("margin-top", 24)])
    column = obj("GtkBox", [page, footer, responses], [
        ("orientation", "vertical"), ("spacing", 24), ("margin-top", 24), ("margin-bottom", 24),
        ("margin-start", 12), ("margin-end", 12)])
    clamp = obj("AdwClamp", [column], [("maximum-size", 720)])
    scrolled = obj("GtkScrolledWindow", [clamp], [("hscrollbar-policy", "never")])
    overlay = obj("AdwToastOverlay", [scrolled], [("vexpand", "True")])
    header = obj("AdwHeaderBar", [
        f'<property name="title-widget"><object class="AdwWindowTitle"><property name="title">{escape(title)}</property>'
        f'<property name="subtitle">Version 1</property></object></property>',
        obj("GtkMenuButton", properties=[("icon-name", "open-menu-symbolic"), ("primary", "True")], child_type="end"),
    ])
    content = obj("GtkBox", [header, overlay], [("orientation", "vertical")])
    window = (f'<object class="AdwApplicationWindow" id="formWindow"><property name="title">{escape(title)}</property>'
              f'<property name="default-width">960</property><property name="default-height">680</property>'
              f'<property name="content">{content[len("<child>"):-len("</child>")]}</property></object>')
    Path(out).write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<interface>{window}</interface>\n')


if __name__ == "__main__":
    main()
