import Foundation

/// How much a finding matters; `error` fails a CI run, `warning` only with `--strict`.
public enum Severity: String, Sendable, Comparable, CaseIterable {
    case info, warning, error

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
}

/// A rule's self-documentation, in the manner of SwiftLint's `RuleDescription`: `vclint rules`,
/// `vclint explain`, the rule reference docs/rules.md and the rule tests all read it.
public struct RuleDescription: Sendable {
    public let identifier: String
    public let name: String
    public let severity: Severity
    /// Off unless enabled (`opt_in_rules`).
    public let isOptIn: Bool
    public let summary: String
    public let rationale: String
    /// The line a finding points at.
    public let anchor: String
    /// Log excerpts that must produce exactly one finding of this rule (and nothing else).
    public let triggeringExamples: [String]
    /// Log excerpts from legal flows that must produce no finding of this rule.
    public let nonTriggeringExamples: [String]
    /// The setting that gives the rule something to check (`lifetimes`): on by default, it reports
    /// nothing until the configuration sets it. Nil: the rule checks every capture.
    public let configuredBy: String?
    /// The `.vclint.yml` its examples run with (YAML), for a rule that checks only what is configured.
    public let exampleConfiguration: String?
    /// Whether its findings are about the app's sources (`--source-root`), not a capture: its examples are
    /// then Swift sources, linted with `SourceSuppressions.exampleCapture`.
    public let aboutSources: Bool

    public init(identifier: String, name: String, severity: Severity, isOptIn: Bool = false, summary: String,
                rationale: String, anchor: String, triggeringExamples: [String], nonTriggeringExamples: [String],
                configuredBy: String? = nil, exampleConfiguration: String? = nil, aboutSources: Bool = false) {
        self.identifier = identifier
        self.name = name
        self.severity = severity
        self.isOptIn = isOptIn
        self.summary = summary
        self.rationale = rationale
        self.anchor = anchor
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.configuredBy = configuredBy
        self.exampleConfiguration = exampleConfiguration
        self.aboutSources = aboutSources
    }
}

/// What a rule makes of an observation.
public struct RuleVerdict: Sendable {
    var message: String
    var related: [(line: Int, note: String)]
    /// The kind of cause, for the fingerprint (never a line, time, path or address).
    var cause: String
    /// Overrides the configured severity downwards (an unconfirmed leak is a warning).
    var severityCap: Severity?
    /// The owner of the object the finding is about (docs/lifecycle.md#objects).
    var owner: ControllerRef?
    /// The test the evidence names itself (LeakCanary's analysis: docs/lifecycle.md#android-tests); nil: the
    /// test running at the finding's line.
    var test: String?

    public init(message: String, related: [(line: Int, note: String)] = [], cause: String, severityCap: Severity? = nil, owner: ControllerRef? = nil,
                test: String? = nil) {
        self.message = message
        self.related = related
        self.cause = cause
        self.severityCap = severityCap
        self.owner = owner
        self.test = test
    }
}

/// A rule words one kind of observation (its `Fact`, declared in the rule's file and built where
/// the timeline observes it) as a finding: message, related lines, fingerprint cause, and at most a
/// lower severity than configured. The timeline decides; the rule words. Rules are the library's
/// own mechanism: what the outside sees of them is their `RuleDescription`.
protocol Rule: Sendable {
    /// What this rule words: one rule per kind of fact, which is the map from what was observed to
    /// the rule that reports it. (A rule's `Fact` is one type of `Fact`, the protocol, which inside
    /// a rule is spelled `VCLintCore.Fact`.)
    associatedtype Fact: VCLintCore.Fact
    /// Its facts' byte in `ObservationList`'s encoding (in memory only, never written to a file):
    /// unique among the rules, below `ObservationList.withdrawnTag`, and independent of the
    /// registry's order, so reordering how findings are listed never changes the encoding. A new
    /// rule takes the next unused number (`RuleRegistry.nextFactTag`).
    static var factTag: UInt8 { get }
    static var description: RuleDescription { get }
    func verdict(for observation: Observation, _ fact: Fact, options: TimelineOptions) -> RuleVerdict

    // Implemented once below. They are requirements so that each rule gets a copy specialized for
    // its fact: called through `any Rule`, an extension method runs generic code (a dynamic cast and
    // metadata lookups for every observation of a 661k-finding run).
    /// The observation at `index` of `list`, which is of this rule's kind, and its verdict.
    func word(_ list: ObservationList, at index: Int, options: TimelineOptions) -> (Observation, RuleVerdict)
    /// Reads a fact of this rule's kind.
    static func readFact(_ r: inout ObservationReader) -> any VCLintCore.Fact
    static var factType: any VCLintCore.Fact.Type { get }
}

extension Rule {
    var description: RuleDescription { Self.description }

    func word(_ list: ObservationList, at index: Int, options: TimelineOptions) -> (Observation, RuleVerdict) {
        let (o, fact) = list.observation(index, as: Fact.self)
        return (o, verdict(for: o, fact, options: options))
    }

    static func readFact(_ r: inout ObservationReader) -> any VCLintCore.Fact { Fact(reading: &r) }
    static var factType: any VCLintCore.Fact.Type { Fact.self }

    /// The verdict on an observation of this rule's kind, nil for any other (tests).
    func verdict(for o: Observation, options: TimelineOptions) -> RuleVerdict? {
        (o.fact as? Fact).map { verdict(for: o, $0, options: options) }
    }
}

