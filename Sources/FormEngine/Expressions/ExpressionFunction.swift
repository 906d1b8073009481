/// The functions an expression may call: XPath 1.0's core library and ODK XForms' additions.
enum ExpressionFunction: Sendable {
    // Strings
    case string, concat, join, substr, substring, substringBefore, substringAfter, translate
    case stringLength, normalizeSpace, contains, startsWith, endsWith, uuid, digest, pulldata
    case base64Decode
    // Booleans
    case `if`, coalesce, once, `true`, `false`, boolean, booleanFromString, not, regex
    case checklist, weightedChecklist, lang
    // Numbers
    case number, random, int, sum, max, min, round, floor, ceiling, pow, log, log10, abs
    case sin, cos, tan, asin, acos, atan, atan2, sqrt, exp, exp10, pi
    // Node-sets
    case count, countNonEmpty, position, last, instance, current, randomize, id
    case localName, name, namespaceURI
    // Dates and times
    case today, now, date, dateTime, decimalDate, decimalDateTime, decimalTime
    case formatDate, formatDateTime
    // Selects, translations, repeats
    case selected, selectedAt, countSelected, choiceName, itext, indexedRepeat
    // Geography
    case area, distance, geofence
    // Other
    case version, property, depend
    /// A prefixed function (`odk:…`, `jr:…`) this engine does not know; it reads as "".
    case unknownExtension

    /// How many arguments a function takes.
    struct Arity: Sendable {
        var minimum: Int
        var maximum: Int?
        /// 2 for functions taking pairs after the minimum (`indexed-repeat`).
        var step = 1

        func accepts(_ count: Int) -> Bool {
            count >= minimum && (maximum.map { count <= $0 } ?? true) && (count - minimum) % step == 0
        }

        /// `expected 2 or 3 arguments to substr()`.
        func message(for function: String) -> String {
            let counts: String
            switch (minimum, maximum) {
            case (0, 0?): counts = "no arguments"
            case (1, 1?): counts = "1 argument"
            case (let minimum, let maximum?) where minimum == maximum: counts = "\(minimum) arguments"
            case (let minimum, let maximum?) where maximum == minimum + step: counts = "\(minimum) or \(maximum) arguments"
            case (let minimum, let maximum?):
                let allowed = stride(from: minimum, through: maximum, by: step).map(String.init)
                counts = allowed.dropLast().joined(separator: ", ") + " or \(maximum) arguments"
            case (let minimum, nil) where step == 2: counts = "an even number of arguments, at least \(minimum),"
            case (let minimum, nil): counts = "at least \(minimum) argument" + (minimum == 1 ? "" : "s")
            }
            return "expected \(counts) to \(function)()"
        }
    }

