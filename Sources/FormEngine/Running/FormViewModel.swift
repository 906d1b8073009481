import Foundation
public import TwoWayBinding

/// The view model of any form: one observable answer per question, and the
/// state derived from the answers through the form's expressions (relevance,
/// requirement, constraints, calculations, choice filters, labels), with no
/// user interface.
///
/// Derived state lives in the binding core's dependency graph: a changed
/// answer recomputes only what reads it, in dependency order, once each.
@MainActor
public final class FormViewModel {
    /// The form it runs.
    public let definition: FormDefinition
    /// The language labels, hints and messages are shown in.
    public let language: Observable<String?>
    /// Whether every relevant answer is acceptable now.
    public let isValid: Derived<Bool>
    /// This response's instance id, fixed when the form is started.
    public private(set) var instanceID: String
    /// The id of the entity this response creates (pyxform's `uuid()` at the
    /// instance's first load), kept with its answers so that an edit
    /// submits the same entity; `nil` when the form creates none.
    public private(set) var createdEntityID: String?

    private let runtime: FormRuntime
    private var root: FormScope

    /// Starts a blank response to `definition`, or throws the problems that keep
    /// it from running (an unknown type, an expression that does not parse, a
    /// cycle of calculations, a data file missing from `media`), each naming its row.
    public convenience init(
        definition: FormDefinition, media: FormMedia = .none, language: String? = nil,
        environment: FormEnvironment = FormEnvironment()
    ) throws(FormDefinitionError) {
        try self.init(plan: FormPlan(definition, media: media), language: language, environment: environment)
    }

    /// Starts a blank response to the form `plan` was made for (off the main
    /// thread, say), or throws the problems the plan found.
    public init(
        plan: FormPlan, language: String? = nil, environment: FormEnvironment = FormEnvironment()
    ) throws(FormDefinitionError) {
        guard plan.problems.isEmpty else { throw FormDefinitionError(plan.problems) }
        let definition = plan.definition
        self.definition = definition
        runtime = FormRuntime(plan: plan, environment: environment, language: language ?? Self.startLanguage(definition))
        self.language = runtime.language
        let invalidCount = runtime.invalidCount
        isValid = Derived(from: [invalidCount]) { invalidCount.value == 0 }
        instanceID = environment.newInstanceID()
        createdEntityID = Self.newEntityID(plan, environment, repeatEntry: nil)
        root = FormScope(runtime: runtime, repeatEntry: nil, parent: nil, position: 1)
        root.build()
    }

    /// The language a form starts in: the first of the desktop's `preferred`
    /// languages that the form has, else its default language if it has texts
    /// in it, else `default`, else its first language.
    nonisolated public static func startLanguage(_ definition: FormDefinition, preferring preferred: [String] = []) -> String? {
        if let desktop = definition.language(matching: preferred) { return desktop }
        if let preferred = definition.settings.defaultLanguage, definition.languages.contains(preferred) {
            return preferred
        }
        if definition.languages.contains(FormDefinition.defaultLanguageName) { return FormDefinition.defaultLanguageName }
        return definition.languages.first
    }

    // MARK: - Rows

    /// The survey's top-level rows, in form order.
    public var states: [QuestionState] { root.orderedStates }

    /// Every row's state, the rows of each repeat instance too.
    public var allStates: [QuestionState] { root.allStates }

    /// Undo and redo of the answers given to this response, each question's
    /// own (inside repeats too); a new, restored or reset response starts
    /// with none.
    public var history: EditHistory { runtime.history }

    /// The state of the row named `name` outside any repeat.
    public func state(named name: String) -> QuestionState? {
        root.state(named: name)
    }

    /// The first refused answer in form order, with its message, or `nil`.
    public var firstProblem: (state: QuestionState, message: String)? {
        firstProblem(among: root.orderedStates)
    }

    /// The first refused answer among `states` and the instances of the
    /// repeats among them, with its message, or `nil`.
    public func firstProblem(among states: [QuestionState]) -> (state: QuestionState, message: String)? {
        func search(_ states: [QuestionState]) -> (QuestionState, String)? {
            for state in states {
                if let message = state.validation.value.message { return (state, message) }
                if let repeatState = state.repeatState {
                    for instance in repeatState.instances.value {
                        if let found = search(instance.states) { return found }
                    }
                }
            }
            return nil
        }
        return search(states)
    }

