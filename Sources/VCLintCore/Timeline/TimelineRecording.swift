/// The rebuilt timeline as data, for `vclint timeline`, `leaks` and `report`. Recording is opt-in
/// (`TimelineOptions.recordTimeline`): `vclint lint` creates no recorder, so the state machine pays one
/// nil check per event and nothing else.

/// A point of the timeline: the line of an event, its position among the input's events (the axis
/// of a log without time) and its time.
public struct TimelineStamp: Sendable, Equatable {
    public var line: Int
    /// 1-based position of the event among all events of its input.
    public var order: Int
    public var time: LogTime?

    public init(line: Int, order: Int, time: LogTime?) {
        self.line = line
        self.order = order
        self.time = time
    }
}

/// What a swimlane shows for an instance between two events.
public enum LaneState: String, Sendable, CaseIterable {
    /// Its first events did not say where it stands (the log began mid-flow).
    case unknown
    /// Created or its view loaded, not on screen yet.
    case loaded
    case appearing, visible, disappearing
    /// Was on screen, is not any more.
    case hidden
}

public struct StateInterval: Sendable, Equatable {
    public var state: LaneState
    public var start: TimelineStamp
    /// The event that ended it (the next state's first event, or the dealloc); for the last
    /// interval of a controller alive at the end of its session, the session's last event.
    public var end: TimelineStamp
    /// Still in this state when the session ended.
    public var openAtEnd: Bool
}

public struct RecordedCallback: Sendable, Equatable {
    public var kind: EventKind
    public var stamp: TimelineStamp
    /// For willMoveToParent/didMoveToParent: true to a parent, false to nil, nil when the line does not say.
    public var toParent: Bool?
}

/// What the state machine made of a group of will/did callbacks (docs/lifecycle.md#naming-transitions),
/// decided by the timeline when the transition settles (`TransitionNaming`). Where the log cannot tell
/// two kinds apart (a push and a full-screen present look alike without markers or containment
/// callbacks) the kind says so ("push/present") instead of guessing. Findings carry it
/// (`Finding.transition`) as its raw value; the timeline views word it as `viewName`.
public enum TransitionKind: String, Sendable, CaseIterable {
    /// Controllers appeared and nothing of ours was on screen or left (launch, a new window root).
    case appear
    /// A controller made for it covered the one that disappeared, and the newcomer was added to a
    /// parent (a navigation controller's willMove(toParent:)).
    case push
    /// Covered, with a present marker (`X present begin/end`).
    case present
    case pushOrPresent = "push/present"
    /// The disappearing controller had covered the one that appeared, and it left its parent.
    case pop
    /// A dismiss marker for a disappearing controller.
    case dismiss
    case popOrDismiss = "pop/dismiss"
    /// A pop that took the controllers between the leaving one and the one revealed along
    /// (`RemovalKind.poppedWithTop`), with the leaving controller's containment callback.
    case popToRoot = "pop to root"
    /// The same without marker or containment callback: a pop to root, or a stack of presented
    /// controllers dismissed at once.
    case popToRootOrDismiss = "pop to root/dismiss"
    /// A lone appearance or disappearance while a controller of ours stayed on screen, with a
    /// present/dismiss marker: an iOS 13 sheet (its presenter gets no callbacks).
    case sheet
    /// The same without marker or containment callback: a sheet or a child, the log cannot say.
    case sheetOrChild = "sheet/child"
    /// Containment callbacks (willMove/didMove toParent) for the controller that came alone.
    case childAdd = "child add"
    /// Containment callbacks (willMove/didMove toParent nil) for the controller that went alone.
    case childRemove = "child remove"
    /// The new controller was announced first (UITabBarController's order).
    case tab
    /// An interactive pop or dismissal that was cancelled (seed 002).
    case cancelledSwipeBack = "cancelled swipe-back"
    /// A lone disappearance taken back (a sheet swiped down and let go).
    case cancelled
    /// Controllers disappeared and nothing of ours stayed on screen.
    case disappear
    /// Both directions, but neither a cover nor an uncover the state machine could establish.
    case transition

    /// How the timeline views word it: the kinds the views never told apart (a child added or
    /// removed, a pop to root and a pop) keep the views' wording.
    public var viewName: String {
        switch self {
        case .childAdd, .childRemove: return "child"
        case .popToRoot: return TransitionKind.pop.rawValue
        case .popToRootOrDismiss: return TransitionKind.popOrDismiss.rawValue
        default: return rawValue
        }
    }
}

public struct RecordedTransition: Sendable {
    public enum Direction: String, Sendable { case appear, disappear }

    public struct Member: Sendable {
        public var instance: Int
        public var label: String
        /// The direction its will-callback announced.
        public var direction: Direction
        /// Where it went in the end (differs in a cancelled transition).
        public var finalDirection: Direction
        /// Its did-callback came.
        public var completed: Bool
    }

    /// 1-based within its session.
    public var id: Int
    public var kind: TransitionKind
    public var start: TimelineStamp
    public var end: TimelineStamp
    public var members: [Member]
}

/// A UIKit warning line: it belongs to the session, not to a lane.
public struct RecordedWarning: Sendable {
    public var kind: EventKind
    public var stamp: TimelineStamp
    public var className: String
    public var text: String
}

/// What a lane is (docs/lifecycle.md#beyond-view-controllers), decided from what its class logs in
/// the input: a SwiftUI view logs `onAppear`/`onDisappear`; an object logs only `init` and
/// `dealloc`/`deinit` and its name is not a controller's; everything else is a controller.
public enum LaneKind: String, Sendable, CaseIterable {
    case controller, object, view
}

public struct RecordedInstance: Sendable {
    /// 1-based within its input (the serial of the instance).
    public var id: Int
    public var controller: ControllerRef
    /// A controller's lane, an object's (from its `init` to its `dealloc`) or a SwiftUI view's.
    public var kind: LaneKind = .controller
    public var dialect: Dialect
    public var callbacks: [RecordedCallback]
    public var intervals: [StateInterval]
    public var removal: Removal?
    public var dealloc: TimelineStamp?
    /// Whether a missing dealloc is judged (docs/lifecycle.md#instrumentation): its class logs dealloc in
    /// this input, or every class of its dialect does in this session.
    public var deallocInstrumented: Bool
    /// An object's owner and why (docs/lifecycle.md#owners); nil for controllers, views and
    /// app-lifetime objects.
    public var owner: ControllerRef? = nil
    public var ownerReason: OwnerReason? = nil
    /// Whether its class is an object class (docs/lifecycle.md#objects).
    public var isObject: Bool { kind == .object }

    public var first: TimelineStamp { callbacks.first!.stamp }
}

public struct RecordedSession: Sendable {
    /// 1-based within its input.
    public var id: Int
    public var process: String
    public var pid: Int?
    public var instances: [RecordedInstance]
    public var transitions: [RecordedTransition]
    public var warnings: [RecordedWarning]
    public var firstEvent: TimelineStamp
    public var lastEvent: TimelineStamp
    /// The latest time of any line of the session (noise included): how long it went on.
    public var endTime: LogTime?
    public var eventCount: Int
    public var hasTimes: Bool
}

/// A removed controller that was never deallocated (the `leaked` observation that the
/// instrumentation and `persistent_classes` let through).
public struct LeakRecord: Sendable {
    public var controller: ControllerRef
    public var session: Int
    public var removal: Removal
    /// The line the finding points at.
    public var anchor: EventRef
    /// The viewWillDisappear that began the removal.
    public var will: EventRef?
    /// Seconds from the removal to the end of the session (nil: the log has no time).
    public var wentOn: Double?
    /// false: the session ended within the grace period.
    public var confirmed: Bool
    /// An object's leak (docs/lifecycle.md#objects): its owner, and its init.
    public var owner: ControllerRef? = nil
    public var made: EventRef? = nil
}

/// A class whose dealloc is logged nowhere it could count: a leak of it cannot be judged.
public struct UnjudgedClass: Sendable, Equatable {
    public var className: String
    public var instances: Int
    /// Instances that were removed and never deallocated: they might be leaks, or fine. On Android, the instances whose
    /// use ended (`onDestroy`, `onCleared`): only the garbage collector's evidence could tell whether they were released.
    public var removedWithoutDealloc: Int
    /// An Android class: its leaks need LeakCanary's evidence (docs/lifecycle.md#android-evidence).
    public var android = false
}

/// The timeline of one input.
public struct TimelineRecording: Sendable {
    /// Held compactly (`CompactTimeline`) and made whole one session at a time as they are read.
    public var sessions: RecordedSessions
    public var leaks: [LeakRecord]
    public var unjudgedClasses: [UnjudgedClass]
    /// Its instances per class, in the order their first instances come (`RecordedClass`); empty when the run
    /// does not keep them (`TimelineOptions.keepsClasses`).
    public var classes: [RecordedClass]
    /// Per session (in `sessions`' order), how many controllers, objects and views it had.
    public var instanceCounts: [InstanceCounts]
    /// What the leak report reads of the classes, kept whether or not they are: those not in `unjudgedClasses`
    /// (their dealloc is judged somewhere, or nothing of theirs is counted), and the object classes with an instance
    /// no screen owns (app-lifetime objects). In the classes' order.
    public var judgedClasses: [String]
    public var appLifetimeClasses: [String]

    public init(sessions: [RecordedSession], leaks: [LeakRecord], unjudgedClasses: [UnjudgedClass]) {
        let recorded = RecordedSessions(sessions)
        let (classes, counts) = ClassSummaryBuilder.summarize(recorded)
        self.init(recorded: recorded, leaks: leaks, unjudgedClasses: unjudgedClasses, classes: classes, instanceCounts: counts)
    }

    init(recorded sessions: RecordedSessions, leaks: [LeakRecord], unjudgedClasses: [UnjudgedClass], classes: [RecordedClass],
         instanceCounts: [InstanceCounts]) {
        let (judged, appLifetime) = ClassSummaryBuilder.leakFacts(classes, unjudged: unjudgedClasses)
        self.init(recorded: sessions, leaks: leaks, unjudgedClasses: unjudgedClasses, classes: classes, instanceCounts: instanceCounts,
                  judgedClasses: judged, appLifetimeClasses: appLifetime)
    }

    /// `classes` empty when the run does not keep them: what the leak report reads of them is in `judgedClasses` and
    /// `appLifetimeClasses`.
    init(recorded sessions: RecordedSessions, leaks: [LeakRecord], unjudgedClasses: [UnjudgedClass], classes: [RecordedClass],
         instanceCounts: [InstanceCounts], judgedClasses: [String], appLifetimeClasses: [String]) {
        self.sessions = sessions
        self.leaks = leaks
        self.unjudgedClasses = unjudgedClasses
        self.judgedClasses = judgedClasses
        self.appLifetimeClasses = appLifetimeClasses
        self.classes = classes
        self.instanceCounts = instanceCounts
    }
}

