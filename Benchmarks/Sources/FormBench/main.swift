// Times the forms engine on whole forms, for Benchmarks/forms/run:
//
//   form-bench parse FORM [RUNS]       median seconds to read and check FORM
//   form-bench read FORM               median seconds to read FORM's cells only
//   form-bench change FORM NAME [N]    median ns for one change of NAME's answer
//
// A change alternates two answers, so every one really changes the value and
// runs everything that depends on it.
import FormEngine
import Foundation

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: form-bench parse FORM [RUNS] | change FORM NAME [N]\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[2])
let clock = ContinuousClock()

switch arguments[1] {
case "parse":
    let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
    var times: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        _ = try FormDefinition(contentsOf: url)
        times.append(seconds(clock.now - start))
    }
    print(String(format: "%.4f", median(times)))
case "read":
    // The workbook alone, without understanding it as a form: where the time goes.
    var times: [Double] = []
    for _ in 0..<5 {
        let start = clock.now
        _ = try WorkbookReader.read(contentsOf: url)
        times.append(seconds(clock.now - start))
    }
    print(String(format: "%.4f", median(times)))
case "change" where arguments.count >= 4:
    let count = arguments.count > 4 ? Int(arguments[4]) ?? 2_000 : 2_000
    let definition = try FormDefinition(contentsOf: url)
    let result: Double = try MainActor.assumeIsolated {
        let form = try FormViewModel(definition: definition)
        guard let state = form.state(named: arguments[3]) else {
            FileHandle.standardError.write(Data("form-bench: no question named \(arguments[3])\n".utf8))
            exit(2)
        }
        var times: [Double] = []
        times.reserveCapacity(count)
        for iteration in 0..<(count + 200) {
            let start = clock.now
            state.value.value = iteration % 2 == 0 ? "1" : "2"
            let elapsed = seconds(clock.now - start)
            if iteration >= 200 { times.append(elapsed) }
        }
        return median(times) * 1e9
    }
    print(String(format: "%.0f", result))
default:
    FileHandle.standardError.write(Data("form-bench: unknown command \(arguments[1])\n".utf8))
    exit(2)
}
