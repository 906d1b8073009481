import Foundation

extension FormDefinition {
    /// The language code a language name carries in parentheses, as XLSForm
    /// asks (`de` for `Deutsch (de)`), lower case; `nil` when it has none.
    public static func languageCode(of name: String) -> String? {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return nil }
        let code = name[name.index(after: open)..<name.index(before: name.endIndex)]
            .trimmingCharacters(in: .whitespaces).lowercased()
        return code.isEmpty ? nil : code
    }

    /// The form's language for the first of `preferred` that it has, or `nil`.
    ///
    /// `preferred` is the desktop's list, most wanted first, as POSIX locale
    /// names (`de_DE.UTF-8`, `de`) or language tags (`pt-BR`). A form language
    /// matches a preference by its whole code, else by its primary language, so
    /// `de_AT` finds `Deutsch (de)`. `C` and `POSIX` end the list: they ask for
    /// no translation.
    public func language(matching preferred: [String]) -> String? {
        let coded = languages.compactMap { name in Self.languageCode(of: name).map { (name, $0) } }
        guard !coded.isEmpty else { return nil }
        for locale in preferred {
            let tag = Self.languageTag(ofLocale: locale)
            if tag == "c" || tag == "posix" { return nil }
            if let exact = coded.first(where: { $0.1 == tag }) { return exact.0 }
            let primary = Self.primaryLanguage(tag)
            if let close = coded.first(where: { Self.primaryLanguage($0.1) == primary }) { return close.0 }
        }
        return nil
    }

    /// `de_DE.UTF-8@euro` as `de-de`: no encoding or modifier, BCP 47 dashes.
    private static func languageTag(ofLocale locale: String) -> String {
        let withoutModifier = locale.prefix { $0 != "@" }
        let withoutEncoding = withoutModifier.prefix { $0 != "." }
        return withoutEncoding.replacingOccurrences(of: "_", with: "-").lowercased()
    }

    private static func primaryLanguage(_ tag: String) -> Substring {
        tag.prefix { $0 != "-" }
    }
}

extension FormDefinition {
    /// The codes of languages written right to left (Arabic, Dhivehi,
    /// Persian and Dari, Hebrew, Kashmiri, Kurdish Sorani, Pashto, Sindhi,
    /// Uyghur, Urdu, Yiddish).
    static let rightToLeftCodes: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "prs", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi", "ji",
    ]

    /// The English names forms give such languages without a code (`label::Arabic`).
    static let rightToLeftNames: Set<String> = [
        "arabic", "dari", "farsi", "persian", "hebrew", "pashto", "pashtu", "urdu", "sindhi", "uyghur",
        "yiddish", "dhivehi", "sorani", "kurdish sorani",
    ]

    /// Whether the form language `name` is written right to left: by its
    /// code (`العربية (ar)`, `ar-SA`), else by its English name.
    public static func isRightToLeft(_ name: String?) -> Bool {
        guard let name else { return false }
        if let code = languageCode(of: name) {
            let primary = code.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? code
            return rightToLeftCodes.contains(primary)
        }
        return rightToLeftNames.contains(name.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
