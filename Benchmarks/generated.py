"""Generated responses to the built-in survey, written straight into the
app's database by SQLite (whose schema the app made): what the benchmarks
that need many stored responses share."""
import sqlite3
from pathlib import Path


def fill(database: Path, count: int, queued: bool = False):
    """Replaces the stored responses with `count` generated ones, every one
    queued for the server when `queued`."""
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM delivery")
        db.execute("DELETE FROM form_response")
        # As the survey's form stores them: answers by path, in form order,
        # numbers and the acknowledgement with their kinds.
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO form_response (formID, formVersion, instanceID, startedAt, submittedAt, title, answers)
            SELECT 'survey_form', '1', 'uuid:bench-' || i, datetime(1800000000 + i, 'unixepoch'),
                   datetime(1800000000 + i, 'unixepoch'), 'Respondent ' || i || ' — Company, ' || (i % 97),
                   json_array(
                       json_object('path', 'name', 'value', 'Respondent ' || i),
                       json_object('path', 'company', 'value', 'Company, ' || (i % 97)),
                       json_object('path', 'years_of_experience', 'value', CAST((i % 120) / 2.0 AS TEXT), 'kind', 'number'),
                       json_object('path', 'current_employer', 'value', CASE i % 2 WHEN 1 THEN 'OK' ELSE '' END,
                                   'kind', 'boolean'),
                       json_object('path', 'approx_salary', 'value', CAST((i % 500) * 1000 AS TEXT), 'kind', 'number'),
                       json_object('path', 'comments',
                                   'value', 'A comment of some length, with "quotes", for response ' || i))
            FROM n
            """,
            (count,),
        )
        if queued:
            db.execute("""
                INSERT INTO delivery (instanceID, source, responseID, state, queuedAt)
                SELECT instanceID, 'form', id, 'waiting', datetime('now') FROM form_response ORDER BY id
                """)