    /// One line per relevant question the respondent answers, in form order:
    /// its label and its answer as `shown` reads it. Made on
    /// first use: it reads every answer, so a form that never shows it does
    /// not pay for it on each change.
    public private(set) lazy var summary: Derived<String> = makeSummary()

    /// Bumped when anything the summary shows changes; watched only once the
    /// summary is made.
    private var summaryRevision: Observable<Int>?
    private var summaryTokens: [ObservationToken] = []

    /// Changes once for every change of an answer anywhere in the response
    /// (inside repeats too, and instances coming and going): what a draft's
    /// autosave watches. Made on first use.
    public var answerChanges: Derived<Int> {
        if let answerChangesDerived { return answerChangesDerived }
        let revision = Observable(0)
        answerRevision = revision
        watchAnswers()
        let derived = Derived(from: [revision]) { revision.value }
        answerChangesDerived = derived
        return derived
    }

    private var answerRevision: Observable<Int>?
    private var answerChangesDerived: Derived<Int>?
    private var answerTokens: [ObservationToken] = []

    private func watchAnswers() {
        guard let revision = answerRevision else { return }
        answerTokens = root.orderedStates.flatMap { state -> [ObservationToken] in
            var tokens = [state.value.observe { _ in revision.value &+= 1 }]
            if let repeatState = state.repeatState {
                tokens.append(repeatState.revision.observe { _ in revision.value &+= 1 })
            }
            return tokens
        }
    }

    private func makeSummary() -> Derived<String> {
        let revision = Observable(0)
        summaryRevision = revision
        watchForSummary()
        return Derived(from: [language, revision]) { [unowned self] in summaryText() }
    }

    /// Watches every answer, label and relevance of the current response (and
    /// its repeats' instances) for the summary.
    private func watchForSummary() {
        guard let revision = summaryRevision else { return }
        summaryTokens = []
        func watch(_ states: [QuestionState]) {
            for state in states {
                summaryTokens.append(state.value.observe { _ in revision.value &+= 1 })
                summaryTokens.append(state.label.observe { _ in revision.value &+= 1 })
                if let readout = state.readout { summaryTokens.append(readout.observe { _ in revision.value &+= 1 }) }
                if let token = state.isRelevant.observe({ _ in revision.value &+= 1 }) { summaryTokens.append(token) }
                if let repeatState = state.repeatState {
                    summaryTokens.append(repeatState.revision.observe { _ in revision.value &+= 1 })
                }
            }
        }
        watch(root.orderedStates)
    }

    private func summaryText() -> String {
        var lines: [String] = []
        func walk(_ states: [QuestionState]) {
            for state in states where state.isRelevant.value {
                if let repeatState = state.repeatState {
                    for instance in repeatState.instances.value { walk(instance.states) }
                    continue
                }
                guard state.question.type.isAnswerable else { continue }
                lines.append("\(state.label.value): \(shown(state))")
            }
        }
        walk(root.orderedStates)
        return lines.joined(separator: "\n")
    }

    /// Shown for an answer not given.
    public nonisolated static let unanswered = "--"

    /// The most characters of one answer the summary shows: a pasted
    /// 100,000 characters cost its layout no more than a long valid answer.
    public nonisolated static let longestShown = 5_000

    private static func shortened(_ answer: String) -> String {
        guard answer.utf8.count > longestShown, answer.count > longestShown else { return answer }
        return answer.prefix(longestShown) + "…"
    }

