import Foundation

/// What decides a run's findings beyond the captures themselves: which rules ran at which severity,
/// the timeline's tunables, the class patterns, the custom dialects, `--strict`, the baseline. The
/// JSON report records it, so that `vclint merge` can refuse to add up shards linted differently:
/// their findings would not mean the same thing.
public struct RunConfiguration: Sendable, Equatable {
    public struct RuleState: Sendable, Equatable {
        public var enabled: Bool
        public var severity: Severity
    }

    public struct DialectText: Sendable, Equatable {
        public var pattern: String
        /// Event text → event kind, sorted by text.
        public var events: [(String, String)]
        public static func == (a: DialectText, b: DialectText) -> Bool {
            a.pattern == b.pattern && a.events.map(\.0) == b.events.map(\.0) && a.events.map(\.1) == b.events.map(\.1)
        }
    }

    /// Every built-in rule, in the registry's order.
    public var rules: [(id: String, state: RuleState)]
    public var leakGraceSeconds: Double
    public var slowTransitionMilliseconds: Double
    public var ignoreClasses: [String]
    public var persistentClasses: [String]
    public var dialects: [DialectText]
    /// Warnings were reported as errors.
    public var strict: Bool
    /// The baseline whose findings were left out: how many fingerprints, and a digest of them.
    public var baseline: (fingerprints: Int, digest: String)?

    public static func == (a: RunConfiguration, b: RunConfiguration) -> Bool { a.difference(from: b) == nil }

    public init(options: LintOptions, strict: Bool = false, baseline: Baseline? = nil) {
        let settings = options.rules
        rules = RuleRegistry.all.map { rule in
            let d = type(of: rule).description
            return (d.identifier, RuleState(enabled: settings.enabled.contains(d.identifier), severity: settings.severity(of: d)))
        }
        leakGraceSeconds = options.timeline.leakGraceSeconds
        slowTransitionMilliseconds = options.timeline.slowTransitionMilliseconds
        ignoreClasses = options.timeline.ignoreClasses.map(\.source)
        persistentClasses = options.timeline.persistentClasses.map(\.source)
        dialects = options.customDialects.map { d in
            DialectText(pattern: d.pattern.source, events: d.events.map { ($0.key, $0.value.rawValue) }.sorted { $0.0 < $1.0 })
        }
        self.strict = strict
        self.baseline = baseline.map { b in
            let prints = Set(b.entries.map(\.fingerprint)).sorted()
            return (prints.count, Self.digest(prints.joined(separator: "\n")))
        }
    }

    /// The rule settings the reporters describe (SARIF's rule overrides, JUnit's test cases).
    public var ruleSettings: RuleSettings {
        var severities: [String: Severity] = [:]
        for r in rules where RuleRegistry.rule(r.id).map({ type(of: $0).description.severity }) != r.state.severity {
            severities[r.id] = r.state.severity
        }
        return RuleSettings(enabled: Set(rules.filter(\.state.enabled).map(\.id)), severities: severities)
    }

    public var json: JSONValue {
        .object([
            ("rules", .object(rules.map { ($0.id, .object([("enabled", .bool($0.state.enabled)), ("severity", .string($0.state.severity.rawValue))])) })),
            ("leak_grace_seconds", .double(leakGraceSeconds)),
            ("slow_transition_ms", .double(slowTransitionMilliseconds)),
            ("ignore_classes", .array(ignoreClasses.map { .string($0) })),
            ("persistent_classes", .array(persistentClasses.map { .string($0) })),
            ("dialects", .array(dialects.map { d in
                .object([("pattern", .string(d.pattern)), ("events", .object(d.events.map { ($0.0, .string($0.1)) }))])
            })),
            ("strict", .bool(strict)),
            ("baseline", baseline.map { .object([("fingerprints", .int($0.fingerprints)), ("digest", .string($0.digest))]) } ?? .null),
        ])
    }

