"""Forms that read data files from their media folder: a long list chosen by
typing, values pulled from CSV and XML files, and a missing file refused by
name before anything opens."""

import os
import shutil
import subprocess
from pathlib import Path

from conftest import Atspi, wait_for

CORPUS = Path(__file__).parent.parent / "FormCorpus"
VILLAGES = CORPUS / "valid" / "external-data.md"


def test_a_village_from_a_csv_file_is_found_by_typing_and_its_data_pulled(launch, profile, tmp_path):
    app = launch(args=[str(VILLAGES)], focus_role=Atspi.Role.RADIO_BUTTON)
    assert app.title() == "Village visits"
    app.wait_focus((Atspi.Role.RADIO_BUTTON, "North"), "focus in the region")
    app.key("Return")
    village = (Atspi.Role.PUSH_BUTTON, "Village")
    app.wait_focus(village, "Enter picks the region and moves on to the village list")
    # The list opens on Enter with its search entry focused; typing narrows
    # it, Down moves into it and Enter picks.
    app.key("Return")
    app.wait_focus((Atspi.Role.ENTRY, "Search Village"), "typing goes to the list's search")
    app.type("math")
    app.key("Down", "Return")
    summary = "mathare: 206000 people, clinic Mathare North Clinic, code N1"
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, name=summary),
             "the note filled in from the CSV row, the XML file and the form's own list, heard without its marks")
    # Enter in the search entry picks the first match, before the list has
    # even narrowed; the GeoJSON features are named by their titles.
    app.wait_focus((Atspi.Role.PUSH_BUTTON, "Nearest well"), "Enter moves on after the pick")
    app.key("Return")
    app.wait_focus((Atspi.Role.ENTRY, "Search Nearest well"))
    app.type("olym\n")
    app.wait_focus((Atspi.Role.CHECK_BOX, "Kibera"), "the well picked, and on to the next question")
    app.key("ctrl+s")
    app.wait_status("Response saved")

    header, rows = profile.exported_form_rows(tmp_path, VILLAGES)
    assert len(rows) == 1, rows
    row = rows[0]
    assert (row["region"], row["village"], row["population"]) == ("north", "mathare", "206000")
    assert row["clinic"] == "Mathare North Clinic"
    assert row["region_code"] == "N1"
    assert row["well"] == "w1", "a GeoJSON feature's id is its value"
    assert "clinics" not in header, "xml-external declares a file; it holds no answer"


def test_a_form_whose_data_file_is_missing_is_refused_naming_the_file(profile, tmp_path):
    form = tmp_path / "visits.md"
    shutil.copy(VILLAGES, form)
    media = tmp_path / "visits-media"
    media.mkdir()
    for name in ("villages.csv", "clinics.xml"):
        shutil.copy(VILLAGES.parent / "external-data-media" / name, media / name)
    result = subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], str(form)],
        env=profile.environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2, result
    assert "The data file 'wells.geojson' is missing" in result.stderr, result.stderr
    assert str(media) in result.stderr, "where it was looked for"
    assert not profile.database.exists(), "a form that cannot run opens nothing"

    # A broken row is named by its line, and nothing opens either.
    (media / "wells.geojson").write_text('{"type": "FeatureCollection", "features": []}')
    (media / "villages.csv").write_text('name,label\nkibera,Kibera,south,extra\n')
    result = subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], str(form)],
        env=profile.environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2, result
    assert "'villages.csv' cannot be read: line 2: 4 values, but the first line names 2 columns" in result.stderr, result.stderr
