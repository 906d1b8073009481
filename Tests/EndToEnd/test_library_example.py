"""The binding library's example app (Examples/Sources/Greeter), built as an
adopter would build it: its entry, check button and label come from a .ui
file and are bound to a view model of plain observables."""

import os
import signal

from conftest import App, Atspi, has_state, wait_for


def label_named(app, text):
    return app.find(Atspi.Role.LABEL, where=lambda node: node.get_name() == text)


def test_greeter_binds_its_ui_file_to_its_view_model_both_ways(profile):
    app = App(profile, profile.environment(), binary=os.environ["GREETER_BINARY"]).wait_until_ready()
    try:
        wait_for(lambda: label_named(app, "Who is there?"), "the greeting of a blank name")
        app.type("Ada")
        wait_for(lambda: label_named(app, "Hi, Ada!"), "the greeting to follow the typed name")
        app.key("Tab")
        app.key("space")
        formal = app.find(Atspi.Role.CHECK_BOX, "Formal")
        wait_for(lambda: has_state(formal, Atspi.StateType.CHECKED), "Formal checked by the keyboard")
        wait_for(lambda: label_named(app, "Good day, Ada."), "the greeting to follow the check button")
        # Back in the entry, whose text focus selects: to its end, then one letter off.
        app.key("shift+Tab")
        app.key("End")
        app.key("BackSpace")
        wait_for(lambda: label_named(app, "Good day, Ad."), "an edit after the others to reach the label too")
    finally:
        app.kill(signal.SIGTERM)
