/// What a form file may ask of the reader, stated once.
///
/// Form files come from downloads, mail and USB sticks, so none of what they
/// say about their own size is trusted. Each limit is far above what a real
/// form needs (the largest public forms seen are a few megabytes and a few
/// thousand rows) and far below what would exhaust a laptop; a file past one
/// is refused with a message that names the limit, never half read.
public enum FormLimits {
    /// A form file's size on disk. The largest real workbooks, pictures
    /// embedded, are a few megabytes; the file is read whole into memory.
    public static let fileBytes = 64 << 20

    /// What one part of an `.xlsx` archive may unpack to. A 5,000-question
    /// sheet is about 3 MB of XML; a deflate stream can claim a thousand
    /// times its size.
    public static let partBytes = 32 << 20

    /// What all the parts read from one workbook may unpack to together.
    public static let workbookBytes = 64 << 20

    /// Entries in an `.xlsx` archive's directory. Excel writes a few dozen.
    public static let archiveEntries = 10_000

    /// Sheets a workbook (or a `.csv`/`.md` layout) may list. A form reads
    /// three; the rest are the author's notes.
    public static let sheets = 1_000

    /// Entries in a workbook's shared string table: one per distinct text.
    public static let sharedStrings = 1_000_000

    /// Cell styles and number formats a workbook's styles part may hold,
    /// each: Excel allows 64,000 of them.
    public static let cellStyles = 65_536

    /// Cells, empty ones inside a row included, that a form file's sheets may
    /// hold in all: rows are kept as arrays up to their last cell, so this
    /// bounds the memory a sheet can take.
    public static let cells = 2_000_000

    /// Elements an XML document read whole (an XForm, an `xml-external`
    /// file) may hold: each is kept as a node of about 50 bytes, so that a
    /// file of empty elements stays within 4 times its size and 100 MB.
    public static let xmlElements = 1_000_000

    /// The format's own last column (`XFD`) and last row.
    public static let columns = 16_384
    public static let rows = 1_048_576

    /// How deeply a workbook part's XML elements may nest. Sheets nest six.
    public static let xmlDepth = 64

    /// Groups and repeats open at once. pyxform 4.5.0, the reference
    /// converter, runs out of recursion past 490 and refuses the form.
    public static let groupDepth = 490

    /// Levels in one expression's tree: every operator, call, predicate and
    /// parenthesis is one, so a sum of 500 answers takes 500. Evaluating
    /// recurses once a level, and this stays well inside a thread's stack.
    public static let expressionDepth = 1_000

    /// Repeat instances in one running form, nested ones included: each is a
    /// scope of live answers, and a count typed as 10,000 inside a repeat
    /// counted 10,000 would otherwise ask for a hundred million.
    public static let repeatInstances = 10_000

    /// Rows the form's loops make, all together (`begin loop over LIST`
    /// copies its rows once per choice): a two-line sheet over a list of a
    /// million choices would otherwise make a million questions. A loop over
    /// 200 crops of 50 rows makes 10,000.
    public static let loopRows = 20_000

    /// UTF-8 bytes of one string an expression builds (`concat`, `join`).
    /// Calculations can double a text at each step; a longer result is empty.
    public static let builtStringBytes = 1 << 20

    /// A data file a form names (a CSV list, an XML or GeoJSON file). A
    /// 100,000-row list of districts with a few columns is about 10 MB.
    public static let dataFileBytes = 64 << 20

    /// Progress reports ICU gives while one `regex()` match runs, about one
    /// per 10,000 steps: some two and a half million steps, a twentieth of a
    /// second, far past any pattern that checks an answer. A match that
    /// backtracks longer is abandoned and does not match.
    public static let regexProgressReports = 250
}

/// A limit of `FormLimits` that a form file reached: why it is refused, in
/// words its author understands.
public struct LimitExceeded: Error, Equatable {
    public var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

/// The cells a form file's sheets may still take, against `FormLimits.cells`.
struct CellBudget {
    private(set) var left = FormLimits.cells

    /// Takes `count` cells; `false`, taking none, when fewer are left.
    mutating func take(_ count: Int) -> Bool {
        guard count <= left else { return false }
        left -= count
        return true
    }
}
