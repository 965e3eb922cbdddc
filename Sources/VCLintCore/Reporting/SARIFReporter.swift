/// SARIF 2.1.0 (OASIS), what GitHub code scanning and other result viewers import.
///
/// One run; the driver lists every built-in rule (opt-in ones disabled by default), so a viewer
/// can explain any rule; the run's own rule settings, where they differ from the defaults, are
/// recorded as the invocation's configuration overrides. Each finding is a result on its log
/// line, its related lines as related locations, and its fingerprint as a partial fingerprint so
/// the same bug in tomorrow's capture is the same alert.
public struct SARIFReporter: Reporter {
    public static let identifier = "sarif"
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The key of `partialFingerprints`; bump the version if the fingerprint's recipe changes.
    public static let fingerprintKey = "vclint/v1"

    public var rules: RuleSettings

    public init(rules: RuleSettings = .default) {
        self.rules = rules
    }

    public func report(_ result: LintResult) -> String {
        document(result).serialized() + "\n"
    }

    public func document(_ result: LintResult) -> JSONValue {
        let descriptions = RuleRegistry.all.map { type(of: $0).description }
        let ruleIndex = Dictionary(descriptions.enumerated().map { ($0.element.identifier, $0.offset) }, uniquingKeysWith: { a, _ in a })

        // Every input is an artifact (clean ones too); a finding elsewhere adds its file.
        var artifactPaths: [String] = []
        var artifactIndex: [String: Int] = [:]
        var lengths: [String: Int] = [:]
        func addArtifact(_ path: String) {
            guard artifactIndex[path] == nil else { return }
            artifactIndex[path] = artifactPaths.count
            artifactPaths.append(path)
        }
        for file in result.files {
            addArtifact(file.stats.path)
            lengths[file.stats.path] = file.stats.bytes
        }
        for f in result.findings {
            if let d = f.declaration { addArtifact(d.path) }
            addArtifact(f.path)
            for r in f.related { addArtifact(r.path) }
        }

        func physicalLocation(_ path: String, _ line: Int) -> JSONValue {
            var pairs: [(String, JSONValue)] = [
                ("artifactLocation", .object([("uri", .string(Self.uri(path))), ("index", .int(artifactIndex[path]!))])),
            ]
            if line >= 1 { pairs.append(("region", .object([("startLine", .int(line))]))) }
            return .object(pairs)
        }

        let results: [JSONValue] = result.findings.map { f in
            var pairs: [(String, JSONValue)] = [("ruleId", .string(f.rule))]
            if let i = ruleIndex[f.rule] { pairs.append(("ruleIndex", .int(i))) }
            pairs.append(("level", .string(Self.level(f.severity))))
            pairs.append(("message", .object([("text", .string(Self.messageText(f.message)))])))
            // With --source-root the controller's declaration is the primary location and the log
            // line a related one, so code scanning annotates the source.
            var related = f.related
            if let d = f.declaration {
                pairs.append(("locations", .array([.object([("physicalLocation", physicalLocation(d.path, d.line))])])))
                related.insert(Finding.Related(path: f.path, line: f.line, note: "log line of the finding"), at: 0)
            } else {
                pairs.append(("locations", .array([.object([("physicalLocation", physicalLocation(f.path, f.line))])])))
            }
            if !related.isEmpty {
                pairs.append(("relatedLocations", .array(related.enumerated().map { i, r in
                    .object([
                        ("id", .int(i)),
                        ("physicalLocation", physicalLocation(r.path, r.line)),
                        ("message", .object([("text", .string(Self.messageText(r.note)))])),
                    ])
                })))
            }
            pairs.append(("partialFingerprints", .object([(Self.fingerprintKey, .string(f.fingerprint))])))
            var properties: [(String, JSONValue)] = [("controller", .string(f.controller.display))]
            if let t = f.time { properties.append(("time", .string(t.iso))) }
            pairs.append(("properties", .object(properties)))
            return .object(pairs)
        }

        let driver: JSONValue = .object([
            ("name", .string(VCLintVersion.name)),
            ("version", .string(VCLintVersion.version)),
            ("semanticVersion", .string(VCLintVersion.version)),
            ("rules", .array(descriptions.map(Self.descriptor))),
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

        let artifacts: [JSONValue] = artifactPaths.map { path in
            var pairs: [(String, JSONValue)] = [("location", .object([("uri", .string(Self.uri(path)))]))]
            if let n = lengths[path] { pairs.append(("length", .int(n))) }
            return .object(pairs)
        }

        return .object([
            ("$schema", .string(Self.schemaURI)),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", driver)])),
                ("invocations", .array([.object(invocation)])),
                ("artifacts", .array(artifacts)),
                ("results", .array(results)),
            ])])),
        ])
    }

    static func descriptor(_ d: RuleDescription) -> JSONValue {
        .object([
            ("id", .string(d.identifier)),
            ("name", .string(d.name)),
            ("shortDescription", .object([("text", .string(d.summary))])),
            ("fullDescription", .object([("text", .string(d.rationale))])),
            ("help", .object([
                ("text", .string("\(d.rationale)\n\nReported on: \(d.anchor).")),
                ("markdown", .string(helpMarkdown(d))),
            ])),
            ("defaultConfiguration", .object([("enabled", .bool(!d.isOptIn)), ("level", .string(level(d.severity)))])),
            ("properties", .object([("tags", .array([.string("lifecycle")]))])),
        ])
    }

    /// The rationale, the anchor and a failing log excerpt (as `vclint explain` shows them).
    static func helpMarkdown(_ d: RuleDescription) -> String {
        var out = "\(d.rationale)\n\nReported on: \(d.anchor)."
        if let example = d.triggeringExamples.first {
            out += "\n\nA log that triggers it (`↓` marks the reported line):\n\n~~~~\n\(example)\n~~~~"
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

    /// SARIF message strings reserve `{` and `}` for placeholders (§3.11.5): a literal brace is
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
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
