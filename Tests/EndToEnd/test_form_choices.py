"""Cascading selects: a select's choices follow an earlier answer
(`choice_filter`), as radio buttons and in a drop-down, and an answer the
filter no longer offers is dropped, as ODK Collect does. A rank, ordered
with the keyboard and with the mouse."""

import subprocess
from pathlib import Path

from conftest import Atspi, has_state, wait_for

REGIONS = Path(__file__).parent / "forms" / "regions.md"


def radio(name):
    # A select_one's choices are radio buttons to a screen reader.
    return (Atspi.Role.RADIO_BUTTON, name)


def offered(app, *names):
    return all(app.find_all(*radio(name)) for name in names)


def checked(app, name):
    return has_state(app.control(*radio(name)), Atspi.StateType.CHECKED)


def test_the_cities_offered_follow_the_country(launch, profile, tmp_path):
    app = launch(args=[str(REGIONS)], focus_role=Atspi.Role.RADIO_BUTTON)
    app.wait_focus(radio("France"), "focus on the first choice")
    assert not app.find_all(*radio("Paris")) and not app.find_all(*radio("Berlin")), "no city before a country"

    app.key("space")
    wait_for(lambda: offered(app, "Paris", "Lyon"), "the French cities")
    assert not app.find_all(*radio("Berlin")) and not app.find_all(*radio("Hamburg"))
    # A radio group is one Tab stop; the arrows move within it.
    app.key("Tab")
    app.wait_focus(radio("Paris"))
    app.key("Down")
    app.wait_focus(radio("Lyon"))
    app.key("space")
    wait_for(lambda: checked(app, "Lyon"), "Lyon picked")

    # Another country: other cities, and Lyon is no longer the answer.
    app.key("shift+Tab")
    app.wait_focus(radio("France"))
    app.key("Down")
    app.wait_focus(radio("Germany"))
    app.key("space")
    wait_for(lambda: offered(app, "Berlin", "Hamburg"), "the German cities")
    assert not app.find_all(*radio("Lyon"))
    app.key("Tab")
    app.wait_focus(radio("Berlin"))
    app.key("space")
    wait_for(lambda: checked(app, "Berlin"), "Berlin picked")

    # The drop-down offers the same narrowed list: Down picks from it.
    app.key("Tab")
    # GTK 4.8 focuses the drop-down's inner button, which carries its name.
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Nearest airport city"))
    app.key("Return")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Hamburg"), "the drop-down's list")
    app.key("Down", "Down", "Return")
    app.key("ctrl+s")
    app.wait_status("Response saved")

    _, rows = profile.exported_form_rows(tmp_path, REGIONS)
    assert [(row["country"], row["city"]) for row in rows] == [("de", "berlin")]
    assert rows[0]["airport"] == "hamburg", rows[0]


RANK_FORM = """\
| survey |
| | type | name | label |
| | rank fruit | order | Rank the fruit |

| choices |
| | list_name | name | label |
| | fruit | apple | Apple |
| | fruit | pear | Pear |
| | fruit | plum | Plum |
"""


def test_a_rank_is_ordered_with_the_keyboard_and_by_dragging_with_the_mouse(launch, profile, tmp_path):
    form = tmp_path / "fruit.md"
    form.write_text(RANK_FORM)
    app = launch(args=[str(form)], focus_role=Atspi.Role.PUSH_BUTTON)
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Move Apple down"), "focus on the first item's button")
    app.key("space")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "1. Pear"), "Apple moved below Pear")
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Move Apple down"), "focus stays with the item moved")

    # A real pointer, through the X server: Pear pressed, dragged two rows down, let go.
    first = app.find(Atspi.Role.LABEL, "1. Pear").get_extents(Atspi.CoordType.WINDOW)
    second = app.find(Atspi.Role.LABEL, "2. Apple").get_extents(Atspi.CoordType.WINDOW)
    pitch = second.y - first.y
    x, y = first.x + 5, first.y + first.height // 2
    subprocess.run(
        ["xdotool", "mousemove", "--window", app.window_id, str(x), str(y), "mousedown", "1",
         "mousemove", "--window", app.window_id, str(x), str(y + pitch),
         "mousemove", "--window", app.window_id, str(x), str(y + 2 * pitch), "mouseup", "1"],
        check=True, timeout=60,
    )
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "3. Pear"), "Pear dropped two rows down")

    app.key("ctrl+s")
    app.wait_status("Response saved")
    _, rows = profile.exported_form_rows(tmp_path, form)
    assert [row["order"] for row in rows] == ["apple plum pear"]
