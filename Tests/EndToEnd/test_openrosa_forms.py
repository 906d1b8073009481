"""Forms from an OpenRosa server (`--list-forms`, `--get-forms`), against the
project's Central-like test server on loopback: each form with its media
files, checked by their hashes, kept per version, resumed where a download
was cut off, and every bad answer a clear message that keeps nothing broken."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from central_like import TOKEN, CentralLike
from conftest import Atspi, field_text, wait_for

XFORMS = Path(os.environ.get("SURVEY_FORM_XFORMS", ""))


def run(profile, *args, stdin=None):
    env = profile.environment()
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    result = subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], *args], env=env, input=stdin, capture_output=True, text=True, timeout=120,
    )
    # An App User's key is a password: never printed.
    assert TOKEN not in result.stdout + result.stderr, result
    return result


def versions(profile, form_id):
    """The complete versions of a form in the library (hidden folders are downloads under way)."""
    found = list((profile.data_dir / "forms").glob(f"*/{form_id}/*/{form_id}.xml"))
    return sorted(path for path in found if not path.parent.name.startswith("."))


@pytest.fixture
def server():
    central = CentralLike()
    central.add_form(XFORMS / "external-data.xml", XFORMS / "external-data-media")
    central.add_form(XFORMS / "all-types.xml", XFORMS / "all-types-media")
    yield central
    central.stop()


def test_forms_arrive_with_their_media_and_open(profile, server):
    listed = run(profile, "--list-forms", server.base)
    assert listed.returncode == 0, listed
    lines = sorted(listed.stdout.splitlines())
    assert len(lines) == 2 and all(line.endswith("(not downloaded)") for line in lines), lines
    assert lines[1].startswith("external-data: External Data, version 1"), lines

    got = run(profile, "--get-forms", server.base)
    assert got.returncode == 0, got
    [form] = versions(profile, "external-data")
    assert form.parent.name == server.forms["external-data"].md5, "a version's folder is named by its hash"
    media = form.parent / "external-data-media"
    for name, data in server.forms["external-data"].media.items():
        assert (media / name).read_bytes() == data, name
    assert not [path for path in media.iterdir() if path.name.startswith(".")], "no part files left"
    assert len(versions(profile, "all-types")) == 1
    described = run(profile, "--describe-form", str(form))
    assert described.returncode == 0, described.stderr
    description = json.loads(described.stdout)
    assert (description["id"], description["title"]) == ("external_data", "Village visits"), description["id"]

    # Up to date: the list and the manifest are asked again; no file is.
    before = len(server.requests)
    again = run(profile, "--get-forms", server.base)
    assert again.returncode == 0, again
    assert again.stdout.count("up to date") == 2, again.stdout
    fetched = [r.path for r in server.requests[before:] if "/attachments/" in r.path or r.path.endswith(".xml")]
    assert fetched == [], fetched
    assert all(line.endswith("(downloaded)") for line in run(profile, "--list-forms", server.base).stdout.splitlines())


def test_a_changed_form_arrives_beside_the_version_its_drafts_belong_to(profile, server):
    assert run(profile, "--get-forms", server.base, "--form-id", "external-data").returncode == 0
    [first] = versions(profile, "external-data")
    changed = server.forms["external-data"].xml.replace(b"</h:title>", b" (revised)</h:title>", 1)
    assert changed != server.forms["external-data"].xml
    server.forms["external-data"].xml = changed
    server.forms["external-data"].version = "2"
    assert "changed on the server" in run(profile, "--list-forms", server.base).stdout

    before = len(server.requests)
    got = run(profile, "--get-forms", server.base, "--form-id", "external-data")
    assert got.returncode == 0, got
    assert "downloaded to" in got.stdout, got.stdout
    assert len(versions(profile, "external-data")) == 2 and first.exists(), "the old version stays"
    # The new version's media are the old one's, copied rather than fetched again.
    assert not [r for r in server.requests[before:] if "/attachments/" in r.path]
    assert versions(profile, "all-types") == [], "--form-id fetches only that form"


def test_a_media_file_cut_off_resumes_where_it_stopped(profile, server):
    data = server.forms["external-data"].media["villages.csv"]
    assert len(data) > 40
    server.cut_after["attachments/villages.csv"] = 30
    cut = run(profile, "--get-forms", server.base, "--form-id", "external-data")
    assert cut.returncode == 1, cut
    assert "villages.csv" in cut.stderr and "cut off" in cut.stderr, cut.stderr
    assert versions(profile, "external-data") == [], "nothing incomplete takes a version's name"

    resumed = run(profile, "--get-forms", server.base, "--form-id", "external-data")
    assert resumed.returncode == 0, resumed
    ranges = [r.headers.get("range") for r in server.seen("GET", "attachments/villages.csv")]
    assert ranges == [None, "bytes=30-"], ranges
    [form] = versions(profile, "external-data")
    assert (form.parent / "external-data-media" / "villages.csv").read_bytes() == data

    # A server that ignores the range sends the whole file again: still whole.
    server.ignore_ranges = True
    server.forms["external-data"].media["villages.csv"] = data + b"extra,Extra\n"
    server.cut_after["attachments/villages.csv"] = 25
    assert run(profile, "--get-forms", server.base, "--form-id", "external-data").returncode == 1
    assert run(profile, "--get-forms", server.base, "--form-id", "external-data").returncode == 0
    assert (form.parent / "external-data-media" / "villages.csv").read_bytes() == data + b"extra,Extra\n"


def test_a_file_unlike_its_hash_is_refused_and_nothing_kept(profile, server):
    server.wrong_hash.add("wells.geojson")
    bad = run(profile, "--get-forms", server.base, "--form-id", "external-data")
    assert bad.returncode == 1, bad
    assert "wells.geojson" in bad.stderr and "arrived different" in bad.stderr, bad.stderr
    assert versions(profile, "external-data") == []
    server.wrong_hash.clear()
    assert run(profile, "--get-forms", server.base, "--form-id", "external-data").returncode == 0


def test_a_form_that_cannot_open_is_not_kept_and_the_others_arrive(profile, server):
    server.add_form(XFORMS / "all-types.xml", form_id="broken")
    server.forms["broken"].xml = b"<?xml version='1.0'?><h:html xmlns:h='http://www.w3.org/1999/xhtml'><h:head>"
    # One whose responses would be encrypted with a key that is no RSA key.
    server.add_form(XFORMS / "all-types.xml", XFORMS / "all-types-media", form_id="sealed")
    server.forms["sealed"].xml = server.forms["sealed"].xml.replace(
        b"</model>", b'<submission method="post" base64RsaPublicKey="MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"/></model>', 1)
    assert b"base64RsaPublicKey" in server.forms["sealed"].xml
    # One that reads, but whose data files the server does not list.
    server.add_form(XFORMS / "all-types.xml", form_id="unfurnished")
    got = run(profile, "--get-forms", server.base)
    assert got.returncode == 1, got
    assert "The form broken from" in got.stderr and "cannot be opened" in got.stderr, got.stderr
    assert "The form unfurnished from" in got.stderr and "The data file 'towns.csv' is missing" in got.stderr, got.stderr
    assert list((profile.data_dir / "forms").glob("*/broken/*")) == []
    assert list((profile.data_dir / "forms").glob("*/unfurnished/*")) == []
    assert "The form sealed on" in got.stderr and "not an RSA key" in got.stderr, got.stderr
    assert list((profile.data_dir / "forms").glob("*/sealed/*")) == []
    assert len(versions(profile, "external-data")) == 1 and len(versions(profile, "all-types")) == 1


@pytest.mark.parametrize("misbehaviour, message", [
    ("html", "sent a web page where its form list should be"),
    ("redirect", "sent the request on to another address"),
    ("no key", "refused access to its form list (HTTP 403)"),
    ("missing", "offers no form with the id nowhere"),
])
def test_a_server_that_answers_wrongly_is_named_and_nothing_is_kept(profile, server, misbehaviour, message):
    base = server.base
    args = []
    if misbehaviour == "html":
        server.html_form_list = True
    elif misbehaviour == "redirect":
        server.redirect_form_list_to = f"http://127.0.0.2:{server.port}/v1/key/{TOKEN}/projects/7/formList"
    elif misbehaviour == "no key":
        base = f"{server.root}/v1/key/not-the-key/projects/7"
    else:
        args = ["--form-id", "nowhere"]
    result = run(profile, "--get-forms", base, *args)
    assert result.returncode == 1, result
    assert message in result.stderr, result.stderr
    assert not list((profile.data_dir / "forms").glob("*/*/*/*.xml"))


def test_a_login_goes_only_where_it_is_safe_and_is_asked_for_once(profile, server):
    server.login = ("collector", "s3cret")
    none = run(profile, "--list-forms", server.base)
    assert none.returncode == 1 and "asks for a user name and password" in none.stderr, none

    before = len(server.requests)
    wrong = run(profile, "--list-forms", server.base, "--user", "collector", "--ask-password", stdin="nope\n")
    assert wrong.returncode == 1 and "refused the login of collector" in wrong.stderr, wrong
    assert len(server.requests) - before == 1, "a refused login is not tried again and again"

    right = run(profile, "--get-forms", server.base, "--user", "collector", "--ask-password", stdin="s3cret\n")
    assert right.returncode == 0, right
    assert all(r.headers.get("authorization", "").startswith("Basic ") for r in server.requests[before + 1:])

    # Over plain HTTP to another computer, the password is never sent.
    far = run(profile, "--list-forms", "http://192.0.2.1/v1/key/x/projects/1", "--user", "collector",
              "--ask-password", stdin="s3cret\n")
    assert far.returncode == 2 and "only over a secure connection" in far.stderr, far


def test_a_digest_challenge_is_answered_without_the_password_crossing(profile, server):
    server.digest_login = ("collector", "s3cret")
    wrong = run(profile, "--list-forms", server.base, "--user", "collector", "--ask-password", stdin="nope\n")
    assert wrong.returncode == 1 and "refused the login of collector" in wrong.stderr, wrong
    assert len(server.requests) == 2, "one answer to the challenge, not a loop"

    before = len(server.requests)
    right = run(profile, "--get-forms", server.base, "--user", "collector", "--ask-password", stdin="s3cret\n")
    assert right.returncode == 0, right
    answered = [r.headers.get("authorization", "") for r in server.requests[before + 1:]]
    assert answered and all(value.startswith("Digest ") for value in answered), answered
    # Once challenged, every later request answers the challenge by itself.
    assert sum(1 for r in server.requests[before:] if not r.headers.get("authorization", "").startswith("Digest ")) == 1
    assert all("s3cret" not in value for value in answered)
    assert len(versions(profile, "external-data")) == 1


def test_a_certificate_that_does_not_verify_is_refused_until_its_authority_is_named(profile, tmp_path):
    secure = CentralLike(tls_folder=tmp_path)
    try:
        secure.add_form(XFORMS / "external-data.xml", XFORMS / "external-data-media")
        secure.login = ("collector", "s3cret")
        refused = run(profile, "--get-forms", secure.base, "--user", "collector", "--ask-password", stdin="s3cret\n")
        assert refused.returncode == 1, refused
        assert "The secure connection to https://127.0.0.1:" in refused.stderr, refused.stderr
        assert secure.requests == [], "nothing, the password least, reached a server whose certificate did not verify"
        assert versions(profile, "external-data") == []

        trusted = run(profile, "--get-forms", secure.base, "--user", "collector", "--ask-password",
                      "--ca-file", str(secure.ca_file), stdin="s3cret\n")
        assert trusted.returncode == 0, trusted
        assert len(versions(profile, "external-data")) == 1
        # The authority is kept with the server, for its responses.
        [record] = (profile.data_dir / "forms").glob("*/server.json")
        assert json.loads(record.read_text())["ca"] == str(secure.ca_file)
        assert oct(record.stat().st_mode & 0o777) == "0o600"
        missing = run(profile, "--list-forms", secure.base, "--ca-file", str(tmp_path / "nowhere.pem"))
        assert missing.returncode == 2 and "cannot be read" in missing.stderr, missing
    finally:
        secure.stop()


def test_an_address_that_is_no_server_address_is_refused(profile):
    for address in ("ftp://example.org/forms", "central.example.org", "https://user:pw@example.org/x"):
        result = run(profile, "--get-forms", address)
        assert result.returncode == 2, result
        assert "server address" in result.stderr, result.stderr
        assert "pw@" not in result.stderr


def open_get_forms(app, address_typed):
    """Opens Get Forms from the main menu, types `address_typed` into its
    address and returns the main window's id; keys then go to Get Forms."""
    app.key("F10")
    wait_for(lambda: app.find_all(Atspi.Role.MENU_ITEM, "Get Forms…"), "the main menu")
    app.down_to("Get Forms…")
    app.key("Return")
    wait_for(lambda: app.find_all(Atspi.Role.TEXT, "Server Address") or None, "the Get Forms window")
    # Keys go to the new window (Xvfb has no window manager to focus it).
    main_window = app.window_id
    app.window_id = wait_for(lambda: (lambda found: found if found != main_window else None)(app._find_window()),
                             "the Get Forms window on the X display")
    address = app.find(Atspi.Role.TEXT, "Server Address")
    for _ in range(3):
        app.key("ctrl+a")
        app.type(address_typed)
        if field_text(address) == address_typed:
            break
    assert field_text(address) == address_typed, field_text(address)
    return main_window


