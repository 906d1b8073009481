#!/usr/bin/env python3
"""Writes a generated XLSForm workbook of N questions, for timing form loading.

    make-large-form.py N OUT.xlsx

Run with the python of build-aux/pyxform-env, which has openpyxl. The survey
mixes text, integer and select_one questions (one shared choice list), puts
every 50 questions in a group, and gives questions relevance and calculations
that read the few questions before them, as real forms do; a choices and a
settings sheet complete it.
"""

import sys

import openpyxl

GROUP_SIZE = 50
CHOICES = [("good", "Good"), ("fair", "Fair"), ("poor", "Poor"), ("none", "None"), ("na", "N/A")]


def survey_rows(count: int):
    yield ["type", "name", "label", "relevant", "calculation", "required", "constraint"]
    for i in range(count):
        if i % GROUP_SIZE == 0:
            if i:
                yield ["end group"]
            yield ["begin group", f"section_{i // GROUP_SIZE}", f"Section {i // GROUP_SIZE + 1}"]
        name = f"q{i}"
        previous = f"q{i - 1}"
        kind = i % 10
        relevant = None
        if i % GROUP_SIZE and kind in (2, 5, 8):
            relevant = f"${{{previous}}} != ''"
        if kind == 9:
            # The integers just before it, plus the previous calculation.
            terms = [f"number(${{q{i - k}}})" for k in (3, 6, 9)]
            if i >= 10:
                terms.append(f"${{q{i - 10}}}")
            yield ["calculate", name, None, None, " + ".join(terms)]
        elif kind in (0, 3, 6):
            yield ["integer", name, f"Question {i}: how many?", relevant, None, "yes", ". >= 0"]
        elif kind in (1, 4, 7):
            yield ["select_one rating", name, f"Question {i}: how was it?", relevant]
        else:
            yield ["text", name, f"Question {i}: anything to add?", relevant]
    if count:
        yield ["end group"]


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: make-large-form.py N OUT.xlsx")
    count, out = int(sys.argv[1]), sys.argv[2]
    workbook = openpyxl.Workbook(write_only=True)
    survey = workbook.create_sheet("survey")
    for row in survey_rows(count):
        survey.append(row)
    choices = workbook.create_sheet("choices")
    choices.append(["list_name", "name", "label"])
    for name, label in CHOICES:
        choices.append(["rating", name, label])
    settings = workbook.create_sheet("settings")
    settings.append(["form_id", "form_title", "version"])
    settings.append([f"large_{count}", f"Generated form of {count} questions", 1])
    workbook.save(out)


if __name__ == "__main__":
    main()
