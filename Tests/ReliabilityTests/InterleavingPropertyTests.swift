import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// Random interleavings of model sets, user input, batches, undo and redo,
/// unbinding and rebinding, on real widgets: after every step each bound
/// widget shows what its model holds and each user change notified the model
/// exactly once (never, when it changed nothing).
///
/// Replay a failure with `RELIABILITY_SEED=<seed>`; `RELIABILITY_STEPS` sets
/// the length (10,000 by default), `RELIABILITY_SEED=random` a fresh seed.
final class InterleavingPropertyTests: GtkTestCase {
    func testRandomInterleavings_keepEveryWidgetInAgreementWithItsModel() throws {
        try MainActor.assumeIsolated {
            let seed = RandomizedRun.seed(default: 0x5EED_F0E4_2026)
            let steps = RandomizedRun.count("RELIABILITY_STEPS", default: 10_000)
            let run = try InterleavingRun(seed: seed)
            defer { run.tearDown() }
            XCTAssertTrue(run.windowIsActive, "the window did not become active")
            let started = Date()
            let failure = run.run(steps: steps)
            let elapsed = Date().timeIntervalSince(started)
            if let failure {
                return XCTFail(failure)
            }
            print("InterleavingPropertyTests: \(steps) steps, seed \(String(seed, radix: 16)), \(String(format: "%.1f", elapsed)) s; \(run.statistics)")
            // The text widgets were built with their own undo off (the
            // model's history undoes): binding, unbinding, rebinding and
            // every edit left it off.
            XCTAssertEqual(run.textWidgetsUndoingTyping, [], "text widgets whose own undo came back on")
            // Every kind of step ran, and user edits hit each field both bound and unbound.
            XCTAssertEqual(run.kindsRun.count, InterleavingRun.Kind.allCases.count, "step kinds run: \(run.kindsRun)")
            if steps >= 10_000 {
                XCTAssertGreaterThan(run.targetedUndoChecks, 50, "too few undo checks after a user edit")
                XCTAssertGreaterThan(run.refusedInputs, 20, "too few refused inputs")
                XCTAssertLessThan(elapsed, 60, "10,000 steps must run well under a minute")
            }
        }
    }
}

@MainActor
final class InterleavingRun {
    enum Kind: String, CaseIterable {
        case modelSet, userEdit, batch, undo, redo, unbind, rebind, focus, breakCoalescing
    }

    let seed: UInt64
    private var rng: SplitMix64
    let viewModel = SampleSurveyModel()
    let rating = Observable(5.0)
    let history = EditHistory(limit: 1_000_000)
    /// Which answers the history records, for the run's length.
    private let tracking = ObservationToken.Bag()
    let fields: [any AnyField]
    private let window: UnsafeMutablePointer<GtkWidget>
    private let button: UnsafeMutablePointer<GtkWidget>
    let windowIsActive: Bool

    private var log: [String] = []
    private(set) var kindsRun: Set<Kind> = []
    private(set) var targetedUndoChecks = 0
    private(set) var refusedInputs = 0
    private var counts: [Kind: Int] = [:]

    // The last step was a user edit that made a new undo step of its own:
    // undo must give back exactly the value before it.
    private var freshEdit: (field: Int, before: Any, after: Any)?
    // The last step undid that edit: redo must give it back.
    private var undoneEdit: (field: Int, after: Any)?