    /// An answer as a person reads it: its readout when the form gives one,
    /// an acknowledgement as YES or NO, choices by their labels, text without
    /// the spaces around it (cut at `longestShown`), `--` when blank.
    private func shown(_ state: QuestionState) -> String {
        let value = state.value.value
        if state.question.type == .acknowledge { return value == "OK" ? tr("YES") : tr("NO") }
        if let readout = state.readout { return value.isEmpty ? Self.unanswered : readout.value }
        if state.question.type == .time || state.question.type == .dateTime, !value.isEmpty {
            return runtime.environment.notation.shown(value, for: state.question)
        }
        // A month or a year as it was typed; a masked answer not at all.
        if state.question.datePrecision != .day, !value.isEmpty {
            return ValueTransform<String, String>.typed(.date, precision: state.question.datePrecision).toControl(value)
        }
        if state.question.hidesAnswer, !value.isEmpty { return String(repeating: "•", count: min(value.count, 8)) }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return Self.unanswered }
        if [.integer, .decimal, .range, .date].contains(state.question.type) {
            return runtime.environment.notation.shown(trimmed, for: state.question)
        }
        guard state.question.type.isSelect, state.choices != nil else { return Self.shortened(trimmed) }
        let names = state.question.type.isSelectOne ? [value] : value.split(separator: " ").map(String.init)
        return names.map { name in
            state.offeredChoice(named: name)?.shownLabel(in: language.value) ?? name
        }.joined(separator: ", ")
    }

    // MARK: - Submission

    /// What the form's `instance_name` names the response as answered now,
    /// as ODK Collect names saved forms; `nil` when the form has none or it
    /// cannot be read.
    public func instanceName() -> String? {
        guard let source = definition.settings.instanceName, let expression = try? FormExpression(source) else { return nil }
        return expression.evaluate(in: root.context(for: 0) { "" }).stringValue
    }

    /// The response's answers in form order, by path (`group/question`, and
    /// `repeat[2]/question` inside repeats): relevant rows only, as the ODK
    /// specification excludes the rest; groups and notes carry no answer.
    public func answers() -> [(path: String, value: String)] {
        var result: [(String, String)] = []
        // `depth` is how many names of a row's path its enclosing repeats' own
        // paths take, so that `member[2]/age` is not `member[2]/member/age`.
        func collect(_ states: [QuestionState], prefix: String, depth: Int) {
            for state in states where state.isRelevant.value {
                let question = state.question
                let name = question.path.dropFirst(depth).joined(separator: "/")
                if let repeatState = state.repeatState {
                    for (offset, instance) in repeatState.instances.value.enumerated() {
                        let instancePrefix = "\(prefix)\(name)[\(offset + 1)]/"
                        collect(instance.states, prefix: instancePrefix, depth: question.path.count)
                        if let id = instance.entityID { result.append((instancePrefix + Self.entityIDPath, id)) }
                    }
                } else if question.type != .group, question.type != .note, !question.type.isDataFileDeclaration {
                    let value = question.type == .end
                        ? FormClock.now.evaluate(in: root.context(for: 0) { "" }).stringValue : state.readSource()
                    result.append((prefix + name, value))
                }
            }
        }
        collect(root.orderedStates, prefix: "", depth: 0)
        if let createdEntityID { result.append((Self.entityIDPath, createdEntityID)) }
        return result
    }

    /// Where `answers()` keeps the id of the entity the response creates:
    /// its node in the instance.
    public static let entityIDPath = "meta/entity/@id"

    /// A new entity id, when the survey (`repeatEntry` nil) or an instance of
    /// the repeat creates entities: a UUID as XPath's `uuid()` gives it.
    static func newEntityID(_ plan: FormPlan, _ environment: FormEnvironment, repeatEntry: Int?) -> String? {
        guard plan.entities.contains(where: {
            $0.repeatEntry == repeatEntry && $0.declaration.creates && $0.declaration.entityID == nil
        }) else { return nil }
        let id = environment.newInstanceID()
        return id.hasPrefix("uuid:") ? String(id.dropFirst(5)) : id
    }

    /// The `meta/entity` elements of the response as answered now, as the
    /// form's entities sheet declares them.
    public func entities() -> [SubmissionXML.Entity] {
        func entity(_ planned: PlannedEntity, in context: ScopeContext, path: String, createdID: String?) -> SubmissionXML.Entity {
            func text(_ expression: FormExpression?) -> String {
                expression?.evaluate(in: context).stringValue ?? ""
            }
            func flag(_ condition: FormExpression?) -> String {
                condition.map { $0.evaluate(in: context).booleanValue ? "true" : "false" } ?? "1"
            }
            let declaration = planned.declaration
            var entity = SubmissionXML.Entity(dataset: declaration.dataset)
            entity.path = path
            if declaration.creates { entity.create = flag(planned.createIf) }
            if declaration.updates {
                entity.update = flag(planned.updateIf)
                entity.versions = (text(planned.baseVersion), text(planned.trunkVersion), text(planned.branchID))
            }
            entity.id = planned.entityID.map(text) ?? createdID ?? ""
            entity.label = declaration.label == nil ? nil : text(planned.label)
            return entity
        }
        var result: [SubmissionXML.Entity] = []
        let inRepeats = runtime.plan.entities.filter { $0.repeatEntry != nil }
        for planned in runtime.plan.entities where planned.repeatEntry == nil {
            result.append(entity(planned, in: root.context(for: 0) { "" }, path: "", createdID: createdEntityID))
        }
        guard !inRepeats.isEmpty else { return result }
        // Each relevant instance of a repeat, wherever it is nested, as `answers()` walks them, once for all lists.
        func visit(_ states: [QuestionState], prefix: String, depth: Int) {
            for state in states where state.isRelevant.value {
                guard let repeatState = state.repeatState else { continue }
                let name = state.question.path.dropFirst(depth).joined(separator: "/")
                let declared = inRepeats.filter { $0.repeatEntry == repeatState.entry }
                for (offset, instance) in repeatState.instances.value.enumerated() {
                    let instancePrefix = "\(prefix)\(name)[\(offset + 1)]/"
                    for planned in declared {
                        result.append(entity(planned, in: instance.scope.context(for: repeatState.entry) { "" },
                                             path: instancePrefix, createdID: instance.entityID))
                    }
                    visit(instance.states, prefix: instancePrefix, depth: state.question.path.count)
                }
            }
        }
        visit(root.orderedStates, prefix: "", depth: 0)
        return result
    }

    // MARK: - Changes

    /// The rows whose value is the device id.
    private static let deviceIDTypes: Set<QuestionType> = [.deviceID, QuestionType("uri:deviceid")]

    /// Gives the form the device id once it is known (an app may read it
    /// from storage that opens after the form has started): later responses
    /// start with it, and the `deviceid` rows of this one take it now.
    public func provide(deviceID: String) {
        runtime.environment.deviceID = deviceID
        func fill(_ states: [QuestionState]) {
            for state in states {
                if let repeatState = state.repeatState {
                    for instance in repeatState.instances.value { fill(instance.states) }
                } else if Self.deviceIDTypes.contains(state.question.type) {
                    state.value.value = deviceID
                }
            }
        }
        fill(root.orderedStates)
    }

    /// Whether some expression of the form reads the last saved response
    /// (`${last-saved#name}`): an app need not look it up otherwise.
    public var readsLastSaved: Bool {
        runtime.plan.entries.contains { entry in entry.expressions.contains(where: \.readsLastSaved) }
    }

    /// Gives the form the answers of the response last saved to it, as
    /// `answers()` gives them, for `${last-saved#name}` (Collect's last-saved
    /// instance: a question in a repeat reads its first instance's answer).
    /// With `fillingBlanks`, the questions whose default reads it and still
    /// hold what it gave take it now (not in a draft or an edit, whose values
    /// are answers); the next responses start with it.
    public func provide(lastSaved answers: [(path: String, value: String)], fillingBlanks: Bool = true) {
        var byName: [String: String] = [:]
        for answer in answers {
            guard let last = answer.path.split(separator: "/").last else { continue }
            let name = String(last.prefix { $0 != "[" })
            if byName[name] == nil { byName[name] = answer.value }
        }
        let refreshes = fillingBlanks ? root.lastSavedDefaultsAsGiven() : []
        runtime.environment.lastSaved = byName
        batch {
            runtime.lastSavedRevision.value &+= 1
            for refresh in refreshes { refresh() }
        }
    }

    /// The path `target`'s answer has in `answers()` (`member[2]/age`), or
    /// `nil` when it is not among the rows shown now.
    public func answerPath(of target: QuestionState) -> String? {
        func find(_ states: [QuestionState], prefix: String, depth: Int) -> String? {
            for state in states {
                let question = state.question
                let name = question.path.dropFirst(depth).joined(separator: "/")
                if state === target { return prefix + name }
                if let repeatState = state.repeatState {
                    for (offset, instance) in repeatState.instances.value.enumerated() {
                        if let found = find(instance.states, prefix: "\(prefix)\(name)[\(offset + 1)]/", depth: question.path.count) {
                            return found
                        }
                    }
                }
            }
            return nil
        }
        return find(root.orderedStates, prefix: "", depth: 0)
    }

    /// Sets answers by path, as `answers()` gives them, in order: repeats get the instances the paths name (`member[2]/age`
    /// adds a second member). Paths the form does not have (a question a newer
    /// version dropped) and calculated rows are passed over. Metadata keeps
    /// the values the response began with (`start`, `today`, the device
    /// and the person), as Collect keeps its preloads in an instance it
    /// opens again; `end` is set when it is submitted, and the audit log is
    /// the app's.
    public func restore(_ answers: [(path: String, value: String)]) {
        func isRestored(_ type: QuestionType) -> Bool {
            type.isAnswerable || (type.isMetadata && type != .end && type != .audit)
        }
        func place(_ path: Substring, _ value: String, in states: [QuestionState], depth: Int, instance: RepeatInstance?) {
            let name: (QuestionState) -> String = { $0.question.path.dropFirst(depth).joined(separator: "/") }
            if path == Self.entityIDPath, let instance {
                // The instance's entity, made when it began; an instance that creates none keeps none.
                if instance.entityID != nil { instance.entityID = value }
                return
            }
            guard let open = path.firstIndex(of: "[") else {
                guard let state = states.first(where: { name($0) == path }),
                      isRestored(state.question.type), state.question.type != .calculate else { return }
                state.value.value = value
                state.inputError.value = .valid
                return
            }
            guard let close = path[open...].firstIndex(of: "]"),
                  let position = Int(path[path.index(after: open)..<close]), position >= 1,
                  path[close...].hasPrefix("]/"),
                  let state = states.first(where: { name($0) == path[..<open] }),
                  let repeatState = state.repeatState else { return }
            // Instances are added in order; a fixed count is the form's to set.
            while repeatState.instances.value.count < position, repeatState.add() != nil {}
            guard repeatState.instances.value.count >= position else { return }
            let instance = repeatState.instances.value[position - 1]
            place(path[path.index(close, offsetBy: 2)...], value, in: instance.states, depth: state.question.path.count,
                  instance: instance)
        }
        // Not one batch: a `repeat_count` answered earlier in the list must
        // have made its instances before the answers inside them arrive.
        for answer in answers {
            if answer.path == Self.entityIDPath {
                if createdEntityID != nil { createdEntityID = answer.value }
                continue
            }
            place(Substring(answer.path), answer.value, in: root.orderedStates, depth: 0, instance: nil)
        }
        // Restored, not answered now, with whatever the answers changed in
        // turn: each message waits as a new response's would; and nothing
        // of it is an edit to undo.
        for state in root.allStates { state.isTouched.value = false }
        history.clear()
    }

    /// Shows every question's message, as a refused submit does: each
    /// question counts as touched.
    public func revealProblems() {
        revealProblems(among: root.orderedStates)
    }

    /// Shows the messages of `states` and of the repeat instances among
    /// them, as a page that refuses to be left does.
    public func revealProblems(among states: [QuestionState]) {
        func reveal(_ states: [QuestionState]) {
            for state in states {
                state.isTouched.value = true
                for instance in state.repeatState?.instances.value ?? [] { reveal(instance.states) }
            }
        }
        batch { reveal(states) }
    }

    /// Starts a new blank response: every answer back to its default, repeats
    /// back to their first instances, and a new instance id.
    public func reset() {
        let old = root
        old.tearDown()
        batch {
            root = FormScope(runtime: runtime, repeatEntry: nil, parent: nil, position: 1)
            root.build()
            watchForSummary()
            watchAnswers()
            summaryRevision?.value &+= 1
            answerRevision?.value &+= 1
        }
        history.clear()
        startNewInstance()
    }

    /// Goes on with a response started earlier, as its draft names it, so
    /// that submitting it again cannot store it twice.
    public func resume(instanceID: String) {
        self.instanceID = instanceID
    }

    /// Gives the next response its own instance id, answers untouched.
    public func startNewInstance() {
        instanceID = runtime.environment.newInstanceID()
        createdEntityID = Self.newEntityID(runtime.plan, runtime.environment, repeatEntry: nil)
    }
}
