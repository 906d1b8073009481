import FormEngine

/// A form's formatted label or hint as the Pango markup a GtkLabel shows:
/// each run's text escaped, its style as a `<span>`, its link as `<a>`.
enum LabelMarkup {
    static func pango(_ text: FormattedText) -> String {
        text.runs.map { run in
            var attributes: [String] = []
            let style = run.style
            if let heading = style.heading {
                attributes.append("size=\"\(headingSizes[min(max(heading, 1), 6) - 1])\"")
                attributes.append("weight=\"bold\"")
            } else if style.isBold {
                attributes.append("weight=\"bold\"")
            }
            if style.isItalic { attributes.append("style=\"italic\"") }
            if style.isUnderlined { attributes.append("underline=\"single\"") }
            if let color = style.color { attributes.append("foreground=\"\(escaped(color))\"") }
            if let family = style.fontFamily { attributes.append("font_family=\"\(escaped(family))\"") }
            var markup = escaped(run.text)
            if !attributes.isEmpty { markup = "<span \(attributes.joined(separator: " "))>\(markup)</span>" }
            if let link = style.link { markup = "<a href=\"\(escaped(link))\">\(markup)</a>" }
            return markup
        }.joined()
    }

    /// `#` to `######`, as Collect sizes its headings.
    private static let headingSizes = ["xx-large", "x-large", "large", "medium", "medium", "medium"]

    /// The text with Pango markup's five special characters escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for char in text {
            switch char {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(char)
            }
        }
        return result
    }
}
