import FormEngine
import Foundation
import XCTest

/// The folder of this test run's fixture files, removed at exit.
private let fixturesFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("form-engine-\(UUID().uuidString)")
private let fixturesRemovedAtExit: Void = {
    atexit { try? FileManager.default.removeItem(at: fixturesFolder) }
}()

/// Forms written inline for the tests, in pyxform's Markdown layout.
enum FormFixtures {
    static func definition(_ markdown: String, file: String = "form.md") throws -> FormDefinition {
        try FormDefinition(workbook: MarkdownLayoutReaderProbe.read(markdown), fileName: file)
    }

    static func problems(_ markdown: String) -> [FormProblem] {
        do {
            _ = try definition(markdown)
            return []
        } catch let error as FormDefinitionError {
            return error.problems
        } catch {
            return [FormProblem("\(error)")]
        }
    }

    /// Writes `text` to a fresh temporary file named `name`; its URL. Every
    /// such file sits in one folder for this run, removed when the run ends:
    /// a folder per file left thousands behind in /tmp.
    static func file(_ name: String, _ contents: Data) throws -> URL {
        _ = fixturesRemovedAtExit
        let folder = fixturesFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    /// A minimal .xlsx: `sheets` in order, each given as its worksheet XML's
    /// `<sheetData>` body; `sharedStrings` as the shared string table's items;
    /// `styles` as the styles part's body (`numFmts`, `cellXfs`);
    /// `workbookProperties` as `<workbookPr>`'s attributes.
    static func xlsx(
        sheets: [(name: String, data: String)], sharedStrings: [String]? = nil, reversedParts: Bool = false,
        styles: String? = nil, workbookProperties: String? = nil
    ) throws -> Data {
        var archive = ZipWriter()
        func add(_ path: String, _ text: String) {
            archive.add(path, text)
        }
        let ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        var sheetList = ""
        var rels = ""
        for (index, sheet) in sheets.enumerated() {
            // Parts numbered backwards when asked: sheet order must come from the relationships.
            let part = reversedParts ? sheets.count - index : index + 1
            sheetList += "<sheet name=\"\(sheet.name)\" sheetId=\"\(index + 1)\" r:id=\"rId\(index + 1)\"/>"
            rels += "<Relationship Id=\"rId\(index + 1)\" Type=\"\(rel)/worksheet\" Target=\"worksheets/sheet\(part).xml\"/>"
            add("xl/worksheets/sheet\(part).xml", "<?xml version=\"1.0\"?><worksheet xmlns=\"\(ns)\"><sheetData>\(sheet.data)</sheetData></worksheet>")
        }
        let properties = workbookProperties.map { "<workbookPr \($0)/>" } ?? ""
        add("xl/workbook.xml", "<?xml version=\"1.0\"?><workbook xmlns=\"\(ns)\" xmlns:r=\"\(rel)\">\(properties)<sheets>\(sheetList)</sheets></workbook>")
        if let styles {
            add("xl/styles.xml", "<?xml version=\"1.0\"?><styleSheet xmlns=\"\(ns)\">\(styles)</styleSheet>")
        }
        add("xl/_rels/workbook.xml.rels", "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\(rels)</Relationships>")
        if let sharedStrings {
            let items = sharedStrings.map { "<si>\($0)</si>" }.joined()
            add("xl/sharedStrings.xml", "<?xml version=\"1.0\"?><sst xmlns=\"\(ns)\">\(items)</sst>")
        }
        return archive.data()
    }
}

/// Reads Markdown through the public reader entry point (a file), as the app does.
enum MarkdownLayoutReaderProbe {
    static func read(_ markdown: String) throws -> Workbook {
        let url = try FormFixtures.file("form.md", Data(markdown.utf8))
        return try WorkbookReader.read(contentsOf: url)
    }
}
