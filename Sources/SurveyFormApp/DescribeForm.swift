import FormEngine
import Foundation

/// `survey-form --describe-form FORM`: what a form file holds, as JSON on
/// standard output, or its problems on standard error (exit 2). No display.
@MainActor
enum DescribeForm {
    static func run(path: String) -> Int32 {
        let definition: FormDefinition
        do {
            definition = try FormDefinition(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let lines = error.problems.map { Terminal.escaped("\($0)") + "\n" }.joined()
            FileHandle.standardError.write(Data(lines.utf8))
            return 2
        }
        // Warnings go where problems go; the description stays plain JSON.
        let warnings = definition.warnings.map { Terminal.escaped("warning: \($0)") + "\n" }.joined()
        if !warnings.isEmpty { FileHandle.standardError.write(Data(warnings.utf8)) }
        FileHandle.standardOutput.write(Data((definition.jsonDescription.text + "\n").utf8))
        return 0
    }
}
