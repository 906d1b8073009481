import Foundation

/// A label or hint as ODK Collect renders it: its Markdown subset (`**bold**`,
/// `*italic*`, `_italic_`, `# heading` lines, `[text](https://…)` links, `\*`
/// escapes) and the HTML it lets through (`<span style="color:red">`,
/// `<br>`, `<b>`, `<i>`, `<u>`, `<font>`, `<h1>`…, `<a href>`, entities),
/// read into runs of text with a style each.
///
/// A screen reader, a summary and a window title take `plainText`: the words
/// without the marks. Other tags are dropped and their text kept, as
/// Collect's HTML rendering drops them; a `<` that starts no tag is text.
public struct FormattedText: Sendable, Equatable {
    /// How a run of text is set.
    public struct Style: Sendable, Equatable {
        public var isBold = false
        public var isItalic = false
        public var isUnderlined = false
        /// 1 (largest) to 6, for a `#` line or `<hN>`.
        public var heading: Int?
        /// A CSS colour name or `#rgb`/`#rrggbb`, checked to be one.
        public var color: String?
        /// A font family, checked to be letters, digits, spaces, commas and hyphens.
        public var fontFamily: String?
        /// An `http`, `https`, `mailto` or `tel` address the run links to.
        public var link: String?

        public init() {}
    }

    /// A run of text in one style; line breaks are `\n` in the text.
    public struct Run: Sendable, Equatable {
        public var text: String
        public var style: Style
    }

    /// The runs in order; neighbouring runs differ in style.
    public private(set) var runs: [Run]

    /// The longest text read for marks, in characters: labels are a few
    /// lines, and a text this long is read in a few milliseconds whatever it holds.
    public static let longestFormatted = 2_000

    /// How deeply emphasis may nest (`*_**…**_*`); deeper marks are text.
    static let deepestEmphasis = 16

    /// Reads `text` as ODK's Markdown and HTML subset.
    public init(parsing text: String) {
        // Most labels have no mark at all. A text longer than any label is
        // shown as it is: finding emphasis pairs takes time that grows with
        // the square of the text, and a form file is not trusted for size.
        // Every mark is ASCII, so the bytes are looked at, not the characters:
        // a list of 100,000 choices is read at once as a form opens.
        guard text.utf8.contains(where: Self.isMarkByte), text.count <= Self.longestFormatted else {
            runs = text.isEmpty ? [] : [Run(text: text, style: Style())]
            return
        }
        var parser = Parser(Array(text))
        parser.parse()
        runs = parser.runs
        // A closing paragraph or break at the very end adds no empty line.
        while let last = runs.last, last.text.hasSuffix("\n") {
            let trimmed = String(last.text.dropLast())
            if trimmed.isEmpty { runs.removeLast() } else { runs[runs.count - 1].text = trimmed }
        }
    }

    /// `*`, `_`, `#`, `[`, `<`, `&` or `\`: a byte that may begin a mark.
    private static func isMarkByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "#"), UInt8(ascii: "["),
             UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "\\"): true
        default: false
        }
    }

    /// The words without the marks: what a screen reader hears.
    public var plainText: String { runs.map(\.text).joined() }

    /// Whether it is plain text, without any style.
    public var isPlain: Bool { runs.allSatisfy { $0.style == Style() } }
}

extension Choice {
    /// The label as a person reads it in `language`: its words without
    /// Markdown or HTML marks, or the choice's name if it has no label.
    public func shownLabel(in language: String?) -> String {
        label.text(in: language).map { FormattedText(parsing: $0).plainText } ?? name
    }
}

extension Question {
    /// The label as a person reads it in `language`, without marks, `${}` left as written.
    public func shownLabel(in language: String?) -> String? {
        label.text(in: language).map { FormattedText(parsing: $0).plainText }
    }
}

private struct Parser {
    let chars: [Character]
    var runs: [FormattedText.Run] = []
    /// The styles HTML tags opened and not yet closed, innermost last.
    var html: [FormattedText.Style] = []

    init(_ chars: [Character]) {
        self.chars = chars
    }

    mutating func parse() {
        var start = 0
        while start <= chars.count {
            let end = chars[start...].firstIndex(of: "\n") ?? chars.count
            var style = FormattedText.Style()
            var from = start
            // `# Heading`: one to six marks and a space start the line.
            let marks = chars[start..<end].prefix { $0 == "#" }.count
            if (1...6).contains(marks), start + marks < end, chars[start + marks] == " " {
                style.heading = marks
                from = start + marks
                while from < end, chars[from] == " " { from += 1 }
            }
            inline(from..<end, style: style)
            if end < chars.count { append("\n", style: FormattedText.Style()) }
            start = end + 1
        }
    }

