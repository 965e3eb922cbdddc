/// The findings of one input, in report order. A finding is held as 16 bytes (which observation, which
/// rule, its severity and line) next to the input's `ObservationList`; its message, related lines and
/// fingerprint are worded when it is read (661k findings must fit in 256 MiB, where a `Finding` value with
/// its Strings costs over a kilobyte: docs/performance.md#memory). Read each element once per use.
public struct FindingList: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
    struct Entry: Sendable {
        var line: Int
        var observation: UInt32
        /// The rule's place in `RuleRegistry.all` (its order in the report, not its fact tag).
        var rule: UInt8
        var severity: Severity
    }

    private enum Storage: Sendable {
        /// Built by the rule engine.
        case compact(observations: ObservationList, entries: [Entry], path: String, options: TimelineOptions)
        /// Made from values (tests, merged or filtered results).
        case values([Finding])
    }

    private var storage: Storage
    /// Controller declarations by class (`--source-root`).
    private var declarations: [String: Declaration] = [:]
    /// The input's tests, which name each finding's (`Finding.test`).
    private var tests: TestBoundaries?
    /// Findings added after a compact list's (`append`), kept as they are: a compact list is not
    /// worded whole to add a few.
    private var appended: [Finding] = []
    /// `--location source`: findings with a declaration are located there.
    private var atDeclarations = false

    init(observations: ObservationList, entries: [Entry], path: String, options: TimelineOptions) {
        storage = .compact(observations: observations, entries: entries, path: path, options: options)
    }

    public init(_ findings: [Finding]) { storage = .values(findings) }
    public init(arrayLiteral findings: Finding...) { storage = .values(findings) }
    public init() { storage = .values([]) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storedCount + appended.count }

    /// How many findings `storage` holds (before the appended ones).
    private var storedCount: Int {
        switch storage {
        case .compact(_, let entries, _, _): return entries.count
        case .values(let v): return v.count
        }
    }

    public subscript(i: Int) -> Finding {
        if i >= storedCount { return appended[i - storedCount] }
        switch storage {
        case .values(let v):
            var f = v[i]
            if let d = declarations[f.controller.className] { f.declaration = d }
            if f.test == nil, let tests { f.test = tests.test(at: f.line) }
            return atDeclarations ? f.locatedAtDeclaration() : f
        case .compact(let observations, let entries, let path, let options):
            let e = entries[i]
            // Worded when read (the engine kept the rule's place, not its words).
            let (o, v) = RuleRegistry.all[Int(e.rule)].word(observations, at: Int(e.observation), options: options)
            var f = RuleEngine.finding(o, rule: RuleRegistry.descriptions[Int(e.rule)], verdict: v, severity: e.severity, path: path)
            f.declaration = declarations[o.controller.className]
            if f.test == nil { f.test = tests?.test(at: f.line) }
            return atDeclarations ? f.locatedAtDeclaration() : f
        }
    }

    /// How many findings have this severity (without wording them).
    public func count(_ s: Severity) -> Int {
        let extra = appended.reduce(0) { $0 + ($1.severity == s ? 1 : 0) }
        switch storage {
        case .compact(_, let entries, _, _): return extra + entries.reduce(0) { $0 + ($1.severity == s ? 1 : 0) }
        case .values(let v): return extra + v.reduce(0) { $0 + ($1.severity == s ? 1 : 0) }
        }
    }

    /// The severity of finding `i` (without wording it).
    public func severity(at i: Int) -> Severity {
        if i >= storedCount { return appended[i - storedCount].severity }
        switch storage {
        case .compact(_, let entries, _, _): return entries[i].severity
        case .values(let v): return v[i].severity
        }
    }

    /// Removes the findings that match.
    public mutating func removeAll(where remove: (Finding) throws -> Bool) rethrows {
        switch storage {
        case .values(var v):
            storage = .values([])
            try v.removeAll { f in
                var g = f
                if let d = declarations[f.controller.className] { g.declaration = d }
                return try remove(g)
            }
            storage = .values(v)
        case .compact(let observations, let entries, let path, let options):
            var kept: [Entry] = []
            for i in entries.indices where try !remove(self[i]) { kept.append(entries[i]) }
            storage = .compact(observations: observations, entries: kept, path: path, options: options)
        }
        try appended.removeAll(where: remove)
    }

    /// Adds a finding after the others (findings read back from a report).
    public mutating func append(_ finding: Finding) {
        switch storage {
        case .values(var v) where appended.isEmpty:
            storage = .values([])
            v.append(finding)
            storage = .values(v)
        case .values, .compact:
            appended.append(finding)
        }
    }

    /// Adds the findings of `list` after the others (the findings about suppression comments).
    public mutating func append(contentsOf list: FindingList) {
        for f in list { append(f) }
    }

    /// `--strict`: every warning becomes an error (still 16 bytes a finding when compact).
    public mutating func promoteWarnings() {
        for i in appended.indices where appended[i].severity == .warning { appended[i].severity = .error }
        switch storage {
        case .values(var v):
            storage = .values([])
            for i in v.indices where v[i].severity == .warning { v[i].severity = .error }
            storage = .values(v)
        case .compact(let observations, var entries, let path, let options):
            for i in entries.indices where entries[i].severity == .warning { entries[i].severity = .error }
            storage = .compact(observations: observations, entries: entries, path: path, options: options)
        }
    }

    /// Names each finding's test: the one running at its line.
    public mutating func attach(tests: TestBoundaries) {
        if !tests.isEmpty { self.tests = tests }
    }

    /// `--location source`: each finding with a declaration is located there from now on.
    public mutating func locateAtDeclarations() { atDeclarations = true }

    /// Points each finding at its controller's declaration, where `declarations` has its class.
    public mutating func attach(_ declarations: [String: Declaration]) {
        self.declarations.merge(declarations) { _, new in new }
    }
}

/// Every finding of a run, file after file (`LintResult.findings`).
public struct RunFindings: RandomAccessCollection, Sendable {
    let lists: [FindingList]
    /// `starts[k]`: the index of list k's first finding; one more entry for the end.
    private let starts: [Int]

    init(_ lists: [FindingList]) {
        self.lists = lists
        var s = [0]
        for l in lists { s.append(s.last! + l.count) }
        starts = s
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts.last! }

    public subscript(i: Int) -> Finding {
        let k = list(of: i)
        return lists[k][i - starts[k]]
    }

    /// The list that holds finding `i` (binary search over the starts).
    private func list(of i: Int) -> Int {
        var lo = 0, hi = lists.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