    /// Every known function by the name forms call it, with its arity.
    static let table: [String: (function: ExpressionFunction, arity: Arity)] = {
        func exactly(_ count: Int) -> Arity { Arity(minimum: count, maximum: count) }
        func between(_ minimum: Int, _ maximum: Int) -> Arity { Arity(minimum: minimum, maximum: maximum) }
        func atLeast(_ minimum: Int) -> Arity { Arity(minimum: minimum) }
        return [
            "string": (.string, between(0, 1)),
            "concat": (.concat, atLeast(0)),
            "join": (.join, atLeast(1)),
            "substr": (.substr, between(2, 3)),
            "substring": (.substring, between(2, 3)),
            "substring-before": (.substringBefore, exactly(2)),
            "substring-after": (.substringAfter, exactly(2)),
            "translate": (.translate, exactly(3)),
            "string-length": (.stringLength, between(0, 1)),
            "normalize-space": (.normalizeSpace, between(0, 1)),
            "contains": (.contains, exactly(2)),
            "starts-with": (.startsWith, exactly(2)),
            "ends-with": (.endsWith, exactly(2)),
            "uuid": (.uuid, between(0, 1)),
            "digest": (.digest, between(2, 3)),
            "pulldata": (.pulldata, exactly(4)),
            "base64-decode": (.base64Decode, exactly(1)),

            "if": (.if, exactly(3)),
            "coalesce": (.coalesce, exactly(2)),
            "once": (.once, exactly(1)),
            "true": (.true, exactly(0)),
            "false": (.false, exactly(0)),
            "boolean": (.boolean, exactly(1)),
            "boolean-from-string": (.booleanFromString, exactly(1)),
            "not": (.not, exactly(1)),
            "regex": (.regex, exactly(2)),
            "checklist": (.checklist, atLeast(2)),
            "weighted-checklist": (.weightedChecklist, Arity(minimum: 2, step: 2)),
            "lang": (.lang, exactly(1)),

            "number": (.number, between(0, 1)),
            "random": (.random, exactly(0)),
            "int": (.int, exactly(1)),
            "sum": (.sum, exactly(1)),
            "max": (.max, atLeast(1)),
            "min": (.min, atLeast(1)),
            "round": (.round, between(1, 2)),
            "floor": (.floor, exactly(1)),
            "ceiling": (.ceiling, exactly(1)),
            "pow": (.pow, exactly(2)),
            "log": (.log, exactly(1)),
            "log10": (.log10, exactly(1)),
            "abs": (.abs, exactly(1)),
            "sin": (.sin, exactly(1)),
            "cos": (.cos, exactly(1)),
            "tan": (.tan, exactly(1)),
            "asin": (.asin, exactly(1)),
            "acos": (.acos, exactly(1)),
            "atan": (.atan, exactly(1)),
            "atan2": (.atan2, exactly(2)),
            "sqrt": (.sqrt, exactly(1)),
            "exp": (.exp, exactly(1)),
            "exp10": (.exp10, exactly(1)),
            "pi": (.pi, exactly(0)),

            "count": (.count, exactly(1)),
            "count-non-empty": (.countNonEmpty, exactly(1)),
            "position": (.position, between(0, 1)),
            "last": (.last, exactly(0)),
            "instance": (.instance, exactly(1)),
            "current": (.current, exactly(0)),
            "randomize": (.randomize, between(1, 2)),
            "id": (.id, exactly(1)),
            "local-name": (.localName, between(0, 1)),
            "name": (.name, between(0, 1)),
            "namespace-uri": (.namespaceURI, between(0, 1)),

            "today": (.today, exactly(0)),
            "now": (.now, exactly(0)),
            "date": (.date, exactly(1)),
            "date-time": (.dateTime, exactly(1)),
            "decimal-date": (.decimalDate, exactly(1)),
            "decimal-date-time": (.decimalDateTime, exactly(1)),
            "decimal-time": (.decimalTime, exactly(1)),
            "format-date": (.formatDate, exactly(2)),
            "format-date-time": (.formatDateTime, exactly(2)),

            "selected": (.selected, exactly(2)),
            "is-selected": (.selected, exactly(2)),
            "selected-at": (.selectedAt, exactly(2)),
            "count-selected": (.countSelected, exactly(1)),
            "jr:choice-name": (.choiceName, exactly(2)),
            "jr:itext": (.itext, exactly(1)),
            "indexed-repeat": (.indexedRepeat, Arity(minimum: 3, maximum: 11, step: 2)),

            "area": (.area, exactly(1)),
            "enclosed-area": (.area, exactly(1)),
            // JavaRosa's: one trace or shape, or several points in order.
            "distance": (.distance, atLeast(1)),
            "geofence": (.geofence, exactly(2)),

            "version": (.version, exactly(0)),
            "property": (.property, exactly(1)),
            "depend": (.depend, atLeast(1)),
        ]
    }()

    /// Whether its value may change between two evaluations over the same answers.
    /// Whether the engine evaluates it. The rest read nodes or properties a
    /// form's answers do not have; a form calling one is refused, never run
    /// with a blank in its place.
    var isRun: Bool {
        switch self {
        case .property, .localName, .name, .namespaceURI, .id, .unknownExtension: false
        default: true
        }
    }

    var isVolatile: Bool {
        switch self {
        case .now, .today, .uuid, .random: true
        default: false
        }
    }
}