    private mutating func append(_ text: String, style: FormattedText.Style) {
        guard !text.isEmpty else { return }
        var effective = style
        for opened in html {
            if opened.isBold { effective.isBold = true }
            if opened.isItalic { effective.isItalic = true }
            if opened.isUnderlined { effective.isUnderlined = true }
            if let heading = opened.heading { effective.heading = heading }
            if let color = opened.color { effective.color = color }
            if let family = opened.fontFamily { effective.fontFamily = family }
            if let link = opened.link { effective.link = link }
        }
        if let last = runs.last, last.style == effective {
            runs[runs.count - 1].text += text
        } else {
            runs.append(FormattedText.Run(text: text, style: effective))
        }
    }

    /// Emphasis opened and not yet closed around the text being read.
    private var depth = 0

    private mutating func inline(_ range: Range<Int>, style: FormattedText.Style) {
        var buffer = ""
        var index = range.lowerBound
        func flush(_ parser: inout Parser) {
            parser.append(buffer, style: style)
            buffer = ""
        }
        while index < range.upperBound {
            let char = chars[index]
            if char == "\\", index + 1 < range.upperBound, "\\*_#[]()<>`".contains(chars[index + 1]) {
                buffer.append(chars[index + 1])
                index += 2
                continue
            }
            if char == "<", let (end, action) = tag(at: index, before: range.upperBound) {
                flush(&self)
                switch action {
                case .open(let opened): html.append(opened)
                case .close: _ = html.popLast()
                case .lineBreak: append("\n", style: style)
                case .ignore: break
                }
                index = end
                continue
            }
            if char == "&", let (end, decoded) = entity(at: index, before: range.upperBound) {
                buffer.append(decoded)
                index = end
                continue
            }
            if char == "*" || char == "_", depth < FormattedText.deepestEmphasis {
                let width = index + 1 < range.upperBound && chars[index + 1] == char ? 2 : 1
                if let close = closing(char, width: width, from: index, before: range.upperBound) {
                    flush(&self)
                    var inner = style
                    if width == 2 { inner.isBold = true } else { inner.isItalic = true }
                    depth += 1
                    inline(index + width..<close, style: inner)
                    depth -= 1
                    index = close + width
                    continue
                }
            }
            if char == "[", depth < FormattedText.deepestEmphasis, let (text, link, end) = link(at: index, before: range.upperBound) {
                flush(&self)
                var inner = style
                inner.link = link
                depth += 1
                inline(text, style: inner)
                depth -= 1
                index = end
                continue
            }
            buffer.append(char)
            index += 1
        }
        flush(&self)
    }

    /// Where the emphasis opened by `width` marks at `open` closes: the text
    /// inside is not empty and has no space next to either mark, and `_`
    /// only marks whole words (`snake_case_name` stays as it is).
    private func closing(_ mark: Character, width: Int, from open: Int, before end: Int) -> Int? {
        let first = open + width
        guard first < end, !chars[first].isWhitespace, chars[first] != mark else { return nil }
        if mark == "_", open > 0, chars[open - 1].isLetter || chars[open - 1].isNumber { return nil }
        var index = first + 1
        while index + width <= end {
            if chars[index] == mark, chars[index - 1] != "\\",
               (index..<index + width).allSatisfy({ chars[$0] == mark }),
               index + width == end || chars[index + width] != mark || width == 2,
               !chars[index - 1].isWhitespace {
                let after = index + width
                if mark == "_", after < end, chars[after].isLetter || chars[after].isNumber {
                    index += 1
                    continue
                }
                return index
            }
            index += 1
        }
        return nil
    }

    /// `[text](address)`: the text's range, the address if it is one a
    /// label may open, and where it ends.
    private func link(at open: Int, before end: Int) -> (Range<Int>, String, Int)? {
        guard let closeText = chars[open..<end].firstIndex(of: "]"), closeText + 1 < end, chars[closeText + 1] == "(",
              let closeLink = chars[(closeText + 1)..<end].firstIndex(of: ")") else { return nil }
        let address = String(chars[(closeText + 2)..<closeLink]).trimmingCharacters(in: .whitespaces)
        guard Self.isSafeLink(address) else { return nil }
        return (open + 1..<closeText, address, closeLink + 1)
    }