/// The sessions of a recording. A recorder's are stored as `CompactTimeline` (tens of bytes per
/// event and per instance, nothing per empty list) and each `RecordedSession` is built when it is
/// read, so the views hold one session's values at a time, never the whole input's.
public struct RecordedSessions: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    private enum Storage: Sendable {
        case values([RecordedSession])
        case compact(CompactTimeline)
    }
    private let storage: Storage

    public init(_ sessions: [RecordedSession]) { storage = .values(sessions) }
    public init(arrayLiteral sessions: RecordedSession...) { storage = .values(sessions) }
    init(_ compact: CompactTimeline) { storage = .compact(compact) }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .values(let v): return v.count
        case .compact(let c): return c.sessionCount
        }
    }

    public subscript(position: Int) -> RecordedSession {
        switch storage {
        case .values(let v): return v[position]
        case .compact(let c): return c.session(at: position)
        }
    }

    /// The compact store, when the sessions come from a recorder (the views read some facts from
    /// it without building sessions).
    var compact: CompactTimeline? {
        if case .compact(let c) = storage { return c }
        return nil
    }
}

/// Where a recording keeps its events' stamps: an event's line, its order among the input's events
/// and its time, in 12 to 20 bytes. A stamp is named by its index here. Times are packed by the
/// input's own table of dates (`Instrumentation.times`) while it is read, and unpacked by the
/// dates it had at the end (`freeze`).
struct StampTable: Sendable {
    // In blocks (`ChunkedArray`): a long session's stamps never hold twice what they need, nor a copy at the end.
    /// Lines in 32 bits: a line from `UInt32.max` on is `UInt32.max` here and kept whole in `bigLines`.
    private(set) var lines = ChunkedArray<UInt32>()
    private(set) var bigLines: [Int: Int] = [:]
    /// Empty when every event is kept as it comes (swimlanes): the order is then the index + 1.
    private(set) var orders = ChunkedArray<Int>()
    /// 0: no time; else a `PackedTime` value, or `PackedTime.elsewhere` for a time kept in `whole`.
    private(set) var times = ChunkedArray<UInt64>()
    private(set) var whole: [Int: LogTime] = [:]
    private(set) var dates = PackedTime.Dates()
    /// Whether orders are stored (not every event is kept).
    let sparse: Bool

    init(sparse: Bool) { self.sparse = sparse }

    var count: Int { lines.count }

    mutating func append(_ st: TimelineStamp, _ table: PackedTime.Table) -> Int {
        let k = lines.count
        if let line = UInt32(exactly: st.line), line != .max {
            lines.append(line)
        } else {
            lines.append(.max)
            bigLines[k] = st.line
        }
        if sparse { orders.append(st.order) }
        if let t = st.time {
            if let packed = table.pack(t) {
                times.append(packed)
            } else {
                times.append(PackedTime.elsewhere)
                whole[k] = t
            }
        } else {
            times.append(0)
        }
        return k
    }

    func line(_ k: Int) -> Int {
        let v = lines[k]
        return v == .max ? bigLines[k]! : Int(v)
    }
    func order(_ k: Int) -> Int { sparse ? orders[k] : k + 1 }
    func time(_ k: Int) -> LogTime? {
        let v = times[k]
        if v == 0 { return nil }
        if v == PackedTime.elsewhere { return whole[k] }
        return dates.unpack(v)
    }
    /// The time of stamp `k` while the input is read, by its table of dates.
    func time(_ k: Int, _ table: PackedTime.Table) -> LogTime? {
        let v = times[k]
        if v == 0 { return nil }
        if v == PackedTime.elsewhere { return whole[k] }
        return table.unpack(v)
    }

    /// A time packed as `times` holds them; nil for 0 and `PackedTime.elsewhere`.
    func unpack(_ v: UInt64) -> LogTime? {
        v == 0 || v == PackedTime.elsewhere ? nil : dates.unpack(v)
    }

    func stamp(_ k: Int) -> TimelineStamp { TimelineStamp(line: line(k), order: order(k), time: time(k)) }

    /// The input is read: times are unpacked by the table's dates from now on.
    mutating func freeze(_ table: PackedTime.Table) {
        dates = table.frozen()
    }
}

extension Array {
    /// Drops spare capacity: a list grown by appending holds up to twice what it needs.
    mutating func shrinkToFit() {
        if capacity > count + count / 8 + 4 { self = Array(self) }
    }
}

/// A recorder's sessions, as flat lists shared by all sessions of the input: per session and per
/// instance a record of fixed size with ranges into the lists of callbacks and state intervals;
/// transitions, warnings, removals and owners where a session or instance has any.
final class CompactTimeline: Sendable {
    struct Session {
        /// Its serial among the input's sessions (the order they began in).
        var serial: Int
        var process: String
        /// `Int.min`: none.
        var pidValue: Int
        var pid: Int? { pidValue == Int.min ? nil : pidValue }
        var instances: Range<Int>
        var first: Int, last: Int
        /// Packed as a stamp's time (`StampTable.times`); a time that does not pack is in `endTimes`, by serial.
        var endTime: UInt64
        var events: Int
        var hasTimes: Bool
        /// Its transitions and warnings in `transitions` and `warnings`.
        var transitionStart: Int
        var warningStart: Int
        var transitionCount: UInt32
        var warningCount: UInt32
    }

    struct Lane {
        var serial: Int
        var className: String
        var address: UInt64
        var generation: Int
        var callbackStart: Int
        var callbackCount: Int32
        var intervalCount: Int32
        var intervalStart: Int
        /// A stamp, -1: none.
        var dealloc: Int
        var dialect: Dialect
        var kind: LaneKind
        var deallocInstrumented: Bool
        /// It has an entry in `laneExtras` (its removal, its owner).
        var hasExtra: Bool

        var label: String { "\(className)#\(generation)" }
        var ref: ControllerRef { ControllerRef(className: className, address: address == 0 ? nil : address, instance: label) }
    }

    struct LaneExtra {
        var removal: Removal?
        var owner: ControllerRef?
        var ownerReason: OwnerReason?
    }

    /// Removals as the flat lists keep them: each one's two events' lines, kinds and times packed by the input's
    /// dates (a `Removal` with its two `LogTime?`s is 112 bytes; this is 56). A time that does not pack is kept
    /// whole beside them.
    struct RemovalStore {
        private struct Packed {
            var evidenceLine: Int
            var anchorLine: Int
            /// 0: no time; else a `PackedTime` value, or `PackedTime.elsewhere` for a time kept in `wholeTimes`.
            var evidenceTime: UInt64
            var anchorTime: UInt64
            /// Its place in `takenAlongBy` (-1: none): most removals name none, and a name inline took 16 bytes of each.
            var takenAlongBy: Int32
            var kind: RemovalKind
            var transition: TransitionKind?
            var evidenceKind: EventKind
            var anchorKind: EventKind
        }

        private var removals = ChunkedArray<Packed>()
        /// The times that do not pack, by `2 × removal + (0: evidence, 1: anchor)`.
        private var wholeTimes: [Int: LogTime] = [:]
        private var takenAlongBy: [String] = []

        var count: Int { removals.count }

        /// Keeps `removal`, its times packed by `table`: its index.
        @discardableResult
        mutating func append(_ removal: Removal, dates table: PackedTime.Table) -> Int {
            let k = removals.count
            func pack(_ t: LogTime?, _ which: Int) -> UInt64 {
                guard let t else { return 0 }
                if let v = table.pack(t) { return v }
                wholeTimes[2 * k + which] = t
                return PackedTime.elsewhere
            }
            removals.append(Packed(
                evidenceLine: removal.evidence.line, anchorLine: removal.anchor.line,
                evidenceTime: pack(removal.evidence.time, 0), anchorTime: pack(removal.anchor.time, 1),
                takenAlongBy: removal.takenAlongBy.map { name in
                    takenAlongBy.append(name)
                    return Int32(takenAlongBy.count - 1)
                } ?? -1,
                kind: removal.kind, transition: removal.transition,
                evidenceKind: removal.evidence.kind, anchorKind: removal.anchor.kind))
            return k
        }

        /// Removal `k` was read for the last time (`TimelineRecorder.move`): its block goes once all of it was.
        mutating func done(_ k: Int, _ readOnce: inout BlocksReadOnce) {
            readOnce.done(k, in: &removals)
        }

        /// Removal `k` as it was appended, its packed times unpacked by `unpack`.
        func removal(_ k: Int, unpack: (UInt64) -> LogTime) -> Removal {
            let p = removals[k]
            func time(_ v: UInt64, _ which: Int) -> LogTime? {
                v == 0 ? nil : v == PackedTime.elsewhere ? wholeTimes[2 * k + which] : unpack(v)
            }
            return Removal(kind: p.kind,
                           evidence: EventRef(line: p.evidenceLine, time: time(p.evidenceTime, 0), kind: p.evidenceKind),
                           takenAlongBy: p.takenAlongBy < 0 ? nil : takenAlongBy[Int(p.takenAlongBy)],
                           anchor: EventRef(line: p.anchorLine, time: time(p.anchorTime, 1), kind: p.anchorKind),
                           transition: p.transition)
        }
    }

    /// Owners by number: the objects of one owner share its reference (a view model per row of a list names the
    /// same controller, and each its own copy of the owner's label cost about 110 bytes).
    struct OwnerTable {
        private var refs: [ControllerRef] = []
        private var numbers: [ControllerRef: Int32] = [:]

        /// The number of `ref`, given it now if it has none.
        mutating func number(_ ref: ControllerRef) -> Int32 {
            if let known = numbers[ref] { return known }
            let k = Int32(refs.count)
            refs.append(ref)
            numbers[ref] = k
            return k
        }

        subscript(k: Int32) -> ControllerRef { refs[Int(k)] }
    }

    /// The lanes' extras by lane index, in two tables (removals, owners) appended in the lanes' order and
    /// searched by binary search: a dictionary of `LaneExtra` by lane kept a key, an owner's room in every
    /// popped controller's entry and a removal's in every owned object's, and free buckets (a long capture gives
    /// most of its lanes a removal or an owner).
    struct LaneExtras {
        private var removalLanes = ChunkedArray<Int32>()
        private var removals = RemovalStore()
        /// The dates the removals' times are unpacked by, once the input is read (`freeze`).
        private var dates = PackedTime.Dates()
        private var ownerLanes = ChunkedArray<Int32>()
        /// Each owner's number in `ownerRefs`; -1 where an owner was taken back (a controller's,
        /// `TimelineRecorder.result`).
        private var owners = ChunkedArray<Int32>()
        private var ownerRefs = OwnerTable()
        private var ownerReasons = ChunkedArray<OwnerReason?>()

