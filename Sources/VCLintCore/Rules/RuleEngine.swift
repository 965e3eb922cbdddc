/// A reported violation: one element of the JSON report's `violations` (docs/output.md#violations).
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
    /// The test that was running at the finding's line (`LoginTests/testLogout`), when the capture
    /// shows a test runner's lines (docs/lifecycle.md#test-boundaries).
    public var test: String? = nil
    /// For a finding about an object (docs/lifecycle.md#objects): the controller or SwiftUI view that
    /// owns it.
    public var owner: ControllerRef? = nil
    /// The kind of the transition the finding is about (docs/lifecycle.md#naming-transitions), as the
    /// timeline named it; nil for a finding about no transition.
    public var transition: TransitionKind? = nil
    /// With `--location source`, for a finding located at its declaration: its log line, which is then
    /// also its first related location.
    public var logLine: Declaration? = nil

    /// The finding located at its controller's declaration (`--location source`), the log line
    /// becoming its first related location; itself when it has no declaration or is located there already.
    public func locatedAtDeclaration() -> Finding {
        guard let d = declaration, logLine == nil else { return self }
        var f = self
        f.logLine = Declaration(path: path, line: line)
        f.related.insert(Related(path: path, line: line, note: "log line of the finding"), at: 0)
        f.path = d.path
        f.line = d.line
        return f
    }
}

/// Where reports locate a finding (`--location`).
public enum FindingLocation: String, Sendable, CaseIterable {
    /// At its log line, the declaration (if found) a note.
    case log
    /// At its controller's class declaration under `--source-root`, when found.
    case source
}

/// Which rules run, at which severity (issue: configuration extends this).
public struct RuleSettings: Sendable {
    public var enabled: Set<String>
    public var severities: [String: Severity]

    public init(enabled: Set<String>? = nil, severities: [String: Severity] = [:]) {
        self.enabled = enabled ?? Set(RuleRegistry.descriptions.filter { !$0.isOptIn }.map(\.identifier))
        self.severities = severities
    }

    public static let `default` = RuleSettings()

    /// Every rule, opt-in ones included.
    public static let all = RuleSettings(enabled: Set(RuleRegistry.identifiers))

    public func severity(of d: RuleDescription) -> Severity { severities[d.identifier] ?? d.severity }
}

/// timeline → findings: each enabled rule words the observations it is about.
public enum RuleEngine {
    public static func findings(_ observations: [Observation], path: String, settings: RuleSettings, options: TimelineOptions) -> FindingList {
        findings(ObservationList(observations), path: path, settings: settings, options: options)
    }

    /// The findings in report order: by line, then by the rules' order (`RuleRegistry.all`), then
    /// by message. Each observation goes to the rule that words its kind of fact (found by its
    /// tag); only the observations' indices are sorted, and messages are worded for ties only.
    public static func findings(_ observations: ObservationList, path: String, settings: RuleSettings, options: TimelineOptions) -> FindingList {
        let rules = RuleRegistry.all
        let enabled = RuleRegistry.descriptions.map { settings.enabled.contains($0.identifier) }
        var entries: [FindingList.Entry] = []
        for index in observations.indices {
            let place = RuleRegistry.place(ofTag: observations.tag(at: index))
            guard enabled[place] else { continue }
            let (o, v) = rules[place].word(observations, at: index, options: options)
            var severity = settings.severity(of: RuleRegistry.descriptions[place])
            if let cap = v.severityCap, cap < severity { severity = cap }
            entries.append(FindingList.Entry(line: o.line, observation: UInt32(index), rule: UInt8(place), severity: severity))
        }
        entries.sort { a, b in a.line != b.line ? a.line < b.line : a.rule < b.rule }
        // Runs of one line and one rule (a pop to root that leaks many controllers): by message.
        var i = 0
        while i < entries.count {
            var j = i + 1
            while j < entries.count, entries[j].line == entries[i].line, entries[j].rule == entries[i].rule { j += 1 }
            if j - i > 1 {
                let run = entries[i..<j].map { e -> (String, FindingList.Entry) in
                    (RuleRegistry.all[Int(e.rule)].word(observations, at: Int(e.observation), options: options).1.message, e)
                }
                .sorted { $0.0 < $1.0 }
                entries.replaceSubrange(i..<j, with: run.map(\.1))
            }
            i = j
        }
        return FindingList(observations: observations, entries: entries, path: path, options: options)
    }

    /// The finding a rule's verdict on an observation makes.
    static func finding(_ o: Observation, rule d: RuleDescription, verdict v: RuleVerdict, severity: Severity, path: String) -> Finding {
        Finding(rule: d.identifier, severity: severity, message: v.message, path: path, line: o.line, time: o.time,
                controller: o.controller,
                related: v.related.filter { $0.line != o.line }.map { Finding.Related(path: path, line: $0.line, note: $0.note) },
                fingerprint: Fingerprint.make(rule: d.identifier, className: o.controller.className, cause: v.cause),
                test: v.test, owner: v.owner, transition: o.transition)
    }
}

/// Stable across runs, machines and captures: rule, class and kind of cause only (docs/output.md#fingerprints).
enum Fingerprint {
    static func make(rule: String, className: String, cause: String) -> String {
        hash("\(rule)\u{1F}\(className)\u{1F}\(cause)")
    }

    /// 64-bit FNV-1a of the text's UTF-8, as 16 hex digits.
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
