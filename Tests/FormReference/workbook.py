"""Turns a form written in pyxform's .md or .csv layout into the .xlsx
workbook a spreadsheet program would save for it, so that every corpus form
is also checked as a real workbook.

The cells are written as a spreadsheet holds them: text whose value is a
number becomes a number cell (a version such as 2024091201, choice names 1,
2, 3), TRUE and FALSE become boolean cells, blank rows stay blank rows, empty
cells are absent, and text goes into the shared strings table. openpyxl
writes inline strings and formulas without a cached value, so the sheets are
rewritten afterwards: text moves to xl/sharedStrings.xml (the settings sheet
keeps inline strings, so both kinds are read), and the columns asked for
become formula cells carrying their cached value, as a saved workbook does.
"""

from __future__ import annotations

import csv
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
from openpyxl.utils import get_column_letter

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
SHARED_STRINGS_TYPE = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
)
SHARED_STRINGS_CONTENT = (
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
)

INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)\.[0-9]*[1-9]")


@dataclass
class Sheet:
    name: str
    # Row 0 is the header; None is an empty cell; an empty list is a blank row.
    rows: list[list[str | None]] = field(default_factory=list)


def read_layout(path: Path) -> list[Sheet]:
    """The sheets of a form in pyxform's .md or .csv layout."""
    if path.suffix == ".md":
        table_rows = _markdown_rows(path.read_text(encoding="utf-8"))
    elif path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as f:
            table_rows = [[cell.strip() or None for cell in row] for row in csv.reader(f)]
    else:
        raise ValueError(f"{path}: not a .md or .csv form")

    sheets: list[Sheet] = []
    for cells in table_rows:
        if not cells:
            continue
        first, rest = cells[0], cells[1:]
        if first is not None:
            sheets.append(Sheet(first))
        if not sheets:
            continue
        sheet = sheets[-1]
        if any(c is not None for c in rest):
            sheet.rows.append(rest)
        elif sheet.rows:
            sheet.rows.append([])
    return sheets


def _markdown_rows(text: str) -> list[list[str | None]]:
    rows = []
    for line in text.split("\n"):
        if re.match(r"^\s*#", line):
            continue
        # A comment after the last pipe ends the row.
        comment = re.match(r"^(.*)(#[^|]+)$", line)
        if comment:
            line = comment.group(1)
        table = re.match(r"\s*\|(.*)\|\s*", line)
        if not table or re.match(r"^[\|-]+$", table.group(1)):
            continue
        cells = re.split(r"(?<!\\)\|", table.group(1))
        rows.append([c.strip().replace("\\|", "|") or None for c in cells])
    return rows


def write_xlsx(
    sheets: list[Sheet],
    out: Path,
    formula_columns: set[tuple[str, str]] = frozenset(),
) -> Path:
    """Writes the sheets as an .xlsx workbook at `out`.

    `formula_columns` names (sheet, header) pairs, lower case, whose data
    cells become formulas with the cell's text as their cached value.
    """
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    # (sheet index, cell reference) → cached value of a formula cell.
    cached: dict[tuple[int, str], str | int | float] = {}
    for index, sheet in enumerate(sheets):
        worksheet = workbook.create_sheet(sheet.name)
        header = [h.lower() if h else "" for h in (sheet.rows[0] if sheet.rows else [])]
        for row_number, row in enumerate(sheet.rows, start=1):
            values = []
            for column, text in enumerate(row, start=1):
                value = _cell_value(text)
                heading = header[column - 1] if column <= len(header) else ""
                if (
                    row_number > 1
                    and value is not None
                    and (sheet.name.lower(), heading) in formula_columns
                ):
                    cached[(index, f"{get_column_letter(column)}{row_number}")] = value
                    value = _formula_for(value)
                values.append(value)
            worksheet.append(values)
    workbook.save(out)
    _rewrite_sheets(out, sheets, cached)
    return out


def _cell_value(text: str | None):
    if text is None:
        return None
    if text.startswith("="):
        # openpyxl would store it as a formula without a value.
        raise ValueError(f"a cell may not start with '=' in a corpus form: {text!r}")
    if text in ("TRUE", "FALSE"):
        return text == "TRUE"
    if INTEGER.fullmatch(text):
        return int(text)
    if DECIMAL.fullmatch(text) and repr(float(text)) == text:
        return float(text)
    return text


def _formula_for(value) -> str:
    if isinstance(value, bool):
        return "=TRUE()" if value else "=FALSE()"
    if isinstance(value, (int, float)):
        return f"={value!r}*1"
    return '="' + value.replace('"', '""') + '"'