        var isEmpty: Bool { removals.count == 0 && owners.allSatisfy { $0 < 0 } }

        /// The extra of `lane`, which comes after every lane that has one; times packed by `table`.
        mutating func append(_ extra: LaneExtra, lane: Int, dates table: PackedTime.Table) {
            let l = Int32(lane)
            if let removal = extra.removal {
                precondition(removalLanes.last.map { $0 < l } ?? true, "lane extras are appended in lane order")
                removalLanes.append(l)
                removals.append(removal, dates: table)
            }
            if let owner = extra.owner {
                precondition(ownerLanes.last.map { $0 < l } ?? true, "lane extras are appended in lane order")
                ownerLanes.append(l)
                owners.append(ownerRefs.number(owner))
                ownerReasons.append(extra.ownerReason)
            }
        }

        private static func position(_ lane: Int, in lanes: ChunkedArray<Int32>) -> Int? {
            let l = Int32(truncatingIfNeeded: lane)
            var low = 0, high = lanes.count
            while low < high {
                let mid = (low + high) / 2
                if lanes[mid] < l { low = mid + 1 } else { high = mid }
            }
            return low < lanes.count && lanes[low] == l ? low : nil
        }

        /// Removal `k` as it was appended.
        private func removal(_ k: Int) -> Removal { removals.removal(k, unpack: dates.unpack) }

        /// A lane's extra, nil when it has none.
        subscript(lane: Int) -> LaneExtra? {
            let r = Self.position(lane, in: removalLanes).map { removal($0) }
            let o = Self.position(lane, in: ownerLanes)
            let owner = o.flatMap { owners[$0] < 0 ? nil : ownerRefs[owners[$0]] }
            if r == nil && owner == nil { return nil }
            return LaneExtra(removal: r, owner: owner, ownerReason: owner == nil ? nil : o.flatMap { ownerReasons[$0] })
        }

        func hasRemoval(lane: Int) -> Bool { Self.position(lane, in: removalLanes) != nil }

        func hasOwner(lane: Int) -> Bool { Self.position(lane, in: ownerLanes).map { owners[$0] >= 0 } ?? false }

        /// Takes a lane's owner back (its removal stays).
        mutating func dropOwner(lane: Int) {
            guard let k = Self.position(lane, in: ownerLanes) else { return }
            owners[k] = -1
            ownerReasons[k] = nil
        }

        /// The input is read: times are unpacked by the table's dates from now on.
        mutating func freeze(_ table: PackedTime.Table) {
            dates = table.frozen()
        }
    }

    struct Transition {
        var kind: TransitionKind
        var start: Int, end: Int
        var members: Range<Int>
    }

    /// Transitions in 20 bytes each where the struct takes 40: stamps and member positions in 32 bits, the end
    /// and the member count as what they add to the start. One whose numbers do not fit (an input of billions of
    /// events) is kept whole aside.
    struct TransitionList: RandomAccessCollection, Sendable {
        private struct Packed {
            var start: UInt32, length: UInt32, memberStart: UInt32, memberCount: UInt32
            /// Its kind's place in `TransitionKind.allCases`; `aside` when it is kept in `big`.
            var kind: UInt8
        }
        private static let aside = UInt8.max
        private static let kinds = TransitionKind.allCases
        private var packed = ChunkedArray<Packed>()
        private var big: [Int: Transition] = [:]

        init() {}

        var startIndex: Int { 0 }
        var endIndex: Int { packed.count }

        subscript(i: Int) -> Transition {
            let p = packed[i]
            if p.kind == Self.aside { return big[i]! }
            let start = Int(p.start), members = Int(p.memberStart)
            return Transition(kind: Self.kinds[Int(p.kind)], start: start, end: start + Int(p.length),
                              members: members..<(members + Int(p.memberCount)))
        }

        mutating func append(_ t: Transition) {
            if let start = UInt32(exactly: t.start), t.end >= t.start, let length = UInt32(exactly: t.end - t.start),
               let memberStart = UInt32(exactly: t.members.lowerBound), let memberCount = UInt32(exactly: t.members.count) {
                packed.append(Packed(start: start, length: length, memberStart: memberStart, memberCount: memberCount,
                                     kind: UInt8(Self.kinds.firstIndex(of: t.kind)!)))
            } else {
                big[packed.count] = t
                packed.append(Packed(start: 0, length: 0, memberStart: 0, memberCount: 0, kind: Self.aside))
            }
        }

        /// The last transition's kind is now `kind` (`TimelineRecorder.renamed`).
        mutating func renameLast(_ kind: TransitionKind) {
            let i = packed.count - 1
            if packed[i].kind == Self.aside { big[i]!.kind = kind } else { packed[i].kind = UInt8(Self.kinds.firstIndex(of: kind)!) }
        }
    }

    struct Warning {
        var kind: EventKind
        var stamp: Int
        var className: String
        var text: String
    }

    let stamps: StampTable
    let sessions: [Session]
    let lanes: ChunkedArray<Lane>
    /// Per callback: its stamp << 8 | what it said of the parent << 6 | its kind.
    let callbacks: WordList
    /// Per interval two values: its start << 4 | its state << 1 | open at end; its end.
    let intervals: WordList
    /// Per transition member: its instance << 3 | direction, final direction, completed.
    let members: WordList
    let transitions: TransitionList
    let warnings: [Warning]
    let laneExtras: LaneExtras
    /// Sessions' end times that do not pack, by the session's serial.
    let endTimes: [Int: LogTime]

    init(stamps: StampTable, sessions: [Session], lanes: ChunkedArray<Lane>, callbacks: WordList, intervals: WordList, members: WordList,
         transitions: TransitionList, warnings: [Warning], laneExtras: LaneExtras, endTimes: [Int: LogTime]) {
        self.stamps = stamps
        self.sessions = sessions
        self.lanes = lanes
        self.callbacks = callbacks
        self.intervals = intervals
        self.members = members
        self.transitions = transitions
        self.warnings = warnings
        self.laneExtras = laneExtras
        self.endTimes = endTimes
    }

    var sessionCount: Int { sessions.count }

    static let kinds = EventKind.allCases
    static let kindIndex: [EventKind: UInt64] = Dictionary(uniqueKeysWithValues: EventKind.allCases.enumerated().map { ($1, UInt64($0)) })
    static let states = LaneState.allCases

    static func packCallback(stamp: Int, kind: EventKind, toParent: Bool?) -> UInt64 {
        let parent: UInt64 = toParent.map { $0 ? 2 : 1 } ?? 0
        return UInt64(stamp) << 8 | parent << 6 | kindIndex[kind]!
    }

    func callback(_ v: UInt64) -> RecordedCallback {
        let parent = v >> 6 & 3
        return RecordedCallback(kind: Self.kinds[Int(v & 0x3F)], stamp: stamps.stamp(Int(v >> 8)), toParent: parent == 0 ? nil : parent == 2)
    }

    static func packInterval(state: LaneState, start: Int, end: Int, openAtEnd: Bool) -> (UInt64, UInt64) {
        (UInt64(start) << 4 | UInt64(states.firstIndex(of: state)!) << 1 | (openAtEnd ? 1 : 0), UInt64(end))
    }

    /// The stamps of a lane's callbacks, in order, without building them.
    func callbackStamps(_ lane: Lane) -> LazyMapSequence<Range<Int>, Int> {
        (lane.callbackStart..<(lane.callbackStart + Int(lane.callbackCount))).lazy.map { Int(self.callbacks[$0] >> 8) }
    }

    /// A lane's state intervals, built.
    func intervals(of l: Lane) -> [StateInterval] {
        var ivs: [StateInterval] = []
        ivs.reserveCapacity(Int(l.intervalCount))
        forEachInterval(of: l) { ivs.append($0) }
        return ivs
    }

    /// A lane's state intervals in order, one at a time (a root controller of a long run has hundreds of thousands).
    func forEachInterval<E: Error>(of l: Lane, _ body: (StateInterval) throws(E) -> Void) throws(E) {
        for k in 0..<Int(l.intervalCount) {
            let a = intervals[l.intervalStart + 2 * k], b = intervals[l.intervalStart + 2 * k + 1]
            try body(StateInterval(state: Self.states[Int(a >> 1 & 7)], start: stamps.stamp(Int(a >> 4)), end: stamps.stamp(Int(b)), openAtEnd: a & 1 == 1))
        }
    }

    func instance(_ j: Int) -> RecordedInstance {
        let l = lanes[j]
        let cbs = (l.callbackStart..<(l.callbackStart + Int(l.callbackCount))).map { callback(callbacks[$0]) }
        let ivs = intervals(of: l)
        let extra = l.hasExtra ? laneExtras[j] : nil
        return RecordedInstance(
            id: l.serial, controller: l.ref, kind: l.kind, dialect: l.dialect, callbacks: cbs, intervals: ivs,
            removal: extra?.removal, dealloc: l.dealloc >= 0 ? stamps.stamp(l.dealloc) : nil, deallocInstrumented: l.deallocInstrumented,
            owner: extra?.owner, ownerReason: extra?.ownerReason)
    }

    /// Session `k` built whole (the views read it a piece at a time instead: `SessionPieces`).
    func session(at k: Int) -> RecordedSession {
        let p = SessionPieces(self, at: k)
        return RecordedSession(
            id: p.id, process: p.process, pid: p.pid, instances: (0..<p.instanceCount).map(p.instance),
            transitions: (0..<p.transitionCount).map(p.transition), warnings: p.warnings,
            firstEvent: p.firstEvent, lastEvent: p.lastEvent, endTime: p.endTime, eventCount: p.eventCount, hasTimes: p.hasTimes)
    }
}

