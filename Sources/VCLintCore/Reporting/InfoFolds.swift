/// The infos of a report a person reads, folded (docs/reporters.md#infos): per rule, its first
/// finding and how many there were, in the order the rules first occurred. The xcode format on a
/// terminal and the markdown format print one line per rule from it instead of one per info.
struct InfoFolds {
    private var order: [String] = []
    private var byRule: [String: (first: Finding, count: Int)] = [:]

    init() {}

    /// The infos of a whole result.
    init(_ result: LintResult) {
        for file in result.files {
            for f in file.findings where f.severity == .info { add(f) }
        }
    }

    mutating func add(_ f: Finding) {
        if byRule[f.rule] == nil {
            order.append(f.rule)
            byRule[f.rule] = (f, 0)
        }
        byRule[f.rule]!.count += 1
    }

    /// Each rule's first info and count.
    var rules: [(first: Finding, count: Int)] { order.map { byRule[$0]! } }

    /// The message of a folded line: the count, then the first info's message.
    static func message(_ first: Finding, count: Int) -> String {
        "\(RunSummary.plural(count, "info")) of this rule, the first here: \(first.message)"
    }
}
