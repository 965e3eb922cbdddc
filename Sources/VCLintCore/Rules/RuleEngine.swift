/// A reported violation (output.md, `violations[]`).
public struct Finding: Sendable {
    public struct Related: Sendable, Equatable {
        public var path: String
        public var line: Int
        public var note: String
    }

    public var rule: String
    public var severity: Severity
    public var message: String
    public var path: String
    public var line: Int
    public var time: LogTime?
    public var controller: ControllerRef
    public var related: [Related]
    public var fingerprint: String
    /// The controller's declaration in the app's sources (`--source-root`), when found.
    public var declaration: Declaration? = nil
}

/// Which rules run, at which severity (issue: configuration extends this).
public struct RuleSettings: Sendable {
    public var enabled: Set<String>
    public var severities: [String: Severity]

    public init(enabled: Set<String>? = nil, severities: [String: Severity] = [:]) {
        self.enabled = enabled ?? Set(RuleRegistry.all.map { type(of: $0).description }.filter { !$0.isOptIn }.map(\.identifier))
        self.severities = severities
    }

    public static let `default` = RuleSettings()

    /// Every rule, opt-in ones included.
    public static let all = RuleSettings(enabled: Set(RuleRegistry.identifiers))

    public func severity(of d: RuleDescription) -> Severity { severities[d.identifier] ?? d.severity }
}

/// timeline → findings: each enabled rule words the observations it is about.
public enum RuleEngine {
    public static func findings(_ observations: [Observation], path: String, settings: RuleSettings, options: TimelineOptions) -> [Finding] {
        let rules = RuleRegistry.all.enumerated().filter { settings.enabled.contains(type(of: $0.element).description.identifier) }
        var out: [(order: Int, finding: Finding)] = []
        for o in observations {
            for (order, rule) in rules {
                guard let v = rule.verdict(for: o, options: options) else { continue }
                let d = type(of: rule).description
                var severity = settings.severity(of: d)
                if let cap = v.severityCap, cap < severity { severity = cap }
                let finding = Finding(
                    rule: d.identifier, severity: severity, message: v.message, path: path, line: o.line, time: o.time,
                    controller: o.controller,
                    related: v.related.filter { $0.line != o.line }.map { Finding.Related(path: path, line: $0.line, note: $0.note) },
                    fingerprint: Fingerprint.make(rule: d.identifier, className: o.controller.className, cause: v.cause))
                out.append((order, finding))
                break
            }
        }
        out.sort { a, b in
            if a.finding.line != b.finding.line { return a.finding.line < b.finding.line }
            if a.order != b.order { return a.order < b.order }
            return a.finding.message < b.finding.message
        }
        return out.map(\.finding)
    }
}

/// Stable across runs, machines and captures: rule, class and kind of cause only (output.md).
enum Fingerprint {
    static func make(rule: String, className: String, cause: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in "\(rule)\u{1F}\(className)\u{1F}\(cause)".utf8 {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
