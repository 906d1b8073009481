"""Every form of the corpus that pyxform accepts opens (and some as the XForms
pyxform writes from them), and is completed and
submitted by keyboard alone by a filler that knows nothing of it but what
the form itself says (`form_filler.py`).

SURVEY_FORM_FILL_FORMS=FOLDER runs the same test over the forms in FOLDER
instead (a team's own forms, with their media folders beside them)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import ANY_FOCUS
from form_filler import FormFiller

CORPUS = Path(os.environ.get("SURVEY_FORM_FILL_FORMS") or Path(__file__).parent.parent / "FormCorpus" / "valid")
FORMS = sorted(path for path in CORPUS.iterdir() if path.suffix in (".md", ".csv", ".xlsx", ".xml"))
# Some of them as XForms too (Tests/EndToEnd/run writes them with pyxform),
# and legacy Excel workbooks as pyxform ships them.
if not os.environ.get("SURVEY_FORM_FILL_FORMS"):
    WORKBOOKS = CORPUS.parent / "workbooks"
    FORMS += [WORKBOOKS / f"xlsform--tests-example_xls-{name}.xls" for name in ("tutorial", "specify_other", "yes_or_no_question", "cascading_select_test_equivalent")]
    XFORMS = Path(os.environ["SURVEY_FORM_XFORMS"])
    FORMS += sorted(path for path in XFORMS.iterdir() if path.suffix == ".xml")

# Types with no control: computed, or filled in by the app.
NOT_SHOWN = {"calculate", "hidden", "start", "end", "today", "deviceid", "username", "phonenumber", "email",
             "audit", "simserial", "subscriberid", "start-geopoint", "xml-external", "csv-external",
             "note", "group", "repeat", "loop"}


def describe(form, profile):
    result = subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], "--describe-form", str(form)],
        env=profile.environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, f"{form.name} does not open: {result.stderr}"
    return json.loads(result.stdout)


def ancestors(question, by_path):
    parts = question.row["path"].split("/")
    return [by_path["/".join(parts[:depth])] for depth in range(1, len(parts)) if "/".join(parts[:depth]) in by_path]


def always_relevant(question, by_path):
    return not question.row["relevant"] and not any(ancestor["relevant"] for ancestor in ancestors(question, by_path))


def always_shown(question, by_path):
    """A question the window shows whatever is answered: relevant everywhere,
    outside repeats, not read-only, not computed, a control of its own."""
    row = question.row
    if question.type in NOT_SHOWN or row["read_only"] or row["calculation"]:
        return False
    if "url" in question.appearance:
        # Shown as a link to open, as Collect shows it: not typed.
        return False
    return always_relevant(question, by_path) and not any(
        ancestor["type"] == "repeat" for ancestor in ancestors(question, by_path))


def columns_of(question, header):
    name = question.name
    return [column for column in header if column == name or column.endswith("-" + name)]


@pytest.mark.parametrize("form", FORMS, ids=[path.name for path in FORMS])
def test_the_form_is_completed_by_keyboard_from_its_own_rules(form, launch, profile, tmp_path):
    description = describe(form, profile)
    app = launch(args=[str(form)], focus_role=ANY_FOCUS)
    filler = FormFiller(app, description, tmp_path / "files")
    answered = filler.fill()

    header, rows = profile.exported_form_rows(tmp_path, form)
    assert len(rows) == 1, f"one response stored, not {len(rows)}"
    (row,) = rows

    by_path = {question["path"]: question for question in description["questions"]}
    missed = [question for question in filler.questions
              if always_shown(question, by_path) and question not in answered]
    assert not missed, f"questions the keyboard never reached: {missed}\n" + filler.trail()

    # An answer kept unless a later one makes its question irrelevant.
    for question in (question for question in answered if always_relevant(question, by_path)):
        columns = columns_of(question, header)
        assert columns, f"{question} answered, but no column of the export holds it: {header}"
        assert any(row[column] for column in columns), (
            f"{question} answered by the keyboard, but stored blank: {[(c, row[c]) for c in columns]}\n" + filler.trail())
