/// SARIF 2.1.0 (OASIS), what GitHub code scanning and other result viewers import.
///
/// One run; the driver lists every built-in rule (opt-in ones disabled by default), so a viewer
/// can explain any rule; the run's own rule settings, where they differ from the defaults, are
/// recorded as the invocation's configuration overrides. Each finding is a result on its log
/// line, its related lines as related locations, and its fingerprint as a partial fingerprint so
/// the same bug in tomorrow's capture is the same alert.
public struct SARIFReporter: Reporter {
    public static let identifier = "sarif"
    public static let summary = "SARIF 2.1.0, for code scanning"
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The key of `partialFingerprints`; bump the version if the fingerprint's recipe changes.
    public static let fingerprintKey = "vclint/v1"

    public var rules: RuleSettings
    /// docs/rules.md of this release, where each rule's `helpUri` points (nil: no `helpUri`).
    public var documentation: String?

    public init(rules: RuleSettings = .default, documentation: String? = VCLintVersion.rulesDocumentation) {
        self.rules = rules
        self.documentation = documentation
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        let descriptions = RuleRegistry.descriptions
        let ruleIndex = Dictionary(descriptions.enumerated().map { ($0.element.identifier, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let artifacts = Artifacts(result)

        let driver: JSONValue = .object([
            ("name", .string(VCLintVersion.name)),
            ("version", .string(VCLintVersion.version)),
            ("semanticVersion", .string(VCLintVersion.version)),
            ("rules", .array(descriptions.map { Self.descriptor($0, documentation: documentation) })),
        ])

        // Where this run's settings differ from the rules' defaults (--enable, --disable, severities).
        let overrides: [JSONValue] = descriptions.enumerated().compactMap { i, d in
            let enabled = rules.enabled.contains(d.identifier)
            let severity = rules.severity(of: d)
            guard enabled == d.isOptIn || severity != d.severity else { return nil }
            return .object([
                ("descriptor", .object([("id", .string(d.identifier)), ("index", .int(i))])),
                ("configuration", .object([("enabled", .bool(enabled)), ("level", .string(Self.level(severity)))])),
            ])
        }
        var invocation: [(String, JSONValue)] = [("executionSuccessful", .bool(true))]
        if !overrides.isEmpty { invocation.append(("ruleConfigurationOverrides", .array(overrides))) }

        let json = JSONStream(out)
        try json.openObject()
        try json.value(.string(Self.schemaURI), key: "$schema")
        try json.value(.string("2.1.0"), key: "version")
        try json.openArray("runs")
        try json.openObject()
        try json.value(.object([("driver", driver)]), key: "tool")
        try json.value(.array([.object(invocation)]), key: "invocations")
        try json.openArray("artifacts")
        for path in artifacts.paths {
            var pairs: [(String, JSONValue)] = [("location", .object([("uri", .string(Self.uri(path)))]))]
            if let n = artifacts.lengths[path] { pairs.append(("length", .int(n))) }
            try json.value(.object(pairs))
        }
        try json.close()
        try json.openArray("results")
        for file in result.files {
            for f in file.findings { try json.value(Self.result(f, ruleIndex: ruleIndex[f.rule], artifacts: artifacts)) }
        }
        try json.close()
        try json.close()
        try json.close()
        try json.close()
        try out.write("\n")
    }

    /// Every input is an artifact (clean ones too); a finding elsewhere adds its file. One entry
    /// per distinct path, whatever the number of findings.
    struct Artifacts {
        var paths: [String] = []
        var index: [String: Int] = [:]
        var lengths: [String: Int] = [:]

        init(_ result: LintResult) {
            for file in result.files {
                add(file.stats.path)
                lengths[file.stats.path] = file.stats.bytes
            }
            for file in result.files {
                for f in file.findings {
                    if let d = f.declaration { add(d.path) }
                    add(f.path)
                    for r in f.related { add(r.path) }
                }
            }
        }

        private mutating func add(_ path: String) {
            guard index[path] == nil else { return }
            index[path] = paths.count
            paths.append(path)
        }

        func physicalLocation(_ path: String, _ line: Int) -> JSONValue {
            var pairs: [(String, JSONValue)] = [
                ("artifactLocation", .object([("uri", .string(SARIFReporter.uri(path))), ("index", .int(index[path]!))])),
            ]
            if line >= 1 { pairs.append(("region", .object([("startLine", .int(line))]))) }
            return .object(pairs)
        }
    }

    /// One finding as a SARIF result.
    static func result(_ f: Finding, ruleIndex: Int?, artifacts: Artifacts) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("ruleId", .string(f.rule))]
        if let i = ruleIndex { pairs.append(("ruleIndex", .int(i))) }
        pairs.append(("level", .string(level(f.severity))))
        pairs.append(("message", .object([("text", .string(messageText(f.message)))])))
        // With --source-root the controller's declaration is the primary location and the log
        // line a related one, so code scanning annotates the source.
        var related = f.related
        if let d = f.declaration {
            pairs.append(("locations", .array([.object([("physicalLocation", artifacts.physicalLocation(d.path, d.line))])])))
            // (--location source put it there already.)
            if f.logLine == nil { related.insert(Finding.Related(path: f.path, line: f.line, note: "log line of the finding"), at: 0) }
        } else {
            pairs.append(("locations", .array([.object([("physicalLocation", artifacts.physicalLocation(f.path, f.line))])])))
        }
        if !related.isEmpty {
            pairs.append(("relatedLocations", .array(related.enumerated().map { i, r in
                .object([
                    ("id", .int(i)),
                    ("physicalLocation", artifacts.physicalLocation(r.path, r.line)),
                    ("message", .object([("text", .string(messageText(r.note)))])),
                ])
            })))
        }
        pairs.append(("partialFingerprints", .object([(fingerprintKey, .string(f.fingerprint))])))
        var properties: [(String, JSONValue)] = [("controller", .string(f.controller.display))]
        if let t = f.time { properties.append(("time", .string(t.iso))) }
        if let t = f.test { properties.append(("test", .string(t))) }
        if let o = f.owner { properties.append(("owner", .string(o.display))) }
        pairs.append(("properties", .object(properties)))
        return .object(pairs)
    }

    /// `documentation`: docs/rules.md of this release (`VCLintVersion.rulesDocumentation`), whose
    /// section of the rule is its `helpUri`; without one (a build that knows no repository), none.
    static func descriptor(_ d: RuleDescription, documentation: String?) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("id", .string(d.identifier)),
            ("name", .string(d.name)),
            ("shortDescription", .object([("text", .string(d.summary))])),
            ("fullDescription", .object([("text", .string(d.rationale))])),
        ]
        if let documentation { pairs.append(("helpUri", .string("\(documentation)#\(d.identifier)"))) }
        pairs += [
            ("help", .object([
                ("text", .string("\(d.rationale)\n\nReported on: \(d.anchor).")),
                ("markdown", .string(helpMarkdown(d))),
            ])),
            ("defaultConfiguration", .object([("enabled", .bool(!d.isOptIn)), ("level", .string(level(d.severity)))])),
            ("properties", .object([("tags", .array([.string("lifecycle")]))])),
        ]
        return .object(pairs)
    }

    /// The rationale, the anchor and a failing log excerpt (as `vclint explain` shows them).
    static func helpMarkdown(_ d: RuleDescription) -> String {
        var out = "\(d.rationale)\n\nReported on: \(d.anchor)."
        if let example = d.triggeringExamples.first {
            out += "\n\nA \(d.aboutSources ? "source" : "log") that triggers it (`↓` marks the reported line):\n\n~~~~\n\(example)\n~~~~"
        }
        return out
    }

    /// error → error, warning → warning, info → note.
    public static func level(_ s: Severity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// SARIF message strings reserve `{` and `}` for placeholders: a literal brace is
    /// written twice.
    static func messageText(_ s: String) -> String {
        guard s.contains(where: { $0 == "{" || $0 == "}" }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            out.unicodeScalars.append(u)
            if u == "{" || u == "}" { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// A log path as a URI reference: relative paths stay relative (code scanning resolves them
    /// against the checkout), absolute ones become `file://` URIs; every byte outside the
    /// unreserved set and `/` is percent-encoded, so spaces, `%`, `#`, `?`, `:` and non-ASCII
    /// names cannot change the reference's meaning.
    public static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8.hyphen, UInt8.dot, UInt8.underscore, UInt8.tilde, UInt8.slash:
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
