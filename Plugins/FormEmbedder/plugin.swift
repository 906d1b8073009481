import Foundation
import PackagePlugin

/// Embeds the built-in forms of `Resources/forms/` in the target as a Swift
/// source, so the model has its survey wherever the binary runs (tests, the
/// command line, an installed app) without reading a resource at run time.
@main
struct FormEmbedder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let form = context.package.directoryURL.appending(path: "Resources/forms/survey.md")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInForms.swift")
        // Base64 keeps the form's text out of Swift's string syntax entirely.
        let script = """
            set -eu
            {
              printf '// Generated from Resources/forms/ by the FormEmbedder plugin.\\n'
              printf 'let builtInSurveyFormBase64 = "'
              base64 -w0 "$1"
              printf '"\\n'
            } > "$2"
            """
        return [
            .buildCommand(
                displayName: "Embedding the built-in survey form",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", form.path, output.path],
                inputFiles: [form],
                outputFiles: [output]
            )
        ]
    }
}
