/// What `inspect` and `leaks` read of a recording's instances, per class (docs/performance.md#memory): how many
/// instances it had, of which dialects, which callbacks they logged, whether a missing dealloc of them is judged,
/// their owners. A recording with lanes (`timeline`, `report`) sums its lanes into it; one without (`leaks`,
/// `inspect`) sums each instance into a tally of its class and dialect (`ClassTallies`) as soon as nothing can
/// change what it adds, and keeps no lane: its memory follows the classes, not the instances.
public struct RecordedClass: Sendable {
    public var name: String
    /// In the order of their first instance.
    public var dialects: [Dialect]
    public var instances: Int
    /// The kinds its instances logged, in `EventKind.allCases`' order.
    public var callbacks: [EventKind]
    /// Whether a missing dealloc of some instance is judged (`RecordedInstance.deallocInstrumented`).
    public var deallocJudged: Bool
    public var isObject: Bool
    public var isView: Bool
    /// An object class's instances by owner class and why (`stem`, `setup`; an empty owner and `none` for
    /// app-lifetime instances).
    public var owners: [String: Int]
    /// Some instance is an object without an owner (made while no screen was being set up).
    public var hasUnownedObject: Bool
    /// What the table of unjudged classes counts (`UnjudgedClass`): instances other than SwiftUI views, those
    /// removed and never deallocated (an Android one: whose use ended), whether one of them is judged, and
    /// whether one is Android's.
    var counted = 0
    var removedWithoutDealloc = 0
    var countedJudged = false
    var android = false
}

/// A recording's instances per session: controllers, objects and SwiftUI views.
public struct InstanceCounts: Sendable, Equatable {
    public var controllers = 0
    public var objects = 0
    public var views = 0
}

/// Sums groups of instances (a lane, or a tally of one class and dialect) into classes. Groups are added in the
/// order of their first instance (session, then instance), so that classes and their dialects come in the order
/// a walk over every lane meets them.
struct ClassSummaryBuilder {
    private var classes: [RecordedClass] = []
    private var index: [String: Int] = [:]
    private var kindBits: [UInt64] = []

    /// `kinds`: a bit per `CompactTimeline.kindIndex`; `owners`: the owner keys of the group's instances
    /// (`ownerKey`), for an object class; `removed`: how many count as removed without dealloc.
    mutating func add(className: String, dialect: Dialect, instances: Int, kinds: UInt64, judged: Bool, kind: LaneKind,
                      owners: [String: Int], unowned: Int, removed: Int) {
        let k: Int
        if let known = index[className] {
            k = known
        } else {
            k = classes.count
            index[className] = k
            classes.append(RecordedClass(name: className, dialects: [], instances: 0, callbacks: [], deallocJudged: false,
                                         isObject: false, isView: false, owners: [:], hasUnownedObject: false))
            kindBits.append(0)
        }
        classes[k].instances += instances
        if !classes[k].dialects.contains(dialect) { classes[k].dialects.append(dialect) }
        kindBits[k] |= kinds
        classes[k].deallocJudged = classes[k].deallocJudged || judged
        if kind == .view { classes[k].isView = true }
        if kind == .object {
            classes[k].isObject = true
            for (key, n) in owners { classes[k].owners[key, default: 0] += n }
            if unowned > 0 {
                classes[k].owners[Self.unownedKey, default: 0] += unowned
                classes[k].hasUnownedObject = true
            }
        }
        // A view is a value: it has no dealloc to judge.
        guard kind != .view else { return }
        classes[k].counted += instances
        classes[k].removedWithoutDealloc += removed
        classes[k].countedJudged = classes[k].countedJudged || judged
        classes[k].android = classes[k].android || dialect.isAndroid
    }

    /// An owner as `inspect` counts it: its class and why.
    static func ownerKey(_ owner: ControllerRef, _ reason: OwnerReason?) -> String { "\(owner.className)\u{1F}\((reason ?? .setup).word)" }
    static let unownedKey = "\u{1F}none"

    func result() -> [RecordedClass] {
        var out = classes
        for k in out.indices {
            let bits = kindBits[k]
            out[k].callbacks = CompactTimeline.kinds.indices.filter { bits & 1 << UInt64($0) != 0 }.map { CompactTimeline.kinds[$0] }
        }
        return out
    }

    /// The classes whose missing dealloc no instance has judged, by name.
    static func unjudged(_ classes: [RecordedClass]) -> [UnjudgedClass] {
        classes.filter { $0.counted > 0 && !$0.countedJudged }
            .map { UnjudgedClass(className: $0.name, instances: $0.counted, removedWithoutDealloc: $0.removedWithoutDealloc, android: $0.android) }
            .sorted { $0.className < $1.className }
    }

