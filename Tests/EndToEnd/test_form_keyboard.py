"""Enter moves on from every kind of control, not only from those typed
into: it picks the focused radio button, leaves check buttons and a switch
as they are, moves on from a scale, and, in a drop-down's open list, picks
and moves on. And what the renderer shows around a question: the required
mark, the hint under the label, a group's title and hint, and a group that
hides whole while it is not relevant."""

from pathlib import Path

from conftest import Atspi, has_state, wait_for, wait_until_equal

GARDEN = Path(__file__).parent / "forms" / "garden.md"
# A select_one's choices are radio buttons to a screen reader, a
# select_multiple's check boxes.
RED, BLUE, WHITE = ((Atspi.Role.RADIO_BUTTON, name) for name in ("Red", "Blue", "White"))
APPLE, PEAR, PLUM = ((Atspi.Role.CHECK_BOX, name) for name in ("Apple", "Pear", "Plum"))
SOIL = (Atspi.Role.PUSH_BUTTON, "Soil")
NOTES = (Atspi.Role.TEXT, "Notes")
SHED_USE = (Atspi.Role.TEXT, "What the shed holds")


def focused_name(app):
    node = app.focused()
    return node.get_name() if node is not None else None


def checked(app, control):
    return has_state(app.control(*control), Atspi.StateType.CHECKED)


def labels(app, *names):
    return [name for name in names if app.find_all(Atspi.Role.LABEL, name)]


def test_enter_moves_on_from_every_kind_of_control(launch, profile, tmp_path):
    app = launch(args=[str(GARDEN)], focus_role=Atspi.Role.RADIO_BUTTON)
    app.wait_focus(RED, "focus on the first choice")

    # The label as the form words it, the required mark beside it, the hint
    # under it; no mark without `required`.
    assert labels(app, "Favourite flower colour", "*", "Pick the one you see most") == [
        "Favourite flower colour", "*", "Pick the one you see most"]
    assert labels(app, "Fruit trees") == ["Fruit trees"]
    assert len([node for node in app.find_all(Atspi.Role.LABEL, "*") if node.get_state_set().contains(Atspi.StateType.VISIBLE)]) == 1
    # The shed group is not relevant yet: its title, hint and question are all hidden.
    assert not labels(app, "Garden shed", "Only for owners")
    assert not app.find_all(*SHED_USE)

    # A radio group with nothing picked yet: Enter picks the focused choice and moves on.
    assert not checked(app, RED), "focus alone picks nothing"
    app.key("Return")
    app.wait_focus(APPLE, "Enter to move on from the radio group")
    assert checked(app, RED) and not checked(app, BLUE) and not checked(app, WHITE), "Enter picks the focused choice"

    # Check buttons: Space ticks, Enter moves on past the other choices and ticks nothing.
    app.key("space")
    wait_for(lambda: checked(app, APPLE), "Apple ticked")
    app.key("Return")
    wait_until_equal(lambda: focused_name(app), "I own the garden", "Enter to move on from the check buttons")
    assert checked(app, APPLE) and not checked(app, PEAR) and not checked(app, PLUM), "Enter leaves the ticks as they are"

    # A switch: Space turns it on, which makes the shed group relevant, shown whole.
    app.key("space")
    wait_for(lambda: labels(app, "Garden shed", "Only for owners") == ["Garden shed", "Only for owners"],
             "the group's title and hint")
    app.find(*SHED_USE)
    # Enter moves on and leaves the switch on: the group stays.
    app.key("Return")
    wait_until_equal(lambda: focused_name(app), "Size in ares", "Enter to move on from the switch")
    assert app.find_all(*SHED_USE), "Enter did not turn the switch off"

    # A scale: the arrows move it, Enter moves on.
    app.key("Right")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "2"), "the scale's value")
    app.key("Return")
    app.wait_focus(SOIL, "Enter to move on from the scale")

    # A drop-down: Enter opens its list, as GTK's does; Enter in the list
    # picks a choice and moves on.
    app.key("Return")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Loam"), "the drop-down's list")
    # The list opens on its first choice.
    app.key("Down", "Return")
    app.wait_focus(NOTES, "Enter to pick from the list and move on")

    app.type("Roses")
    app.key("Return")
    app.wait_focus(SHED_USE, "Enter to move into the group")
    app.type("Tools")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    # A new blank response: the switch is off, and the group hidden again.
    wait_for(lambda: not app.find_all(*SHED_USE) and not labels(app, "Garden shed"), "the group hidden again")

    header, rows = profile.exported_form_rows(tmp_path, GARDEN)
    assert header[1:8] == ["flower", "fruit", "owner", "size", "soil", "notes", "shed-shed_use"], header
    assert [row[name] for row in rows for name in header[1:8]] == ["red", "apple", "true", "2", "sand", "Roses", "Tools"]
