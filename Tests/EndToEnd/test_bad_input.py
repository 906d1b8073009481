"""Bad input typed or pasted into the running app, and unusable data folders."""

import os
import shutil
import sqlite3
import subprocess
import time

import pytest

from conftest import COMMENTS, COMPANY, CURRENT_EMPLOYER, NAME, YEARS, Atspi, wait_for


def error_label(app, contains):
    """A visible label whose text contains `contains` (a field's message)."""
    return app.find(
        Atspi.Role.LABEL,
        where=lambda node: contains in (node.get_name() or "") and node.get_state_set().contains(Atspi.StateType.VISIBLE),
    )


def go_to_years(app):
    app.wait_focus(NAME)
    app.key("Tab", "Tab")
    app.wait_focus(YEARS)


def test_letters_in_the_spin_button_are_refused_with_a_message(app, profile, tmp_path):
    app.type("Ada")
    go_to_years(app)
    app.type("5")
    app.key("Tab")
    app.wait_summary(experience="5.0 yrs")

    app.key("shift+Tab")
    app.wait_focus(YEARS)
    app.type("abc")
    app.key("Tab")
    label = error_label(app, "is not a number")
    assert "abc" in label.get_name()
    # The model keeps its last valid value, and the form cannot be sent.
    app.wait_summary(experience="5.0 yrs")
    wait_for(lambda: not app.submit_sensitive(), "Submit to be insensitive while the spin button holds letters")
    app.key("ctrl+s")
    wait_for(lambda: "not a number" in app.status(), "Ctrl+S to say what is wrong")
    assert profile.exported_rows(tmp_path) == []

    # Correcting the text makes the form valid again.
    app.wait_focus(YEARS)
    app.key("ctrl+a")
    app.type("7.5")
    app.key("Tab")
    app.wait_summary(experience="7.5 yrs")
    wait_for(app.submit_sensitive, "Submit to be sensitive again")
    wait_for(lambda: not app.find_all(Atspi.Role.LABEL, where=lambda node: "is not a number" in (node.get_name() or "")
                                      and node.get_state_set().contains(Atspi.StateType.VISIBLE)),
             "the spin button's message to go away")


@pytest.mark.parametrize("typed, expected_years, expected_text", [
    ("99999999999", 60.0, "60.0 yrs"),
    ("1e300", 60.0, "60.0 yrs"),
    ("-5", 0.0, "0.0 yrs"),
])
def test_out_of_range_numbers_in_the_spin_button_are_clamped(app, profile, tmp_path, typed, expected_years, expected_text):
    app.type("Ada")
    go_to_years(app)
    app.type("5")
    app.key("Tab")
    app.wait_summary(experience="5.0 yrs")
    app.key("shift+Tab")
    app.wait_focus(YEARS)
    app.type(typed)
    app.key("Tab")
    app.wait_focus(CURRENT_EMPLOYER)
    app.wait_summary(experience=expected_text)
    assert app.value_of(*YEARS) == expected_years
    wait_for(app.submit_sensitive, "Submit to stay sensitive with a clamped value")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    rows = profile.exported_rows(tmp_path)
    assert [float(row["years_of_experience"]) for row in rows] == [expected_years]


@pytest.mark.parametrize("typed", ["0", "-5"])
def test_typing_zero_into_an_unset_spin_button_answers_zero(app, typed):
    app.type("Ada")
    go_to_years(app)
    app.type(typed)
    app.key("Tab")
    app.wait_focus(CURRENT_EMPLOYER)
    app.wait_summary(experience="0.0 yrs", timeout=3)


def test_typed_zero_counts_when_ctrl_s_comes_before_leaving_the_field(app, profile, tmp_path):
    app.type("Ada")
    go_to_years(app)
    app.type("0")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    rows = profile.exported_rows(tmp_path)
    assert [row["years_of_experience"] for row in rows] == ["0"]


