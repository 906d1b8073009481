"""A real OpenRosa server: django-odk (see django_odk.py) on loopback. A form
it serves is listed, downloaded into the library (its hash checked), filled
in the window, and its response reaches the server once, as the instance
XML Collect would send."""

import json
import os
import re
from pathlib import Path

import pytest

from conftest import ANY_FOCUS, wait_for
from django_odk import DjangoODK
from form_filler import FormFiller
from test_openrosa_forms import run, versions
from test_sync import sync_line

XFORMS = Path(os.environ.get("SURVEY_FORM_XFORMS", ""))


@pytest.fixture
def server(tmp_path):
    odk = DjangoODK(tmp_path / "django-odk", [XFORMS / "translations.xml"])
    yield odk
    odk.stop()


def test_a_form_from_django_odk_is_filled_and_its_response_reaches_it_once(profile, server, launch, tmp_path):
    listed = run(profile, "--list-forms", server.base)
    assert listed.returncode == 0, listed
    [line] = listed.stdout.splitlines()
    assert line.endswith("(not downloaded)"), line
    form_id = line.split(":", 1)[0]

    got = run(profile, "--get-forms", server.base)
    assert got.returncode == 0, got
    [form] = versions(profile, form_id)
    assert form.read_bytes() == (XFORMS / "translations.xml").read_bytes()
    assert "up to date" in run(profile, "--get-forms", server.base).stdout

    description = json.loads(run(profile, "--describe-form", str(form)).stdout)
    app = launch(args=[str(form)], focus_role=ANY_FOCUS)
    FormFiller(app, description, tmp_path / "files").fill()
    # Once the window says it was sent, django-odk has answered, so its row
    # is whole: it inserts the row before it fills in the form and the id.
    wait_for(lambda: "1 response sent" in sync_line(app) or None,
             f"the window to say it was sent (it says {sync_line(app)!r})")
    [(stored_form, instance_id, xml)] = server.submissions()
    assert stored_form == form_id
    # django-odk keeps the id as a UUID, without Collect's "uuid:".
    assert re.search(rb"<instanceID>uuid:([0-9a-f-]+)</instanceID>", xml).group(1).replace(b"-", b"") == \
        instance_id.replace("-", "").encode(), xml[-400:]
    app.quit()

    # Delivered, and sending again sends nothing more.
    status = run(profile, "--sync-status")
    assert "Sent: 1" in status.stdout and f"Server: {server.base}" in status.stdout, status.stdout
    assert run(profile, "--sync-now").returncode == 0
    assert len(server.submissions()) == 1
