#!/usr/bin/env python3
"""Writes the cold start's peer window: the app's own form window
(Resources/ui/form-window.ui) with the built-in survey's six question cards in
its page, as Sources/SurveyFormApp/Rendering builds them (label and required
mark, hidden hint, the control, hidden message): two entries, a spin button
with its readout, a switch, a scale with its readout, a text view.

    coldstart-ui.py FORM-WINDOW.ui OUT.ui

The C peer (Sources/FormFirstFrameC) loads it and presents the window,
nothing bound: what GTK and libadwaita cost for the same widgets.
"""

import sys
from pathlib import Path

next_id = 0


def obj(cls, body="", classes=()):
    global next_id
    next_id += 1
    style = "".join(f'<class name="{name}"/>' for name in classes)
    style = f"<style>{style}</style>" if style else ""
    return f'<object class="{cls}" id="peer{next_id}">{body}{style}</object>'


def prop(name, value):
    return f'<property name="{name}">{value}</property>'


def child(body):
    return f"<child>{body}</child>"


def box(children, vertical=False, spacing=0, extra="", classes=()):
    return obj("GtkBox", prop("orientation", "vertical" if vertical else "horizontal") + prop("spacing", spacing)
               + extra + "".join(child(c) for c in children), classes)


def label(text, extra="", classes=()):
    return obj("GtkLabel", prop("label", text) + prop("xalign", 0) + prop("wrap", "True") + extra, classes)


def card(title, control, required=False):
    title_line = box([label(title), label("*", prop("visible", "True" if required else "False"), ("error",))], spacing=4)
    hint = label("", prop("visible", "False"), ("dim-label", "caption"))
    message = label("", prop("visible", "False"), ("error", "caption"))
    inner = box([title_line, hint, control, message], vertical=True, spacing=6,
                extra=prop("margin-top", 12) + prop("margin-bottom", 12) + prop("margin-start", 12) + prop("margin-end", 12))
    return box([inner], vertical=True, extra=prop("margin-bottom", 12), classes=("card",))


def adjustment(lower, upper, step):
    return prop("adjustment", obj("GtkAdjustment", prop("lower", lower) + prop("upper", upper) + prop("step-increment", step)))


def with_readout(control):
    return box([control, label("--", prop("width-request", 48))], spacing=12)


cards = [
    card("Name", obj("GtkEntry", prop("enable-undo", "False")), required=True),
    card("Company", obj("GtkEntry", prop("enable-undo", "False"))),
    card("Years of experience", with_readout(obj(
        "GtkSpinButton", adjustment(0, 60, 0.5) + prop("digits", 1) + prop("numeric", "False") + prop("hexpand", "True")))),
    card("Current employer", obj("GtkSwitch", prop("halign", "start"))),
    card("Approximate salary", with_readout(obj(
        "GtkScale", adjustment(0, 500000, 1000) + prop("draw-value", "False") + prop("hexpand", "True")))),
    card("Comments", obj("GtkScrolledWindow", prop("min-content-height", 96) + prop("has-frame", "True")
                         + prop("child", obj("GtkTextView", prop("wrap-mode", "word-char"))))),
]

window = Path(sys.argv[1]).read_text()
page = '<object class="GtkBox" id="page">'
start = window.index(page)
end = window.index("</object>", start)
filled = window[:end] + "".join(child(c) for c in cards) + window[end:]
Path(sys.argv[2]).write_text(filled)
