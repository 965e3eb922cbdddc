/// The versioned machine report: the run's inputs with their statistics, the counts, and every
/// finding (`violations`), in one pretty-printed document that `vclint merge` reads back.
///
/// Streamed (`lint --follow`) it is JSON Lines: each finding on a line of its own as the object
/// `violations` holds, and last the report without `violations`, whose counts come only at the end.
public struct JSONReporter: StreamingReporter {
    public static let identifier = "json"
    public static let summary = "the versioned machine report; with --follow, JSON Lines"
    /// The `version` of the report's layout; `vclint merge` reads this one only.
    public static let reportVersion = 1
    /// The run's configuration, recorded after `tool` (the command line always gives it).
    public var configuration: RunConfiguration?
    public init(configuration: RunConfiguration? = nil) {
        self.configuration = configuration
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        let json = JSONStream(out)
        try json.openObject()
        for (key, value) in head { try json.value(value, key: key) }
        try json.openArray("inputs")
        for file in result.files { try json.value(Self.input(file)) }
        try json.close()
        try json.value(Self.counts(result), key: "summary")
        try json.openArray("violations")
        for file in result.files {
            for f in file.findings { try json.value(Self.violation(f)) }
        }
        try json.close()
        // With --source-root: the findings source comments silenced; absent when none was.
        if !result.suppressed.isEmpty {
            try json.openArray("suppressed")
            for s in result.suppressed { try json.value(Self.suppressed(s)) }
            try json.close()
        }
        try json.close()
        try out.write("\n")
    }

    /// One line: the finding's object in `violations`.
    public func finding(_ f: Finding, to out: ReportWriter) throws(ReportWriteError) {
        try out.write(Self.violation(f).serialized(pretty: false) + "\n")
    }

    /// One line: `{"resolution": {…}}`, naming the finding by its fingerprint, rule, path and line,
    /// what it is now (`late_dealloc` or `withdrawn`) and the line that resolved it (`by`).
    public func resolution(_ r: Resolution, to out: ReportWriter) throws(ReportWriteError) {
        let f = r.finding
        let record = JSONValue.object([
            ("fingerprint", .string(f.fingerprint)), ("rule", .string(f.rule)), ("path", .string(f.path)), ("line", .int(f.line)),
            ("now", .string(r.now.rawValue)), ("by", .int(r.line)), ("message", .string(r.message)),
        ])
        try out.write(JSONValue.object([("resolution", record)]).serialized(pretty: false) + "\n")
    }

    /// One line: the report without `violations`.
    public func end(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        let inputs = JSONValue.array(result.files.map { Self.input($0) })
        try out.write(JSONValue.object(head + [("inputs", inputs), ("summary", Self.counts(result))]).serialized(pretty: false) + "\n")
    }

    /// What the report starts with: `version`, `tool`, and `configuration` when known.
    private var head: [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = [
            ("version", .int(Self.reportVersion)),
            ("tool", .object([("name", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))])),
        ]
        if let configuration { pairs.append(("configuration", configuration.json)) }
        return pairs
    }

    /// The report's `summary`: the count of each severity and of the inputs.
    static func counts(_ result: LintResult) -> JSONValue {
        .object([
            ("error", .int(result.count(.error))), ("warning", .int(result.count(.warning))),
            ("info", .int(result.count(.info))), ("files", .int(result.files.count)),
        ])
    }

    /// An input's record: its statistics, the warnings reading it printed (`warnings`, only
    /// when there were some), so that `merge` says what `lint` said, and the tests that ran (`tests`,
    /// only when the capture shows a test runner's lines).
    static func input(_ file: FileResult) -> JSONValue {
        let s = file.stats
        let formats = s.formats.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, JSONValue.int($0.value)) }
        var members: [(String, JSONValue)] = [
            ("path", .string(s.path)), ("lines", .int(s.lines)), ("bytes", .int(s.bytes)), ("events", .int(s.events)),
            ("sessions", .int(s.sessions)), ("formats", .object(formats)), ("controllers", .int(s.controllers)),
            ("unrecognized", .object([("lines", .int(s.unrecognized)), ("first", s.firstUnrecognized.map { .int($0) } ?? .null)])),
        ]
        let warnings = file.readingWarnings
        if !warnings.isEmpty { members.append(("warnings", .array(warnings.map { .string(FileResult.warningText($0)) }))) }
        // The tests that ran, findings or not: the JUnit report of a merge has a case for each.
        let tests = file.tests.ran
        if !tests.isEmpty { members.append(("tests", .array(tests.map { .string($0) }))) }
        return .object(members)
    }

    static func controllerObject(_ c: ControllerRef) -> JSONValue {
        .object([
            ("class", .string(c.className)),
            ("address", c.addressText.map { .string($0) } ?? .null),
            ("instance", .string(c.instance)),
        ])
    }

    /// A silenced finding: the object `violations` would hold, and the comment (`by`: its path, line,
    /// rules and reason).
    static func suppressed(_ s: SuppressedFinding) -> JSONValue {
        let c = s.comment
        let by = JSONValue.object([
            ("path", .string(c.path)), ("line", .int(c.line)), ("rules", .array(c.rules.map { .string($0) })),
            ("reason", .string(c.reason ?? "")),
        ])
        return .object([("finding", violation(s.finding)), ("by", by)])
    }

    static func violation(_ f: Finding) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("rule", .string(f.rule)),
            ("severity", .string(f.severity.rawValue)),
            ("message", .string(f.message)),
            ("path", .string(f.path)),
            ("line", .int(f.line)),
            ("time", f.time.map { .string($0.iso) } ?? .null),
            ("controller", controllerObject(f.controller)),
            ("related", .array(f.related.map { .object([("path", .string($0.path)), ("line", .int($0.line)), ("note", .string($0.note))]) })),
            ("fingerprint", .string(f.fingerprint)),
        ]
        // About a transition (docs/lifecycle.md#naming-transitions): its kind; absent otherwise.
        if let t = f.transition { pairs.append(("transition", .string(t.rawValue))) }
        // Inside a test (docs/lifecycle.md#test-boundaries); absent otherwise, so version 1 readers keep working.
        if let t = f.test { pairs.append(("test", .string(t))) }
        // About an object (docs/lifecycle.md#objects): its owner; absent otherwise.
        if let o = f.owner { pairs.append(("owner", controllerObject(o))) }
        // With --source-root: the controller's class declaration.
        if let d = f.declaration { pairs.append(("declaration", .object([("path", .string(d.path)), ("line", .int(d.line))]))) }
        return .object(pairs)
    }
}
