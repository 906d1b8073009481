/// The numbers a constraint allows, read from its shape, so that a control
/// can offer them (a spin button's range) before the user types anything.
extension FormExpression {
    /// The interval this constraint allows the current value (`.`) to take,
    /// when it is a conjunction of comparisons between `.` and numbers:
    /// `. >= 0 and . <= 120`, `18 <= .`. Either end is `nil` when the
    /// constraint does not bound it; the whole is `nil` for any other shape,
    /// which a control must then leave to the constraint itself.
    ///
    /// `wholeNumbers` turns a strict bound into the next whole number
    /// (`. < 10` allows 9); without it a strict bound cannot be offered and
    /// the shape counts as unreadable.
    public func boundsOfCurrentValue(wholeNumbers: Bool) -> (lower: Double?, upper: Double?)? {
        var lower: Double?, upper: Double?
        func visit(_ node: ExpressionNode) -> Bool {
            switch node {
            case .binary(.and, let left, let right):
                return visit(left) && visit(right)
            case .binary(let op, let left, let right):
                // `N op .` is `. op' N` with the comparison turned around.
                let comparison: (BinaryOperator, Double)
                if left.isCurrentValue, let n = right.numberValue {
                    comparison = (op, n)
                } else if right.isCurrentValue, let n = left.numberValue, let turned = op.turnedAround {
                    comparison = (turned, n)
                } else {
                    return false
                }
                let (relation, number) = comparison
                switch relation {
                case .greaterOrEqual: lower = max(lower ?? number, number)
                case .lessOrEqual: upper = min(upper ?? number, number)
                case .greater where wholeNumbers:
                    let bound = number.rounded(.down) + 1
                    lower = max(lower ?? bound, bound)
                case .less where wholeNumbers:
                    let bound = number.rounded(.up) - 1
                    upper = min(upper ?? bound, bound)
                default: return false
                }
                return true
            default:
                return false
            }
        }
        guard visit(root), lower != nil || upper != nil else { return nil }
        if let lower, let upper, lower > upper { return nil }
        return (lower, upper)
    }
}

private extension ExpressionNode {
    /// `.`, the value being constrained.
    var isCurrentValue: Bool {
        if case .path(isAbsolute: false, let steps) = self, steps.count == 1, steps[0].isSelf,
           steps[0].predicates.isEmpty {
            return true
        }
        return false
    }

    /// A number written in the expression, negative ones included.
    var numberValue: Double? {
        switch self {
        case .number(let n): n
        case .negate(let inner): inner.numberValue.map { -$0 }
        default: nil
        }
    }
}

private extension BinaryOperator {
    /// The operator with its operands swapped: `a < b` is `b > a`.
    var turnedAround: BinaryOperator? {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: nil
        }
    }
}
