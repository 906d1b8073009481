"""`survey-form --export-csv` with no display, and the German translation."""

import os
import re
import stat
from datetime import datetime, timedelta, timezone

from conftest import BOM, COMMENTS, COMPANY, CSV_HEADER, NAME, Atspi, parse_csv, wait_for


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
    # a quote or a line break quoted; nothing else quoted. A text a
    # spreadsheet would run as a formula starts with ' (OWASP).
    # The seven leading columns are read by position; the form's calculations
    # and the response's metadata follow them.
    assert raw.startswith(BOM)
    lines = raw[len(BOM):].decode().split("\r\n")
    assert lines[0].startswith(CSV_HEADER + ",")
    assert lines[0].endswith(",instance_id,form_version,started_at")
    leading = [line.split(",", 1)[1] for line in lines[1:4]]
    assert leading[0].startswith('Ada Lovelace,Analytical Engines,,false,,"She said ""hi"", then left",')
    assert leading[1].startswith('Grace Hopper,,,false,,"Line one\nLine two",')
    assert leading[2].startswith("'=cmd|' /C calc'!A0,,,false,,,")
    assert lines[4] == "" and len(lines) == 5

    rows = parse_csv(raw)
    assert [(row["name"], row["company"], row["comments"]) for row in rows] == [
        ("Ada Lovelace", "Analytical Engines", 'She said "hi", then left'),
        ("Grace Hopper", "", "Line one\nLine two"),
        ("'=cmd|' /C calc'!A0", "", ""),
    ]
    # Only its owner may read it.
    assert stat.S_IMODE(destination.stat().st_mode) == 0o600
    for row in rows:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row["submitted_at"]), row["submitted_at"]
        submitted = datetime.strptime(row["submitted_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        assert started - timedelta(seconds=1) <= submitted <= datetime.now(timezone.utc) + timedelta(seconds=1)


def test_export_of_an_empty_store_is_the_header(launch, profile, tmp_path):
    launch().quit()  # a healthy database with no response in it
    destination = tmp_path / "empty.csv"
    result = profile.export_csv(destination)
    assert result.returncode == 0, result.stderr
    raw = destination.read_bytes()
    assert raw.startswith(BOM + (CSV_HEADER + ",").encode()) and raw.endswith(b",started_at\r\n")
    assert raw.count(b"\r\n") == 1, "the header alone"
    assert "Exported 0 responses" in result.stdout


def test_export_without_a_database_fails_and_writes_nothing(profile, tmp_path):
    destination = tmp_path / "nothing.csv"
    result = profile.export_csv(destination)
    assert result.returncode != 0
    assert "no response database" in result.stderr
    assert not destination.exists()


def test_export_refuses_a_damaged_database_and_keeps_it(profile, tmp_path):
    profile.data_dir.mkdir(parents=True)
    damaged = b"\x00garbage\xff" * 500
    profile.database.write_bytes(damaged)
    destination = tmp_path / "after-damage.csv"
    destination.write_text("yesterday's export")
    result = profile.export_csv(destination, "--force")
    assert result.returncode != 0
    assert "damaged" in result.stderr
    assert destination.read_text() == "yesterday's export", "a failed export replaces nothing"
    assert profile.database.read_bytes() == damaged, "the export only reads"
    assert profile.set_aside_files("responses.sqlite3") == []


def test_export_replaces_a_file_only_with_force_keeping_its_mode(app, profile, tmp_path):
    submit(app, "Ada")
    destination = tmp_path / "responses.csv"
    destination.write_text("keep me")
    os.chmod(destination, 0o640)

    refused = profile.export_csv(destination)
    assert refused.returncode != 0
    assert "already exists" in refused.stderr and "--force" in refused.stderr
    assert destination.read_text() == "keep me"

    forced = profile.export_csv(destination, "--force")
    assert forced.returncode == 0, forced.stderr
    assert parse_csv(destination.read_bytes())[0]["name"] == "Ada"
    assert stat.S_IMODE(destination.stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith(".")) == [], "no temporary file left"


def test_export_never_writes_through_a_link_or_into_the_data_folder(app, profile, tmp_path):
    submit(app, "Ada")
    target = tmp_path / "precious.txt"
    target.write_text("not an export")
    link = tmp_path / "link.csv"
    link.symlink_to(target)

    assert profile.export_csv(link).returncode != 0, "a link is a file that exists"
    forced = profile.export_csv(link, "--force")
    assert forced.returncode == 0, forced.stderr
    assert target.read_text() == "not an export", "the link's target is untouched"
    assert not link.is_symlink() and parse_csv(link.read_bytes())[0]["name"] == "Ada"

    before = profile.database.read_bytes()
    into_data = profile.export_csv(profile.database, "--force")
    assert into_data.returncode != 0
    assert "data folder" in into_data.stderr
    assert profile.database.read_bytes() == before


def test_export_to_an_unwritable_place_fails_clearly(launch, profile, tmp_path):
    launch().quit()
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
