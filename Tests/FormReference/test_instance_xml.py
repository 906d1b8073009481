"""`survey-form --describe-instance FORM` against the reference converter:
the XML a new response to each form of Tests/FormCorpus would be submitted
as must fit the primary instance of the XForm pyxform writes for that form
(its root, id and version, every element where the instance has it and in
its order, meta/instanceID last but for what pyxform puts beside it), as
ODK Collect's submissions do."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

import pytest
from pyxform.xls2xform import convert
from test_describe_form import VALID

XFORMS = "{http://www.w3.org/2002/xforms}"


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def primary_instance(form) -> ET.Element:
    xform = ET.fromstring(convert(xlsform=str(form)).xform)
    model = xform.find(f".//{XFORMS}model")
    instance = next(i for i in model.findall(f"{XFORMS}instance") if "id" not in i.attrib)
    return next(iter(instance))


def assert_fits(ours: ET.Element, theirs: ET.Element, path: str) -> None:
    """Each of our children is one of theirs, in their order (a repeat's
    instances one after another); what we leave out is what Collect leaves
    out: irrelevant rows, notes."""
    order = []
    for child in theirs:
        if local(child.tag) not in order:
            order.append(local(child.tag))
    last = -1
    for child in ours:
        name = local(child.tag)
        assert name in order, f"{path}/{name} is not in the form's primary instance (it has {order})"
        position = order.index(name)
        assert position >= last, f"{path}/{name} comes after {order[last]}, which the form's instance puts later"
        last = position
        template = next(c for c in theirs if local(c.tag) == name)
        assert_fits(child, template, f"{path}/{name}")


@pytest.mark.parametrize("form", VALID, ids=lambda p: p.name)
def test_a_new_responses_instance_fits_the_forms_primary_instance(binary, form):
    result = subprocess.run([binary, "--describe-instance", str(form)], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    ours = ET.fromstring(result.stdout)
    theirs = primary_instance(form)
    assert local(ours.tag) == local(theirs.tag), "the root is named as pyxform names it"
    assert ours.get("id") == theirs.get("id")
    assert ours.get("version") == theirs.get("version")
    instance_id = ours.find("meta/instanceID")
    assert instance_id is not None and instance_id.text.startswith("uuid:"), "meta/instanceID, a uuid"
    assert local(list(ours)[-1].tag) == "meta", "meta last"
    assert_fits(ours, theirs, local(ours.tag))
