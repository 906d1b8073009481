"""Drafts and stored responses survive SIGKILL; damaged files are set aside."""

import json
import signal
import time

import pytest

from conftest import COMPANY, NAME, TIMEOUT, wait_for


def draft_answers(profile):
    """The answers in the draft file as {question name: value}, or None while there is none."""
    try:
        return {a["path"]: a["value"] for a in json.loads(profile.draft.read_text())["draft"]["answers"]}
    except (FileNotFoundError, ValueError, KeyError):
        return None


def test_a_draft_comes_back_after_sigkill(launch, profile):
    app = launch()
    app.type("Grace Hopper")
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type("US Navy")
    typed_at = time.monotonic()
    app.wait_summary(name="Grace Hopper", company="US Navy")
    # Saved at most a second after the change (with room for a loaded machine).
    wait_for(
        lambda: (draft_answers(profile) or {}).get("company") == "US Navy",
        "the draft to hold the last change", timeout=5,
    )
    assert time.monotonic() - typed_at < 2.5, "the draft took far longer than a second to be saved"
    app.kill(signal.SIGKILL)

    app = launch()
    app.wait_summary(name="Grace Hopper", company="US Navy")
    app.wait_status("Your unsent answers from last time were restored.")
    wait_for(app.submit_sensitive, "Submit to be sensitive for the restored, valid answers")


def test_sigkill_while_typing_loses_at_most_the_last_second(launch, profile, tmp_path):
    app = launch()
    # A stored response first: a crash while typing must never touch it.
    app.type("Stored Before")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.wait_focus(NAME)

    # Then type steadily, two characters every 0.1 s for three seconds, and
    # kill the app mid-stream.
    text = "".join(chr(ord("a") + index % 26) for index in range(60))
    sent = []  # (time the characters were sent, how many were sent by then)
    start = time.monotonic()
    for index in range(0, len(text), 2):
        pause = start + index * 0.05 - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        app.type(text[index:index + 2], delay_ms=1)
        sent.append((time.monotonic(), index + 2))
    killed_at = time.monotonic()
    app.kill(signal.SIGKILL)

    # Everything sent more than a second before the kill (plus some slack for
    # the X server and the app's event queue) must have been saved.
    slack = 0.5
    must_have = max((count for at, count in sent if at <= killed_at - 1.0 - slack), default=0)
    app = launch()
    restored = app.summary()["name"]
    print(f"typed {len(text)}, restored {len(restored)}, required {must_have}")
    assert must_have > 0, "the typing was too fast to test anything"
    assert restored != "--", "nothing of the typing was restored"
    assert text.startswith(restored), f"the restored name {restored!r} is not what was typed"
    assert len(restored) >= must_have, (
        f"lost more than the last second of typing: restored {len(restored)} of {len(text)} characters, "
        f"at least {must_have} were typed more than {1.0 + slack} s before the kill"
    )
    rows = profile.exported_rows(tmp_path)
    assert [row["name"] for row in rows] == ["Stored Before"]


def test_sigkill_right_after_submitting_keeps_the_response(launch, profile, tmp_path):
    app = launch()
    app.type("Barbara Liskov")
    app.key("Tab")
    app.type("MIT")
    app.wait_summary(name="Barbara Liskov", company="MIT")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.kill(signal.SIGKILL)

    rows = profile.exported_rows(tmp_path)
    assert [(row["name"], row["company"]) for row in rows] == [("Barbara Liskov", "MIT")]
    # The submitted answers do not come back as a draft.
    app = launch()
    app.wait_summary(name="--", company="--")
    assert "restored" not in app.status()
    wait_for(lambda: "1 stored response" in app.heading_count_label().get_name(), "the stored response in the list")


def test_a_corrupt_database_is_set_aside_and_reported(launch, profile, tmp_path):
    garbage = bytes(range(256)) * 64
    profile.data_dir.mkdir(parents=True)
    profile.database.write_bytes(garbage)

    app = launch()
    message = app.wait_status("damaged")
    set_aside = profile.set_aside_files("responses.sqlite3")
    assert len(set_aside) == 1, f"expected one responses.sqlite3.corrupt-* file, found {set_aside}"
    assert set_aside[0].read_bytes() == garbage, "the damaged file must be kept as it was"
    assert set_aside[0].name in message, f"the message should say where the file went: {message!r}"
    assert app.status_label().get_name() == message

    # New submits work, into a new database.
    app.type("After Damage")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    rows = profile.exported_rows(tmp_path)
    assert [row["name"] for row in rows] == ["After Damage"]


def test_a_corrupt_draft_is_set_aside_and_reported(launch, profile):
    # As the version before the one form stack left it.
    profile.data_dir.mkdir(parents=True)
    profile.legacy_draft.write_text('{"version": 1, "answers": {"name": "half a dr')

    app = launch()
    message = app.wait_status("draft was damaged")
    set_aside = profile.set_aside_files("draft.json")
    assert len(set_aside) == 1, f"expected one draft.json.corrupt-* file, found {set_aside}"
    assert set_aside[0].name in message
    app.wait_summary(name="--")
    # The form still works and saves new drafts.
    app.type("Fresh Start")
    wait_for(lambda: (draft_answers(profile) or {}).get("name") == "Fresh Start", "a new draft", timeout=5)
    assert app.running


def test_a_corrupt_database_and_a_draft_are_both_reported(launch, profile):
    profile.data_dir.mkdir(parents=True)
    profile.database.write_bytes(b"not a database at all" * 100)
    profile.legacy_draft.write_text(json.dumps({
        "version": 1, "savedAt": "2026-01-01T00:00:00Z",
        "answers": {"name": "Draft Name", "companyName": "", "isCurrentEmployer": False, "comments": ""},
    }))
    app = launch()
    app.wait_summary(name="Draft Name")
    # Restoring the draft must not hide that the database was damaged.
    message = app.wait_status("damaged")
    assert "restored" in message
    assert len(profile.set_aside_files("responses.sqlite3")) == 1


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["SIGTERM", "SIGINT", "SIGHUP"])
def test_termination_signals_save_the_draft_and_exit_cleanly(launch, profile, sig):
    app = launch()
    app.type("Signal Safe")
    app.wait_summary(name="Signal Safe")
    # Well inside the autosave's second: only the signal's own save can keep it.
    app.process.send_signal(sig)
    assert app.process.wait(timeout=TIMEOUT) == 0, app.output()
    assert (draft_answers(profile) or {}).get("name") == "Signal Safe"
