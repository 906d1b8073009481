"""Damaged and hostile settings files (GSettings' keyfile, as a Flatpak
keeps it), generated as the test runs: the app starts all the same, on the
schema's defaults where a value is unusable, and keeps nothing beyond its
own limits."""

import os
import random
import re
import subprocess

from conftest import wait_until_equal
from test_forms import VISIT


def window_size(app):
    geometry = subprocess.run(["xdotool", "getwindowgeometry", app.window_id], capture_output=True, text=True,
                              check=True, timeout=10).stdout
    width, height = re.search(r"Geometry: (\d+)x(\d+)", geometry).groups()
    return int(width), int(height)


def test_sizes_and_lists_past_any_sane_value_are_cut_to_the_apps_limits(launch, profile):
    path = str(VISIT.resolve())
    many = ", ".join(f"'/nowhere/form-{index}.md'" for index in range(200_000))
    profile.write_settings(window_width="2147483647", window_height="2147483647",
                           recent_forms=f"['{path}', 'relative.md', '', {many}]")
    app = launch()
    wait_until_equal(app.title, "Clinic visit", "the form opened last, reopened")
    width, height = window_size(app)
    assert width <= 16_384 and height <= 16_384, (width, height)
    app.quit()
    settings = profile.settings_file.read_text()
    recent = re.search(r"^recent-forms=\[(.*)\]$", settings, re.MULTILINE).group(1)
    assert recent.count("'/") == 10, recent
    assert "relative.md" not in recent


def test_a_settings_file_of_garbage_or_of_wrong_types_starts_on_the_defaults(launch, profile):
    profile.settings_file.parent.mkdir(parents=True, exist_ok=True)
    noise = random.Random(30)
    profile.settings_file.write_bytes(bytes(noise.randrange(256) for _ in range(100_000)))
    app = launch()
    assert app.title() == "Survey Form"
    app.quit()

    profile.write_settings(server_port="'x'", window_width="'wide'", kiosk="42", server_security="'none'",
                           recent_forms="'not a list'", opening_form="['a', 'list']")
    app = launch()
    assert app.title() == "Survey Form"
    width, height = window_size(app)
    assert (width, height) == (960, 680), "the schema's default size"


def test_a_security_value_past_the_schemas_choices_still_checks_the_certificate(profile):
    # GLib 2.74 lets this through its check of the key's choices (found by
    # the settings fuzzer); the app reads anything but `insecure` as checking.
    profile.write_settings(server_host="'db.example.org'", server_user="'laptop_1'",
                           server_security="'in" + "?" * 70 + "secure'")
    status = subprocess.run([os.environ["SURVEY_FORM_BINARY"], "--sync-status"], env=profile.environment(),
                            capture_output=True, text=True, timeout=60)
    assert status.returncode == 0, status
    assert "Server: laptop_1@db.example.org:5432/survey_responses (verify-full)" in status.stdout, status.stdout
