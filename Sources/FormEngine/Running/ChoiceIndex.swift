/// A choice list's choices by one column's value, so that a `choice_filter`
/// comparing that column (`district = ${district}`) tries only the choices
/// that can pass, not every row of a long list at each change.
struct ChoiceIndex {
    private let choices: [Choice]
    private let positions: [String: [Int]]

    /// Indexes `list` by `field` (`name` or an extra column); nil when some
    /// choice has no such column.
    init?(_ list: ChoiceList, field: String) {
        var positions: [String: [Int]] = [:]
        for (position, choice) in list.choices.enumerated() {
            guard let value = field == "name" ? choice.name : choice.properties[field] else { return nil }
            positions[value, default: []].append(position)
        }
        choices = list.choices
        self.positions = positions
    }

    /// The choices whose column equals `value`, in list order, or nil when
    /// the value compares otherwise than as text (a number or a truth
    /// value, which XPath compares as such) and every choice must be tried.
    func choices(equalTo value: ExpressionValue) -> [Choice]? {
        switch value {
        case .string(let text):
            return (positions[text] ?? []).map { choices[$0] }
        case .nodes(let texts):
            let found = Set(texts.flatMap { positions[$0] ?? [] })
            return found.sorted().map { choices[$0] }
        default:
            return nil
        }
    }
}
