#!/usr/bin/env python3
"""Checks the Flatpak manifest offline, with the rules Flathub's linter and
reviewers apply that need no network: check-flatpak-manifest.py MANIFEST SOURCE_ROOT"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

# The network reaches the shared PostgreSQL server; the Secret Service keeps
# its password. Nothing else is asked for.
FINISH_ARGS = ["--share=ipc", "--share=network", "--socket=fallback-x11", "--socket=wayland", "--device=dri",
               "--talk-name=org.freedesktop.secrets"]

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def main(manifest_path, source_root):
    manifest_path, source_root = Path(manifest_path), Path(source_root)
    manifest = json.loads(manifest_path.read_text())
    app_id = manifest.get("id", "")

    check(manifest_path.name == f"{app_id}.json", f"file name {manifest_path.name} is not the app id {app_id}")
    check(app_id == "io.github.surveyform.SurveyForm", f"unexpected app id {app_id}")
    check(manifest.get("runtime") == "org.gnome.Platform", "runtime must be org.gnome.Platform")
    check(manifest.get("runtime-version") == "50", "runtime-version must be 50")
    check(manifest.get("sdk") == "org.gnome.Sdk", "sdk must be org.gnome.Sdk")
    check("org.freedesktop.Sdk.Extension.swift6" in manifest.get("sdk-extensions", []), "the swift6 SDK extension is missing")

    command = manifest.get("command", "")
    check(re.fullmatch(r"[A-Za-z0-9._-]+", command) is not None, f"command {command!r} must be a plain name")
    check(command == "survey-form", "command must be survey-form")
    check(manifest.get("finish-args") == FINISH_ARGS, f"finish-args must be exactly {FINISH_ARGS}")

    options = manifest.get("build-options", {})
    check(options.get("append-path") == "/usr/lib/sdk/swift6/bin", "append-path must add the swift6 toolchain")
    check(options.get("prepend-ld-library-path") == "/usr/lib/sdk/swift6/lib", "prepend-ld-library-path must add swift6's libraries")
    for module in manifest.get("modules", []):
        check(not module.get("build-options", {}).get("build-args"), "no module may use build-args (such as --share=network)")

    app_module = next((m for m in manifest.get("modules", []) if m.get("name") == "survey-form"), None)
    check(app_module is not None, "no survey-form module")
    if app_module:
        check("-Dstatic_swift_stdlib=true" in app_module.get("config-opts", []), "the build must link the Swift runtime statically")
        sources = app_module.get("sources", [])
        git_sources = {s.get("dest", ""): s for s in sources if s.get("type") == "git"}
        folder = app_module.get("build-options", {}).get("env", {}).get("SURVEY_FORM_DEPENDENCIES", "")
        check(folder.endswith("/dependencies"), "SURVEY_FORM_DEPENDENCIES must name the dependencies folder")
        # Every SwiftPM dependency must be a manifest source: Flathub builds
        # offline (the ones they depend on are checked by the offline build).
        package = (source_root / "Package.swift").read_text()
        by_url = {s.get("url", "").removesuffix(".git"): s for s in git_sources.values()}
        for url, version in re.findall(r'\.package\(url: "([^"]+)", from: "([^"]+)"\)', package):
            source = by_url.get(url.removesuffix(".git"))
            check(source is not None, f"SwiftPM dependency {url} is not a manifest source")
            if source:
                check(source.get("tag") == version, f"{url}: the manifest's tag differs from Package.swift's {version}")
        for dest, source in git_sources.items():
            check(dest.startswith("dependencies/"), f"{dest}: dependency sources go in dependencies/")
            check(bool(source.get("tag") or source.get("commit")), f"{dest}: pin a tag or commit")
        check(re.search(r"\.package\((?!url: \"[^\"]+\", from: )", package) is None,
              "Package.swift names a dependency in another form than .package(url:from:)")
    desktop = (source_root / "Resources" / f"{app_id}.desktop.in").read_text()
    icon = re.search(r"^Icon=(.*)$", desktop, re.M)
    check(icon is not None and icon.group(1) == app_id, "the desktop file's Icon= must be the app id")
    check((source_root / f"Resources/icons/hicolor/scalable/apps/{app_id}.svg").is_file(), "the app icon is missing")
    check((source_root / f"Resources/icons/hicolor/symbolic/apps/{app_id}-symbolic.svg").is_file(), "the symbolic icon is missing")

    builder = shutil.which("flatpak-builder")
    check(builder is not None, "flatpak-builder is not installed (build-aux/setup installs it)")
    if builder:
        result = subprocess.run([builder, "--show-manifest", str(manifest_path)], capture_output=True, text=True)
        check(result.returncode == 0, f"flatpak-builder --show-manifest failed: {result.stderr.strip()}")
        check("Unknown property" not in result.stderr, f"flatpak-builder: {result.stderr.strip()}")

    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"flatpak manifest: {'ok' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
