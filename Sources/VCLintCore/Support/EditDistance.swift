/// How far apart two short words are, for "did you mean" suggestions (a mistyped command or format).
public enum EditDistance {
    /// The Levenshtein distance: the fewest insertions, deletions and substitutions of characters
    /// that turn `a` into `b`. Quadratic: for names, not for text.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }

    /// The name of `names` closest to `typed` (case aside) when it is a likely typo of it: within two
    /// edits (`HTML` is `html` mistyped), and not `typed` itself. Ties go to the first in `names`' order.
    public static func suggestion(for typed: String, among names: [String]) -> String? {
        let lowered = typed.lowercased()
        let close = names.map { ($0, between(lowered, $0.lowercased())) }.filter { $0.0 != typed && $0.1 <= 2 }
        return close.min { $0.1 < $1.1 }?.0
    }

    /// `; did you mean 'NAME'?` for a likely typo of one of `names`, else nothing.
    public static func didYouMean(_ typed: String, among names: [String]) -> String {
        suggestion(for: typed, among: names).map { "; did you mean '\($0)'?" } ?? ""
    }
}
