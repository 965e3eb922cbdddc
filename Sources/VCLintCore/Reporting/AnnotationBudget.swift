/// The annotations one GitHub Actions step may show, and what the `github-actions` reporter left
/// out of them (docs/reporters.md#annotations). GitHub shows at most 10 error, 10 warning and 10 notice
/// annotations a step (and 50 a job) and drops the rest without a word; vclint spends the budget
/// itself and says, in one notice at the end, what it did not annotate.
struct AnnotationBudget {
    /// Annotations of one severity a step shows.
    static let perStep = 10

    /// Errors and warnings annotated so far (in a stream: the first ones decided).
    private var annotated: [Severity: Int] = [:]
    /// What was not annotated, by severity and rule: the notice's counts.
    private var left: [Severity: [String: Int]] = [:]
    /// Resolution notices printed, and those past the budget.
    private var resolutions = 0, resolutionsLeft = 0

    /// Whether `f` gets an annotation, as findings stream in: the first `perStep` errors and
    /// warnings do; an info never does. What does not is counted for the notice.
    mutating func spend(_ f: Finding) -> Bool {
        if f.severity != .info, annotated[f.severity, default: 0] < Self.perStep {
            annotated[f.severity, default: 0] += 1
            return true
        }
        leaveOut(f)
        return false
    }

    /// Counts a finding that gets no annotation.
    mutating func leaveOut(_ f: Finding) {
        left[f.severity, default: [:]][f.rule, default: 0] += 1
    }

    /// Whether a resolution gets its notice: one notice of the step's is kept for the one at the end.
    mutating func spendResolution() -> Bool {
        if resolutions < Self.perStep - 1 {
            resolutions += 1
            return true
        }
        resolutionsLeft += 1
        return false
    }

    /// The one notice that stands for what was not annotated (nil when everything was): on the run,
    /// not on a file, with each severity's count and the count of each of its rules, the most
    /// frequent first.
    func notice() -> String? {
        let parts = [(Severity.error, "error"), (.warning, "warning"), (.info, "info")].compactMap { s, word -> (String, String)? in
            guard let counts = left[s], !counts.isEmpty else { return nil }
            let total = counts.values.reduce(0, +)
            let rules = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            return ("\(RunSummary.plural(total, word))", rules)
        }
        let message: String
        if left[.error] == nil && left[.warning] == nil && resolutionsLeft == 0 {
            // Only infos, which are never annotated one by one.
            guard let rules = parts.first?.1 else { return nil }
            let total = left[.info]!.values.reduce(0, +)
            message = "\(total) info\(total == 1 ? " is" : "s are") not annotated (\(rules)); the other report formats list them"
        } else {
            var counted = parts.map { "\($0.0) (\($0.1))" }
            if resolutionsLeft > 0 { counted.append(RunSummary.plural(resolutionsLeft, "resolution")) }
            message = "\(ListWording.spoken(counted, "and")) are not annotated: GitHub shows \(Self.perStep) annotations of each severity a step; the job summary and the other report formats list every finding"
        }
        return "::notice title=\(GitHubActionsReporter.property(VCLintVersion.name))::\(GitHubActionsReporter.data(message))\n"
    }

    /// Which of two errors (or two warnings) is annotated first: the rule's own severity (a warning
    /// rule made an error by the configuration comes after the rules that are errors anyway), then
    /// the earlier line, then the input's and the finding's order.
    struct Rank: Comparable {
        var rule: Int
        var line: Int
        var file: Int
        var index: Int

        init(_ f: Finding, file: Int, index: Int) {
            rule = RuleRegistry.description(of: f.rule)?.severity.rank ?? -1
            line = f.line
            self.file = file
            self.index = index
        }

        static func < (a: Rank, b: Rank) -> Bool {
            (-a.rule, a.line, a.file, a.index) < (-b.rule, b.line, b.file, b.index)
        }
    }
}
