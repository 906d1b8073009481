// libFuzzer targets over what the forms engine reads from untrusted files:
// the three workbook layouts (through the whole definition and its checks)
// and the expression parser and evaluator. Built and run by build-aux/fuzz,
// which names the target in FORM_FUZZ_TARGET (xlsx, csv, md, expression).
// A target fails only by crashing, hanging or exhausting memory: every input
// must be read or refused.

import FormEngine
import Foundation

private enum Target: String {
    case xlsx, csv, md, expression
}

private let target: Target = {
    guard let name = ProcessInfo.processInfo.environment["FORM_FUZZ_TARGET"], let target = Target(rawValue: name) else {
        FileHandle.standardError.write(Data("FORM_FUZZ_TARGET must be xlsx, csv, md or expression\n".utf8))
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    switch target {
    case .expression:
        if let expression = try? FormExpression(String(decoding: data, as: UTF8.self)) {
            _ = expression.evaluate(in: FuzzContext()).stringValue
        }
    case .xlsx, .csv, .md:
        guard let definition = try? FormDefinition(data: data, fileName: "fuzz." + target.rawValue) else { return 0 }
        _ = definition.jsonDescription.text
        MainActor.assumeIsolated {
            _ = FormViewModel.problems(of: definition)
        }
    }
    return 0
}