    init(seed: UInt64) throws {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        let vm = viewModel
        let button = gtk_button_new_with_label("Submit")!
        self.button = button
        let years = Fields.SpinSetup(lower: 0, upper: 60, step: 0.5, page: 5, digits: 1)
        let ratingSetup = Fields.SpinSetup(lower: 0, upper: 10, step: 0.1, page: 1, digits: 1)
        let optionalSame: (Double?, Double?) -> Bool = { a, b in a == b || (a?.isNaN == true && b?.isNaN == true) }
        let name = try Fields.entry(name: "name", model: vm.name)
        fields = [
            name,
            try Fields.spinButton(
                name: "years", model: vm.yearsOfExperience, setup: years,
                transform: .optional(.identity, placeholder: 0),
                validation: vm.inputErrors[.yearsOfExperience], same: optionalSame,
                modelValues: { rng, current in
                    switch rng.weighted([1, 1, 4, 2, 2, 1]) {
                    case 0: nil
                    case 1: current
                    case 2: Double(Int.random(in: 0...120, using: &rng)) / 2
                    case 3: Double.random(in: 0...60, using: &rng)  // rounded to 0.1
                    case 4: rng.pick([-0.5, 60.04, 61, 75, 1e9, -0.0, -0.04, 12.25])
                    default: rng.pick([Double.nan, .infinity, -.infinity])
                    }
                },
                focusElsewhere: { button }
            ),
            try Fields.toggle(name: "currentEmployer", model: vm.isCurrentEmployer),
            try Fields.scale(name: "salary", model: vm.approxSalary, validation: vm.inputErrors[.approxSalary]),
            try Fields.textView(name: "comments", model: vm.comments),
            try Fields.spinButton(
                name: "rating", model: rating, setup: ratingSetup, transform: .identity,
                same: { $0 == $1 || ($0.isNaN && $1.isNaN) },
                modelValues: { rng, current in
                    switch rng.weighted([1, 4, 2, 2, 1]) {
                    case 0: current
                    case 1: Double(Int.random(in: 0...100, using: &rng)) / 10
                    case 2: Double.random(in: 0...10, using: &rng)
                    case 3: rng.pick([-1, 10.04, 11, 0.30000000000000004, 0.25, 2.675])
                    default: rng.pick([Double.nan, .infinity, -.infinity])
                    }
                },
                focusElsewhere: { button }
            ),
        ]
        window = GtkTest.window(fields.map(\.gtkWidget) + [button])
        gtk_window_set_default_size(window.cast(), 600, 400)

        history.track(vm.name, coalescing: true).store(in: tracking)
        history.track(vm.yearsOfExperience).store(in: tracking)
        history.track(vm.isCurrentEmployer).store(in: tracking)
        history.track(vm.approxSalary).store(in: tracking)
        history.track(vm.comments, coalescing: true).store(in: tracking)
        history.track(rating).store(in: tracking)
        for field in fields {
            (field as? Field<String, Entry>)?.startObserving()
            (field as? Field<Double?, SpinButton>)?.startObserving()
            (field as? Field<Bool, Switch>)?.startObserving()
            (field as? Field<Float?, Scale>)?.startObserving()
            (field as? Field<String, TextView>)?.startObserving()
            (field as? Field<Double, SpinButton>)?.startObserving()
        }
        windowIsActive = GtkTest.present(window)
        for field in fields { _ = field.rebind(initialSync: .modelToControl) }
        GtkTest.pump()
    }

    /// The text fields whose widget keeps an undo stack of its own.
    var textWidgetsUndoingTyping: [String] {
        fields.compactMap { field in
            let undoes = (field as? Field<String, Entry>)?.widget.undoesTyping
                ?? (field as? Field<String, TextView>)?.widget.undoesTyping
            return undoes == true ? field.name : nil
        }
    }

    func tearDown() {
        for field in fields { field.unbind() }
        GtkTest.destroy(window)
    }

    var statistics: String {
        Kind.allCases.map { "\($0.rawValue) \(counts[$0, default: 0])" }.joined(separator: ", ")
            + ", targeted undo/redo checks \(targetedUndoChecks), refused inputs \(refusedInputs)"
    }

    /// Runs `steps` random steps; the failure report, or `nil`.
    func run(steps: Int) -> String? {
        log.append("seed 0x\(String(seed, radix: 16))")
        for field in fields {
            let problems = field.invariantProblems()
            if !problems.isEmpty { return report(step: 0, problems) }
        }
        for step in 1...max(1, steps) {
            let warnings = GtkTest.warningCount
            var problems = runStep(step)
            GtkTest.pump()
            for field in fields { problems += field.invariantProblems() }
            if GtkTest.warningCount != warnings { problems.append("GLib logged a warning or critical") }
            if !problems.isEmpty { return report(step: step, problems) }
        }
        if ProcessInfo.processInfo.environment["RELIABILITY_DUMP"] != nil { print(report(step: steps, ["(dump)"])) }
        return nil
    }

    private func report(step: Int, _ problems: [String]) -> String {
        var lines = ["Property failed at step \(step) (seed \(seed), replay with RELIABILITY_SEED=\(seed)):"]
        lines += problems.map { "  - \($0)" }
        lines.append("State:")
        lines += fields.map { "  \($0.stateDescription())" }
        lines.append("Last steps:")
        lines += log.suffix(40).map { "  \($0)" }
        let text = lines.joined(separator: "\n")
        print(text)
        return text
    }

