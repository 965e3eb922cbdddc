/// Lifetime limits (docs/lifecycle.md#lifetime-limits; the rule docs/rules.md#lifetime_limit): how many
/// instances of a class, of the classes a glob matches, or of a named group may be alive at once in a
/// session, as LifetimeTracker's `maxCount` says it, but read from the log. The timeline counts per
/// session and per limit; the `init` (for a class that logs none, the first event) that takes a count
/// over its limit is observed once per episode: no other until the count is back within the limit.
///
/// Cost: without `lifetimes`, one check of a stored flag per new instance and per instance that leaves
/// the live ones, nothing per event. With it, per limit a count and the first few live instances (for
/// the message), and per class the limits that apply to it, found once per input.

/// The `lifetimes` setting, compiled (`TimelineOptions.lifetimes`).
public struct LifetimeLimits: Sendable, Equatable {
    /// What a limit counts.
    public enum Scope: UInt8, Sendable {
        /// One class, by its name.
        case `class`
        /// The classes whose names a glob matches (`*Coordinator`).
        case glob
        /// A named group of classes (names or globs).
        case group
    }

    public struct Limit: Sendable, Equatable {
        public var scope: Scope
        /// The class name, the glob, or the group's name.
        public var name: String
        /// How many instances may be alive at once (at least 1).
        public var max: Int
        /// A group's classes, names or globs; empty for the other scopes.
        public var classes: [String]

        public init(scope: Scope, name: String, max: Int, classes: [String] = []) {
            self.scope = scope
            self.name = name
            self.max = max
            self.classes = classes
        }

        /// Whether it counts the instances of `className` (as the log names it, without its module).
        func covers(_ className: String) -> Bool {
            switch scope {
            case .class: return name == className
            case .glob: return PathGlob.component(name, className)
            case .group: return classes.contains { PathGlob.component($0, className) }
            }
        }
    }

    /// Classes and globs in the order of their keys, then the groups in the order of their names.
    public private(set) var limits: [Limit]
    /// No limit: the timeline counts nothing (the check it pays per new instance).
    public private(set) var isEmpty: Bool

    public init(_ limits: [Limit] = []) {
        self.limits = limits
        isEmpty = limits.isEmpty
    }

    /// A key of `lifetimes` is a glob when it holds one of fnmatch's special characters.
    static func isGlob(_ text: String) -> Bool {
        text.contains { $0 == "*" || $0 == "?" || $0 == "[" || $0 == "\\" }
    }

    /// The indices of the limits that count `className`'s instances.
    func applying(to className: String) -> [Int] {
        limits.indices.filter { limits[$0].covers(className) }
    }
}

/// One session's counts, one `Tally` per limit (`SessionTimeline.lifetimeCounts`).
struct LifetimeCounts {
    struct Tally {
        /// How many instances it counts are alive.
        var alive = 0
        /// The count went over the limit and has not come back within it since (the episode was reported).
        var over = false
        /// The first live instances it counts (an `Instance`, or Android's `AndroidInstance`), with the event that
        /// made each: the ones a finding names.
        var members: [(instance: AnyObject, created: EventRef)] = []
    }
    var tallies: [Tally] = []
    /// Counts taken over their limit by the event being handled, observed once it is applied: an
    /// object's owner is found then, and the finding names it.
    var over: [(limit: Int, alive: Int, others: [LifetimeExceeded.Other], instance: AnyObject, created: EventRef)] = []
    /// How many live instances a limit keeps for its findings' messages and related lines.
    static let memberLimit = 8
}

extension SessionTimeline {
    /// The limits that count a class's instances, found at the class's first instance in the input.
    @inline(__always)
    func lifetimeLimits(of entry: Instrumentation.ClassEntry) -> [Int] {
        if let known = entry.lifetimeLimits { return known }
        let found = options.lifetimes.applying(to: entry.name)
        entry.lifetimeLimits = found
        return found
    }

    /// A counted instance's name: UIKit's or Android's.
    static func countedRef(_ counted: AnyObject) -> ControllerRef {
        (counted as? Instance)?.ref ?? (counted as! AndroidInstance).ref
    }

    /// A new instance (`newInstance`), made by `e`: counted by every limit that applies to its class;
    /// one that takes a count over its limit is observed, once per episode. An Android instance
    /// (`newAndroidInstance`) is counted from its creation to its `onDestroy`.
    func countBirth(_ inst: AnyObject, entry: Instrumentation.ClassEntry, _ e: Event) {
        let applying = lifetimeLimits(of: entry)
        if applying.isEmpty { return }
        if lifetimeCounts.tallies.isEmpty {
            lifetimeCounts.tallies = Array(repeating: LifetimeCounts.Tally(), count: options.lifetimes.limits.count)
        }
        let created = EventRef(e)
        // The tallies are changed in place (a copy of one would copy its members at the append).
        for k in applying {
            let limit = options.lifetimes.limits[k]
            lifetimeCounts.tallies[k].alive += 1
            if lifetimeCounts.tallies[k].alive > limit.max, !lifetimeCounts.tallies[k].over {
                lifetimeCounts.tallies[k].over = true
                let tally = lifetimeCounts.tallies[k]
                let others = tally.members.map { LifetimeExceeded.Other(controller: Self.countedRef($0.instance), created: $0.created) }
                lifetimeCounts.over.append((k, tally.alive, others, inst, created))
            }
            if lifetimeCounts.tallies[k].members.count < LifetimeCounts.memberLimit {
                lifetimeCounts.tallies[k].members.append((inst, created))
            }
        }
    }

    /// The counts the event just handled took over their limits (`countBirth`): each observation
    /// names the others alive then, and the new instance's owner if it is an object.
    func observeOver() {
        for o in lifetimeCounts.over {
            let limit = options.lifetimes.limits[o.limit]
            // The configuration asked for this limit: the count is what the log shows, even for a class
            // that never logs its deinit (then its instances stay counted, and the one episode says so).
            emit(LifetimeExceeded(created: o.created, scope: limit.scope, limit: limit.name, classes: limit.classes,
                                  max: limit.max, alive: o.alive, others: o.others, owner: (o.instance as? Instance)?.owner?.ref),
                 Self.countedRef(o.instance), line: o.created.line, time: o.created.time)
        }
        lifetimeCounts.over.removeAll()
    }

    /// An instance leaves the live ones (`leaveLive`: deallocated, or forgotten when another object
    /// took its address): the limits that counted it count one less; back within a limit ends its episode.
    func countDeath(_ inst: AnyObject, entry: Instrumentation.ClassEntry) {
        guard let applying = entry.lifetimeLimits, !applying.isEmpty, !lifetimeCounts.tallies.isEmpty else { return }
        for k in applying where lifetimeCounts.tallies[k].alive > 0 {
            lifetimeCounts.tallies[k].alive -= 1
            if lifetimeCounts.tallies[k].over, lifetimeCounts.tallies[k].alive <= options.lifetimes.limits[k].max {
                lifetimeCounts.tallies[k].over = false
            }
            if let m = lifetimeCounts.tallies[k].members.firstIndex(where: { $0.instance === inst }) {
                lifetimeCounts.tallies[k].members.remove(at: m)
            }
        }
    }
}
