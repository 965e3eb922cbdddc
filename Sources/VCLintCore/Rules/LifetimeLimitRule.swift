struct LifetimeLimitRule: Rule {
    typealias Fact = LifetimeExceeded
    static let factTag: UInt8 = 15

    init() {}
    static let description = RuleDescription(
        identifier: "lifetime_limit",
        name: "Lifetime limit",
        severity: .error,
        summary: "More instances of a class, of the classes a glob matches or of a group alive at once than lifetimes allows (on Android, also StrictMode's instance counts); checks only the limits lifetimes sets.",
        rationale: """
        Some objects must exist once at a time: one player, one detail screen, a handful of \
        coordinators. A second one alive means the first leaked or is still held, and both keep \
        working (two players playing, two screens listening for the same notifications). \
        LifetimeTracker checks a maxCount at run time; vclint counts the instances the capture shows \
        alive in each session, from their creation to their dealloc or deinit, against the limits \
        `lifetimes` sets in .vclint.yml, per class, per glob of class names or per named group. One \
        finding per episode: the count has to come back within the limit before the limit is \
        reported again. The count is what the log shows: a class that never logs its dealloc or \
        deinit keeps every instance counted, so log the deinit of the classes you limit.
        """,
        anchor: "the init (for a class that logs none, the first event) of the instance that took the count over the limit",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[AudioPlayer init]
            ↓2024-03-01 10:00:02.000 Shop[100:200] -[VideoPlayer init]
            2024-03-01 10:00:03.000 Shop[100:200] -[VideoPlayer dealloc]
            2024-03-01 10:00:04.000 Shop[100:200] -[AudioPlayer dealloc]
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[AudioPlayer init]
            2024-03-01 10:00:02.000 Shop[100:200] -[AudioPlayer dealloc]
            2024-03-01 10:00:03.000 Shop[100:200] -[VideoPlayer init]
            2024-03-01 10:00:04.000 Shop[100:200] -[VideoPlayer dealloc]
            """,
        ],
        configuredBy: "lifetimes",
        exampleConfiguration: "lifetimes: {groups: {Players: {max: 1, classes: [AudioPlayer, VideoPlayer]}}}"
    )

    /// How many live instances a message names; the related lines give a few more.
    static let namedInMessage = 3
    static let relatedLines = 4

    func verdict(for o: Observation, _ fact: LifetimeExceeded, options: TimelineOptions) -> RuleVerdict {
        if let strict = fact.strictMode {
            var message = "StrictMode counted \(fact.alive) instances of \(fact.limit) alive after a GC; its limit is \(fact.max)"
            guard let made = strict.recreated else {
                return RuleVerdict(message: message + ": expected the old instances to be collected", cause: "strictmode")
            }
            message += ", right after \(fact.limit) was recreated at line \(made.line): StrictMode may have counted the old instance before the GC collected it"
            return RuleVerdict(message: message, related: [(made.line, made.kind.rawValue)], cause: "strictmode", severityCap: .warning)
        }
        let what: String
        switch fact.scope {
        case .class: what = fact.limit
        case .glob: what = "the classes matching \(fact.limit)"
        case .group: what = "group \(fact.limit) (\(fact.classes.joined(separator: ", ")))"
        }
        var alive = fact.others.prefix(Self.namedInMessage).map { "\($0.controller.display) since line \($0.created.line)" }
        // The others alive: the count less this one; the timeline keeps the first few of them.
        let unnamed = fact.alive - 1 - alive.count
        if unnamed > 0 { alive.append("\(unnamed) more") }
        return RuleVerdict(
            message: "\(o.controller.display) is the \(Self.ordinal(fact.alive)) instance of \(what) alive at once; the limit is \(fact.max) (alive: \(alive.joined(separator: ", ")))",
            related: fact.others.prefix(Self.relatedLines).map { ($0.created.line, "\($0.controller.display) \($0.created.kind.rawValue)") },
            cause: "\(fact.scope):\(fact.limit)", owner: fact.owner)
    }

    /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, …
    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 10, n % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }
}

/// A new instance took the count of a `lifetimes` limit over its maximum (`alive` instances it counts
/// are alive at once, this one included); `others`: the first few of the others, with the event that
/// made each; `owner`: the new instance's, when it is an object that has one (docs/lifecycle.md#owners).
/// Emitted by `SessionTimeline+Lifetimes.swift` (`observeOver`, once the event that made the instance is applied) and, for
/// StrictMode's counts, `SessionTimeline+Evidence.swift` (`strictMode`).
struct LifetimeExceeded: Fact {
    struct Other: Sendable {
        var controller: ControllerRef
        var created: EventRef
    }
    var created: EventRef
    var scope: LifetimeLimits.Scope
    var limit: String
    var classes: [String]
    var max: Int
    var alive: Int
    var others: [Other]
    var owner: ControllerRef?
    /// StrictMode's count (docs/lifecycle.md#strictmode), not a `lifetimes` limit: `recreated`, the new instance's
    /// creation when the count is one over right after a recreate.
    var strictMode: StrictModeCount? = nil

    struct StrictModeCount: Sendable {
        var recreated: EventRef?
    }

    func write(to w: inout ObservationWriter) {
        w.ref(created)
        w.byte(scope.rawValue)
        w.name(limit)
        w.names(classes)
        w.int(max)
        w.int(alive)
        w.uint(UInt64(others.count))
        for other in others {
            w.controller(other.controller)
            w.ref(other.created)
        }
        if let owner { w.byte(1); w.controller(owner) } else { w.byte(0) }
        if let strictMode {
            w.byte(1)
            w.optionalRef(strictMode.recreated)
        } else {
            w.byte(0)
        }
    }
}

extension LifetimeExceeded {
    init(reading r: inout ObservationReader) {
        created = r.ref()
        scope = LifetimeLimits.Scope(rawValue: r.byte()) ?? .class
        limit = r.name()
        classes = r.names()
        max = r.int()
        alive = r.int()
        others = (0..<Int(r.uint())).map { _ in Other(controller: r.controller(), created: r.ref()) }
        owner = r.byte() == 0 ? nil : r.controller()
        strictMode = r.byte() == 0 ? nil : StrictModeCount(recreated: r.optionalRef())
    }
}
