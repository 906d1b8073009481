/// A `rank` answer as ODK stores it: every choice offered, most preferred
/// first, their names separated by spaces; blank until ranked.
public enum RankOrder {
    /// The order `answer` gives the choices `offered` (names in the answer
    /// that are still offered, in its order), then the offered choices it
    /// does not name, in the list's order: what a rank shows.
    public static func names(_ answer: String, offered: [Choice]) -> [String] {
        let offeredNames = offered.map(\.name)
        let ranked = answer.split(separator: " ").map(String.init).filter { offeredNames.contains($0) }
        return ranked + offeredNames.filter { !ranked.contains($0) }
    }

    /// `order` with the name at `index` moved by `offset` places (clamped),
    /// as the answer stores it.
    public static func moving(_ order: [String], at index: Int, by offset: Int) -> String {
        guard order.indices.contains(index) else { return order.joined(separator: " ") }
        var moved = order
        let name = moved.remove(at: index)
        moved.insert(name, at: min(max(index + offset, 0), moved.count))
        return moved.joined(separator: " ")
    }
}