/// Collects the timeline while the state machine runs (hooks in `SessionTimeline`). What an open
/// session draws is kept per instance while it runs; when the session ends it is moved into the
/// input's flat lists (`CompactTimeline`) and the session's own objects are released.
final class TimelineRecorder {
    final class InstanceLog {
        /// UIKit's instance; an Android instance's log has `android` instead (its lane: `androidApplied`). Once it is
        /// deallocated and nothing else holds it, its lane leaves this log for a record of what it needs of it, and the
        /// log and the instance go (`TimelineRecorder.releaseUnheld`, `LaneSlot.released`).
        @exclusivity(unchecked) var instance: Instance?
        let android: AndroidInstance?
        let serial: Int
        /// Packed as `CompactTimeline.callbacks` and `.intervals` are.
        @exclusivity(unchecked) var callbacks = CallbackList()
        @exclusivity(unchecked) var intervals = SmallWords()
        @exclusivity(unchecked) var openStart = -1
        /// A stamp, -1: none.
        @exclusivity(unchecked) var dealloc = -1
        /// Which kinds of callback it has recorded (without lanes: one of each), a bit per kind.
        @exclusivity(unchecked) var kinds: UInt64 = 0
        /// Its place among its session's instances (without lanes: the order its class is met in); -1 past 32 bits (a
        /// session of two billion instances), and such a log is never let go (`releaseUnheld`).
        var ordinal: Int {
            get { Int(ordinalRaw) }
            set { ordinalRaw = Int32(exactly: newValue) ?? -1 }
        }
        @exclusivity(unchecked) private var ordinalRaw: Int32 = 0
        /// Once its instance is deallocated its lists are final, but for callbacks after its dealloc: they move into
        /// the flat lists then (`TimelineRecorder.retire`), and this is where `TimelineRecorder.retired` says they
        /// are (-1: in `callbacks` and `intervals`).
        var retired: Int32 {
            get { place >= 0 ? place : -1 }
            set { place = newValue }
        }
        /// While the state machine holds its instance folded away (`TimelineRecorder.folded`), where `foldedLanes` keeps
        /// what its lane needs of it; -1: not folded. A folded instance is alive: never retired at once.
        var foldedAt: Int32 {
            get { place <= -2 ? -2 - place : -1 }
            set { place = newValue < 0 ? -1 : -2 - newValue }
        }
        /// `retired` (from 0) or `foldedAt` (-2 - it) in one field: a field more took the object past malloc's 112-byte
        /// chunk, 6 MB on 400k live objects (`CompactRecordingTests.aLaneLogFitsItsChunk`).
        @exclusivity(unchecked) private var place: Int32 = -1
        /// With lanes, its session's serial (-1: past 32 bits; it is then never let go); `ordinal` is its place in the
        /// session's `instances`.
        @exclusivity(unchecked) var session: Int32 = -1
        // The one-byte fields together, in what the words above leave.
        @exclusivity(unchecked) var openState: LaneState?
        @exclusivity(unchecked) var beenOnScreen = false
        /// A SwiftUI view's: whether its latest `onAppear`/`onDisappear` showed it (nil: no such event yet).
        @exclusivity(unchecked) var viewShown: Bool?

        init(_ instance: Instance) {
            self.instance = instance
            android = nil
            serial = instance.serial
        }

        init(_ android: AndroidInstance) {
            instance = nil
            self.android = android
            serial = android.serial
        }

        var dialect: Dialect { instance?.dialect ?? android?.lastDialect ?? .logcat }
    }

    /// A lane's callbacks while its session runs, the first kept in place and the others in an array made at the
    /// second: an object that logs only its `init` costs no array (48 bytes of each of 400k such objects).
    struct CallbackList: Sequence {
        /// `none` when the list is empty (a packed callback's parent bits are never 3).
        private var first = Self.none
        private var rest = SmallWords()
        private static let none = UInt64.max

        var count: Int { first == Self.none ? 0 : 1 + rest.count }

        mutating func append(_ v: UInt64) {
            precondition(v != Self.none, "a packed callback is never all ones")
            if first == Self.none { first = v } else { rest.append(v) }
        }

        mutating func append<S: Sequence>(contentsOf values: S) where S.Element == UInt64 {
            for v in values { append(v) }
        }

        func last(where matches: (UInt64) -> Bool) -> UInt64? {
            if let v = rest.last(where: matches) { return v }
            return first != Self.none && matches(first) ? first : nil
        }

        struct Iterator: IteratorProtocol {
            fileprivate let list: CallbackList
            fileprivate var k = -1

            mutating func next() -> UInt64? {
                defer { k += 1 }
                if k < 0 { return list.first == CallbackList.none ? nil : list.first }
                return k < list.rest.count ? list.rest[k] : nil
            }
        }

        func makeIterator() -> Iterator { Iterator(list: self) }
    }

    enum LaneSlot {
        case log(InstanceLog)
        /// Its place in `released`; -1 once its session's end has moved it into the flat lists (`move`).
        case released(Int32)
        /// Its log folded with its instance (`TimelineRecorder.folded`): its place in `foldedLanes`.
        case folded(Int32)
    }

    final class SessionLog {
        let serial: Int
        let process: String
        let pid: Int?
        /// Its lanes in order: each its log, or what is kept of one whose instance was let go (`releaseUnheld`).
        @exclusivity(unchecked) var instances = ChunkedArray<LaneSlot>()
        /// Without lanes: its Android instances, tallied when it ends, by serial; how many instances it has had; per
        /// tally, how many of its instances it added (<< 1, | 1 when one was UIKit's: `finished` judges their dealloc).
        @exclusivity(unchecked) var live: [Int: InstanceLog] = [:]
        @exclusivity(unchecked) var made = 0
        @exclusivity(unchecked) var tallied: [Int: Int] = [:]
        /// Its settled transitions as the flat lists keep them: stamps by index, members packed (in `members`,
        /// from 0) and labelled when read.
        @exclusivity(unchecked) var transitions = CompactTimeline.TransitionList()
        @exclusivity(unchecked) var members = WordList()
        @exclusivity(unchecked) var warnings: [CompactTimeline.Warning] = []
        @exclusivity(unchecked) var first: TimelineStamp?
        @exclusivity(unchecked) var last: TimelineStamp?
        @exclusivity(unchecked) var endTime: LogTime?
        @exclusivity(unchecked) var events = 0
        @exclusivity(unchecked) var hasTimes = false
        /// The serial of the state machine's transition recorded last (`renamed`).
        @exclusivity(unchecked) var lastTransitionSerial = -1
        /// Set when it finished (`finished`): the dialects whose dealloc it judged.
        @exclusivity(unchecked) var deallocDialects: Set<Dialect>?

        init(serial: Int, process: String, pid: Int?) {
            self.serial = serial
            self.process = process
            self.pid = pid
        }
    }

    /// Whether the input holds LeakCanary's evidence (its Android classes' leaks are judged).
    @exclusivity(unchecked) var heapEvidence = false

    /// Keep what lanes draw (`TimelineOptions.recordLanes`); without, nothing is kept per instance: it is
    /// counted in its class's tally (`ClassTallies`), and no interval, transition or warning is kept.
    let lanes: Bool
    @exclusivity(unchecked) private var order = 0
    @exclusivity(unchecked) private var current = TimelineStamp(line: 0, order: 0, time: nil)
    /// The stamp of `current` in `stamps`, -1: not kept yet.
    @exclusivity(unchecked) private var currentKept = -1
    /// The open sessions and their instances.
    @exclusivity(unchecked) private var sessionBySerial: [Int: SessionLog] = [:]
    /// The open sessions' instance logs by serial (a dictionary took 40 bytes a log).
    @exclusivity(unchecked) private var instances = ObjectTable<InstanceLog>()
    /// What a lane needs of a deallocated UIKit instance that only its log held, which was let go
    /// (`releaseUnheld`): a long session keeps its lanes until it ends, not its dead instances.
    struct ReleasedInstance {
        let serial: Int
        let entry: Instrumentation.ClassEntry
        let address: UInt64
        let generation: Int
        /// Its dealloc's stamp.
        let dealloc: Int
        /// Its lists in `retired`.
        let retired: Int32
        /// Its removal in `releasedRemovals`, its owner in `releasedOwners`; -1: none.
        let removal: Int32
        let owner: Int32
        let ownerReason: OwnerReason?
        let dialect: Dialect
    }
    @exclusivity(unchecked) private var released = ChunkedArray<ReleasedInstance>()
    /// Where a deallocated instance's lists are in the flat lists (`retire`).
    struct RetiredLists {
        let callbacks: Int
        let intervals: Int
        let callbackCount: Int32
        var intervalCount: Int32
    }
    @exclusivity(unchecked) private var retired = ChunkedArray<RetiredLists>()
    @exclusivity(unchecked) private var releasedRemovals = CompactTimeline.RemovalStore()
    /// What `move` and `reopen` read of `released`, `retired` and `releasedRemovals` for the last time: their blocks
    /// go as they are read, not all at once when the last session ends (a long session's were most of `move`'s peak).
    @exclusivity(unchecked) private var releasedRead = BlocksReadOnce()
    @exclusivity(unchecked) private var retiredRead = BlocksReadOnce()
    @exclusivity(unchecked) private var removalsRead = BlocksReadOnce()
    @exclusivity(unchecked) private var releasedOwners = CompactTimeline.OwnerTable()
    /// What a lane needs of a UIKit instance the state machine folded away with its idle class
    /// (`SessionTimeline.foldIdleClasses`), so that the instance and its class's entry go while the session runs, as
    /// they do in `lint` (a session of 400k idle classes held them all beside their lanes). Its log goes too: its
    /// lists move into the flat lists (an open interval's end left to write, `openEnd`), and its session's slot points
    /// here. The line that unfolds the class makes its log again (`unfolded`). Where the log cannot go (its serial's
    /// hash taken in `foldedBySerial`, a place past 32 bits), it stays and lets go of the instance only (`foldedAt`).
    struct FoldedLane {
        let className: String
        /// The rest, when its log folded too: the log's fields, its lists in the flat lists (`intervalCount` closed
        /// intervals; with an open state, one more whose end is written when its session ends, and whose first word
        /// says where it starts). The kinds a log records are read without lanes only: not kept.
        var serial = 0
        var lists = RetiredLists(callbacks: 0, intervals: 0, callbackCount: 0, intervalCount: 0)
        /// Its removal in `releasedRemovals`, its owner in `releasedOwners`; -1: none.
        let removal: Int32
        let owner: Int32
        var ordinal: Int32 = -1
        var session: Int32 = -1
        /// `Instance.generation`, kept in 32 bits there too.
        let generation: UInt32
        let dialect: Dialect
        let ownerReason: OwnerReason?
        var openState: LaneState?
        var beenOnScreen = false
        var viewShown: Bool?

        init(className: String, removal: Int32, owner: Int32, generation: Int, dialect: Dialect, ownerReason: OwnerReason?) {
            (self.className, self.removal, self.owner) = (className, removal, owner)
            (self.generation, self.dialect, self.ownerReason) = (UInt32(truncatingIfNeeded: generation), dialect, ownerReason)
        }

        /// Where its open interval starts (it has one), from the interval's first word in `intervals`.
        func openStart(in intervals: WordList) -> Int {
            Int(intervals[lists.intervals + 2 * Int(lists.intervalCount)] >> 4)
        }
    }
    @exclusivity(unchecked) private var foldedLanes = ChunkedArray<FoldedLane>()
    @exclusivity(unchecked) private var foldedRead = BlocksReadOnce()
    /// The folded lanes whose logs went, by a hash of their serial (`serialHash`).
    @exclusivity(unchecked) private var foldedBySerial = RowsByHash()
    /// `TimelineOptions.foldsLaneLogs`, `.summarizesClasses` and `.keepsClasses`.
    private let foldsLogs: Bool
    private let summarizesClasses: Bool
    private let keepsClasses: Bool
    /// The serials of deallocated instances whose logs still hold them, oldest first from `awaitingHead`.
    @exclusivity(unchecked) private var awaitingRelease: [Int] = []
    @exclusivity(unchecked) private var awaitingHead = 0
    /// `TimelineOptions.retiresDeadLanes`.
    private let retiresDeadLanes: Bool

