public import TwoWayBinding

/// A repeat of a running form: its instances, each with its own answers.
@MainActor
public final class RepeatState {
    /// The repeat's row.
    public let question: Question
    /// The instances, in order.
    public let instances: Observable<[RepeatInstance]>
    /// Whether `repeat_count` fixes the number of instances; then `add` and
    /// `remove` do nothing.
    public let isCountFixed: Bool

    /// Bumped whenever an instance comes or goes or any answer inside changes:
    /// what expressions outside the repeat that read into it depend on.
    let revision = Observable(0)

    unowned let owner: FormScope
    let entry: Int

    init(question: Question, entry: Int, owner: FormScope, isCountFixed: Bool) {
        self.question = question
        self.entry = entry
        self.owner = owner
        self.isCountFixed = isCountFixed
        instances = Observable([])
    }

    /// Adds an instance at the end, with its defaults; `nil` when the count
    /// is fixed or the form already holds `FormLimits.repeatInstances`.
    @discardableResult
    public func add() -> RepeatInstance? {
        guard !isCountFixed else { return nil }
        return append()
    }

    /// Whether another instance fits in the form.
    public var canAdd: Bool {
        !isCountFixed && owner.runtime.repeatInstances < FormLimits.repeatInstances
    }

    /// Removes the instance at `index` (0-based) with its answers.
    public func remove(at index: Int) {
        guard !isCountFixed, instances.value.indices.contains(index) else { return }
        removeInstance(at: index)
    }

    @discardableResult
    func append() -> RepeatInstance? {
        guard owner.runtime.repeatInstances < FormLimits.repeatInstances else { return nil }
        owner.runtime.repeatInstances += 1
        let scope = FormScope(
            runtime: owner.runtime, repeatEntry: entry, parent: owner, position: instances.value.count + 1
        )
        let instance = RepeatInstance(scope: scope)
        instance.entityID = FormViewModel.newEntityID(owner.runtime.plan, owner.runtime.environment, repeatEntry: entry)
        scope.build()
        // Held by the instance, so that a removed instance's answers are let go.
        instance.revisionTokens = scope.orderedStates.map { state in
            state.value.observe { [unowned self] _ in self.revision.value &+= 1 }
        } + scope.repeats.values.map { nested in
            nested.revision.observe { [unowned self] _ in self.revision.value &+= 1 }
        }
        batch {
            instances.value.append(instance)
            revision.value &+= 1
        }
        return instance
    }

    func removeInstance(at index: Int) {
        let instance = instances.value[index]
        owner.runtime.repeatInstances -= 1 + instance.scope.nestedInstanceCount
        instance.scope.tearDown()
        instance.revisionTokens.removeAll()
        batch {
            instances.value.remove(at: index)
            for (offset, later) in instances.value.enumerated() where offset >= index {
                later.scope.position.value = offset + 1
            }
            revision.value &+= 1
        }
    }

    /// Sets the number of instances, adding or removing at the end.
    func setCount(_ count: Int) {
        let wanted = max(0, min(count, FormLimits.repeatInstances))
        while instances.value.count < wanted, append() != nil {}
        while instances.value.count > wanted { removeInstance(at: instances.value.count - 1) }
    }

    /// Every relevant value of the row `target` across the instances (and the
    /// instances of repeats nested in them), in order.
    func values(of target: Int) -> [String] {
        instances.value.flatMap { $0.scope.valuesBelow(target) }
    }
}

/// One instance of a repeat.
@MainActor
public final class RepeatInstance {
    let scope: FormScope
    var revisionTokens: [ObservationToken] = []
    /// The id of the entity the instance creates (`uuid()` when the
    /// instance begins), kept with the answers; `nil` when it creates none.
    public internal(set) var entityID: String?

    init(scope: FormScope) {
        self.scope = scope
    }

    /// The instance's 1-based position among its repeat's instances.
    public var position: Observable<Int> { scope.position }

    /// The rows of the instance, in form order.
    public var states: [QuestionState] { scope.orderedStates }

    /// The state of the row named `name` in this instance.
    public func state(named name: String) -> QuestionState? {
        scope.state(named: name)
    }
}
