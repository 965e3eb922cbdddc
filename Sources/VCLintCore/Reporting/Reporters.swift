import Foundation

/// The product's name and version, as reports print them.
public enum VCLintVersion {
    public static let name = "vclint"
    public static let version = "0.1.0"
}

/// findings → text (STYLE.md's last stage). A reporter never re-reads a log.
///
/// A report is written as it is produced, finding by finding: its header, each finding's piece,
/// its footer. Neither the report nor a copy of the findings is ever held whole (a reporter that
/// groups keeps indices, not findings), so a run with hundreds of thousands of findings adds
/// little more than the writer's buffer to what the findings themselves take.
public protocol Reporter {
    static var identifier: String { get }
    /// Writes the complete report (ends with a newline when not empty) to `out`, without flushing it.
    func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError)
}

extension Reporter {
    /// The complete report as one string (tests, small results).
    public func report(_ result: LintResult) -> String {
        let out = ReportWriter()
        do {
            try write(result, to: out)
        } catch {
            preconditionFailure("a report collected in memory cannot fail to be written: \(error)")
        }
        return out.text
    }

    /// The report of `result` as a writer, for `ReportTransaction.commit` and stdout.
    public func writer(for result: LintResult) -> ReportWriting {
        return { out in try self.write(result, to: out) }
    }
}

public enum ReporterRegistry {
    public static let names = [
        XcodeReporter.identifier, JSONReporter.identifier, SARIFReporter.identifier, JUnitReporter.identifier,
        GitHubActionsReporter.identifier, CheckstyleReporter.identifier, MarkdownReporter.identifier,
    ]

    /// `rules` is the run's rule settings: reports that list rules (SARIF's configuration
    /// overrides, JUnit's test cases) describe the rules that actually ran.
    public static func reporter(named name: String, rules: RuleSettings = .default) -> (any Reporter)? {
        reporter(named: name, context: ReportContext(rules: rules))
    }

    public static func reporter(named name: String, context: ReportContext) -> (any Reporter)? {
        let rules = context.rules
        switch name {
        case XcodeReporter.identifier: return XcodeReporter()
        case JSONReporter.identifier: return JSONReporter(configuration: context.configuration)
        case SARIFReporter.identifier: return SARIFReporter(rules: rules)
        case JUnitReporter.identifier: return JUnitReporter(rules: rules, maxWarnings: context.maxWarnings)
        case GitHubActionsReporter.identifier: return GitHubActionsReporter()
        case CheckstyleReporter.identifier: return CheckstyleReporter()
        case MarkdownReporter.identifier: return MarkdownReporter()
        default: return nil
        }
    }
}

/// What a run tells its reporters beyond the findings.
public struct ReportContext: Sendable {
    /// The rules that ran, at their severities.
    public var rules: RuleSettings
    /// Recorded in the JSON report (`vclint merge` compares it); nil leaves it out.
    public var configuration: RunConfiguration?
    /// `--max-warnings N`: JUnit shows the gate as a test case of its own.
    public var maxWarnings: Int?

    public init(rules: RuleSettings = .default, configuration: RunConfiguration? = nil, maxWarnings: Int? = nil) {
        self.rules = rules
        self.configuration = configuration
        self.maxWarnings = maxWarnings
    }

    /// The context of a run made with `configuration`.
    public init(configuration: RunConfiguration, maxWarnings: Int? = nil) {
        self.init(rules: configuration.ruleSettings, configuration: configuration, maxWarnings: maxWarnings)
    }
}

/// `PATH:LINE: error: MESSAGE (rule_id)`: what Xcode, editors and CI log viewers make clickable.
public struct XcodeReporter: Reporter {
    public static let identifier = "xcode"
    /// ANSI colors (`--color`): the location in bold, one color per severity, the rule id dimmed.
    public var color: Bool
    public init(color: Bool = false) {
        self.color = color
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        for file in result.files {
            for f in file.findings {
                try out.write("\(paint("\(f.path):\(f.line):", Self.bold)) \(paint("\(f.severity.rawValue):", Self.code(f.severity))) \(Self.oneLine(f.message)) \(paint("(\(f.rule))", Self.dim))\n")
                if let d = f.declaration {
                    try out.write("\(paint("\(d.path):\(d.line):", Self.bold)) \(paint("note:", Self.dim)) \(Self.oneLine(f.controller.className)) is declared here \(paint("(\(f.rule))", Self.dim))\n")
                }
            }
        }
    }

    static let bold = "1", dim = "2"
    /// error red, warning yellow, info cyan (as compilers and ripgrep color them).
    public static func code(_ s: Severity) -> String {
        switch s {
        case .error: return "1;31"
        case .warning: return "1;33"
        case .info: return "1;36"
        }
    }