    static func isSafeLink(_ address: String) -> Bool {
        let lower = address.lowercased()
        return ["http://", "https://", "mailto:", "tel:"].contains { lower.hasPrefix($0) }
            && !address.contains { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" }
    }

    enum TagAction {
        case open(FormattedText.Style)
        case close
        case lineBreak
        case ignore
    }

    /// An HTML tag at `open`: what it does and where it ends; nil when the
    /// `<` starts no tag (`a < b`, `<3`).
    private func tag(at open: Int, before end: Int) -> (Int, TagAction)? {
        var index = open + 1
        let isClosing = index < end && chars[index] == "/"
        if isClosing { index += 1 }
        let nameStart = index
        while index < end, chars[index].isLetter || (index > nameStart && chars[index].isNumber) { index += 1 }
        guard index > nameStart, let close = chars[index..<end].firstIndex(of: ">") else { return nil }
        let name = String(chars[nameStart..<index]).lowercased()
        let attributes = Self.attributes(String(chars[index..<close]))
        let after = close + 1
        if name == "br" { return (after, .lineBreak) }
        if name == "p" { return (after, isClosing ? .lineBreak : .ignore) }
        let known: Set<String> = ["span", "b", "strong", "i", "em", "u", "font", "a", "h1", "h2", "h3", "h4", "h5", "h6"]
        guard known.contains(name) else { return (after, .ignore) }
        if isClosing { return (after, .close) }
        var style = FormattedText.Style()
        switch name {
        case "b", "strong": style.isBold = true
        case "i", "em": style.isItalic = true
        case "u": style.isUnderlined = true
        case "a": style.link = attributes["href"].flatMap { Self.isSafeLink($0) ? $0 : nil }
        case "font":
            style.color = attributes["color"].flatMap(Self.checkedColor)
            style.fontFamily = attributes["face"].flatMap(Self.checkedFamily)
        case "span":
            for declaration in (attributes["style"] ?? "").split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0].lowercased() {
                case "color": style.color = Self.checkedColor(parts[1])
                case "font-family": style.fontFamily = Self.checkedFamily(parts[1])
                case "font-weight": style.isBold = parts[1].lowercased() == "bold" || (Int(parts[1]) ?? 400) >= 600
                case "font-style": style.isItalic = parts[1].lowercased() == "italic"
                case "text-decoration": style.isUnderlined = parts[1].lowercased().contains("underline")
                default: break
                }
            }
        default: style.heading = Int(name.dropFirst())
        }
        return (after, .open(style))
    }

    /// `name="value"` pairs, names lowercased.
    private static func attributes(_ text: String) -> [String: String] {
        var found: [String: String] = [:]
        let pattern = /([A-Za-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/
        for match in text.matches(of: pattern) {
            found[String(match.1).lowercased()] = String(match.2 ?? match.3 ?? "")
        }
        return found
    }

    private static func checkedColor(_ value: String) -> String? {
        let color = value.trimmingCharacters(in: .whitespaces)
        if color.wholeMatch(of: /#(?:[0-9A-Fa-f]{3}){1,2}/) != nil || color.wholeMatch(of: /[A-Za-z]{1,30}/) != nil {
            return color.lowercased()
        }
        return nil
    }

    private static func checkedFamily(_ value: String) -> String? {
        let family = value.trimmingCharacters(in: CharacterSet(charactersIn: " '\""))
        return family.wholeMatch(of: /[A-Za-z0-9 ,-]{1,60}/) != nil ? family : nil
    }

    /// `&amp;`, `&lt;`, `&#233;`, `&#xE9;`: the character and where the
    /// entity ends; nil for an `&` that starts none.
    private func entity(at open: Int, before end: Int) -> (Int, Character)? {
        guard let semicolon = chars[open..<min(end, open + 10)].firstIndex(of: ";") else { return nil }
        let name = String(chars[(open + 1)..<semicolon])
        let named: [String: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}"]
        if let char = named[name] { return (semicolon + 1, char) }
        var number: UInt32?
        if name.hasPrefix("#x") || name.hasPrefix("#X") { number = UInt32(name.dropFirst(2), radix: 16) }
        else if name.hasPrefix("#") { number = UInt32(name.dropFirst()) }
        guard let number, let scalar = Unicode.Scalar(number), scalar.value != 0 else { return nil }
        return (semicolon + 1, Character(scalar))
    }
}
