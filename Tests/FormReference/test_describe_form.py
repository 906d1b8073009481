"""`survey-form --describe-form FORM` against the reference converter, pyxform:
every form of Tests/FormCorpus, in its own layout and as an .xlsx workbook,
must be described exactly as pyxform reads it, and refused exactly where
pyxform refuses it, naming the same sheet and row."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from describe import describe
from pyxform.xls2xform import convert
from workbook import Sheet, convert_to_xlsx, write_xlsx

CORPUS = Path(__file__).resolve().parent.parent / "FormCorpus"
LAYOUTS = (".md", ".csv")
# The forms the app ships are checked like the corpus.
APP_FORMS = Path(__file__).resolve().parent.parent.parent / "Sources" / "SurveyFormApp" / "Resources"
VALID = sorted(p for p in (CORPUS / "valid").iterdir() if p.suffix in LAYOUTS) + sorted(
    p for p in APP_FORMS.iterdir() if p.suffix in LAYOUTS
)
INVALID = sorted(p for p in (CORPUS / "invalid").iterdir() if p.suffix in LAYOUTS)

# In the .xlsx twin of these forms, the data cells of these (sheet, column)
# pairs are formula cells holding their text as the cached value.
FORMULA_COLUMNS = {
    "cell-kinds.md": {
        ("survey", "label"),
        ("survey", "calculation"),
        ("choices", "label"),
    },
}

# Forms refused only in their own layout: a .csv form cannot carry a sheet
# pyxform does not know, while a workbook can.
OWN_LAYOUT_ONLY = {"csv-extra-sheet.csv"}

# The types the contract names; the valid corpus must use each of them.
CONTRACT_TYPES = {
    "text", "integer", "decimal", "range", "select_one", "select_multiple", "rank",
    "note", "date", "time", "dateTime", "acknowledge", "calculate", "hidden", "group",
    "repeat", "geopoint", "image", "audio", "file", "start", "end", "today", "deviceid",
    "username", "audit", "select_one_from_file", "select_multiple_from_file",
}

ROW = re.compile(r"\[row : (\d+)\]")
SHEET = re.compile(r"On the '(\w+)' sheet")


def describe_form(binary: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [binary, "--describe-form", str(path)], capture_output=True, timeout=120
    )


def form_in_layout(form: Path, layout: str, directory: Path) -> Path:
    if layout == "own":
        return form
    return convert_to_xlsx(form, directory, FORMULA_COLUMNS.get(form.name, set()))


def sheet_rows_named(message: str) -> list[tuple[str, int]]:
    """The (sheet, row) pairs a pyxform error names: one per line that starts
    with a row; lines that name no sheet are about the survey sheet."""
    named = []
    for line in message.split("\n"):
        row = ROW.match(line)
        if row:
            sheet = SHEET.search(line)
            named.append((sheet.group(1) if sheet else "survey", int(row.group(1))))
    return named


def assert_described_like_pyxform(binary: str, path: Path) -> None:
    expected = describe(path)
    result = describe_form(binary, path)
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 0, f"{path.name}: exit {result.returncode}\n{stderr}"
    stdout = result.stdout.decode("utf-8")
    try:
        described = json.loads(stdout)
    except json.JSONDecodeError as error:
        pytest.fail(f"{path.name}: standard output is not one JSON object: {error}\n{stdout[:2000]}")
    assert isinstance(described, dict), f"{path.name}: printed {type(described).__name__}, not an object"

    # Field by field, so that a failure shows the first difference plainly.
    expected_questions = expected.pop("questions")
    described_questions = described.pop("questions", None)
    assert described == expected
    assert isinstance(described_questions, list)
    assert [q.get("path") for q in described_questions] == [q["path"] for q in expected_questions]
    for got, want in zip(described_questions, expected_questions, strict=True):
        assert got == want, f"question {want['path']}"


def assert_refused_like_pyxform(binary: str, path: Path) -> None:
    with pytest.raises(Exception) as refusal:
        convert(xlsform=str(path))
    result = describe_form(binary, path)
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, (
        f"{path.name}: exit {result.returncode}; pyxform says: {refusal.value}\n{stderr}"
    )
    assert result.stdout == b"", "nothing goes to standard output for a refused form"
    assert [line for line in stderr.splitlines() if line.strip()], "no problem reported"
    for sheet, row in sheet_rows_named(str(refusal.value)):
        assert f"{sheet} row {row}:" in stderr, (
            f"pyxform names {sheet} row {row}: {refusal.value}\nsurvey-form said:\n{stderr}"
        )


@pytest.mark.parametrize("layout", ["own", "xlsx"])
@pytest.mark.parametrize("form", VALID, ids=lambda p: p.name)
def test_valid_form_is_described_as_pyxform_reads_it(binary, form, layout, tmp_path):
    assert_described_like_pyxform(binary, form_in_layout(form, layout, tmp_path))


@pytest.mark.parametrize(
    ("form", "layout"),
    [
        pytest.param(form, layout, id=f"{form.name}-{layout}")
        for form in INVALID
        for layout in ("own", "xlsx")
        if layout == "own" or form.name not in OWN_LAYOUT_ONLY
    ],
)
def test_invalid_form_is_refused_as_pyxform_refuses_it(binary, form, layout, tmp_path):
    assert_refused_like_pyxform(binary, form_in_layout(form, layout, tmp_path))


def test_valid_corpus_uses_every_contract_type():
    used = {q["type"] for form in VALID for q in describe(form)["questions"]}
    assert CONTRACT_TYPES <= used, f"no valid form uses {sorted(CONTRACT_TYPES - used)}"


# Workbook rules that the .md and .csv layouts cannot express.

def survey_sheet(*rows, header=("type", "name", "label")) -> Sheet:
    return Sheet("survey", [list(header), *[list(r) for r in rows]])


def test_sixty_blank_rows_do_not_end_the_survey_sheet(binary, tmp_path):
    sheet = survey_sheet(["text", "a", "A"], *[[]] * 60, ["text", "a", "Again"])
    path = write_xlsx([sheet], tmp_path / "sixty_blank_rows.xlsx")
    assert_refused_like_pyxform(binary, path)


def test_sixty_one_blank_rows_end_the_survey_sheet(binary, tmp_path):
    sheet = survey_sheet(["text", "a", "A"], *[[]] * 61, ["text", "a", "Ignored"])
    path = write_xlsx([sheet], tmp_path / "sixty_one_blank_rows.xlsx")
    assert_described_like_pyxform(binary, path)


@pytest.mark.parametrize("gap", [20, 21])
def test_a_run_of_empty_header_cells_ends_the_header(binary, tmp_path, gap):
    header = ("type", "name", "label", *[None] * gap, "relevant")
    rows = [["text", "a", "A", *[None] * gap, None], ["text", "b", "B", *[None] * gap, "${a} = 'x'"]]
    path = write_xlsx([survey_sheet(*rows, header=header)], tmp_path / f"gap_{gap}.xlsx")
    assert_described_like_pyxform(binary, path)


def test_a_repeated_header_cell_is_refused(binary, tmp_path):
    sheet = survey_sheet(["text", "a", "A", "B"], header=("type", "name", "label", "label"))
    assert_refused_like_pyxform(binary, write_xlsx([sheet], tmp_path / "repeated_header.xlsx"))


def test_a_lone_sheet_is_the_survey_whatever_its_name(binary, tmp_path):
    sheet = Sheet("Questions", [["type", "name", "label"], ["integer", "age", "Age"]])
    assert_described_like_pyxform(binary, write_xlsx([sheet], tmp_path / "lone_sheet.xlsx"))


def test_a_formula_without_a_cached_value_is_an_empty_cell(binary, tmp_path):
    # openpyxl itself writes formulas with no cached value.
    import openpyxl

    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = "survey"
    worksheet.append(["type", "name", "label", "hint"])
    worksheet.append(["text", "a", '="A"', "A hint"])
    path = tmp_path / "uncached_formula.xlsx"
    workbook.save(path)
    assert_described_like_pyxform(binary, path)


# Files that are no form at all.

def test_a_missing_file_is_refused(binary, tmp_path):
    result = describe_form(binary, tmp_path / "missing.xlsx")
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.strip()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("empty.md", b""),
        ("prose.md", b"Just some words, no table.\n"),
        ("empty.csv", b""),
        ("not-a-zip.xlsx", b"PK\x03\x04 this is not really a zip archive"),
        ("text.xlsx", b"| survey |\n| | type | name | label |\n| | text | a | A |\n"),
        ("binary.csv", bytes(range(256))),
    ],
)
def test_a_file_that_is_no_form_is_refused(binary, tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(Exception):
        convert(xlsform=str(path))
    result = describe_form(binary, path)
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.strip()


def test_a_folder_is_refused(binary, tmp_path):
    result = describe_form(binary, tmp_path)
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.strip()
