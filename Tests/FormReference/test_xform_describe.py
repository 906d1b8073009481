"""`survey-form --describe-form FORM.xml` on the XForm pyxform writes from
each form of Tests/FormCorpus (the XML ODK Central, KoboToolbox and Ona
serve) must describe as the XLSForm itself does.

What pyxform's XForm no longer holds is named below, one rule each, and the
XLSForm's description is brought to what the XForm can say before the two
are compared: nothing else may differ."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pyxform.xls2xform import convert
from test_describe_form import VALID
from test_instance_xml import XFORMS, assert_fits, local


def described(binary: str, form: Path) -> dict:
    result = subprocess.run([binary, "--describe-form", str(form)], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    return json.loads(result.stdout)


def write_xform(form: Path, folder: Path) -> Path:
    """The XForm pyxform writes for `form`, with the form's media and the
    itemsets.csv pyxform writes beside it (its external_choices), as a
    server serves them."""
    result = convert(xlsform=str(form))
    target = folder / (form.stem + ".xml")
    target.write_text(result.xform, encoding="utf-8")
    media = form.with_name(form.stem + "-media")
    ours = folder / media.name
    if media.is_dir():
        ours.mkdir()
        for file in media.iterdir():
            shutil.copyfile(file, ours / file.name)
    if result.itemsets:
        ours.mkdir(exist_ok=True)
        (ours / "itemsets.csv").write_text(result.itemsets, encoding="utf-8")
    return target


def under(path: str, prefixes: list[str]) -> bool:
    return any(path == prefix or path.startswith(prefix + "/") for prefix in prefixes)


def as_the_xform_says(original: dict, xform: dict) -> tuple[dict, dict]:
    """Both descriptions with what the XForm cannot say taken out of them."""
    # A loop is written out as a group per choice: the XForm holds the
    # copies, not the loop. Both sides drop it and what is under it.
    loops = [q["path"] for q in original["questions"] if q["type"] == "loop"]
    original["questions"] = [q for q in original["questions"] if not under(q["path"], loops)]
    xform["questions"] = [q for q in xform["questions"] if not under(q["path"], loops)]
    default = original["default_language"]
    moved = []
    for question in original["questions"]:
        label = question["label"] or {}
        # In a row translated into other languages, the `label` column's text
        # is written as the default language's where that has none of its own.
        if default and "default" in label and default not in label and len(label) > 1:
            label[default] = label.pop("default")
        # A text with a calculation and no label gets no control: it is a calculate.
        if question["type"] == "text" and not label and question["calculation"]:
            question["type"] = "calculate"
        # A search()'s choices are written into its control: the list's name is gone.
        if "search(" in (question["appearance"] or ""):
            question["list"] = None
        # The audit log is written into `meta`, after every question.
        if question["type"] == "audit":
            moved.append(question)
    original["questions"] = [q for q in original["questions"] if q not in moved] + moved
    for question in xform["questions"]:
        if "search(" in (question["appearance"] or ""):
            question["list"] = None
    if original["languages"] != xform["languages"]:
        original["languages"] = sorted(
            {language for q in original["questions"] for language in (q["label"] or {})}
            | ({default} if default else set())
        )
        xform["languages"] = sorted(
            {language for q in xform["questions"] for language in (q["label"] or {})} | ({default} if default else set())
        )
    return original, xform


# None yet: every corpus form's XForm opens.
REFUSED: dict[str, str] = {}


@pytest.mark.parametrize("form", VALID, ids=lambda p: p.name)
def test_the_xform_describes_as_the_xlsform(binary, form, tmp_path):
    xform = write_xform(form, tmp_path)
    if form.name in REFUSED:
        result = subprocess.run([binary, "--describe-form", str(xform)], capture_output=True, timeout=120)
        assert result.returncode != 0
        assert REFUSED[form.name] in result.stderr.decode("utf-8", "replace")
        return
    original, ours = as_the_xform_says(described(binary, form), described(binary, xform))
    assert [q["path"] for q in ours["questions"]] == [q["path"] for q in original["questions"]]
    for theirs, mine in zip(original["questions"], ours["questions"]):
        assert mine == theirs, f"{theirs['path']} reads otherwise from the XForm"
    assert ours == original


@pytest.mark.parametrize("form", [f for f in VALID if f.name not in REFUSED], ids=lambda p: p.name)
def test_a_response_to_the_xform_fits_its_primary_instance(binary, form, tmp_path):
    """What the app would submit for a form it read as an XForm fits that
    XForm's own primary instance, as for the XLSForm it came from."""
    xform = write_xform(form, tmp_path)
    result = subprocess.run([binary, "--describe-instance", str(xform)], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    ours = ET.fromstring(result.stdout)
    theirs = primary_instance(xform)
    assert local(ours.tag) == local(theirs.tag)
    assert ours.get("id") == theirs.get("id")
    assert ours.get("version") == theirs.get("version")
    assert_fits(ours, theirs, local(ours.tag))


def primary_instance(xform: Path) -> ET.Element:
    model = ET.parse(xform).getroot().find(f".//{XFORMS}model")
    instance = next(i for i in model.findall(f"{XFORMS}instance") if "id" not in i.attrib)
    return next(iter(instance))
