/// A spreadsheet read as text: its sheets in order, each a list of rows of
/// cells as the spreadsheet shows them.
///
/// All three layouts of an XLSForm (`.xlsx`, and pyxform's `.csv` and `.md`)
/// read into this one shape, so the form is understood in one place.
public struct Workbook: Sendable, Equatable {
    /// The sheets, in the order the file lists them.
    public var sheets: [Sheet]
    /// The layout it was read from; a spreadsheet's rules differ in details
    /// (duplicate headers, runs of empty rows).
    public var layout: Layout
    /// An XForm's own secondary instances that are no choice list
    /// (`<towndata><data_set>…</data_set></towndata>`), by id, read by its
    /// expressions as a data file beside the form would be. XLSForm has no
    /// sheet for them.
    public var embeddedInstances: [String: InstanceNode] = [:]
    /// An XForm's data files whose name is not their instance's id
    /// (`<instance id="towns" src="jr://file/towns-2024.xml"/>`): id → file.
    /// XLSForm names the file after the id.
    public var dataFileNames: [String: String] = [:]

    /// The three layouts of an XLSForm, and an XForm's rows read back.
    public enum Layout: Sendable, Equatable {
        case spreadsheet, csv, markdown
        /// Rows read back from an XForm (`XFormReader`): a form already
        /// converted, run as ODK Collect runs it, so the rules pyxform keeps
        /// for authors (a label on each question) are not asked again.
        case xform
    }

    /// Creates a workbook from its sheets.
    public init(sheets: [Sheet], layout: Layout = .spreadsheet) {
        self.sheets = sheets
        self.layout = layout
    }

    /// The sheets XLSForm reads, lower case; any other sheet is the author's own.
    static let formSheetNames: Set<String> = ["survey", "choices", "settings", "external_choices", "entities", "osm"]

    /// The first sheet whose name matches `name` without regard to case, as
    /// XLSForm tools match `survey`, `choices` and `settings`.
    public func sheet(named name: String) -> Sheet? {
        let wanted = name.lowercased()
        return sheets.first { $0.name.lowercased() == wanted }
    }
}

/// One sheet of a workbook.
public struct Sheet: Sendable, Equatable {
    /// The sheet's name as written.
    public var name: String
    /// The rows that have at least one cell, in order; the first is the header.
    public var rows: [SheetRow]

    /// Creates a sheet.
    public init(name: String, rows: [SheetRow]) {
        self.name = name
        self.rows = rows
    }
}

/// One row of a sheet: its number as the spreadsheet counts rows, and its cells
/// by column, `""` where a cell is empty.
public struct SheetRow: Sendable, Equatable {
    /// 1 for the spreadsheet's first row, which is the sheet's header.
    public var number: Int
    /// The cells' shown text, from the first column on.
    public var cells: [String]

    /// Creates a row.
    public init(number: Int, cells: [String]) {
        self.number = number
        self.cells = cells
    }

    /// Whether every cell is empty or white space.
    var isBlank: Bool {
        cells.allSatisfy { $0.allSatisfy(\.isWhitespace) }
    }
}