    /// Every lane of `sessions`, in their order, and each session's counts.
    static func summarize(_ sessions: RecordedSessions) -> (classes: [RecordedClass], counts: [InstanceCounts]) {
        var builder = ClassSummaryBuilder()
        var counts: [InstanceCounts] = []
        func add(className: String, dialect: Dialect, kinds: UInt64, judged: Bool, kind: LaneKind, owner: String?, removed: Bool) {
            builder.add(className: className, dialect: dialect, instances: 1, kinds: kinds, judged: judged, kind: kind,
                        owners: owner.map { [$0: 1] } ?? [:], unowned: owner == nil ? 1 : 0, removed: removed ? 1 : 0)
        }
        if let c = sessions.compact {
            for s in c.sessions {
                var n = InstanceCounts()
                for j in s.instances {
                    let l = c.lanes[j]
                    var kinds: UInt64 = 0
                    for v in c.callbacks[l.callbackStart..<(l.callbackStart + Int(l.callbackCount))] { kinds |= 1 << (v & 0x3F) }
                    let extra = l.hasExtra ? c.laneExtras[j] : nil
                    let removed = l.dialect.isAndroid ? l.dealloc >= 0 : extra?.removal != nil && l.dealloc < 0
                    add(className: l.className, dialect: l.dialect, kinds: kinds, judged: l.deallocInstrumented, kind: l.kind,
                        owner: extra?.owner.map { ownerKey($0, extra?.ownerReason) }, removed: removed)
                    n.count(l.kind)
                }
                counts.append(n)
            }
        } else {
            for s in sessions {
                var n = InstanceCounts()
                for i in s.instances {
                    var kinds: UInt64 = 0
                    for cb in i.callbacks { kinds |= 1 << CompactTimeline.kindIndex[cb.kind]! }
                    let removed = i.dialect.isAndroid ? i.dealloc != nil : i.removal != nil && i.dealloc == nil
                    add(className: i.controller.className, dialect: i.dialect, kinds: kinds, judged: i.deallocInstrumented, kind: i.kind,
                        owner: i.owner.map { ownerKey($0, i.ownerReason) }, removed: removed)
                    n.count(i.kind)
                }
                counts.append(n)
            }
        }
        return (builder.result(), counts)
    }
}

extension InstanceCounts {
    mutating func count(_ kind: LaneKind, _ n: Int = 1) {
        switch kind {
        case .controller: controllers += n
        case .object: objects += n
        case .view: views += n
        }
    }
}

/// A recording without lanes keeps, instead of each instance's lane, a tally per class and dialect: an instance is
/// counted at its first callback, its callbacks' kinds as they come, and its owner and whether it was removed and
/// never deallocated when nothing can change them any more (its dealloc, or its session's end: `TimelineRecorder`).
/// Kept by class name (the class's entry may give way to a dormant row and come back as another object while its
/// session folds it), with per session how many instances of each tally it had.
struct ClassTallies {
    struct Tally {
        let className: String
        let dialect: Dialect
        var instances: Int32 = 0
        var removed: Int32 = 0
        var unowned: Int32 = 0
        /// Whether a session that had one of its UIKit instances judged their dealloc (its dialect logs dealloc there).
        var judgedInSession = false
        var kinds: UInt64 = 0
        var owners: [String: Int] = [:]
        /// Its first instance: its session's serial and its place among that session's instances.
        var first: (session: Int, ordinal: Int)
    }

    private(set) var tallies = ChunkedArray<Tally>()
    private var index: [Key: Int] = [:]
    /// Per session serial, its tallies and how many of each it had (`Int(tally) << 32 | count`).
    private(set) var sessionCounts: [Int: [UInt64]] = [:]

    private struct Key: Hashable {
        let className: String
        let dialect: Dialect
    }

    /// The tally of `className` in `dialect`; `first`: where its first instance is, if this is one.
    mutating func tally(_ className: String, _ dialect: Dialect, first: (session: Int, ordinal: Int)?) -> Int {
        let key = Key(className: className, dialect: dialect)
        if let k = index[key] {
            if let first, (first.session, first.ordinal) < (tallies[k].first.session, tallies[k].first.ordinal) { tallies[k].first = first }
            return k
        }
        index[key] = tallies.count
        tallies.append(Tally(className: className, dialect: dialect, first: first ?? (Int.max, Int.max)))
        return tallies.count - 1
    }

    subscript(k: Int) -> Tally {
        get { tallies[k] }
        set { tallies[k] = newValue }
    }

    /// A session's tallies and counts, once it ended (`counts`: tally → instances).
    mutating func ended(session serial: Int, counts: [Int: Int]) {
        guard !counts.isEmpty else { return }
        sessionCounts[serial] = counts.sorted { $0.key < $1.key }.map { UInt64($0.key) << 32 | UInt64($0.value) }
    }
}

/// A set of instance serials (dense from 0 in an input), a bit each.
struct SerialSet {
    private var words: [UInt64] = []

    func contains(_ serial: Int) -> Bool {
        serial >> 6 < words.count && words[serial >> 6] & 1 << UInt64(serial & 63) != 0
    }

    /// Whether `serial` was not in the set yet.
    @discardableResult
    mutating func insert(_ serial: Int) -> Bool {
        if contains(serial) { return false }
        while serial >> 6 >= words.count { words.append(0) }
        words[serial >> 6] |= 1 << UInt64(serial & 63)
        return true
    }
}
