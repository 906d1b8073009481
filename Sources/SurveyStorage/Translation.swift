import Foundation
import SurveyModel

/// `message` in the user's language (see `Localization`).
func tr(_ message: String) -> String {
    Localization.translate(message)
}

/// The translated `format` with `arguments` in its `%@` places.
func tr(_ format: String, _ arguments: String...) -> String {
    String(format: Localization.translate(format), arguments: arguments.map { $0 as NSString })
}