def test_get_forms_from_the_window_then_open_one(profile, launch):
    central = CentralLike()
    try:
        central.add_form(XFORMS / "external-data.xml", XFORMS / "external-data-media")
        central.add_form(XFORMS / "all-types.xml", XFORMS / "all-types-media")
        app = launch()
        main_window = open_get_forms(app, central.base)
        app.press(Atspi.Role.PUSH_BUTTON, "List Forms")
        wait_for(lambda: app.find_all(Atspi.Role.CHECK_BOX, "External Data") or None, "the server's forms listed")
        assert app.is_checked("External Data") and app.is_checked("All Types"), "forms not here yet come ticked"
        app.press(Atspi.Role.PUSH_BUTTON, "Download")
        wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Downloaded 2 forms.") or None, "the forms downloaded")
        assert len(versions(profile, "external-data")) == 1 and len(versions(profile, "all-types")) == 1
        app.press(Atspi.Role.PUSH_BUTTON, "Open External Data")
        app.window_id = main_window
        wait_for(lambda: "Village visits" in (app.title() or "") or None, f"the form open in the window (its title is {app.title()!r})")
    finally:
        central.stop()


def test_get_forms_from_the_window_trusts_the_authority_typed_there(profile, launch, tmp_path):
    secure = CentralLike(tls_folder=tmp_path)
    try:
        secure.add_form(XFORMS / "external-data.xml", XFORMS / "external-data-media")
        app = launch()
        open_get_forms(app, secure.base)
        app.press(Atspi.Role.PUSH_BUTTON, "List Forms")
        wait_for(lambda: app.find_all(Atspi.Role.LABEL, where=lambda node: (node.get_name() or "").startswith(
            "The secure connection to https://127.0.0.1:")) or None, "the certificate refused, in the window")
        assert secure.requests == []

        # Address, user, password and its show button, then the authority.
        authority = app.find(Atspi.Role.TEXT, "Certificate Authority File (PEM, optional)")
        app.key("Tab", "Tab", "Tab", "Tab")
        app.type(str(secure.ca_file))
        wait_for(lambda: field_text(authority) == str(secure.ca_file) or None,
                 f"the authority's file typed (the row holds {field_text(authority)!r})")
        app.press(Atspi.Role.PUSH_BUTTON, "List Forms")
        wait_for(lambda: app.find_all(Atspi.Role.CHECK_BOX, "External Data") or None, "the server's forms listed")
        app.press(Atspi.Role.PUSH_BUTTON, "Download")
        wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Downloaded 1 form.") or None, "the form downloaded")
        assert len(versions(profile, "external-data")) == 1
        # The authority is kept with the server, for its responses.
        [record] = (profile.data_dir / "forms").glob("*/server.json")
        assert json.loads(record.read_text())["ca"] == str(secure.ca_file)
    finally:
        secure.stop()
