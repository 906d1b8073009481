/// A parsed expression of a form (relevant, constraint, calculation, ...).
public struct FormExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let source: String
    /// Question names referenced as `${name}`, each once, in order of first appearance, including
    /// those inside string literals (`jr:choice-name(${s}, '${s}')`).
    public let references: [String]
    /// The questions its location paths select, for absolute paths and those starting at `..`,
    /// each by `LocationStep.formKey` as the evaluator reads it (`/data/member/age` is
    /// `/member/age`, the route that tells it from another group's `age`): it depends on them
    /// as on its references, so that a path into a repeat follows its instances. Kept apart
    /// from `references`, which name `${}` only.
    public let pathNames: [String]
    /// The secondary instances it names in `instance('id')`, each once.
    public let instanceIDs: [String]
    /// The CSV files (without `.csv`) it names as `pulldata()`'s first argument, each once.
    public let pulldataIDs: [String]
    /// Whether its value is in the current language (`jr:itext()`, `jr:choice-name()`).
    public let readsLanguage: Bool
    /// Whether it reads the last saved response (`${last-saved#name}`).
    public let readsLastSaved: Bool
    /// Every name it reads, by `${}` or by path: what it depends on.
    public var readNames: [String] { references + pathNames }
    /// Whether it reads the current question's value (`.`, `once()`, `current()`), so its value
    /// changes with that answer too.
    public let usesCurrentValue: Bool
    /// Whether it calls `now()`, `today()`, `uuid()`, `random()` or the like, whose values change
    /// by themselves, so it must not be cached.
    public let isVolatile: Bool
    let root: ExpressionNode
    /// `field = value` (alone or among `and`ed conditions) where `value`
    /// reads nothing of the item being tested: what a `choice_filter` can
    /// answer from an index of its list by `field`.
    let indexedEquality: (field: String, value: ExpressionNode)?

    /// Parses an expression; throws on syntax errors, unknown functions and wrong argument counts.
    public init(_ source: String) throws(ExpressionError) {
        var lexer = ExpressionLexer(source)
        try lexer.tokenize()
        var parser = ExpressionParser(tokens: lexer.tokens)
        root = try parser.parse()
        self.source = source
        references = lexer.references
        pathNames = parser.pathNames
        instanceIDs = parser.instanceIDs
        pulldataIDs = parser.pulldataIDs
        readsLanguage = parser.readsLanguage
        readsLastSaved = parser.readsLastSaved
        usesCurrentValue = parser.usesCurrentValue
        isVolatile = parser.isVolatile
        indexedEquality = root.indexableConjunct
    }

    /// The value `indexedEquality` compares with, in `context`.
    func indexedValue(in context: some EvaluationContext) -> ExpressionValue? {
        indexedEquality.map { ExpressionEvaluator(context: context).evaluate($0.value) }
    }

    /// The expression's value over the answers `context` gives.
    public func evaluate(in context: some EvaluationContext) -> ExpressionValue {
        ExpressionEvaluator(context: context).evaluate(root)
    }

    /// The source.
    public var description: String { source }

    /// Two expressions are the same if they are written the same.
    public static func == (lhs: FormExpression, rhs: FormExpression) -> Bool {
        lhs.source == rhs.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}