    // The flat lists (`CompactTimeline`).
    @exclusivity(unchecked) private var stamps: StampTable
    /// The input's dates (`Instrumentation.times`), by which times are packed while it is read.
    private let dates: PackedTime.Table
    /// The sessions moved into the flat lists, in the order they ended.
    @exclusivity(unchecked) private var done: [CompactTimeline.Session] = []
    @exclusivity(unchecked) private var lanesDone = ChunkedArray<CompactTimeline.Lane>()
    /// Per lane: its class's entry (its kind is decided by the whole input) and whether the
    /// session judged its dealloc.
    /// (nil: the class folded while its lane was recorded, whose entry may have gone dormant: read by name.)
    @exclusivity(unchecked) private var laneEntries: [Instrumentation.ClassEntry?] = []
    @exclusivity(unchecked) private var laneJudgedInSession: [Bool] = []
    @exclusivity(unchecked) private var callbacks = WordList()
    @exclusivity(unchecked) private var intervals = WordList()
    @exclusivity(unchecked) private var members = WordList()
    @exclusivity(unchecked) private var transitionsDone = CompactTimeline.TransitionList()
    @exclusivity(unchecked) private var warningsDone: [CompactTimeline.Warning] = []
    @exclusivity(unchecked) private var laneExtras = CompactTimeline.LaneExtras()
    @exclusivity(unchecked) private var endTimes: [Int: LogTime] = [:]
    /// Without lanes: each class's tally, the UIKit instances counted in theirs and those whose owner and removal
    /// are in it too (`settledSerials`), and the session of each instance that may be reported as a leak (removed, never
    /// deallocated), by its label.
    @exclusivity(unchecked) private var tallies = ClassTallies()
    @exclusivity(unchecked) private var counted = SerialSet()
    @exclusivity(unchecked) private var settledSerials = SerialSet()
    @exclusivity(unchecked) private var leakLabels = StringArena()
    @exclusivity(unchecked) private var leakLabelSessions: [Int] = []

    /// `dates`: the input's (`Instrumentation.times`).
    init(lanes: Bool = true, dates: PackedTime.Table = PackedTime.Table(), retiresDeadLanes: Bool = true, foldsLogs: Bool = true,
         summarizesClasses: Bool = true, keepsClasses: Bool = true) {
        self.retiresDeadLanes = retiresDeadLanes
        self.foldsLogs = foldsLogs
        self.summarizesClasses = summarizesClasses
        self.keepsClasses = keepsClasses
        self.lanes = lanes
        self.dates = dates
        stamps = StampTable(sparse: !lanes)
    }

    func begin(session serial: Int, process: String, pid: Int?) {
        sessionBySerial[serial] = SessionLog(serial: serial, process: process, pid: pid)
    }

    private func stamp(_ e: Event, _ s: SessionLog) {
        order += 1
        current = TimelineStamp(line: e.line, order: order, time: e.time)
        currentKept = -1
        // With lanes every event is kept (a callback or a warning), in order.
        if lanes { currentKept = stamps.append(current, dates) }
        if s.first == nil { s.first = current }
        s.last = current
        s.events += 1
        if e.time != nil { s.hasTimes = true }
    }

    /// The index of the current event's stamp, kept now if it was not.
    private func keepCurrent() -> Int {
        if currentKept < 0 { currentKept = stamps.append(current, dates) }
        return currentKept
    }

    private func stampLine(_ k: Int) -> Int { stamps.line(k) }

    func warning(_ e: Event, session serial: Int) {
        guard let s = sessionBySerial[serial] else { return }
        stamp(e, s)
        guard lanes else { return }
        s.warnings.append(CompactTimeline.Warning(kind: e.kind, stamp: keepCurrent(), className: e.className, text: e.text ?? ""))
    }

    /// An event routed to `inst`, before the state machine applies it.
    func callback(_ e: Event, _ inst: Instance, session serial: Int) {
        guard let s = sessionBySerial[serial] else { return }
        stamp(e, s)
        let bit: UInt64 = 1 << CompactTimeline.kindIndex[e.kind]!
        guard lanes else {
            // Counted at its first callback, in the order its session meets it; its callbacks' kinds as they come.
            let new = !counted.contains(inst.serial)
            let k = tallies.tally(inst.className, inst.dialect, first: new ? (s.serial, s.made) : nil)
            if new {
                counted.insert(inst.serial)
                s.made += 1
                tallies[k].instances += 1
                s.tallied[k, default: 0] += 2
                s.tallied[k]! |= 1
            }
            tallies[k].kinds |= bit
            return
        }
        let log = log(of: inst.serial, in: s, making: { InstanceLog(inst) })
        var toParent: Bool?
        if e.kind == .willMoveToParent || e.kind == .didMoveToParent {
            switch e.parent {
            case .none: toParent = false
            case .parent: toParent = true
            case .unknown: toParent = nil
            }
        }
        log.kinds |= bit
        if log.retired >= 0 { reopen(log) }
        log.callbacks.append(CompactTimeline.packCallback(stamp: keepCurrent(), kind: e.kind, toParent: toParent))
    }

    /// The log of instance `serial` in session `s`, made at its first callback (with lanes, and for Android's
    /// instances without: they are tallied when their session ends).
    private func log(of serial: Int, in s: SessionLog, making make: () -> InstanceLog) -> InstanceLog {
        if lanes {
            if let known = instances[UInt64(serial)] { return known }
            let log = make()
            instances[UInt64(serial)] = log
            log.ordinal = s.instances.count
            log.session = Int32(exactly: s.serial) ?? -1
            s.instances.append(.log(log))
            return log
        }
        if let known = s.live[serial] { return known }
        let log = make()
        log.ordinal = s.made
        s.made += 1
        s.live[serial] = log
        return log
    }

    /// Without lanes: a UIKit instance whose owner and removal nothing can change any more (deallocated, forgotten,
    /// or alive when its session ends, folded or not) adds them to its tally. The session calls it for those it
    /// still has when it ends (`SessionTimeline.finish`, `reportFoldedLeaks`) and for one it forgets.
    func settled(_ inst: Instance, session serial: Int) {
        guard !lanes, counted.contains(inst.serial), settledSerials.insert(inst.serial) else { return }
        let k = tallies.tally(inst.className, inst.dialect, first: nil)
        // An Android object's use ends at its onCleared, which frees nothing (`UnjudgedClass.removedWithoutDealloc`).
        if inst.dialect.isAndroid ? !inst.isAlive : inst.removal != nil && inst.isAlive { tallies[k].removed += 1 }
        if inst.removal != nil && inst.isAlive {
            // The leaks name their session by their controller's label (`result`).
            if let id = leakLabels.intern(inst.label) {
                if id == leakLabelSessions.count { leakLabelSessions.append(serial) } else { leakLabelSessions[id] = max(leakLabelSessions[id], serial) }
            }
        }
        if let o = inst.ownerRef {
            tallies[k].owners[ClassSummaryBuilder.ownerKey(o, inst.ownerReason), default: 0] += 1
        } else {
            tallies[k].unowned += 1
        }
    }

    /// Without lanes: an Android instance at its session's end goes into its tally, and its log goes.
    private func tally(_ log: InstanceLog, in s: SessionLog) {
        s.live[log.serial] = nil
        guard let android = log.android else { return }
        let k = tallies.tally(android.entry.name, log.dialect, first: (s.serial, log.ordinal))
        tallies[k].instances += 1
        tallies[k].kinds |= log.kinds
        // Its use ended (onDestroy, onCleared): only the garbage collector's evidence could tell whether it went.
        if log.dialect.isAndroid && log.dealloc >= 0 { tallies[k].removed += 1 }
        tallies[k].unowned += 1
        s.tallied[k, default: 0] += 2
    }

    /// An Android callback routed to `inst` (docs/lifecycle.md#android-activities-and-fragments), before its table
    /// applies it.
    func androidCallback(_ e: Event, _ inst: AndroidInstance, session serial: Int) {
        guard let s = sessionBySerial[serial] else { return }
        stamp(e, s)
        // Without lanes an Android instance is tallied when its session ends (a fragment's onDetach follows its onDestroy).
        let log = log(of: inst.serial, in: s, making: { InstanceLog(inst) })
        let bit: UInt64 = 1 << CompactTimeline.kindIndex[e.kind]!
        log.kinds |= bit
        if lanes {
            if log.retired >= 0 { reopen(log) }
            log.callbacks.append(CompactTimeline.packCallback(stamp: keepCurrent(), kind: e.kind, toParent: nil))
        }
    }

    /// After Android's table applied the callback: the lane, in the swimlanes' states (created: loaded, started:
    /// appearing, resumed: visible, paused: disappearing, stopped: hidden); it ends at `onDestroy`.
    func androidApplied(_ e: Event, _ inst: AndroidInstance, session serial: Int) {
        guard lanes else {
            // Without lanes only whether its use ended counts.
            if inst.state == .destroyed, let log = sessionBySerial[serial]?.live[inst.serial], log.dealloc < 0 { log.dealloc = 0 }
            return
        }
        guard let log = instances[UInt64(inst.serial)], log.dealloc < 0 else { return }
        let st = keepCurrent()
        if inst.state == .destroyed {
            close(log, at: st, openAtEnd: false)
            log.dealloc = st
            retire(log)
            return
        }
        let state: LaneState
        switch inst.state {
        // A constructed instance is made, not yet placed: drawn as loaded.
        case .unknown: state = inst.lastKind == .initialize ? .loaded : .unknown
        case .attached, .created, .viewCreated: state = log.beenOnScreen ? .hidden : .loaded
        case .started: log.beenOnScreen = true; state = .appearing
        case .resumed: log.beenOnScreen = true; state = .visible
        case .paused: state = .disappearing
        case .stopped, .viewDestroyed, .detached, .destroyed: state = .hidden
        }
        if state != log.openState {
            close(log, at: st, openAtEnd: false)
            log.openState = state
            log.openStart = st
        }
    }

    /// After the state machine applied the event: the instance's lane.
    func applied(_ e: Event, _ inst: Instance, session serial: Int) {
        guard lanes else {
            if !inst.isAlive { settled(inst, session: serial) }
            return
        }
        guard let log = instances[UInt64(inst.serial)] else { return }
        let st = keepCurrent()
        if e.kind.isViewAppearance { log.viewShown = e.kind == .onAppear }
        if log.dealloc < 0 {
            if !inst.isAlive {
                close(log, at: st, openAtEnd: false)
                log.dealloc = st
                retire(log)
            } else {
                let state = laneState(inst, log)
                if state != log.openState {
                    close(log, at: st, openAtEnd: false)
                    log.openState = state
                    log.openStart = st
                }
            }
        }
    }

