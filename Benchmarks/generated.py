"""Generated responses to the built-in survey, written straight into the
app's database by SQLite (whose schema the app made): what the benchmarks
that need many stored responses share."""
import sqlite3
from pathlib import Path


def fill(database: Path, count: int, queued: bool = False):
    """Replaces the stored responses with `count` generated ones, every one
    queued for the server when `queued`."""
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM response")
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO response (submittedAt, name, companyName, yearsOfExperience, isCurrentEmployer,
                                  approxSalary, comments, instanceID)
            SELECT datetime(1800000000 + i, 'unixepoch'), 'Respondent ' || i, 'Company, ' || (i % 97),
                   (i % 120) / 2.0, i % 2, (i % 500) * 1000.0,
                   'A comment of some length, with "quotes", for response ' || i, 'uuid:bench-' || i
            FROM n
            """,
            (count,),
        )
        if queued:
            db.execute("""
                INSERT INTO delivery (instanceID, source, responseID, state, queuedAt)
                SELECT instanceID, 'survey', id, 'waiting', datetime('now') FROM response ORDER BY id
                """)
