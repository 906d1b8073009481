import FormEngine
import Foundation

/// `survey-form --describe-form FORM`: what a form file holds, as JSON on
/// standard output, or its problems on standard error (exit 2). No display.
@MainActor
enum DescribeForm {
    static func run(path: String) -> Int32 {
        guard let definition = read(path) else { return 2 }
        // Warnings go where problems go; the description stays plain JSON.
        let warnings = definition.warnings.map { Terminal.escaped("warning: \($0)") + "\n" }.joined()
        if !warnings.isEmpty { FileHandle.standardError.write(Data(warnings.utf8)) }
        FileHandle.standardOutput.write(Data((definition.jsonDescription.text + "\n").utf8))
        return 0
    }

    /// `survey-form --describe-instance FORM`: the XML instance a new
    /// response (its defaults and calculations, nothing typed) would be
    /// submitted as; the form's problems on standard error (exit 2),
    /// including those only running it finds (a missing data file).
    static func runInstance(path: String) -> Int32 {
        let url = URL(fileURLWithPath: path)
        guard let definition = read(path) else { return 2 }
        let form: FormViewModel
        do {
            form = try FormViewModel(definition: definition, media: FormMedia(besideFormAt: url))
        } catch {
            report(error.problems)
            return 2
        }
        let xml = SubmissionXML.document(
            for: definition, answers: form.answers(), instanceID: form.instanceID, instanceName: form.instanceName(),
            entities: form.entities()
        )
        FileHandle.standardOutput.write(Data(xml.utf8))
        return 0
    }

    private static func read(_ path: String) -> FormDefinition? {
        do {
            return try FormDefinition(contentsOf: URL(fileURLWithPath: path))
        } catch {
            report(error.problems)
            return nil
        }
    }

    private static func report(_ problems: [FormProblem]) {
        let lines = problems.map { Terminal.escaped("\($0)") + "\n" }.joined()
        FileHandle.standardError.write(Data(lines.utf8))
    }
}