    /// Reads the `configuration` object of a JSON report (as JSONSerialization gives it); the
    /// error says which key is wrong.
    public init(json value: Any) throws(ReportReadError.Reason) {
        guard let o = value as? [String: Any] else { throw .malformed("\"configuration\" is not an object") }
        guard let ruleObject = o["rules"] as? [String: Any] else { throw .malformed("\"configuration.rules\" is missing") }
        var rules: [(id: String, state: RuleState)] = []
        for id in RuleRegistry.identifiers {
            guard let r = ruleObject[id] as? [String: Any], let enabled = r["enabled"] as? Bool,
                  let text = r["severity"] as? String, let severity = Severity(rawValue: text) else {
                throw .otherRules("it does not describe rule \(id), which this vclint has")
            }
            rules.append((id, RuleState(enabled: enabled, severity: severity)))
        }
        if let extra = ruleObject.keys.sorted().first(where: { RuleRegistry.rule($0) == nil }) {
            throw .otherRules("it has rule \(extra), which this vclint does not have")
        }
        func number(_ key: String) throws(ReportReadError.Reason) -> Double {
            if let i = o[key] as? Int { return Double(i) }
            guard let d = o[key] as? Double else { throw .malformed("\"configuration.\(key)\" is not a number") }
            return d
        }
        func strings(_ key: String) throws(ReportReadError.Reason) -> [String] {
            guard let list = o[key] as? [Any], list.allSatisfy({ $0 is String }) else { throw .malformed("\"configuration.\(key)\" is not a list of strings") }
            return list.map { $0 as! String }
        }
        self.rules = rules
        leakGraceSeconds = try number("leak_grace_seconds")
        slowTransitionMilliseconds = try number("slow_transition_ms")
        ignoreClasses = try strings("ignore_classes")
        persistentClasses = try strings("persistent_classes")
        guard let dialectList = o["dialects"] as? [Any] else { throw .malformed("\"configuration.dialects\" is not a list") }
        var dialects: [DialectText] = []
        for item in dialectList {
            guard let d = item as? [String: Any], let pattern = d["pattern"] as? String, let events = d["events"] as? [String: Any],
                  events.values.allSatisfy({ $0 is String }) else {
                throw .malformed("\"configuration.dialects\" holds something other than {pattern, events}")
            }
            dialects.append(DialectText(pattern: pattern, events: events.map { ($0.key, $0.value as! String) }.sorted { $0.0 < $1.0 }))
        }
        self.dialects = dialects
        guard let strict = o["strict"] as? Bool else { throw .malformed("\"configuration.strict\" is not true or false") }
        self.strict = strict
        if let b = o["baseline"] as? [String: Any] {
            guard let n = b["fingerprints"] as? Int, let digest = b["digest"] as? String else { throw .malformed("\"configuration.baseline\" is malformed") }
            baseline = (n, digest)
        } else if o["baseline"] == nil || o["baseline"] is NSNull {
            baseline = nil
        } else {
            throw .malformed("\"configuration.baseline\" is malformed")
        }
    }

    /// The first way `self` differs from `other`, in words (`leak_grace_seconds is 5 here, 3 there`),
    /// or nil when they are the same.
    public func difference(from other: RunConfiguration, there: String = "there") -> String? {
        func show(_ d: Double) -> String { JSONValue.double(d).serialized() }
        for (a, b) in zip(rules, other.rules) {
            if a.state.enabled != b.state.enabled {
                return "rule \(a.id) is \(a.state.enabled ? "enabled" : "disabled") here, \(b.state.enabled ? "enabled" : "disabled") \(there)"
            }
            if a.state.severity != b.state.severity {
                return "rule \(a.id) is \(a.state.severity.rawValue) here, \(b.state.severity.rawValue) \(there)"
            }
        }
        if leakGraceSeconds != other.leakGraceSeconds {
            return "leak_grace_seconds is \(show(leakGraceSeconds)) here, \(show(other.leakGraceSeconds)) \(there)"
        }
        if slowTransitionMilliseconds != other.slowTransitionMilliseconds {
            return "slow_transition_ms is \(show(slowTransitionMilliseconds)) here, \(show(other.slowTransitionMilliseconds)) \(there)"
        }
        if ignoreClasses != other.ignoreClasses { return "ignore_classes differ from those \(there)" }
        if persistentClasses != other.persistentClasses { return "persistent_classes differ from those \(there)" }
        if dialects != other.dialects { return "the custom dialects differ from those \(there)" }
        if strict != other.strict { return "--strict was \(strict ? "given" : "not given") here, \(other.strict ? "given" : "not given") \(there)" }
        switch (baseline, other.baseline) {
        case (nil, nil): break
        case (nil, _?): return "no baseline was applied here, one was \(there)"
        case (_?, nil): return "a baseline was applied here, none \(there)"
        case let (a?, b?): if a.digest != b.digest { return "another baseline was applied than \(there)" }
        }
        return nil
    }

    /// FNV-1a, 64 bits, in hex: enough to tell two baselines apart.
    static func digest(_ s: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
