import Foundation
import FormEngine

/// The survey Survey Form opens by default, as an XLSForm: the seed's six
/// questions with their rules and messages in English and German.
enum BuiltInSurvey {
    /// The form's file name; its extension names the layout.
    static let fileName = "survey.md"

    /// The form's bytes, as written in `Sources/SurveyFormApp/Resources/survey.md`.
    static var data: Data {
        Data(PackageResources.survey_md)
    }

    /// The form, read once.
    static let definition: FormDefinition = {
        do {
            return try FormDefinition(data: data, fileName: fileName)
        } catch {
            preconditionFailure("The built-in survey does not read: \(error)")
        }
    }()

    /// Starts reading the form on another thread, so that a window built
    /// meanwhile finds it read; reading it is about a quarter of the making
    /// of its window.
    static func readInBackground() {
        DispatchQueue.global(qos: .userInitiated).async { _ = definition }
    }
}