    private func runStep(_ step: Int) -> [String] {
        let kind = Kind.allCases[rng.weighted([20, 40, 8, 7, 5, 3, 5, 5, 1])]
        kindsRun.insert(kind)
        counts[kind, default: 0] += 1
        let fresh = freshEdit, undone = undoneEdit
        freshEdit = nil
        undoneEdit = nil
        let before = fields.map { $0.snapshot() }

        func untouched(except touched: Set<Int>) -> [String] {
            fields.indices.filter { !touched.contains($0) }.compactMap { index in
                let notified = fields[index].notifications - before[index].notifications
                // A number typed earlier is an answer once focus leaves its
                // spin button, whichever step moved the focus.
                let committed = before[index].typedValuePending && !fields[index].snapshot().typedValuePending
                return notified == 0 || (committed && notified == 1)
                    ? nil : "\(fields[index].name): \(notified) notifications, but the step did not touch it"
            }
        }

        switch kind {
        case .modelSet, .batch:
            let count = kind == .batch ? Int.random(in: 2...6, using: &rng) : 1
            var sets: [(Int, Any)] = []
            var last: [Int: Any] = [:]
            var descriptions: [String] = []
            for _ in 0..<count {
                let index = Int.random(in: 0..<fields.count, using: &rng)
                let (value, description) = fields[index].randomModelValue(&rng)
                sets.append((index, value))
                last[index] = value
                descriptions.append("\(fields[index].name) = \(description)")
            }
            log.append("#\(step) \(kind == .batch ? "batch { \(descriptions.joined(separator: "; ")) }" : "model \(descriptions[0])")")
            for (index, value) in last { fields[index].prepareModelSet(value) }
            if kind == .batch {
                batch { for (index, value) in sets { fields[index].setModel(value) } }
            } else {
                fields[sets[0].0].setModel(sets[0].1)
            }
            var problems = untouched(except: Set(last.keys))
            for (index, value) in last {
                problems += fields[index].problemsAfterModelSet(last: value, before: before[index])
            }
            return problems

        case .userEdit:
            let index = Int.random(in: 0..<fields.count, using: &rng)
            let field = fields[index]
            let (description, perform, check) = field.planUserEdit(&rng)
            log.append("#\(step) user \(field.name)\(field.isBound ? "" : " (unbound)"): \(description)")
            let _undoCount = history._undoCount
            perform()
            let problems = check(before[index]) + untouched(except: [index])
            if field.isBound, field.validation?.isValid == false, description.hasPrefix("type") { refusedInputs += 1 }
            if field.isBound, field.notifications - before[index].notifications == 1, history._undoCount == _undoCount + 1 {
                freshEdit = (index, before[index].model, field.captureModel())
            }
            return problems

        case .undo, .redo:
            let isUndo = kind == .undo
            let available = isUndo ? history.canUndo.value : history.canRedo.value
            log.append("#\(step) \(kind.rawValue)\(available ? "" : " (nothing to \(kind.rawValue))")")
            if isUndo { history.undo() } else { history.redo() }
            var problems: [String] = []
            if !available {
                problems += untouched(except: [])
                for (index, field) in fields.enumerated() where !field.modelEquals(before[index].model) {
                    problems.append("\(field.name): changed by an \(kind.rawValue) with nothing to \(kind.rawValue)")
                }
            }
            for (index, field) in fields.enumerated() {
                let notified = field.notifications - before[index].notifications
                // The value, then the widget's correction of it.
                if notified > 2 { problems.append("\(field.name): \(notified) notifications for one \(kind.rawValue)") }
            }
            if isUndo, let fresh {
                targetedUndoChecks += 1
                let field = fields[fresh.field]
                if !field.modelEquals(fresh.before) {
                    problems.append("\(field.name): undo of the last edit gave \(field.stateDescription())")
                }
                if field.notifications - before[fresh.field].notifications != 1 {
                    problems.append("\(field.name): undo of the last edit notified \(field.notifications - before[fresh.field].notifications) times")
                }
                problems += untouched(except: [fresh.field])
                undoneEdit = (fresh.field, fresh.after)
            }
            if !isUndo, let undone {
                targetedUndoChecks += 1
                let field = fields[undone.field]
                if !field.modelEquals(undone.after) {
                    problems.append("\(field.name): redo of the undone edit gave \(field.stateDescription())")
                }
                problems += untouched(except: [undone.field])
            }
            return problems

        case .unbind:
            let bound = fields.indices.filter { fields[$0].isBound }
            guard let index = bound.isEmpty ? nil : rng.pick(bound) else {
                log.append("#\(step) unbind (nothing bound)")
                return []
            }
            log.append("#\(step) unbind \(fields[index].name)")
            fields[index].unbind()
            return untouched(except: [])

        case .rebind:
            let index = Int.random(in: 0..<fields.count, using: &rng)
            let sync: BindingOptions.InitialSync = rng.chance(0.6) ? .modelToControl : .controlToModel
            log.append("#\(step) \(fields[index].isBound ? "rebind" : "bind") \(fields[index].name) \(sync)")
            return fields[index].rebind(initialSync: sync) + untouched(except: [index])

        case .focus:
            let targets = fields.map(\.gtkWidget) + [button]
            let target = rng.pick(Array(targets.indices))
            log.append("#\(step) focus \(target < fields.count ? fields[target].name : "button")")
            gtk_widget_grab_focus(targets[target])
            GtkTest.pump()
            var problems = untouched(except: [])
            for (index, field) in fields.enumerated() where !field.modelEquals(before[index].model) {
                // Except by committing a number typed earlier (above).
                if before[index].typedValuePending && !field.snapshot().typedValuePending { continue }
                problems.append("\(field.name): moving focus changed the model")
            }
            return problems

        case .breakCoalescing:
            log.append("#\(step) break coalescing")
            history.breakCoalescing()
            return []
        }
    }
}
