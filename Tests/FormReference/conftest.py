"""Shared set-up of the forms reference tests: the survey-form binary under
test, named by SURVEY_FORM_BINARY (Tests/FormReference/run sets it)."""

import os
import sys
from pathlib import Path

import pytest

# describe.py and workbook.py sit beside the tests.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def binary() -> str:
    path = os.environ.get("SURVEY_FORM_BINARY")
    # A missing binary is a broken run, never a reason to skip.
    if not path:
        pytest.fail("SURVEY_FORM_BINARY is not set: run Tests/FormReference/run PATH/TO/survey-form")
    if not os.access(path, os.X_OK):
        pytest.fail(f"SURVEY_FORM_BINARY={path} is not an executable file")
    return path