@pytest.fixture
def clipboard():
    """Puts text on the X clipboard (served by xclip) for a Ctrl+V."""
    servers = []

    def put(text):
        server = subprocess.Popen(
            ["xclip", "-quiet", "-selection", "clipboard", "-i"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        server.stdin.write(text.encode())
        server.stdin.close()
        servers.append(server)

        def served():
            result = subprocess.run(["xclip", "-selection", "clipboard", "-o"], capture_output=True, timeout=10)
            return len(result.stdout) == len(text.encode())

        wait_for(served, "xclip to own the clipboard")

    yield put
    for server in servers:
        server.kill()
        server.wait()


def test_pasting_100000_characters_into_name(app, profile, tmp_path, clipboard):
    clipboard("x" * 100_000)
    app.wait_focus(NAME)
    app.key("ctrl+v")
    label = error_label(app, "at most 200 characters")
    assert label.get_name() == "Name must be at most 200 characters."
    wait_for(lambda: not app.submit_sensitive(), "Submit to be insensitive with an over-long name")
    app.key("ctrl+s")
    app.wait_status("at most 200 characters")
    assert app.running
    assert profile.exported_rows(tmp_path) == []

    # The app stays responsive: the name can be replaced and the form sent.
    app.key("ctrl+a")
    app.type("Short Name")
    app.wait_summary(name="Short Name")
    wait_for(app.submit_sensitive, "Submit to be sensitive with a short name")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    assert [row["name"] for row in profile.exported_rows(tmp_path)] == ["Short Name"]


def test_pasting_100000_letters_into_the_spin_button(app, profile, tmp_path, clipboard):
    clipboard("abc" * 33_334)
    app.type("Ada")
    go_to_years(app)
    app.key("ctrl+a", "ctrl+v", "Tab")
    # The message quotes only the start of what was pasted.
    label = error_label(app, "is not a number")
    assert label.get_name() == "“abcabcabcabcabcabcab…” is not a number"
    app.key("ctrl+s")
    wait_for(lambda: "not a number" in app.status(), "Ctrl+S to say what is wrong")
    assert profile.exported_rows(tmp_path) == []


def test_pasting_100000_characters_into_the_comments(app, profile, tmp_path, clipboard):
    clipboard(("word " * 20_000).strip())
    app.type("Ada")
    app.key("Tab", "Tab", "Tab", "Tab", "Tab")
    app.wait_focus(COMMENTS)
    app.key("ctrl+v")
    label = error_label(app, "at most 5000 characters")
    assert label.get_name() == "Comments must be at most 5000 characters."
    wait_for(lambda: not app.submit_sensitive(), "Submit to be insensitive with over-long comments")
    app.key("ctrl+s")
    app.wait_status("at most 5000 characters")
    assert app.running
    assert profile.exported_rows(tmp_path) == []


def test_pasted_text_in_other_scripts_is_stored_as_typed(app, profile, tmp_path, clipboard):
    name = "Zoë Ærøskøbing 李小龍 🚀"
    clipboard(name)
    app.key("ctrl+v")
    app.wait_summary(name=name)
    app.key("ctrl+s")
    app.wait_status("Response saved")
    assert [row["name"] for row in profile.exported_rows(tmp_path)] == [name]


def submit_is_refused_without_crashing(app, expected, draft_fails=True):
    """Types answers and Ctrl+S: a message containing `expected`, no crash, answers kept."""
    app.type("Ada")
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type("ACME")
    app.wait_summary(name="Ada", company="ACME")
    if draft_fails:
        # The draft cannot be saved either, and the app says so (once).
        app.wait_status("The draft was not saved")
    app.key("ctrl+s")
    message = app.wait_status(expected)
    assert app.running
    # The answers are kept for another try.
    app.wait_summary(name="Ada", company="ACME")
    return message


def test_a_data_folder_that_is_a_file(launch, profile):
    profile.data_dir.write_text("not a folder")
    app = launch()
    message = app.wait_status("Could not create the data folder")
    assert str(profile.data_dir) in message
    submit_is_refused_without_crashing(app, "Responses cannot be saved")
    assert profile.data_dir.read_text() == "not a folder"


def test_a_database_that_cannot_be_opened(launch, profile):
    profile.database.mkdir(parents=True)  # a folder where the database file belongs
    app = launch()
    app.wait_status("Could not open the response database")
    submit_is_refused_without_crashing(app, "Responses cannot be saved", draft_fails=False)


def read_only_launcher(launch, profile):
    """Starts the app with its data folder read-only, also for root."""
    folder = profile.data_dir
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return launch
    # Root writes through any mode bits: give the app a private mount
    # namespace with the folder bound read-only instead.
    unshare = shutil.which("unshare")
    assert unshare, "unshare (util-linux) is needed to make a read-only folder for root"
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}"'
    probe = subprocess.run([unshare, "-m", "--propagation", "private", "sh", "-c", script], capture_output=True, text=True)
    assert probe.returncode == 0, f"cannot make a read-only bind mount as root: {probe.stderr}"

    def start(**env):
        return launch(prefix=[unshare, "-m", "--propagation", "private", "sh", "-c", script + ' && exec "$0"'], **env)

    return start


def test_a_read_only_data_folder_without_a_database(launch, profile):
    profile.data_dir.mkdir(parents=True)
    app = read_only_launcher(launch, profile)()
    message = app.wait_status("Could not open the response database")
    assert "cannot be written" in message
    submit_is_refused_without_crashing(app, "Responses cannot be saved")
    assert list(profile.data_dir.iterdir()) == []


def store_one_response(launch):
    """Stores "Stored Earlier" through the app, then quits it."""
    app = launch()
    app.type("Stored Earlier")
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.quit()


def test_a_read_only_data_folder_with_stored_responses(launch, profile, tmp_path):
    store_one_response(launch)
    app = read_only_launcher(launch, profile)()
    wait_for(lambda: "1 stored response" in app.heading_count_label().get_name(), "the stored response in the list")
    message = submit_is_refused_without_crashing(app, "The response was not saved")
    assert "cannot be written" in message
    assert [row["name"] for row in profile.exported_rows(tmp_path)] == ["Stored Earlier"]


def test_a_draft_that_cannot_be_saved_stays_reported_until_it_can(launch, profile):
    store_one_response(launch)
    app = read_only_launcher(launch, profile)()
    app.type("Ada")
    app.wait_status("The draft was not saved")
    # Every edit would clear an ordinary message; this one stays, through
    # the next edits and the next failed saves, while typing is at risk.
    app.key("Tab")
    app.wait_focus(COMPANY)
    app.type("ACME")
    app.wait_summary(name="Ada", company="ACME")
    for _ in range(3):
        time.sleep(0.6)
        assert "The draft was not saved" in app.status(), app.status()


def test_a_database_from_a_newer_version_is_read_but_never_written(launch, profile, tmp_path):
    store_one_response(launch)
    with sqlite3.connect(profile.database) as db:
        db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a newer version')")
    before = profile.database.read_bytes()

    app = launch()
    app.wait_status("written by a newer version")
    wait_for(lambda: "1 stored response" in app.heading_count_label().get_name(), "the stored response in the list")
    app.type("Ada")
    app.key("ctrl+s")
    app.wait_status("The response was not saved")
    app.wait_summary(name="Ada")
    assert profile.database.read_bytes() == before, "nothing written into a newer version's database"

    refused = profile.export_csv(tmp_path / "newer.csv")
    assert refused.returncode != 0 and "newer version" in refused.stderr
