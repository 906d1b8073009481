/// A form as its file describes it: settings, the survey's questions as a tree,
/// and the choice lists its selects draw from.
///
/// Made by `FormDefinition(contentsOf:)`, which refuses a form that cannot be
/// run; nothing here is evaluated yet (that is `FormViewModel`'s job).
public struct FormDefinition: Sendable {
    /// The settings sheet's values, with the XLSForm fallbacks applied.
    public var settings: FormSettings
    /// The survey's top-level questions, groups and repeats, in order.
    public var questions: [Question]
    /// The choice lists by name, each in the choices sheet's order.
    public var choiceLists: [String: ChoiceList]
    /// The languages the form's texts come in, sorted; `default` for texts in a
    /// column with no language.
    public var languages: [String]
    /// The external_choices sheet's lists, which `select_one_external` draws from.
    public var externalChoiceLists: [String: ChoiceList] = [:]
    /// The entities sheet's declarations: what a response creates or updates
    /// in the server's entity lists.
    public var entities: [EntityDeclaration] = []
    /// Secondary instances the form's file holds that are no choice list
    /// (`Workbook.embeddedInstances`), by id.
    public var embeddedInstances: [String: InstanceNode] = [:]
    /// Data files not named after their instance's id (`Workbook.dataFileNames`).
    public var dataFileNames: [String: String] = [:]

    /// Every question in order, depth first, groups and repeats included.
    public var allQuestions: [Question] {
        var result: [Question] = []
        func visit(_ questions: [Question]) {
            for question in questions {
                result.append(question)
                visit(question.children)
            }
        }
        visit(questions)
        return result
    }
}

/// The settings sheet of a form.
public struct FormSettings: Sendable, Equatable {
    /// `form_id`, else the file's name without its extension.
    public var id: String
    /// `version` as written, or `nil`.
    public var version: String?
    /// `form_title`, else the id.
    public var title: String
    /// `default_language`, or `nil`.
    public var defaultLanguage: String?
    /// `instance_name`, an expression naming each response, or `nil`.
    public var instanceName: String?
    /// `style`: `pages` shows the form a page at a time, or `nil`.
    public var style: String?
    /// `name`: the root element of the form's instance, `data` unless given.
    public var rootName: String = "data"
    /// `public_key`: the RSA key (X.509, base64) a server that encrypts
    /// this form's responses gave it, or `nil`.
    public var publicKey: String?

    /// Creates settings.
    public init(
        id: String, version: String?, title: String, defaultLanguage: String?, instanceName: String?, style: String? = nil
    ) {
        self.id = id
        self.version = version
        self.title = title
        self.defaultLanguage = defaultLanguage
        self.instanceName = instanceName
        self.style = style
    }
}

/// A named list of choices from the choices sheet.
public struct ChoiceList: Sendable, Equatable {
    /// The list's name (`list_name`).
    public var name: String
    /// The choices in the sheet's order.
    public var choices: [Choice]
}

/// One choice of a select question.
public struct Choice: Sendable, Equatable {
    /// The value stored when it is chosen.
    public var name: String
    /// Its label per language.
    public var label: TranslatedText
    /// Extra columns (used by `choice_filter` expressions), by header.
    public var properties: [String: String]
    /// The choices sheet's row.
    public var row: Int
    /// Media shown with the label (`media::image`, …), file names per language, by kind.
    public var media: [MediaKind: TranslatedText] = [:]
    /// Whether the converter adds it rather than the sheet holding it
    /// (`or_other`'s "Other"): offered, not described.
    public var isGenerated = false
}

/// The media a label can carry, as XLSForm's `media::` columns name them.
public enum MediaKind: String, Sendable, CaseIterable, Hashable {
    case image
    case bigImage = "big-image"
    case audio
    case video
}

/// A text in each of the form's languages (`default` for a column with none).
public struct TranslatedText: Sendable, Equatable {
    /// Text by language.
    public var byLanguage: [String: String]

    /// Creates a translated text.
    public init(_ byLanguage: [String: String] = [:]) {
        self.byLanguage = byLanguage
    }

    /// Whether no language has a text.
    public var isEmpty: Bool { byLanguage.isEmpty }

    /// The text in `language`, else in the default column, else in the first
    /// language that has one.
    public func text(in language: String?) -> String? {
        if let language, let text = byLanguage[language] { return text }
        if let text = byLanguage[FormDefinition.defaultLanguageName] { return text }
        return byLanguage.keys.sorted().first.flatMap { byLanguage[$0] }
    }
}

extension FormDefinition {
    /// The language name of a column with no language (`label`, not `label::de`).
    public static let defaultLanguageName = "default"
}
