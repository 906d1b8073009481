"""Real workbooks from public repositories (Tests/FormCorpus/workbooks, each
one's source and licence in its SOURCES.tsv), as their authors saved them:
dates typed into cells, line ends, styles and extra sheets of real
spreadsheets, which the corpus's own forms (written as .md and turned into
.xlsx by these tests) do not have. `survey-form --describe-form` must
describe each exactly as pyxform reads it, or, where pyxform refuses one
(pyxform's own examples of broken forms), refuse it naming the same rows."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from pyxform.xls2xform import convert
from test_describe_form import assert_described_like_pyxform, assert_refused_like_pyxform

WORKBOOKS = Path(__file__).resolve().parent.parent / "FormCorpus" / "workbooks"
# .xlsx, and the Excel 97–2003 .xls pyxform reads through xlrd.
FORMS = sorted([*WORKBOOKS.glob("*.xlsx"), *WORKBOOKS.glob("*.xls")])


def test_every_workbook_has_its_source_and_licence():
    with open(WORKBOOKS / "SOURCES.tsv", newline="", encoding="utf-8") as sources:
        listed = {row["file"]: row for row in csv.DictReader(sources, delimiter="\t")}
    assert sorted(listed) == [form.name for form in FORMS]
    for row in listed.values():
        assert row["repository"] and row["commit"] and row["licence"], row
        licence = WORKBOOKS / (row["repository"].replace("/", "-") + ".LICENSE")
        assert licence.is_file(), f"no licence text beside {row['file']} ({licence.name})"


@pytest.mark.parametrize("form", FORMS, ids=lambda p: p.name)
def test_public_workbook_is_described_as_pyxform_reads_it(binary, form):
    try:
        convert(xlsform=str(form))
    except Exception:  # noqa: BLE001 - pyxform refuses with several kinds of error
        assert_refused_like_pyxform(binary, form)
        return
    assert_described_like_pyxform(binary, form)
