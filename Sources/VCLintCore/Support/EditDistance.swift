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
}