def _rewrite_sheets(path: Path, sheets: list[Sheet], cached) -> None:
    ElementTree.register_namespace("", MAIN_NS)
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}

    sheet_files = _sheet_files(members)
    shared: list[str] = []
    shared_index: dict[str, int] = {}
    for index, (sheet, member) in enumerate(zip(sheets, sheet_files, strict=True)):
        root = ElementTree.fromstring(members[member])
        keep_inline = sheet.name.lower() == "settings"
        for cell in root.iter(f"{{{MAIN_NS}}}c"):
            ref = cell.get("r")
            formula = cell.find(f"{{{MAIN_NS}}}f")
            if formula is not None and (index, ref) in cached:
                _set_cached_value(cell, cached[(index, ref)])
            elif cell.get("t") == "inlineStr" and not keep_inline:
                inline = cell.find(f"{{{MAIN_NS}}}is")
                text = "".join(t.text or "" for t in inline.iter(f"{{{MAIN_NS}}}t"))
                cell.remove(inline)
                if text not in shared_index:
                    shared_index[text] = len(shared)
                    shared.append(text)
                cell.set("t", "s")
                ElementTree.SubElement(cell, f"{{{MAIN_NS}}}v").text = str(shared_index[text])
        members[member] = ElementTree.tostring(root, xml_declaration=True, encoding="UTF-8")

    if shared:
        members["xl/sharedStrings.xml"] = _shared_strings_xml(shared)
        members["[Content_Types].xml"] = _with_shared_strings_type(members["[Content_Types].xml"])
        members["xl/_rels/workbook.xml.rels"] = _with_shared_strings_relation(
            members["xl/_rels/workbook.xml.rels"]
        )

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _sheet_files(members: dict[str, bytes]) -> list[str]:
    # Sheets in workbook order, through the workbook's relationships.
    workbook = ElementTree.fromstring(members["xl/workbook.xml"])
    rels = ElementTree.fromstring(members["xl/_rels/workbook.xml.rels"])
    targets = {r.get("Id"): r.get("Target") for r in rels.iter(f"{{{REL_NS}}}Relationship")}
    rel_attr = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    files = []
    for sheet in workbook.iter(f"{{{MAIN_NS}}}sheet"):
        target = targets[sheet.get(rel_attr)]
        files.append(target.lstrip("/") if target.startswith("/") else f"xl/{target}")
    return files


def _set_cached_value(cell, value) -> None:
    for old in cell.findall(f"{{{MAIN_NS}}}v"):
        cell.remove(old)
    if isinstance(value, bool):
        cell.set("t", "b")
        text = "1" if value else "0"
    elif isinstance(value, (int, float)):
        cell.set("t", "n")
        text = repr(value)
    else:
        cell.set("t", "str")
        text = value
    ElementTree.SubElement(cell, f"{{{MAIN_NS}}}v").text = text


def _shared_strings_xml(strings: list[str]) -> bytes:
    root = ElementTree.Element(
        f"{{{MAIN_NS}}}sst", {"count": str(len(strings)), "uniqueCount": str(len(strings))}
    )
    for text in strings:
        item = ElementTree.SubElement(root, f"{{{MAIN_NS}}}si")
        t = ElementTree.SubElement(item, f"{{{MAIN_NS}}}t")
        t.text = text
        if text != text.strip():
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return ElementTree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _with_shared_strings_type(data: bytes) -> bytes:
    ElementTree.register_namespace("", TYPES_NS)
    root = ElementTree.fromstring(data)
    ElementTree.SubElement(
        root,
        f"{{{TYPES_NS}}}Override",
        {"PartName": "/xl/sharedStrings.xml", "ContentType": SHARED_STRINGS_CONTENT},
    )
    out = ElementTree.tostring(root, xml_declaration=True, encoding="UTF-8")
    ElementTree.register_namespace("", MAIN_NS)
    return out


def _with_shared_strings_relation(data: bytes) -> bytes:
    ElementTree.register_namespace("", REL_NS)
    root = ElementTree.fromstring(data)
    ids = {r.get("Id") for r in root}
    number = 1
    while f"rId{number}" in ids:
        number += 1
    ElementTree.SubElement(
        root,
        f"{{{REL_NS}}}Relationship",
        {"Id": f"rId{number}", "Type": SHARED_STRINGS_TYPE, "Target": "sharedStrings.xml"},
    )
    out = ElementTree.tostring(root, xml_declaration=True, encoding="UTF-8")
    ElementTree.register_namespace("", MAIN_NS)
    return out


def convert_to_xlsx(
    form: Path, directory: Path, formula_columns: set[tuple[str, str]] = frozenset()
) -> Path:
    """The .xlsx twin of a .md or .csv form, with the same file stem."""
    return write_xlsx(read_layout(form), directory / f"{form.stem}.xlsx", formula_columns)
