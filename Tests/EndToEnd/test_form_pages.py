"""A form shown a page at a time: Back and Next (Alt+Left and Alt+Right),
pages skipped when nothing on them is relevant, and Next refused while an
answer on the page is refused, as ODK Collect does."""

from pathlib import Path

from conftest import Atspi, has_state, wait_for

PAGES = Path(__file__).parent / "forms" / "pages.md"

NAME = (Atspi.Role.TEXT, "Name")
AGE = (Atspi.Role.SPIN_BUTTON, "Age")
JOB = (Atspi.Role.TEXT, "Occupation")
CONSENT = (Atspi.Role.CHECK_BOX, "I confirm this")


def page_label(app, text):
    return app.find_all(Atspi.Role.LABEL, text)


def buttons(app, name):
    return app.find_all(Atspi.Role.PUSH_BUTTON, name)


def test_a_paged_form_is_walked_with_alt_arrows_and_submitted(launch, profile, tmp_path):
    app = launch(args=[str(PAGES)])
    app.wait_focus(NAME, "focus on the first page's first question")
    wait_for(lambda: page_label(app, "Page 1 of 3"), "the page position (the adults' page not counted)")
    assert buttons(app, "Next") and not buttons(app, "Submit"), "Next, not Submit, before the last page"
    assert not app.find_all(*AGE), "a later page is not in the accessibility tree"

    # Next is refused while the page has a refused answer.
    app.key("alt+Right")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "This question requires an answer."), "the required message")
    app.wait_focus(NAME)
    app.type("Ada")
    app.key("alt+Right")
    app.wait_focus(AGE, "Next to the group's page")
    wait_for(lambda: page_label(app, "Page 2 of 3"), "the page position")
    assert not app.find_all(*NAME)

    app.type("150")
    app.key("alt+Right")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Enter an age under 130."), "the constraint message")
    app.wait_focus(AGE, "focus stays on the refused answer")
    app.key("ctrl+a", "BackSpace")
    app.type("12")
    app.key("alt+Right")
    app.wait_focus(CONSENT, "a child skips the adults' page")
    wait_for(lambda: buttons(app, "Submit"), "Submit on the last page")
    assert not buttons(app, "Next")

    # Back, and an adult sees the page skipped before.
    app.key("alt+Left")
    app.wait_focus(AGE, "Back to the group's page")
    app.key("ctrl+a", "BackSpace")
    app.type("40")
    app.key("Tab")
    wait_for(lambda: page_label(app, "Page 2 of 4"), "the adults' page counted once relevant")
    app.key("alt+Right")
    app.wait_focus(JOB, "an adult sees the adults' page")
    app.type("Engineer")
    app.key("alt+Right")
    app.wait_focus(CONSENT)

    # Submit refused on the last page sends focus to the page with the problem.
    app.key("ctrl+s")
    app.wait_focus(CONSENT, "the missing consent")
    app.key("space")
    wait_for(lambda: has_state(app.control(*CONSENT), Atspi.StateType.CHECKED), "the consent on")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.wait_focus(NAME, "a blank response starts on the first page")

    header, rows = profile.exported_form_rows(tmp_path, PAGES)
    assert header[:6] == ["submitted_at", "name", "health-age", "health-doctor", "adult-job", "finish-consent"]
    assert [(row["name"], row["health-age"], row["adult-job"], row["finish-consent"]) for row in rows] == [
        ("Ada", "40", "Engineer", "true"),
    ]
