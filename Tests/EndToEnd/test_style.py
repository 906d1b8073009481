"""The window is drawn in libadwaita's style: GTK is opened without its own
theme (Adwaita.initialize), and libadwaita still styles every widget."""

import os
import subprocess
from collections import Counter

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

# The window's background in each style, light: libadwaita 1.2's
# window_bg_color, and GTK 4.8's own Adwaita theme.
LIBADWAITA_WINDOW = (0xFA, 0xFA, 0xFA)
GTK_OWN_THEME_WINDOW = (0xF6, 0xF5, 0xF4)


def commonest_colour(path):
    """The colour of most of the picture: the window's background."""
    picture = GdkPixbuf.Pixbuf.new_from_file(str(path))
    pixels, channels, stride = picture.get_pixels(), picture.get_n_channels(), picture.get_rowstride()
    counts = Counter(
        tuple(pixels[y * stride + x * channels:y * stride + x * channels + 3])
        for y in range(0, picture.get_height(), 3)
        for x in range(0, picture.get_width(), 3)
    )
    return counts.most_common(1)[0][0]


def screenshot(profile, path, **env):
    result = subprocess.run(
        [os.environ["SURVEY_FORM_BINARY"], "--screenshot", str(path)],
        env=profile.environment(**env), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"--screenshot failed ({result.returncode}): {result.stderr}"
    return commonest_colour(path)


def test_the_window_wears_libadwaitas_style(profile, tmp_path):
    env = dict(os.environ)
    assert "GTK_THEME" not in env, "the test session must not name a theme"
    assert screenshot(profile, tmp_path / "window.png") == LIBADWAITA_WINDOW


def test_a_theme_the_user_names_is_left_to_gtk_and_libadwaita(profile, tmp_path):
    # GTK_THEME set by the user: GTK loads it and libadwaita stands aside, as
    # in any libadwaita app; the app neither overrides nor removes it.
    assert screenshot(profile, tmp_path / "window.png", GTK_THEME="Adwaita") == GTK_OWN_THEME_WINDOW
