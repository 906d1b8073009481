import Foundation
import PackagePlugin

/// Compiles the app's GResource bundle (UI files, CSS) with GLib's own
/// `glib-compile-resources` and embeds it in the target as a Swift source, so the
/// binary finds its interface wherever it runs: `swift run`, a meson install,
/// the Flatpak. SwiftPM's resource bundles cannot do that once installed.
///
/// It also compiles the translations in po/ with `msgfmt` and the settings
/// schema with `glib-compile-schemas --strict`, so that a build that is not
/// installed runs translated and keeps its settings; the generated source
/// says where they are.
@main
struct GResourceCompiler: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let resources = context.package.directoryURL.appending(path: "Resources")
        let manifest = resources.appending(path: "io.github.surveyform.SurveyForm.gresource.xml")
        let po = context.package.directoryURL.appending(path: "po")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let bundle = context.pluginWorkDirectoryURL.appending(path: "survey-form.gresource")
        let locale = context.pluginWorkDirectoryURL.appending(path: "locale")
        let schemas = context.pluginWorkDirectoryURL.appending(path: "schemas")
        let schema = resources.appending(path: "io.github.surveyform.SurveyForm.gschema.xml")

        // Every file the manifest names, so that editing one rebuilds the bundle.
        let manifestText = try String(contentsOf: manifest, encoding: .utf8)
        let linguas = po.appending(path: "LINGUAS")
        let languages = try String(contentsOf: linguas, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { $0.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let inputs = [manifest, linguas, schema]
            + manifestText.matches(of: /<file[^>]*>([^<]+)<\/file>/).map { resources.appending(path: String($0.output.1)) }
            + languages.map { po.appending(path: "\($0).po") }

        let script = """
            set -eu
            glib-compile-resources --sourcedir="$1" --target="$2" "$3"
            mkdir -p "$7"
            glib-compile-schemas --strict --targetdir="$7" "$1"
            for language in $(sed 's/#.*//' "$6/LINGUAS"); do
              mkdir -p "$5/$language/LC_MESSAGES"
              msgfmt --check -o "$5/$language/LC_MESSAGES/survey-form.mo" "$6/$language.po"
            done
            {
              printf '// Generated from Resources/ and po/ by the GResourceCompiler plugin.\\n'
              printf 'let embeddedResourceBundleBase64 = "'
              base64 -w0 "$2"
              printf '"\\n'
              printf 'let buildLocaleDirectory = "%s"\\n' "$5"
              printf 'let buildSchemaDirectory = "%s"\\n' "$7"
            } > "$4"
            """
        return [
            .buildCommand(
                displayName: "Compiling GResource bundle",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    "-c", script, "sh", resources.path, bundle.path, manifest.path, output.path, locale.path, po.path,
                    schemas.path,
                ],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
