// libFuzzer targets over what the forms engine reads from untrusted files:
// the three workbook layouts (through the whole definition and its checks),
// the expression parser and evaluator, a form draft's answers restored into
// a running form, and the app's settings read from a keyfile under its
// schema. Built and run by build-aux/fuzz, which names the target in
// FORM_FUZZ_TARGET (xlsx, xls, csv, md, xml, expression, draft, settings).
// A target fails only by crashing, hanging or exhausting memory: every input
// must be read or refused.

import CGio
import FormEngine
import Foundation

private enum Target: String {
    case xlsx, xls, csv, md, xml, expression, draft, settings
}

private let target: Target = {
    guard let name = ProcessInfo.processInfo.environment["FORM_FUZZ_TARGET"], let target = Target(rawValue: name) else {
        FileHandle.standardError.write(Data("FORM_FUZZ_TARGET must be xlsx, xls, csv, md, xml, expression, draft or settings\n".utf8))
        exit(2)
    }
    return target
}()

/// Answers for every name: an expression reads values whatever it names.
private struct FuzzContext: EvaluationContext {
    func values(of name: String) -> [String] { name.count % 3 == 0 ? ["12", "a b", ""] : ["3.5"] }
    var currentValue: String { "2024-02-29" }
    var position: Int? { 2 }
    func indexedRepeatValue(of name: String, repeat: String, index: Int) -> String? { index == 1 ? "x" : nil }
    func choiceLabel(of choice: String, question name: String) -> String? { choice.uppercased() }
    var now: Date { Date(timeIntervalSince1970: 1_700_000_000) }
    var timeZone: TimeZone { TimeZone(secondsFromGMT: 3_600)! }
}

/// A form draft file as FormDraftStore writes it; only the answers matter
/// here (the rest is checked by the store's own tests).
private struct DraftFile: Decodable {
    struct Draft: Decodable {
        struct Answer: Decodable {
            var path: String
            var value: String
        }

        var answers: [Answer]
    }

    var draft: Draft
}

/// The form drafts are restored into: repeats in repeats, a repeat count
/// from an answer, a calculation, a relevance and constraints, so that a
/// draft's paths reach every way an answer is placed. A literal, read for
/// each input, so that everything made is freed by the input's end: memory
/// a global keeps through pointers with spare bits in use (a lazily made
/// plan, or `Data`) is taken for a leak by the leak checker.
private let draftForm = """
    | survey |
    | | type | name | label | repeat_count | relevant | calculation | constraint |
    | | integer | n | How many | | | | . < 50 |
    | | begin repeat | household | Household | | | | |
    | | text | head | Head | | | | |
    | | begin repeat | member | Member | ${n} | | | |
    | | text | name | Name | | | | |
    | | integer | age | Age | | | | . >= 0 |
    | | calculate | adult | | | | if(${age} >= 18, 1, 0) | |
    | | end repeat | | | | | | |
    | | end repeat | | | | | | |
    | | select_one yn | ok | OK | | ${n} > 0 | | |
    | | date | when | When | | | | |
    | choices |
    | | list_name | name | label |
    | | yn | yes | Yes |
    | | yn | no | No |
    """

/// The app's schema, which build-aux/fuzz compiles into FUZZ_SCHEMA_DIR.
nonisolated(unsafe) private let settingsSchema: OpaquePointer = {
    guard let folder = ProcessInfo.processInfo.environment["FUZZ_SCHEMA_DIR"],
          let source = g_settings_schema_source_new_from_directory(folder, nil, 1, nil),
          let schema = g_settings_schema_source_lookup(source, "io.github.surveyform.SurveyForm", 0)
    else {
        FileHandle.standardError.write(Data("FUZZ_SCHEMA_DIR must hold the app's compiled schema\n".utf8))
        exit(2)
    }
    return schema
}()

/// Where each input is written as the keyfile GSettings reads: beside the
/// compiled schema, in the fuzzers' build folder.
private let settingsFile = (ProcessInfo.processInfo.environment["FUZZ_SCHEMA_DIR"] ?? ".") + "/input-\(getpid()).keyfile"

/// Reads every key of the app's settings from `data` as a keyfile (the
/// backend a Flatpak's settings live in), as `Settings` reads them, and
/// checks what the app relies on whatever the file says: the schema's
/// ranges, and its own sanitising.
private func readSettings(_ data: Data) {
    guard FileManager.default.createFile(atPath: settingsFile, contents: data) else { fatalError("cannot write \(settingsFile)") }
    let backend = g_keyfile_settings_backend_new(settingsFile, "/", nil)
    let settings = g_settings_new_full(settingsSchema, backend, nil)!
    g_object_unref(backend)
    defer { g_object_unref(settings) }
    func string(_ key: String) -> String {
        let text = g_settings_get_string(settings, key)!
        defer { g_free(text) }
        return String(cString: text)
    }
    func strings(_ key: String) -> [String] {
        let list = g_settings_get_strv(settings, key)!
        defer { g_strfreev(list) }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
    if let size = StoredSettings.windowSize(width: Int(g_settings_get_int(settings, "window-width")),
                                            height: Int(g_settings_get_int(settings, "window-height"))) {
        precondition(StoredSettings.windowSizes.contains(size.width) && StoredSettings.windowSizes.contains(size.height))
    }
    let recent = StoredSettings.recentForms(strings("recent-forms"))
    precondition(recent.count <= StoredSettings.recentFormLimit && recent.allSatisfy { $0.hasPrefix("/") })
    precondition((1...65_535).contains(g_settings_get_int(settings, "server-port")), "the schema's range holds")
    // GLib's check of the choices lets some strings through; the app reads
    // all but `insecure` as checking the certificate.
    let security = string("server-security")
    precondition(StoredSettings.checksCertificate(security) == (security != "insecure"))
    for key in ["metadata-username", "metadata-email", "metadata-phone-number"] {
        let value = StoredSettings.metadataValue(string(key))
        precondition(value.count <= StoredSettings.metadataLimit && !value.contains(where: \.isNewline))
    }
    for key in ["opening-form", "server-host", "server-database", "server-user", "server-ca-file"] { _ = string(key) }
    for key in ["window-maximized", "reopen-form", "kiosk"] { _ = g_settings_get_boolean(settings, key) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    switch target {
    case .expression:
        if let expression = try? FormExpression(String(decoding: data, as: UTF8.self)) {
            _ = expression.evaluate(in: FuzzContext()).stringValue
        }
    case .settings:
        readSettings(data)
    case .draft:
        guard let file = try? JSONDecoder().decode(DraftFile.self, from: data) else { return 0 }
        MainActor.assumeIsolated {
            guard let definition = try? FormDefinition(data: Data(draftForm.utf8), fileName: "draft.md"),
                  let viewModel = try? FormViewModel(definition: definition)
            else { fatalError("the draft target's form does not run") }
            viewModel.restore(file.draft.answers.map { ($0.path, $0.value) })
            _ = viewModel.answers()
        }
    case .xlsx, .xls, .csv, .md, .xml:
        guard let definition = try? FormDefinition(data: data, fileName: "fuzz." + target.rawValue) else { return 0 }
        _ = definition.jsonDescription.text
        _ = FormPlan(definition).problems
    }
    return 0
}