    private func laneState(_ inst: Instance, _ log: InstanceLog) -> LaneState {
        // A SwiftUI view: visible from its onAppear to its onDisappear (its instance's appearance
        // is not the controllers' state machine's).
        if let shown = log.viewShown {
            if shown { log.beenOnScreen = true; return .visible }
            return .hidden
        }
        switch inst.appearance {
        case .unknown: return .unknown
        case .appearing: log.beenOnScreen = true; return .appearing
        case .visible: log.beenOnScreen = true; return .visible
        case .disappearing: log.beenOnScreen = true; return .disappearing
        case .hidden: return log.beenOnScreen || inst.appearedEver ? .hidden : .loaded
        }
    }

    private func close(_ log: InstanceLog, at end: Int, openAtEnd: Bool) {
        guard let state = log.openState, log.openStart >= 0 else { return }
        let (a, b) = CompactTimeline.packInterval(state: state, start: log.openStart, end: end, openAtEnd: openAtEnd)
        log.intervals.append(a)
        log.intervals.append(b)
        log.openState = nil
        log.openStart = -1
    }

    /// A deallocated instance's lists move into the flat lists, where its session's end finds them: a long session
    /// holds its instances until it ends, but not their lists (docs/performance.md#the-other-commands). Nothing
    /// closes an interval after the dealloc; a callback after it brings the callbacks back (`reopen`).
    private func retire(_ log: InstanceLog) {
        guard retiresDeadLanes else { return }
        log.retired = Int32(retired.count)
        retired.append(RetiredLists(callbacks: callbacks.count, intervals: intervals.count, callbackCount: Int32(log.callbacks.count),
                                    intervalCount: Int32(log.intervals.count / 2)))
        intervals.append(contentsOf: log.intervals)
        log.intervals = SmallWords()
        callbacks.append(contentsOf: log.callbacks)
        log.callbacks = CallbackList()
        if log.instance != nil {
            awaitingRelease.append(log.serial)
            releaseUnheld()
        }
    }

    /// Lets go of the instances of the oldest two deallocated lanes (of those waiting) that nothing but their logs
    /// holds any more: nothing can reach such an instance, so nothing can change it, and its lane keeps what it
    /// needs of it (`ReleasedInstance`). One still held by the state machine (its address remembered, an owner's
    /// list, a transition) waits its turn again. Two a deallocation keeps the queue's scan linear.
    private func releaseUnheld() {
        for _ in 0..<2 where awaitingHead < awaitingRelease.count {
            let serial = awaitingRelease[awaitingHead]
            awaitingHead += 1
            // A log whose session moved it into the flat lists is gone.
            guard let log = instances[UInt64(serial)], log.instance != nil, log.retired >= 0, log.session >= 0, log.ordinal >= 0,
                  let s = sessionBySerial[Int(log.session)] else { continue }
            guard isKnownUniquelyReferenced(&log.instance) else {
                awaitingRelease.append(serial)
                continue
            }
            let i = log.instance!
            let removal = i.removal.map { Int32(releasedRemovals.append($0, dates: dates)) } ?? -1
            let owner = i.ownerRef.map { releasedOwners.number($0) } ?? -1
            // Its lane leaves its log: the log and the instance go.
            s.instances[log.ordinal] = .released(Int32(released.count))
            released.append(ReleasedInstance(serial: serial, entry: i.entry, address: i.address ?? 0, generation: i.generation,
                                             dealloc: log.dealloc, retired: log.retired, removal: removal, owner: owner,
                                             ownerReason: owner >= 0 ? i.ownerReason : nil, dialect: i.dialect))
            instances[UInt64(serial)] = nil
        }
        // The queue's consumed head is let go once it is most of it.
        if awaitingHead > 1024 && awaitingHead * 2 > awaitingRelease.count {
            awaitingRelease.removeFirst(awaitingHead)
            awaitingHead = 0
        }
    }

    /// The state machine folded `inst` away with its idle class: its log keeps what its lane needs (`FoldedLane`) and
    /// lets go of it. Nothing changes a folded instance: a line of its class unfolds it first.
    func folded(_ inst: Instance) {
        guard lanes, let log = instances[UInt64(inst.serial)], log.instance === inst, log.foldedAt < 0 else { return }
        let removal = inst.removal.map { Int32(releasedRemovals.append($0, dates: dates)) } ?? -1
        let owner = inst.ownerRef.map { releasedOwners.number($0) } ?? -1
        var lane = FoldedLane(className: inst.className, removal: removal, owner: owner, generation: inst.generation, dialect: inst.dialect,
                              ownerReason: owner >= 0 ? inst.ownerReason : nil)
        let k = foldedLanes.count
        // A folded instance is alive, so its lists were never retired.
        if foldsLogs, log.retired < 0, log.dealloc < 0, log.ordinal >= 0, log.session >= 0, let s = sessionBySerial[Int(log.session)],
           let row = UInt32(exactly: k), row < UInt32.max, foldedBySerial.insert(row, for: Self.serialHash(inst.serial)) {
            let open = log.openState != nil && log.openStart >= 0
            lane.lists = RetiredLists(callbacks: callbacks.count, intervals: intervals.count, callbackCount: Int32(log.callbacks.count),
                                      intervalCount: Int32(log.intervals.count / 2))
            callbacks.append(contentsOf: log.callbacks)
            intervals.append(contentsOf: log.intervals)
            if open, let state = log.openState {
                let (a, b) = CompactTimeline.packInterval(state: state, start: log.openStart, end: log.openStart, openAtEnd: true)
                intervals.append(a)
                intervals.append(b)
            }
            (lane.serial, lane.ordinal, lane.session) = (log.serial, Int32(log.ordinal), log.session)
            (lane.openState, lane.beenOnScreen, lane.viewShown) = (open ? log.openState : nil, log.beenOnScreen, log.viewShown)
            foldedLanes.append(lane)
            s.instances[log.ordinal] = .folded(Int32(row))
            instances[UInt64(inst.serial)] = nil
            return
        }
        // Its place must fit the field it shares with `retired` (a folded instance's lists were never retired).
        guard log.retired < 0, let at = Int32(exactly: k), at < Int32.max - 1 else { return }
        log.foldedAt = at
        foldedLanes.append(lane)
        log.instance = nil
    }

    /// `foldedBySerial`'s hash of a serial: its bits spread over the high half, which the table keeps.
    private static func serialHash(_ serial: Int) -> UInt64 { UInt64(bitPattern: Int64(serial)) &* 0x9E37_79B9_7F4A_7C15 }

    /// A line of its class brought a folded instance back (`SessionTimeline.unfold`): its log holds it again, made
    /// again from its folded lane if it went (its lists copied back, their copy in the flat lists left unused).
    func unfolded(_ inst: Instance) {
        guard lanes else { return }
        if let log = instances[UInt64(inst.serial)] {
            guard log.instance == nil, log.foldedAt >= 0 else { return }
            _ = takeFolded(Int(log.foldedAt))
            log.foldedAt = -1
            log.instance = inst
            return
        }
        let hash = Self.serialHash(inst.serial)
        guard let row = foldedBySerial[hash], foldedLanes[Int(row)].serial == inst.serial else { return }
        foldedBySerial.remove(hash)
        let (f, _) = takeFolded(Int(row))
        guard let s = sessionBySerial[Int(f.session)] else { return }
        let log = InstanceLog(inst)
        log.callbacks.append(contentsOf: callbacks[f.lists.callbacks..<(f.lists.callbacks + Int(f.lists.callbackCount))])
        log.intervals.append(contentsOf: intervals[f.lists.intervals..<(f.lists.intervals + 2 * Int(f.lists.intervalCount))])
        (log.ordinal, log.session) = (Int(f.ordinal), f.session)
        (log.openState, log.beenOnScreen, log.viewShown) = (f.openState, f.beenOnScreen, f.viewShown)
        if f.openState != nil { log.openStart = f.openStart(in: intervals) }
        instances[UInt64(inst.serial)] = log
        s.instances[Int(f.ordinal)] = .log(log)
    }

    /// Folded lane `k` and its removal, read for the last time.
    private func takeFolded(_ k: Int) -> (FoldedLane, Removal?) {
        let f = foldedLanes[k]
        foldedRead.done(k, in: &foldedLanes)
        var removal: Removal?
        if f.removal >= 0 {
            removal = releasedRemovals.removal(Int(f.removal), unpack: dates.unpack)
            releasedRemovals.done(Int(f.removal), &removalsRead)
        }
        return (f, removal)
    }

    /// A callback after its instance's dealloc (`event_after_dealloc`): the lists retired come back into its log,
    /// their copy in the flat lists left unused (once per such instance: its session's end moves them again).
    private func reopen(_ log: InstanceLog) {
        let r = retired[Int(log.retired)]
        log.callbacks.append(contentsOf: callbacks[r.callbacks..<(r.callbacks + Int(r.callbackCount))])
        log.intervals.append(contentsOf: intervals[r.intervals..<(r.intervals + 2 * Int(r.intervalCount))])
        retiredRead.done(Int(log.retired), in: &retired)
        log.retired = -1
    }

    /// A transition the state machine settled and named (`SessionTimeline.name`).
    func settled(_ t: Transition, session serial: Int, kind: TransitionKind) {
        guard lanes, let s = sessionBySerial[serial], !t.members.isEmpty else { return }
        // Its extent: from the earliest will-callback of a member to its latest callback.
        func find(_ line: Int, _ serial: Int) -> TimelineStamp? {
            guard let log = instances[UInt64(serial)] else { return nil }
            let found: UInt64?
            if log.retired >= 0 {
                let r = retired[Int(log.retired)]
                found = callbacks[r.callbacks..<(r.callbacks + Int(r.callbackCount))].last(where: { stampLine(Int($0 >> 8)) == line })
            } else {
                found = log.callbacks.last(where: { stampLine(Int($0 >> 8)) == line })
            }
            guard let v = found else { return nil }
            let k = Int(v >> 8)
            // While the input is read the table unpacks its times (the frozen dates come at its end).
            return TimelineStamp(line: stamps.line(k), order: stamps.order(k), time: stamps.time(k, dates))
        }
        guard let from = t.members.compactMap({ find($0.will.line, $0.instance.serial) }).min(by: { $0.order < $1.order }) else { return }
        var to = current.line == t.lastLine ? current : (t.members.lazy.compactMap { find(t.lastLine, $0.instance.serial) }.first ?? from)
        if to.order < from.order { to = from }
        let start = s.members.count
        for m in t.members {
            s.members.append(UInt64(m.instance.serial) << 3 | (m.initialDirection == .appear ? 4 : 0) | (m.direction == .appear ? 2 : 0) | (m.done ? 1 : 0))
        }
        s.transitions.append(CompactTimeline.Transition(kind: kind, start: stampIndex(from), end: stampIndex(to), members: start..<s.members.count))
        s.lastTransitionSerial = t.serial
    }