/// Every built-in rule, in the order findings on one line are reported (and `vclint rules` lists
/// them). Adding a rule is its file (with its `factTag`), its emit site and one line here.
public enum RuleRegistry {
    static let all: [any Rule] = [
        MissingDidAppearRule(),
        MissingDidDisappearRule(),
        UnbalancedAppearanceRule(),
        AppearanceBeforeLoadRule(),
        DuplicateViewDidLoadRule(),
        EventAfterDeallocRule(),
        DeallocWhileVisibleRule(),
        LeakedControllerRule(),
        LeakedObjectRule(),
        LeakedActivityRule(),
        LeakedFragmentRule(),
        LeakedFragmentViewRule(),
        LibraryLeakRule(),
        RetainedUnconfirmedRule(),
        LateDeallocRule(),
        CompletionBeforeDisappearanceRule(),
        CompletionBeforeAppearanceRule(),
        ChildContainmentRule(),
        SlowTransitionRule(),
        MemoryWarningRule(),
        LifetimeLimitRule(),
        MissingOnPauseRule(),
        MissingOnStopRule(),
        CallbackAfterDestroyRule(),
        FragmentViewAfterDestroyViewRule(),
        UIKitUnbalancedTransitionRule(),
        UIKitPresentationConflictRule(),
        NoLifecycleEventsRule(),
        RedactedLabelsRule(),
        InvalidSuppressionRule(),
        UnusedSuppressionRule(),
    ]

    /// Every rule's description, in the registry's order.
    public static let descriptions: [RuleDescription] = all.map { type(of: $0).description }

    public static let identifiers: [String] = descriptions.map(\.identifier)

    /// The description of the rule `id`, nil when there is none.
    public static func description(of id: String) -> RuleDescription? {
        descriptions.first { $0.identifier == id }
    }

    /// Why `id` is no rule, in the words every command uses: `unknown rule 'ID'`, and the rule it is
    /// likely a typo of (`; did you mean 'leaked_controller'?`).
    public static func unknown(_ id: String) -> String {
        "unknown rule '\(id)'" + EditDistance.didYouMean(id, among: identifiers)
    }

    static func rule(_ id: String) -> (any Rule)? {
        all.first { type(of: $0).description.identifier == id }
    }

    /// Each rule's fact type → its fact tag. Two rules cannot word one kind of fact, nor share a tag.
    private static let tags: [ObjectIdentifier: Int] = {
        var tags: [ObjectIdentifier: Int] = [:]
        for rule in all {
            let key = ObjectIdentifier(type(of: rule).factType)
            precondition(tags[key] == nil, "two rules word \(type(of: rule).factType)")
            tags[key] = Int(type(of: rule).factTag)
        }
        return tags
    }()

    /// Fact tag → the rule's place in `all` (its order), -1 for an unused tag.
    private static let places: [Int] = {
        var places = [Int](repeating: -1, count: Int(ObservationList.withdrawnTag))
        for (i, rule) in all.enumerated() {
            let tag = Int(type(of: rule).factTag)
            precondition(tag < places.count, "\(type(of: rule)).factTag: a fact's tag is one byte, and 0xFF marks a withdrawn one")
            precondition(places[tag] == -1, "\(type(of: rule)) and \(type(of: all[places[tag]])) share the fact tag \(tag)")
            places[tag] = i
        }
        return places
    }()

    /// The tag of the facts of type `type`.
    static func tag(of type: any Fact.Type) -> Int {
        guard let tag = tags[ObjectIdentifier(type)] else {
            preconditionFailure("no rule words \(type): add its rule to RuleRegistry.all")
        }
        return tag
    }

    static func tag(of fact: any Fact) -> Int { tag(of: type(of: fact)) }

    /// The place in `all` of the rule whose facts carry `tag`.
    @inline(__always) static func place(ofTag tag: Int) -> Int { places[tag] }

    /// The rule whose facts carry `tag`.
    @inline(__always) static func rule(tag: Int) -> any Rule { all[places[tag]] }

    /// The tag a new rule takes.
    static var nextFactTag: Int { (places.lastIndex { $0 != -1 } ?? -1) + 1 }

    /// The tag of leaks: persistent classes never leak (`TimelineBuilder.decision`).
    static let leakTag = tag(of: ControllerLeak.self)
    static let objectLeakTag = tag(of: ObjectLeakFact.self)

    static func readFact(tag: Int, _ r: inout ObservationReader) -> any Fact {
        type(of: rule(tag: tag)).readFact(&r)
    }
}

/// Shared wording.
enum Wording {
    static func seconds(_ s: Double) -> String {
        let r = (s * 10).rounded() / 10
        return DecimalText.oneDecimal(r) + " s"
    }

    static func reason(_ r: IncompleteReason) -> String {
        switch r {
        case .deallocated(let d): return "it was deallocated at line \(d.line) in between"
        case .sessionEnded: return "the session ended without it"
        case .superseded(let e): return "its transition had completed when \(e.kind.rawValue) arrived at line \(e.line)"
        case .contradicted(let e): return "\(e.kind.rawValue) arrived at line \(e.line) instead"
        }
    }

    static func reasonRelated(_ r: IncompleteReason) -> [(line: Int, note: String)] {
        switch r {
        case .deallocated(let d): return [(d.line, "dealloc")]
        case .superseded(let e), .contradicted(let e): return [(e.line, e.kind.rawValue)]
        case .sessionEnded: return []
        }
    }

    static func reasonCause(_ r: IncompleteReason) -> String {
        switch r {
        case .deallocated: return "deallocated"
        case .sessionEnded: return "session-ended"
        case .superseded: return "superseded"
        case .contradicted: return "contradicted"
        }
    }
}
