"""100,000 stored responses: the window opens with all of them listed (read
off the main thread, rows made only for those in view), and a submit adds
one row at the top without reading them again."""

import sqlite3

from conftest import NAME, text_of, wait_for

COUNT = 100_000


def fill(database):
    with sqlite3.connect(database) as db:
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO form_response (formID, formVersion, instanceID, startedAt, submittedAt, title, answers)
            SELECT 'survey_form', '1', 'uuid:' || i, datetime(1700000000 + i, 'unixepoch'),
                   datetime(1700000000 + i, 'unixepoch'), 'Respondent ' || i || ' — Company ' || (i % 97),
                   json_array(json_object('path', 'name', 'value', 'Respondent ' || i),
                              json_object('path', 'company', 'value', 'Company ' || (i % 97)),
                              json_object('path', 'years_of_experience', 'value', (i % 120) / 2.0, 'kind', 'number'))
            FROM n
            """,
            (COUNT,),
        )


def listed_names(app):
    return [text_of(node).split("\n")[0] for node in app.find_all(where=lambda n: (n.get_name() or "").startswith("Respondent "))]


def test_a_hundred_thousand_responses_are_listed_and_a_submit_adds_one(launch, profile):
    launch().quit()  # the app makes its database
    fill(profile.database)

    app = launch()
    heading = wait_for(
        lambda: (lambda label: label if text_of(label) == "100000 stored responses" else None)(app.heading_count_label()),
        "the heading to count every response",
    )
    assert heading
    names = wait_for(lambda: listed_names(app) or None, "the newest responses in the list")
    assert names[:2] == ["Respondent 100000 — Company 90", "Respondent 99999 — Company 89"], names[:3]
    # GTK makes rows for what is in view (and a margin), not for 100,000.
    assert len(names) < 300, len(names)

    app.wait_focus(NAME)
    app.type("Newest Respondent")
    app.wait_summary(name="Newest Respondent")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    wait_for(lambda: text_of(app.heading_count_label()) == "100001 stored responses", "the heading to count it")
    wait_for(
        lambda: [text_of(node).split("\n")[0] for node in app.find_all(
            where=lambda n: (n.get_name() or "").startswith(("Respondent ", "Newest Respondent")))][:2]
        == ["Newest Respondent", "Respondent 100000 — Company 90"],
        "the new response at the top of the list",
    )
