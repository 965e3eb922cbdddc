/// A list in a sentence of help or of an error.
public enum ListWording {
    /// `a, b or c` with `conjunction` "or" (`a or b`, `a`, or nothing for no item).
    public static func spoken(_ items: [String], _ conjunction: String) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
