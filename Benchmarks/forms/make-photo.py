#!/usr/bin/python3
"""Writes a JPEG of WIDTH × HEIGHT pixels of noise, the hardest kind of
photo to decode (no two neighbouring pixels alike), through GdkPixbuf.

    make-photo.py WIDTH HEIGHT PATH
"""
import os
import sys

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, GLib  # noqa: E402

width, height, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pixels = GLib.Bytes.new(os.urandom(width * height * 3))
image = GdkPixbuf.Pixbuf.new_from_bytes(pixels, GdkPixbuf.Colorspace.RGB, False, 8, width, height, width * 3)
image.savev(path, "jpeg", ["quality"], ["90"])