    /// A marker after it settled said more of the state machine's transition `transition`
    /// (`SessionTimeline.refine`): the session's latest recorded one, if it is that one.
    func renamed(serial transition: Int, session serial: Int, kind: TransitionKind) {
        guard let s = sessionBySerial[serial], s.lastTransitionSerial == transition, !s.transitions.isEmpty else { return }
        s.transitions.renameLast(kind)
    }

    /// The session ended. Without lanes it moves into its tallies now. With lanes it waits for `released`: its lanes
    /// still open end with it, and it moves into the flat lists once the state machine has let go of its instances,
    /// so that each instance goes as its lane is moved (a session of 400k live objects held them all beside their
    /// lanes).
    func finished(session serial: Int, deallocDialects: Set<Dialect>, lastTime: LogTime?) {
        guard let s = sessionBySerial[serial] else { return }
        s.endTime = lastTime
        s.deallocDialects = deallocDialects
        if !lanes { move(s, deallocDialects: deallocDialects) }
    }

    /// The state machine let go of the session's instances (`SessionTimeline.finish`): with lanes, it moves into
    /// the flat lists, its lanes still open ending with it.
    func released(session serial: Int) {
        guard lanes, let s = sessionBySerial[serial], let deallocDialects = s.deallocDialects else { return }
        var end = -1
        move(s, deallocDialects: deallocDialects, closingAt: {
            if end < 0 { end = s.last.map { self.stampIndex($0) } ?? self.keepCurrent() }
            return end
        })
    }

    /// How many lanes `move` wrote; the heap's free pages are given back at every 64k of them (the pages of 64k
    /// instances and logs, about 18 MB, or of 64k deallocated instances' records, about 9 MB: six trims on 400k
    /// objects, whose time does not show beside the run's).
    @exclusivity(unchecked) private var lanesMoved = 0
    private static let trimEvery = (1 << 16) - 1

    /// Moves a session's lanes, transitions and warnings into the flat lists (without lanes: its instances into
    /// their tallies) and releases its logs (and with them its instances). Its UIKit instances of
    /// `deallocDialects` had their dealloc judged in it. With `closingAt`, a lane still open ends at the stamp it
    /// gives (its session's end), its last interval going straight into the flat lists.
    private func move(_ s: SessionLog, deallocDialects: Set<Dialect>, closingAt end: (() -> Int)? = nil) {
        sessionBySerial[s.serial] = nil
        if !lanes {
            for log in Array(s.live.values) { tally(log, in: s) }
            for (k, v) in s.tallied where v & 1 != 0 && deallocDialects.contains(tallies[k].dialect.family) { tallies[k].judgedInSession = true }
            tallies.ended(session: s.serial, tallied: s.tallied)
            s.tallied = [:]
        }
        let laneStart = lanesDone.count
        for place in 0..<s.instances.count {
            let slot = s.instances[place]
            var extra = CompactTimeline.LaneExtra()
            let serial: Int, className: String, address: UInt64, generation: Int
            // nil for an instance folded with its class: the class's entry may be dormant (`result` reads it by name).
            let entry: Instrumentation.ClassEntry?
            var dialect: Dialect, dealloc: Int, uikit: Bool
            // A deallocated instance's lists are in the flat lists already (`retire`).
            var lists: RetiredLists
            switch slot {
            case .released(let k):
                let r = released[Int(k)]
                releasedRead.done(Int(k), in: &released)
                if r.removal >= 0 {
                    extra.removal = releasedRemovals.removal(Int(r.removal), unpack: dates.unpack)
                    releasedRemovals.done(Int(r.removal), &removalsRead)
                }
                if r.owner >= 0 {
                    extra.owner = releasedOwners[r.owner]
                    extra.ownerReason = r.ownerReason
                }
                (serial, className, address, generation, entry) = (r.serial, r.entry.name, r.address, r.generation, r.entry)
                (dialect, dealloc, uikit, lists) = (r.dialect, r.dealloc, true, retired[Int(r.retired)])
                retiredRead.done(Int(r.retired), in: &retired)
            case .folded(let k):
                let (f, removal) = takeFolded(Int(k))
                foldedBySerial.remove(Self.serialHash(f.serial))
                extra.removal = removal
                if f.owner >= 0 {
                    extra.owner = releasedOwners[f.owner]
                    extra.ownerReason = f.ownerReason
                }
                (serial, className, address, generation, entry) = (f.serial, f.className, 0, Int(f.generation), nil)
                (dialect, dealloc, uikit, lists) = (f.dialect, -1, true, f.lists)
                // Its open interval's end, kept after its closed ones, is its session's end; without one it is left out.
                if f.openState != nil, let end {
                    intervals[f.lists.intervals + 2 * Int(f.lists.intervalCount) + 1] = UInt64(end())
                    lists.intervalCount += 1
                }
                s.instances[place] = .released(-1)
            case .log(let log):
                instances[UInt64(log.serial)] = nil
                (serial, dialect, dealloc, uikit) = (log.serial, log.dialect, log.dealloc, log.instance != nil)
                if let i = log.instance {
                    extra.removal = i.removal
                    extra.owner = i.ownerRef
                    extra.ownerReason = i.ownerReason
                    (className, address, generation, entry) = (i.className, i.address ?? 0, i.generation, i.entry)
                } else if log.foldedAt >= 0 {
                    let (f, removal) = takeFolded(Int(log.foldedAt))
                    log.foldedAt = -1
                    extra.removal = removal
                    if f.owner >= 0 {
                        extra.owner = releasedOwners[f.owner]
                        extra.ownerReason = f.ownerReason
                    }
                    // A folded instance has no address (`Instance.foldable`).
                    (className, address, generation, entry) = (f.className, 0, Int(f.generation), nil)
                    (dialect, uikit) = (f.dialect, true)
                } else {
                    let a = log.android!
                    (className, address, generation, entry) = (a.entry.name, a.address ?? 0, a.generation, a.entry)
                }
                if log.retired >= 0 {
                    lists = retired[Int(log.retired)]
                    retiredRead.done(Int(log.retired), in: &retired)
                } else {
                    var closing: (UInt64, UInt64)?
                    if let end, log.dealloc < 0, let state = log.openState, log.openStart >= 0 {
                        closing = CompactTimeline.packInterval(state: state, start: log.openStart, end: end(), openAtEnd: true)
                    }
                    lists = RetiredLists(callbacks: callbacks.count, intervals: intervals.count, callbackCount: Int32(log.callbacks.count),
                                         intervalCount: Int32(log.intervals.count / 2 + (closing == nil ? 0 : 1)))
                    callbacks.append(contentsOf: log.callbacks)
                    intervals.append(contentsOf: log.intervals)
                    if let (a, b) = closing {
                        intervals.append(a)
                        intervals.append(b)
                    }
                }
                // Let go as it is copied: the session's lists and the flat ones are not held whole at once, nor its
                // logs and its lanes (the slot held the log's last reference).
                log.callbacks = CallbackList()
                log.intervals = SmallWords()
                s.instances[place] = .released(-1)
            }
            lanesMoved += 1
            if lanesMoved & Self.trimEvery == 0 { LibC.releaseFreeMemory() }
            let hasExtra = extra.removal != nil || extra.owner != nil
            if hasExtra { laneExtras.append(extra, lane: lanesDone.count, dates: dates) }
            lanesDone.append(CompactTimeline.Lane(
                serial: serial, className: className, address: address, generation: generation,
                callbackStart: lists.callbacks, callbackCount: lists.callbackCount,
                intervalCount: lists.intervalCount, intervalStart: lists.intervals,
                dealloc: dealloc, dialect: dialect, kind: .controller, deallocInstrumented: false, hasExtra: hasExtra))
            laneEntries.append(entry)
            laneJudgedInSession.append(uikit && deallocDialects.contains(dialect.family))
        }
        s.instances = ChunkedArray()
        if sessionBySerial.isEmpty {
            // No log refers to what was kept of deallocated instances any more. Once that was much, the heap's free
            // pages go back too (the views that follow draw from what is left).
            let wasMuch = retired.count > Self.trimEvery
            (released, releasedRemovals, releasedOwners, retired) = (ChunkedArray(), CompactTimeline.RemovalStore(), CompactTimeline.OwnerTable(), ChunkedArray())
            (releasedRead, retiredRead, removalsRead) = (BlocksReadOnce(), BlocksReadOnce(), BlocksReadOnce())
            (foldedLanes, foldedRead, foldedBySerial) = (ChunkedArray(), BlocksReadOnce(), RowsByHash())
            if wasMuch { LibC.releaseFreeMemory() }
            (awaitingRelease, awaitingHead) = ([], 0)
        }
        guard let first = s.first, let last = s.last else { return }
        let transitionStart = transitionsDone.count, warningStart = warningsDone.count
        warningsDone.append(contentsOf: s.warnings)
        if transitionsDone.isEmpty && members.isEmpty {
            // The first session with transitions (often the only one) hands its lists over, without a copy.
            transitionsDone = s.transitions
            members = s.members
        } else {
            let memberBase = members.count
            members.append(contentsOf: s.members)
            for var t in s.transitions {
                t.members = (t.members.lowerBound + memberBase)..<(t.members.upperBound + memberBase)
                transitionsDone.append(t)
            }
        }
        let transitionCount = s.transitions.count
        s.transitions = CompactTimeline.TransitionList()
        s.members = WordList()
        // The end time is packed like the events' times.
        var endTime: UInt64 = 0
        if let t = s.endTime {
            endTime = dates.pack(t) ?? PackedTime.elsewhere
            if endTime == PackedTime.elsewhere { endTimes[s.serial] = t }
        }
        done.append(CompactTimeline.Session(
            serial: s.serial, process: s.process, pidValue: s.pid ?? Int.min, instances: laneStart..<lanesDone.count,
            first: stampIndex(first), last: stampIndex(last), endTime: endTime, events: s.events, hasTimes: s.hasTimes,
            transitionStart: transitionStart, warningStart: warningStart,
            transitionCount: UInt32(transitionCount), warningCount: UInt32(s.warnings.count)))
    }

    /// The index of a stamp already kept (with lanes every event is), else kept now.
    private func stampIndex(_ st: TimelineStamp) -> Int {
        if !stamps.sparse { return st.order - 1 }
        return stamps.append(st, dates)
    }

