"""Public XForms, as ODK's own tools' tests and Central serve them (not
written by pyxform from our corpus: hand-written, Enketo's, JavaRosa's,
Collect's; Tests/FormCorpus/xforms/SOURCES.tsv), open, and a new response
to each fits its primary instance, as Collect's submissions do, but for
`meta`: the app writes it last, as pyxform places it, with the instance id
a server reads by its path wherever the form put it, or if it put none."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_instance_xml import assert_fits, local
from test_xform_describe import primary_instance

XFORMS = sorted((Path(__file__).resolve().parent.parent / "FormCorpus" / "xforms").glob("*.xml"))


@pytest.mark.parametrize("form", XFORMS, ids=lambda p: p.name)
def test_a_public_xform_opens_and_its_response_fits_its_instance(binary, form):
    described = subprocess.run([binary, "--describe-form", str(form)], capture_output=True, timeout=120)
    assert described.returncode == 0, described.stderr.decode("utf-8", "replace")
    assert json.loads(described.stdout)["questions"], "it has questions"
    result = subprocess.run([binary, "--describe-instance", str(form)], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    ours = ET.fromstring(result.stdout)
    meta = ours.find("meta")
    assert meta is not None and meta.findtext("instanceID", "").startswith("uuid:")
    ours.remove(meta)
    theirs = primary_instance(form)
    for their_meta in theirs.findall("{http://www.w3.org/2002/xforms}meta"):
        theirs.remove(their_meta)
    assert local(ours.tag) == local(theirs.tag)
    assert ours.get("id") == theirs.get("id")
    assert_fits(ours, theirs, local(ours.tag))
