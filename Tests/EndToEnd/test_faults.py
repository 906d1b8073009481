"""Faults from outside the app: a full disk, and other processes using the
database at the same time. CI runs as root, so the full disk is a real one:
a 2 MiB tmpfs mounted over the profile's data folder."""

import errno
import sqlite3
import subprocess
import threading
import time

import pytest

from conftest import NAME, text_of, wait_for


@pytest.fixture
def small_disk(profile):
    """Mounts a 2 MiB tmpfs over XDG_DATA_HOME for the test; unmounted after."""
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", str(profile.data_home)],
        capture_output=True, text=True,
    )
    assert mount.returncode == 0, f"a full-disk test needs root to mount a tmpfs: {mount.stderr}"
    yield profile.data_home
    subprocess.run(["umount", "-l", str(profile.data_home)], check=False)


def fill(folder):
    """Writes a file into `folder` until the disk is full; returns it."""
    filler = folder / "filler"
    # Unbuffered: a buffered file would try its refused chunk again on
    # closing, and fail there, depending on where the disk's end falls.
    with open(filler, "wb", buffering=0) as out:
        chunk = b"\0" * 65536
        try:
            while True:
                out.write(chunk)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    # Single bytes too: no page left for SQLite.
    with open(filler, "ab", buffering=0) as out:
        try:
            while True:
                out.write(b"\0")
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    return filler


def test_a_full_disk_refuses_the_submit_keeps_the_answers_and_recovers(launch, profile, tmp_path, small_disk):
    app = launch()
    app.wait_focus(NAME)
    app.type("Ada Lovelace")
    app.wait_summary(name="Ada Lovelace")
    # The draft is saved before the disk fills: a save due after it would
    # fail too, and its message would take the status from the submit's.
    wait_for(lambda: profile.draft.exists() and "Ada Lovelace" in profile.draft.read_text(), "the draft saved")
    filler = fill(small_disk)

    app.key("ctrl+s")
    app.wait_status("the disk is full")
    assert "Response saved" not in app.status()
    # Every answer is still in the form, to be sent once there is room.
    app.wait_summary(name="Ada Lovelace")

    filler.unlink()
    app.key("ctrl+s")
    app.wait_status("Response saved")
    app.quit()
    assert [row["name"] for row in profile.exported_rows(tmp_path)] == ["Ada Lovelace"]


def test_a_submit_waits_for_another_process_holding_the_database(launch, profile, tmp_path):
    app = launch()
    app.wait_focus(NAME)
    app.type("Grace Hopper")
    app.wait_summary(name="Grace Hopper")

    # Another process (a script, a backup) takes the write lock for 2 s.
    held = threading.Event()

    def hold_the_lock():
        other = sqlite3.connect(str(profile.database), timeout=10, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        held.set()
        time.sleep(2)
        other.execute("COMMIT")
        other.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    assert held.wait(10)
    app.key("ctrl+s")
    # The busy timeout waits the lock out: saved, not "database is locked".
    app.wait_status("Response saved")
    holder.join()
    app.quit()
    assert [row["name"] for row in profile.exported_rows(tmp_path)] == ["Grace Hopper"]


def test_exports_read_whole_responses_while_the_window_stores_them(launch, profile, tmp_path):
    app = launch()
    stop = threading.Event()
    exports = []

    def export_repeatedly():
        index = 0
        while not stop.is_set():
            index += 1
            destination = tmp_path / f"export-{index}.csv"
            result = profile.export_csv(destination)
            exports.append((result, destination))

    exporter = threading.Thread(target=export_repeatedly)
    exporter.start()
    try:
        for count, name in enumerate(("Ada", "Grace", "Edsger"), start=1):
            app.wait_focus(NAME)
            app.type(name)
            app.wait_summary(name=name)
            app.key("ctrl+s")
            wait_for(lambda: text_of(app.heading_count_label()).startswith(f"{count} stored response"),
                     f"{name}'s response stored")
    finally:
        stop.set()
        exporter.join()
    assert exports, "no export ran beside the window"
    for result, destination in exports:
        assert result.returncode == 0, result
        text = destination.read_text(encoding="utf-8-sig")
        names = [line.split(",")[1] for line in text.splitlines()[1:]]
        # Each export saw a prefix of the responses, whole rows only.
        assert names == ["Ada", "Grace", "Edsger"][: len(names)], names