    /// What the instance's lane is, from what its class logs in the input (`LaneKind`).
    static func laneKind(_ entry: Instrumentation.ClassEntry) -> LaneKind {
        let kinds = entry.kinds
        if kinds.contains(.onAppear) || kinds.contains(.onDisappear) { return .view }
        // The timeline's own test (docs/lifecycle.md#objects), on what the class logged in the whole input.
        return entry.isObjectClass ? .object : .controller
    }

    /// The recording, once every session has finished.
    func result(observations: ObservationList, instrumentation: Instrumentation) -> TimelineRecording {
        // A session that never finished (its input stopped midway) is moved as it stands.
        for s in sessionBySerial.values.sorted(by: { $0.serial < $1.serial }) { move(s, deallocDialects: s.deallocDialects ?? []) }
        done.sort { $0.serial < $1.serial }
        // Kinds are decided once per class, by what it logged in the whole input.
        var kindOf: [ObjectIdentifier: LaneKind] = [:]
        var deallocLogged: [ObjectIdentifier: Bool] = [:]
        func decide(_ entry: Instrumentation.ClassEntry) -> (kind: LaneKind, logs: Bool) {
            let key = ObjectIdentifier(entry)
            let kind: LaneKind
            if let known = kindOf[key] { kind = known } else { kind = Self.laneKind(entry); kindOf[key] = kind }
            let logs: Bool
            if let known = deallocLogged[key] { logs = known } else { logs = instrumentation.logs(entry.name, .dealloc); deallocLogged[key] = logs }
            return (kind, logs)
        }
        // A class folded while its lanes were recorded, as the tallies read theirs (`readingEntry`, not cached).
        func decide(className name: String) -> (kind: LaneKind, logs: Bool) {
            (instrumentation.readingEntry(name).map(Self.laneKind) ?? .controller, instrumentation.logs(name, .dealloc))
        }
        // An object class is judged only when it logs its own deinit (docs/lifecycle.md#objects).
        // An Android instance is judged by the garbage collector's evidence, which no dealloc line gives
        // (docs/lifecycle.md#android-evidence): when the input holds LeakCanary's lines.
        func judged(_ dialect: Dialect, _ kind: LaneKind, logs: Bool, inSession: Bool) -> Bool {
            dialect.isAndroid ? heapEvidence : kind == .object ? logs : inSession || logs
        }
        for j in lanesDone.indices {
            let (kind, logs) = laneEntries[j].map(decide) ?? decide(className: lanesDone[j].className)
            lanesDone[j].kind = kind
            lanesDone[j].deallocInstrumented = judged(lanesDone[j].dialect, kind, logs: logs, inSession: laneJudgedInSession[j])
            if kind != .object, lanesDone[j].hasExtra { laneExtras.dropOwner(lane: j) }
        }
        laneEntries = []
        laneJudgedInSession = []
        // What each tallied class logged in the whole input (its entry, or its dormant row's: an entry made for the
        // reading, not cached by identity as `decide` caches the lanes' entries).
        var decided: [(kind: LaneKind, logs: Bool)] = []
        for k in tallies.tallies.indices {
            let name = tallies.className(k)
            let kind = instrumentation.readingEntry(name).map(Self.laneKind) ?? .controller
            decided.append((kind, instrumentation.logs(name, .dealloc)))
        }
        // Every class is decided: the dormant ones' rows are not read again, and go before the classes are summed.
        instrumentation.letGoOfDormantClasses()
        // Sessions without events are not shown; the others are numbered in the order they began.
        let sessions = done
        done = []
        stamps.freeze(dates)
        laneExtras.freeze(dates)
        let compact = CompactTimeline(stamps: stamps, sessions: sessions, lanes: lanesDone, callbacks: callbacks, intervals: intervals,
                                      members: members, transitions: transitionsDone, warnings: warningsDone, laneExtras: laneExtras, endTimes: endTimes)
        let recorded = RecordedSessions(compact)
        var classes: [RecordedClass] = [], counts: [InstanceCounts] = []
        // What the leak report reads of the classes, read from the lanes when the classes are not kept.
        var facts: (unjudged: [UnjudgedClass], judged: [String], appLifetime: [String])?
        if lanes {
            if summarizesClasses && keepsClasses {
                (classes, counts) = ClassSummaryBuilder.summarize(recorded)
            } else if summarizesClasses {
                facts = ClassSummaryBuilder.leakFacts(lanesOf: compact)
                counts = ClassSummaryBuilder.instanceCounts(compact)
            }
        } else {
            tallies.dropIndex()
            // A class's tallies (one per dialect) are chained: its place in the result is its first tally's. The
            // tallies go in the order a walk over the lanes would have met their first instances.
            let heads = tallies.heads()
            var place = [Int32](repeating: -1, count: tallies.tallies.count)
            var builder = ClassSummaryBuilder()
            builder.reserve(tallies.tallies.count)
            let order = tallies.tallies.indices.sorted { a, b in
                let x = tallies[a].first, y = tallies[b].first
                return (x.session, x.ordinal) < (y.session, y.ordinal)
            }
            let kinds = decided.map(\.kind)
            for k in order {
                let t = tallies[k], head = Int(heads[k])
                let at = builder.add(className: tallies.className(k), dialect: t.dialect, instances: Int(t.instances), kinds: t.kinds,
                                     judged: judged(t.dialect, kinds[k], logs: decided[k].logs, inSession: t.judgedInSession), kind: kinds[k],
                                     owners: t.owners, unowned: Int(t.unowned), removed: Int(t.removed),
                                     at: place[head] < 0 ? nil : Int(place[head]), indexed: false)
                place[head] = Int32(at)
            }
            classes = builder.result()
            counts = sessions.map { s in
                var n = InstanceCounts()
                for v in tallies.sessionCounts[s.serial] ?? [] { n.count(kinds[Int(v >> 32)], Int(v & 0xFFFF_FFFF)) }
                return n
            }
            tallies = ClassTallies()
            counted = SerialSet()
            settledSerials = SerialSet()
        }
        var leaks: [LeakRecord] = []
        var labelSession: [String: Int]?
        var idOfSerial: [Int: Int]?
        func session(of label: String) -> Int {
            if !lanes {
                guard let id = leakLabels.find(label) else { return 0 }
                if idOfSerial == nil { idOfSerial = Dictionary(sessions.enumerated().map { ($1.serial, $0 + 1) }, uniquingKeysWith: { a, _ in a }) }
                return idOfSerial?[leakLabelSessions[id]] ?? 0
            }
            if labelSession == nil {
                var index: [String: Int] = [:]
                for (k, s) in sessions.enumerated() { for j in s.instances { index[compact.lanes[j].label] = k + 1 } }
                labelSession = index
            }
            return labelSession?[label] ?? 0
        }
        for o in observations {
            if case .outlived(let leak)? = o.fact as? ObjectLeakFact {
                leaks.append(LeakRecord(controller: o.controller, session: session(of: o.controller.instance), removal: leak.ownerGone,
                                        anchor: leak.ownerGone.anchor, will: nil, wentOn: leak.wentOn, confirmed: leak.confirmed,
                                        owner: leak.owner, made: leak.made))
                continue
            }
            guard let leak = o.fact as? ControllerLeak else { continue }
            leaks.append(LeakRecord(controller: o.controller, session: session(of: o.controller.instance), removal: leak.removal,
                                    anchor: leak.anchor, will: leak.will, wentOn: leak.wentOn, confirmed: leak.confirmed))
        }
        leakLabels = StringArena()
        leakLabelSessions = []
        let unjudged: [UnjudgedClass], judged: [String], appLifetime: [String]
        if let facts {
            (unjudged, judged, appLifetime) = facts
        } else {
            var rows: [UnjudgedClass]
            (rows, judged, appLifetime) = ClassSummaryBuilder.leakSummary(classes)
            // The classes go before the rows are sorted.
            if !keepsClasses { classes = [] }
            ClassSummaryBuilder.sortUnjudged(&rows)
            unjudged = rows
        }
        return TimelineRecording(recorded: recorded, leaks: leaks, unjudgedClasses: unjudged, classes: classes, instanceCounts: counts,
                                 judgedClasses: judged, appLifetimeClasses: appLifetime)
    }
}

extension TimelineRecorder.InstanceLog: TableKeyed {
    /// Its serial: the recorder's table of the open sessions' logs.
    var tableKey: UInt64 { UInt64(serial) }
}

extension RecordedSessions {
    /// Each instance's session id, instance id and label, in session order: read from the compact
    /// store without building sessions.
    func forEachInstance(_ body: (_ session: Int, _ id: Int, _ label: String) -> Void) {
        if let c = compact {
            for (k, s) in c.sessions.enumerated() { for j in s.instances { body(k + 1, c.lanes[j].serial, c.lanes[j].label) } }
            return
        }
        for s in self { for i in s.instances { body(s.id, i.id, i.controller.instance) } }
    }

    /// Each UIKit warning's session id and line, in session order.
    func forEachWarning(_ body: (_ session: Int, _ line: Int) -> Void) {
        if let c = compact {
            for (k, s) in c.sessions.enumerated() where s.warningCount > 0 {
                for w in c.warnings[s.warningStart..<(s.warningStart + Int(s.warningCount))] { body(k + 1, c.stamps.line(w.stamp)) }
            }
            return
        }
        for s in self { for w in s.warnings { body(s.id, w.stamp.line) } }
    }

    /// The earliest time of any callback or warning.
    var earliestSeconds: Double? {
        var base: Double?
        if let c = compact {
            for v in c.callbacks { if let t = c.stamps.time(Int(v >> 8)) { base = Swift.min(base ?? t.seconds, t.seconds) } }
            for w in c.warnings { if let t = c.stamps.time(w.stamp) { base = Swift.min(base ?? t.seconds, t.seconds) } }
            return base
        }
        for s in self {
            for i in s.instances { for cb in i.callbacks { if let t = cb.stamp.time { base = Swift.min(base ?? t.seconds, t.seconds) } } }
            for w in s.warnings { if let t = w.stamp.time { base = Swift.min(base ?? t.seconds, t.seconds) } }
        }
        return base
    }

    /// The id of session `k` (0-based), without building it when compact (its ids are 1, 2, …).
    func id(at k: Int) -> Int { compact == nil ? self[k].id : k + 1 }

    /// Session `k`'s (0-based) process and pid, without building it when compact (a leak report
    /// words every leak with them; building the session each time cost its every instance per leak).
    func process(at k: Int) -> (name: String, pid: Int?) {
        if let c = compact { return (c.sessions[k].process, c.sessions[k].pid) }
        let s = self[k]
        return (s.process, s.pid)
    }

    /// The lines of session `k`'s (0-based) first and last events.
    func lineSpan(_ k: Int) -> (first: Int, last: Int) {
        if let c = compact { return (c.stamps.line(c.sessions[k].first), c.stamps.line(c.sessions[k].last)) }
        return (self[k].firstEvent.line, self[k].lastEvent.line)
    }
}
