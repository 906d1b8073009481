"""The object `survey-form --describe-form FORM` must print, built from the
reference converter's own reading of FORM (pyxform, at the version that
build-aux/pyxform-env installs).

pyxform validates the form (`convert` raises on any form it rejects) and reads
its cells, headers and aliases. The walk over the survey rows below mirrors
pyxform's own row loop, with pyxform's own patterns, so that the result has
one entry per row of the sheet, as the contract asks: pyxform's json tree adds
elements the form does not contain (meta/instanceID, `x_other` for or_other,
`x_count` for a repeat_count expression, table-list labels), moves `audit`
into meta and drops the text of some cells (select_one_from_file and
randomized selects lose their list).
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from pyxform import aliases
from pyxform.parsing.parameters import parse as parse_parameters
from pyxform.parsing.sheet_headers import dealias_and_group_headers
from pyxform.question import MultipleChoiceQuestion, Option
from pyxform.question_type_dictionary import QUESTION_TYPE_DICT
from pyxform.survey import Survey
from pyxform.xls2json import (
    RE_BEGIN_CONTROL,
    RE_END_CONTROL,
    RE_SELECT,
    dealias_types,
    group_dictionaries_by_key,
)
from pyxform.xls2json_backends import get_xlsform
from pyxform.xls2xform import convert

# The language key the contract gives a column that names no language.
DEFAULT_LANGUAGE = "default"

# pyxform's type names (after its own alias rewrite) → the names of the type
# table at xlsform.org. Types outside that table keep their own name.
TYPE_NAMES = {
    "text": "text", "string": "text", "q string": "text", "add text prompt": "text",
    "integer": "integer", "int": "integer", "q int": "integer",
    "add integer prompt": "integer",
    "decimal": "decimal", "q decimal": "decimal", "add decimal prompt": "decimal",
    "range": "range",
    "note": "note", "q note": "note", "add note prompt": "note",
    "date": "date", "q date": "date", "add date prompt": "date",
    "time": "time",
    "dateTime": "dateTime", "datetime": "dateTime", "date time": "dateTime",
    "q date time": "dateTime", "q dateTime": "dateTime",
    "add date time prompt": "dateTime", "add dateTime prompt": "dateTime",
    "geopoint": "geopoint", "gps": "geopoint", "location": "geopoint",
    "q location": "geopoint", "q geopoint": "geopoint",
    "add location prompt": "geopoint",
    "geotrace": "geotrace", "q geotrace": "geotrace",
    "geoshape": "geoshape", "q geoshape": "geoshape",
    "image": "image", "photo": "image", "q picture": "image", "q image": "image",
    "audio": "audio", "q audio": "audio",
    "video": "video", "q video": "video",
    "file": "file",
    "osm": "osm",
    "barcode": "barcode", "q barcode": "barcode", "add barcode prompt": "barcode",
    "calculate": "calculate", "q calculate": "calculate",
    "add calculate prompt": "calculate",
    "acknowledge": "acknowledge", "q acknowledge": "acknowledge",
    "add acknowledge prompt": "acknowledge", "trigger": "acknowledge",
    "hidden": "hidden",
    "start": "start", "start time": "start", "get start time": "start",
    "end": "end", "end time": "end", "get end time": "end",
    "today": "today", "get today": "today",
    "deviceid": "deviceid", "device id": "deviceid", "get device id": "deviceid",
    "phonenumber": "phonenumber", "get phone number": "phonenumber",
    "username": "username", "email": "email", "audit": "audit",
    "subscriberid": "subscriberid", "subscriber id": "subscriberid",
    "get subscriber id": "subscriberid",
    "simserial": "simserial", "sim id": "simserial", "get sim id": "simserial",
    "start-geopoint": "start-geopoint",
    "background-audio": "background-audio",
    "background-geopoint": "background-geopoint",
    "xml-external": "xml-external", "csv-external": "csv-external",
    # The metadata ODK names by URI: outside the table, so their own names.
    "uri:deviceid": "uri:deviceid", "uri:username": "uri:username", "uri:email": "uri:email",
    "uri:phonenumber": "uri:phonenumber", "uri:subscriberid": "uri:subscriberid",
    "uri:simserial": "uri:simserial",
    # Inputs with a constraint and hint built in; xlsform.org's table has no
    # name for them, so they are named by what they collect.
    "phone number": "text",
    "percentage": "integer",
    "number of days in last month": "integer",
    "number of days in last six months": "integer",
    "number of days in last year": "integer",
}

# The select commands pyxform's RE_SELECT accepts → xlsform.org's names.
SELECT_NAMES = {
    "select_one": "select_one", "select one": "select_one", "select1": "select_one",
    "select one from": "select_one", "add select one prompt using": "select_one",
    "select_multiple": "select_multiple",
    "select all that apply": "select_multiple",
    "select all that apply from": "select_multiple",
    "add select multiple prompt using": "select_multiple",
    "rank": "rank",
    "select_one_from_file": "select_one_from_file",
    "select one from file": "select_one_from_file",
    "select_multiple_from_file": "select_multiple_from_file",
    "select multiple from file": "select_multiple_from_file",
    "select_one_external": "select_one_external",
}

CONTROL_NAMES = {"group": "group", "repeat": "repeat", "loop": "loop"}

TRUE_WORDS = {"yes", "true", "true()"}
FALSE_WORDS = {"no", "false", "false()"}

RANGE_KEYS = ("start", "end", "step")


class DescribeError(Exception):
    """The form uses something this description does not know how to name."""


def describe(path: str | Path) -> dict[str, Any]:
    """The contract's object for the form at `path`.

    Raises whatever pyxform raises when it rejects the form.
    """
    path = str(path)
    parsed = convert(xlsform=path)._pyxform
    workbook = get_xlsform(xlsform=path)

    settings = _settings(workbook)
    survey_rows = _survey_rows(workbook, settings)
    choice_rows = _choice_rows(workbook)
    lists = group_dictionaries_by_key(
        list_of_dicts=[dict(row) for row in choice_rows], key="list name"
    )

    version = parsed.get("version")
    return {
        "id": parsed["id_string"],
        "version": None if version is None else str(version),
        "title": parsed["title"],
        "default_language": settings.get("default_language"),
        "languages": _languages(survey_rows, choice_rows),
        "questions": _questions(survey_rows, lists),
    }


def _settings(workbook) -> dict[str, Any]:
    if not workbook.settings:
        return {}
    sheet = dealias_and_group_headers(
        sheet_name="settings",
        sheet_data=workbook.settings,
        sheet_header=workbook.settings_header,
        header_aliases=aliases.settings_header,
        header_columns=set(Survey.get_slot_names()),
    )
    return sheet.data[0] if sheet.data else {}


def _survey_rows(workbook, settings) -> list[dict[str, Any]]:
    # The default language is forced to `default` so that a column with no
    # language is always `default`, whatever the settings say.
    sheet = dealias_and_group_headers(
        sheet_name="survey",
        sheet_data=workbook.survey,
        sheet_header=workbook.survey_header,
        header_aliases=aliases.survey_header,
        header_columns=set(MultipleChoiceQuestion.get_slot_names()),
        headers_required={"type"},
        default_language=DEFAULT_LANGUAGE,
        strip_whitespace=aliases.yes_no.get(settings.get("clean_text_values", "yes"), True),
    )
    return dealias_types(dict_array=[dict(row) for row in sheet.data])


def _choice_rows(workbook) -> list[dict[str, Any]]:
    if not workbook.choices:
        return []
    sheet = dealias_and_group_headers(
        sheet_name="choices",
        sheet_data=workbook.choices,
        sheet_header=workbook.choices_header,
        header_aliases=aliases.list_header,
        header_columns=set(Option.get_slot_names()),
        headers_required={"name"},
        default_language=DEFAULT_LANGUAGE,
    )
    return list(sheet.data)


def _languages(survey_rows, choice_rows) -> list[str]:
    languages: set[str] = set()

    def translated(value, plain_is_default: bool) -> None:
        if isinstance(value, dict):
            languages.update(k for k, v in value.items() if v not in (None, ""))
        elif value not in (None, "") and plain_is_default:
            languages.add(DEFAULT_LANGUAGE)

    for row in [*survey_rows, *choice_rows]:
        translated(row.get("label"), plain_is_default=True)
        for column in ("hint", "guidance_hint"):
            translated(_without_default(row.get(column)), plain_is_default=False)
        for value in (row.get("media") or {}).values():
            translated(_without_default(value), plain_is_default=False)
        bind = row.get("bind") or {}
        for column in ("jr:constraintMsg", "jr:requiredMsg"):
            translated(_without_default(bind.get(column)), plain_is_default=False)
    return sorted(languages)


def _without_default(value):
    # Only a label with no language names `default` in the contract.
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != DEFAULT_LANGUAGE}
    return value


def _questions(rows, lists) -> list[dict[str, Any]]:
    questions = []
    stack: list[str] = []
    for row_number, row in enumerate(rows, start=2):
        if "disabled" in row:
            if aliases.yes_no.get(row.pop("disabled")):
                continue
        if not row or not row.get("type"):
            continue
        type_cell = row["type"]
        if type_cell in aliases.settings_header:
            continue
        if RE_END_CONTROL.search(type_cell):
            stack.pop()
            continue

        name = row.get("name")
        if type_cell == "audit":
            name = "audit"
        elif name is None and type_cell == "note":
            name = f"generated_note_name_{row_number}"
        name = str(name)

        list_name = None
        choices = None
        parameters = None
        begin = RE_BEGIN_CONTROL.search(type_cell)
        select = None if begin else RE_SELECT.search(type_cell)
        if begin:
            kind = CONTROL_NAMES[aliases.control[begin.group("type")]]
        elif select:
            kind = SELECT_NAMES[select.group("select_command")]
            list_name = select.group("list_name")
            if list_name in lists:
                choices = [str(choice["name"]) for choice in lists[list_name]]
        elif type_cell in TYPE_NAMES:
            kind = TYPE_NAMES[type_cell]
        elif re.fullmatch(r"osm \S+", type_cell):
            # `osm LIST`: the list names OpenMapKit's tags, not choices.
            kind = "osm"
        else:
            raise DescribeError(f"row {row_number}: no contract name for type {type_cell!r}")

        if kind == "range":
            parameters = _range_parameters(row.get("parameters", ""), row_number)

        bind = row.get("bind") or {}
        control = row.get("control") or {}
        label = row.get("label")
        if label is None:
            label = {}
        elif not isinstance(label, dict):
            label = {DEFAULT_LANGUAGE: label}

        questions.append(
            {
                "name": name,
                "path": "/".join([*stack, name]),
                "type": kind,
                "list": list_name,
                "choices": choices,
                "required": _flag(bind.get("required")),
                "read_only": _flag(bind.get("readonly")),
                "relevant": bind.get("relevant"),
                "constraint": bind.get("constraint"),
                "calculation": bind.get("calculate"),
                "choice_filter": row.get("choice_filter"),
                "appearance": control.get("appearance"),
                "label": label,
                "parameters": parameters,
            }
        )
        if begin:
            stack.append(name)
    return questions


def _flag(value: str | None) -> bool | str:
    if value is None or value.strip() == "":
        return False
    if value.lower() in TRUE_WORDS:
        return True
    if value.lower() in FALSE_WORDS:
        return False
    return value


def _range_parameters(text: str, row_number: int) -> dict[str, int | float]:
    parsed = parse_parameters(raw_parameters=text, row_number=row_number)
    defaults = QUESTION_TYPE_DICT["range"]["parameters"]
    return {key: _number(parsed.get(key, defaults[key])) for key in RANGE_KEYS}


def _number(text: str) -> int | float:
    value = Decimal(text)
    if value == value.to_integral_value():
        return int(value)
    return float(value)


if __name__ == "__main__":
    import json
    import sys

    for form in sys.argv[1:]:
        print(json.dumps(describe(form), ensure_ascii=False, indent=1))
