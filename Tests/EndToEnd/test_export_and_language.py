"""`survey-form --export-csv` with no display, and the German translation."""

import re
from datetime import datetime, timedelta, timezone

from conftest import COMMENTS, COMPANY, CSV_HEADER, NAME, Atspi, parse_csv, wait_for


def submit(app, name, company="", comments=""):
    app.wait_focus(NAME)
    app.type(name)
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type(company)
    app.key("Tab", "Tab", "Tab", "Tab")
    app.wait_focus(COMMENTS)
    app.type(comments)
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.wait_summary(name="--")


def test_export_matches_what_was_submitted(app, profile, tmp_path):
    started = datetime.now(timezone.utc).replace(microsecond=0)
    submit(app, "Ada Lovelace", "Analytical Engines", 'She said "hi", then left')
    submit(app, "Grace Hopper", comments="Line one\nLine two")
    submit(app, "=cmd|' /C calc'!A0")

    destination = tmp_path / "out.csv"
    result = profile.export_csv(destination)
    assert result.returncode == 0, result.stderr
    assert "Exported 3 responses to" in result.stdout
    raw = destination.read_bytes()

    # RFC 4180: CRLF between records, quotes doubled, fields with a comma,
    # a quote or a line break quoted; nothing else quoted.
    lines = raw.decode().split("\r\n")
    assert lines[0] == CSV_HEADER
    assert lines[1].endswith(',Ada Lovelace,Analytical Engines,,false,,"She said ""hi"", then left"')
    assert lines[2].endswith(',Grace Hopper,,,false,,"Line one\nLine two"')
    assert lines[3].endswith(",=cmd|' /C calc'!A0,,,false,,")
    assert lines[4] == "" and len(lines) == 5

    rows = parse_csv(raw)
    assert [(row["name"], row["company"], row["comments"]) for row in rows] == [
        ("Ada Lovelace", "Analytical Engines", 'She said "hi", then left'),
        ("Grace Hopper", "", "Line one\nLine two"),
        ("=cmd|' /C calc'!A0", "", ""),
    ]
    for row in rows:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row["submitted_at"]), row["submitted_at"]
        submitted = datetime.strptime(row["submitted_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        assert started - timedelta(seconds=1) <= submitted <= datetime.now(timezone.utc) + timedelta(seconds=1)


def test_export_of_an_empty_store_is_the_header(profile, tmp_path):
    destination = tmp_path / "empty.csv"
    result = profile.export_csv(destination)
    assert result.returncode == 0, result.stderr
    assert destination.read_bytes() == (CSV_HEADER + "\r\n").encode()
    assert "Exported 0 responses" in result.stdout


def test_export_sets_a_corrupt_database_aside(profile, tmp_path):
    profile.data_dir.mkdir(parents=True)
    profile.database.write_bytes(b"\x00garbage\xff" * 500)
    destination = tmp_path / "after-damage.csv"
    result = profile.export_csv(destination)
    assert result.returncode == 0, result.stderr
    assert "damaged" in result.stderr
    assert len(profile.set_aside_files("responses.sqlite3")) == 1
    assert destination.read_bytes() == (CSV_HEADER + "\r\n").encode()


def test_export_to_an_unwritable_place_fails_clearly(profile, tmp_path):
    result = profile.export_csv(tmp_path / "no-such-folder" / "out.csv")
    assert result.returncode != 0
    assert "export" in result.stderr.lower()
    assert "no-such-folder" in result.stderr


def test_german_with_language_de(launch):
    app = launch(LANG="C.UTF-8", LANGUAGE="de")
    wait_for(lambda: app.title() == "Umfrageformular", "the German window title")
    for role, name in [
        (Atspi.Role.LABEL, "Name"),
        (Atspi.Role.LABEL, "Firma"),
        (Atspi.Role.TEXT, "Firma"),
        (Atspi.Role.PUSH_BUTTON, "Absenden"),
        (Atspi.Role.LABEL, "Zusammenfassung"),
    ]:
        app.find(role, name)
    summary = app.find(Atspi.Role.LABEL, where=lambda node: (node.get_name() or "").startswith("Name: --\nFirma: --"))
    assert summary is not None
    # The survey form's own messages are German too, each from its German
    # column: the required message, and the one its calculate row picks.
    app.key("ctrl+s")
    app.wait_status("Bitte einen Namen angeben.")
    app.type("a" * 201, delay_ms=2)
    app.key("ctrl+s")
    app.wait_status("Der Name darf höchstens 200 Zeichen lang sein.")
    app.key("ctrl+a")
    app.type("Ada")
    app.key("ctrl+s")
    app.wait_status("Antwort gespeichert")