    private func paint(_ s: String, _ code: String) -> String { color ? Self.paint(s, code) : s }
    static func paint(_ s: String, _ code: String) -> String { "\u{1B}[\(code)m\(s)\u{1B}[0m" }

    /// Text from a log must not break the one-finding-per-line format.
    static func oneLine(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u.value < 0x20 || u.value == 0x7F { out += " " } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// `3 errors, 1 warning in 2 files (1,204,332 lines, 0.41 s)`, for stderr; `merge` says where
    /// the files came from instead of a time (`… in 9 files (252 lines) from 3 reports`).
    public static func summary(_ result: LintResult, color: Bool = false, reports: Int? = nil) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(grouped(n)) \(word)\(n == 1 ? "" : "s")" }
        func counted(_ s: Severity, _ word: String) -> String {
            let n = result.count(s)
            return color && n > 0 ? paint(plural(n, word), code(s)) : plural(n, word)
        }
        var parts = [counted(.error, "error"), counted(.warning, "warning")]
        if result.count(.info) > 0 { parts.append(counted(.info, "info")) }
        let secs = (result.seconds * 100).rounded() / 100
        let tail = reports.map { ") from \(plural($0, "report"))" } ?? ", \(String(format: "%.2f", secs)) s)"
        return "\(parts.joined(separator: ", ")) in \(plural(result.files.count, "file")) (\(plural(result.totalLines, "line"))\(tail)"
    }

    /// The stderr lines that say an input has lines vclint could not read (lifecycle.md §1), at
    /// most `limit` of them and a count of the rest.
    public static func unreadNotes(_ result: LintResult, limit: Int = 10) -> [String] {
        let unread = result.files.filter { $0.stats.unrecognized > 0 }
        var out = unread.prefix(limit).map { f -> String in
            let s = f.stats
            let n = s.unrecognized == 1 ? "1 line mentions a lifecycle callback" : "\(grouped(s.unrecognized)) lines mention lifecycle callbacks"
            return "vclint: \(s.path): \(n) but \(s.unrecognized == 1 ? "was" : "were") not read (first at line \(s.firstUnrecognized ?? 0)); see vclint inspect \(s.path)"
        }
        if unread.count > limit { out.append("vclint: … and \(unread.count - limit) more inputs with unread lines; see vclint inspect") }
        return out
    }

    static func grouped(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.enumerated() {
            if i > 0, (s.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }
}

/// The versioned machine report of output.md.
public struct JSONReporter: Reporter {
    public static let identifier = "json"
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
        try json.value(.int(Self.reportVersion), key: "version")
        try json.value(.object([("name", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))]), key: "tool")
        if let configuration { try json.value(configuration.json, key: "configuration") }
        try json.openArray("inputs")
        for file in result.files { try json.value(Self.input(file.stats)) }
        try json.close()
        try json.value(.object([
            ("error", .int(result.count(.error))), ("warning", .int(result.count(.warning))),
            ("info", .int(result.count(.info))), ("files", .int(result.files.count)),
        ]), key: "summary")
        try json.openArray("violations")
        for file in result.files {
            for f in file.findings { try json.value(Self.violation(f)) }
        }
        try json.close()
        try json.close()
        try out.write("\n")
    }

    static func input(_ s: InputStats) -> JSONValue {
        let formats = s.formats.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, JSONValue.int($0.value)) }
        return .object([
            ("path", .string(s.path)), ("lines", .int(s.lines)), ("bytes", .int(s.bytes)), ("events", .int(s.events)),
            ("sessions", .int(s.sessions)), ("formats", .object(formats)), ("controllers", .int(s.controllers)),
            ("unrecognized", .object([("lines", .int(s.unrecognized)), ("first", s.firstUnrecognized.map { .int($0) } ?? .null)])),
        ])
    }

    static func violation(_ f: Finding) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("rule", .string(f.rule)),
            ("severity", .string(f.severity.rawValue)),
            ("message", .string(f.message)),
            ("path", .string(f.path)),
            ("line", .int(f.line)),
            ("time", f.time.map { .string($0.iso) } ?? .null),
            ("controller", .object([
                ("class", .string(f.controller.className)),
                ("address", f.controller.addressText.map { .string($0) } ?? .null),
                ("instance", .string(f.controller.instance)),
            ])),
            ("related", .array(f.related.map { .object([("path", .string($0.path)), ("line", .int($0.line)), ("note", .string($0.note))]) })),
            ("fingerprint", .string(f.fingerprint)),
        ]
        // With --source-root: the controller's class declaration.
        if let d = f.declaration { pairs.append(("declaration", .object([("path", .string(d.path)), ("line", .int(d.line))]))) }
        return .object(pairs)
    }
}
