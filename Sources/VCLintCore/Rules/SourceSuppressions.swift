/// A finding a source comment silenced: the JSON report's `suppressed` (docs/output.md#top-level).
public struct SuppressedFinding: Sendable {
    public var finding: Finding
    /// The comment that silenced it.
    public var comment: SuppressionComment
}

/// Applies the suppression comments of the app's sources (`--source-root`) to a run's findings, and
/// reports the comments that are invalid or silenced nothing (docs/configuration.md#suppressions-in-the-source).
/// Runs after the findings are made and before the baseline: a finding a comment silenced is not a
/// finding the baseline sees.
public enum SourceSuppressions {
    /// The pseudo-controller of a comment that applies to no class.
    static let noClass = ControllerRef(className: "(source)", address: nil, instance: "(source)")

    /// The capture the examples of the rules about sources are linted with: a `SessionViewController`
    /// pushed and popped twice, the second never deallocated (one `leaked_controller` finding).
    public static let exampleCapture = """
        2024-03-01 10:00:00.000 Shop[100:200] HomeViewController viewDidLoad
        2024-03-01 10:00:00.010 Shop[100:200] HomeViewController viewWillAppear
        2024-03-01 10:00:00.020 Shop[100:200] HomeViewController viewDidAppear
        2024-03-01 10:00:01.000 Shop[100:200] SessionViewController viewDidLoad
        2024-03-01 10:00:01.010 Shop[100:200] HomeViewController viewWillDisappear
        2024-03-01 10:00:01.020 Shop[100:200] SessionViewController viewWillAppear
        2024-03-01 10:00:01.300 Shop[100:200] HomeViewController viewDidDisappear
        2024-03-01 10:00:01.310 Shop[100:200] SessionViewController viewDidAppear
        2024-03-01 10:00:02.000 Shop[100:200] SessionViewController viewWillDisappear
        2024-03-01 10:00:02.010 Shop[100:200] HomeViewController viewWillAppear
        2024-03-01 10:00:02.300 Shop[100:200] SessionViewController viewDidDisappear
        2024-03-01 10:00:02.310 Shop[100:200] HomeViewController viewDidAppear
        2024-03-01 10:00:02.400 Shop[100:200] SessionViewController dealloc
        2024-03-01 10:00:03.000 Shop[100:200] SessionViewController viewDidLoad
        2024-03-01 10:00:03.010 Shop[100:200] HomeViewController viewWillDisappear
        2024-03-01 10:00:03.020 Shop[100:200] SessionViewController viewWillAppear
        2024-03-01 10:00:03.300 Shop[100:200] HomeViewController viewDidDisappear
        2024-03-01 10:00:03.310 Shop[100:200] SessionViewController viewDidAppear
        2024-03-01 10:00:04.000 Shop[100:200] SessionViewController viewWillDisappear
        2024-03-01 10:00:04.010 Shop[100:200] HomeViewController viewWillAppear
        2024-03-01 10:00:04.300 Shop[100:200] SessionViewController viewDidDisappear
        2024-03-01 10:00:04.310 Shop[100:200] HomeViewController viewDidAppear
        2024-03-01 10:00:09.000 Shop[100:200] HomeViewController viewWillDisappear
        2024-03-01 10:00:09.300 Shop[100:200] HomeViewController viewDidDisappear

        """

    /// Whether `comment`, a valid one, silences `f`: it names the rule and the finding's class; a
    /// `disable-next-line` comment also needs the callback it stands before to be named by the finding's
    /// message or one of its related lines (`dealloc` for a `deinit`).
    static func silences(_ comment: SuppressionComment, _ f: Finding) -> Bool {
        guard comment.className == f.controller.className, comment.rules.contains(f.rule) else { return false }
        switch comment.scope {
        case .declaration: return true
        case .nextLine:
            guard let callback = comment.callback else { return false }
            return f.message.contains(callback) || f.related.contains { $0.note.contains(callback) }
        }
    }

    /// The findings about the comments themselves (`invalid_suppression`, `unused_suppression`), one list
    /// per source file, as the rule engine words them with `settings`.
    static func problems(_ comments: [SuppressionComment], used: [Bool], settings: RuleSettings) -> [FindingList] {
        var byPath: [(String, [Observation])] = []
        for (i, c) in comments.enumerated() {
            let controller = c.className.map { ControllerRef(className: $0, address: nil, instance: $0) } ?? noClass
            let fact: any Fact
            if let problem = c.problem {
                fact = InvalidSuppression(scope: c.scope, rules: c.rules, problem: problem)
            } else if !used[i] {
                fact = UnusedSuppression(scope: c.scope, rules: c.rules, callback: c.callback)
            } else {
                continue
            }
            let o = Observation(fact, controller: controller, line: c.line, time: nil)
            if byPath.last?.0 == c.path { byPath[byPath.count - 1].1.append(o) } else { byPath.append((c.path, [o])) }
        }
        return byPath.map { RuleEngine.findings($0.1, path: $0.0, settings: settings, options: TimelineOptions()) }
    }
}

extension LintResult {
    /// `--location source`: every finding with a declaration is located there (`Finding.locatedAtDeclaration`).
    public mutating func locateAtDeclarations() {
        for i in files.indices { files[i].findings.locateAtDeclarations() }
    }

    /// With `--source-root`: attaches each finding's controller declaration found below `root`, takes
    /// out the findings its suppression comments silence (into `suppressed`) and adds the findings
    /// about the comments (after the last input's). `settings`: which rules run, at which severity;
    /// `note` as `SourceIndex.locate`'s.
    public mutating func attachDeclarations(under root: String, settings: RuleSettings = .default, note: (String) -> Void = { _ in }) {
        let classes = Set(findings.map(\.controller.className))
        let (index, comments) = SourceIndex.scan(classes, under: root, note: note)
        for i in files.indices { files[i].findings.attach(index) }
        var used = [Bool](repeating: false, count: comments.count)
        var byClass: [String: [Int]] = [:]
        for (i, c) in comments.enumerated() where c.problem == nil {
            if let name = c.className, classes.contains(name) { byClass[name, default: []].append(i) }
        }
        if !byClass.isEmpty {
            var silenced: [SuppressedFinding] = []
            for k in files.indices {
                files[k].findings.removeAll { f in
                    guard let candidates = byClass[f.controller.className],
                          let i = candidates.first(where: { SourceSuppressions.silences(comments[$0], f) }) else { return false }
                    used[i] = true
                    silenced.append(SuppressedFinding(finding: f, comment: comments[i]))
                    return true
                }
            }
            suppressed += silenced
        }
        let problems = SourceSuppressions.problems(comments, used: used, settings: settings)
        guard !files.isEmpty else { return }
        for list in problems { files[files.count - 1].findings.append(contentsOf: list) }
    }
}

// What both facts about a comment hold: its scope and the rule ids it names.
extension ObservationWriter {
    mutating func comment(_ scope: SuppressionComment.Scope, _ rules: [String]) {
        bool(scope == .nextLine)
        names(rules)
    }
}

extension ObservationReader {
    mutating func comment() -> (SuppressionComment.Scope, [String]) {
        (bool() ? .nextLine : .declaration, names())
    }
}
