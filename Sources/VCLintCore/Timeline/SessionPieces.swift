/// A recorded session read a piece at a time: its facts at once, and each instance, transition and
/// event built when it is read. A view that draws through it holds one lane at a time, never the
/// session's every instance (a session of 400k controllers built whole cost `timeline` about 6 KB a
/// controller; docs/performance.md#memory).
struct SessionPieces {
    private enum Source {
        case value(RecordedSession)
        case compact(CompactTimeline, CompactTimeline.Session)
    }
    private let source: Source

    let id: Int
    let process: String
    let pid: Int?
    let firstEvent: TimelineStamp
    let lastEvent: TimelineStamp
    /// The session's latest time seen (noise lines extend a session).
    let endTime: LogTime?
    let hasTimes: Bool
    let eventCount: Int
    let instanceCount: Int
    let transitionCount: Int
    /// A recorder's session whose instances are not in the order of their ids (they usually are): the
    /// position of each id, else nil (found by binary search).
    private let positions: [Int: Int]?

    init(_ s: RecordedSession) {
        source = .value(s)
        id = s.id
        process = s.process
        pid = s.pid
        firstEvent = s.firstEvent
        lastEvent = s.lastEvent
        endTime = s.endTime
        hasTimes = s.hasTimes
        eventCount = s.eventCount
        instanceCount = s.instances.count
        transitionCount = s.transitions.count
        var positions: [Int: Int] = [:]
        for (k, i) in s.instances.enumerated() where positions[i.id] == nil { positions[i.id] = k }
        self.positions = positions
    }

    /// Session `k` (0-based) of a compact store.
    init(_ c: CompactTimeline, at k: Int) {
        let s = c.sessions[k]
        source = .compact(c, s)
        id = k + 1
        process = s.process
        pid = s.pid
        firstEvent = c.stamps.stamp(s.first)
        lastEvent = c.stamps.stamp(s.last)
        endTime = c.stamps.unpack(s.endTime) ?? c.endTimes[s.serial]
        hasTimes = s.hasTimes
        eventCount = s.events
        instanceCount = s.instances.count
        transitionCount = Int(s.transitionCount)
        let lanes = s.instances
        if zip(lanes.dropLast(), lanes.dropFirst()).allSatisfy({ c.lanes[$0].serial < c.lanes[$1].serial }) {
            positions = nil
        } else {
            var positions: [Int: Int] = [:]
            for j in lanes where positions[c.lanes[j].serial] == nil { positions[c.lanes[j].serial] = j - lanes.lowerBound }
            self.positions = positions
        }
    }

    /// Instance `k` (0-based, in the session's order) built whole.
    func instance(_ k: Int) -> RecordedInstance {
        switch source {
        case .value(let s): return s.instances[k]
        case .compact(let c, let s): return c.instance(s.instances.lowerBound + k)
        }
    }

    /// What an instance is, without its callbacks and intervals (`forEachCallback`, `forEachInterval`): what the
    /// JSON timeline and the trace write of it around them.
    struct InstanceHeader {
        var id: Int
        var controller: ControllerRef
        var kind: LaneKind
        var dialect: Dialect
        var removal: Removal?
        var dealloc: TimelineStamp?
        var deallocInstrumented: Bool
        /// Its first callback's stamp.
        var first: TimelineStamp
        var laneLabel: String { RecordedInstance.laneLabel(instance: controller.instance, kind: kind) }
    }

    func header(_ k: Int) -> InstanceHeader {
        switch source {
        case .value(let s):
            let i = s.instances[k]
            return InstanceHeader(id: i.id, controller: i.controller, kind: i.kind, dialect: i.dialect, removal: i.removal, dealloc: i.dealloc,
                                  deallocInstrumented: i.deallocInstrumented, first: i.first)
        case .compact(let c, let s):
            let j = s.instances.lowerBound + k
            let lane = c.lanes[j]
            return InstanceHeader(id: lane.serial, controller: lane.ref, kind: lane.kind, dialect: lane.dialect,
                                  removal: lane.hasExtra ? c.laneExtras[j]?.removal : nil,
                                  dealloc: lane.dealloc >= 0 ? c.stamps.stamp(lane.dealloc) : nil, deallocInstrumented: lane.deallocInstrumented,
                                  first: c.stamps.stamp(Int(c.callbacks[lane.callbackStart] >> 8)))
        }
    }

    /// Instance `k`'s callbacks in order, one at a time, without building them all.
    func forEachCallback<E: Error>(_ k: Int, _ body: (RecordedCallback) throws(E) -> Void) throws(E) {
        switch source {
        case .value(let s):
            for cb in s.instances[k].callbacks { try body(cb) }
        case .compact(let c, let s):
            let lane = c.lanes[s.instances.lowerBound + k]
            for m in lane.callbackStart..<(lane.callbackStart + Int(lane.callbackCount)) { try body(c.callback(c.callbacks[m])) }
        }
    }

    /// Instance `k`'s id, kind and lane label, without building it.
    func instanceID(_ k: Int) -> Int {
        switch source {
        case .value(let s): return s.instances[k].id
        case .compact(let c, let s): return c.lanes[s.instances.lowerBound + k].serial
        }
    }

    func kind(_ k: Int) -> LaneKind {
        switch source {
        case .value(let s): return s.instances[k].kind
        case .compact(let c, let s): return c.lanes[s.instances.lowerBound + k].kind
        }
    }

    func laneLabel(_ k: Int) -> String {
        switch source {
        case .value(let s): return s.instances[k].laneLabel
        case .compact(let c, let s):
            let lane = c.lanes[s.instances.lowerBound + k]
            return RecordedInstance.laneLabel(instance: lane.label, kind: lane.kind)
        }
    }

    /// The position of the first instance whose id is `id`, nil when the session has none: by binary
    /// search when the instances are in the order of their ids, as a recorder's usually are.
    func position(ofInstance id: Int) -> Int? {
        if let positions { return positions[id] }
        guard case .compact(let c, let s) = source else { return nil }
        let j = partitionPoint(s.instances) { c.lanes[$0].serial < id }
        return j < s.instances.upperBound && c.lanes[j].serial == id ? j - s.instances.lowerBound : nil
    }

    /// What instance `k`'s lane is drawn from but its states (`forEachInterval`): its id, controller, kind and dealloc.
    func lanePieces(_ k: Int) -> (id: Int, controller: ControllerRef, kind: LaneKind, dealloc: TimelineStamp?) {
        switch source {
        case .value(let s):
            let i = s.instances[k]
            return (i.id, i.controller, i.kind, i.dealloc)
        case .compact(let c, let s):
            let lane = c.lanes[s.instances.lowerBound + k]
            return (lane.serial, lane.ref, lane.kind, lane.dealloc >= 0 ? c.stamps.stamp(lane.dealloc) : nil)
        }
    }

    /// Instance `k`'s state intervals in order, one at a time, without building them all.
    func forEachInterval<E: Error>(_ k: Int, _ body: (StateInterval) throws(E) -> Void) throws(E) {
        switch source {
        case .value(let s):
            for iv in s.instances[k].intervals { try body(iv) }
        case .compact(let c, let s):
            try c.forEachInterval(of: c.lanes[s.instances.lowerBound + k], body)
        }
    }

    /// What a view says of instance `k` under its lane, without building its callbacks and intervals.
    struct LaneFacts {
        var controller: ControllerRef
        var kind: LaneKind
        var dialect: Dialect
        var removal: Removal?
        var dealloc: TimelineStamp?
        /// Its last `finalize` callback (an Android object's release).
        var lastFinalize: TimelineStamp?
    }

    func facts(_ k: Int) -> LaneFacts {
        let h = header(k)
        var last: TimelineStamp?
        switch source {
        case .value(let s):
            last = s.instances[k].callbacks.last(where: { $0.kind == .finalize })?.stamp
        case .compact(let c, let s):
            let lane = c.lanes[s.instances.lowerBound + k]
            let finalize = CompactTimeline.kindIndex[.finalize]!
            for m in stride(from: lane.callbackStart + Int(lane.callbackCount) - 1, through: lane.callbackStart, by: -1)
            where c.callbacks[m] & 0x3F == finalize {
                last = c.stamps.stamp(Int(c.callbacks[m] >> 8))
                break
            }
        }
        return LaneFacts(controller: h.controller, kind: h.kind, dialect: h.dialect, removal: h.removal, dealloc: h.dealloc, lastFinalize: last)
    }

    /// The stamp of instance `k`'s last callback at or before `line` (its callbacks are in line order), without
    /// building the instance: a finding on a lane of hundreds of thousands of callbacks costs a binary search.
    func lastCallback(ofInstance k: Int, atOrBeforeLine line: Int) -> TimelineStamp? {
        switch source {
        case .value(let s):
            let cbs = s.instances[k].callbacks
            let end = partitionPoint(cbs.indices) { cbs[$0].stamp.line <= line }
            return end > 0 ? cbs[end - 1].stamp : nil
        case .compact(let c, let s):
            let lane = c.lanes[s.instances.lowerBound + k]
            let end = partitionPoint(lane.callbackStart..<(lane.callbackStart + Int(lane.callbackCount))) {
                c.stamps.line(Int(c.callbacks[$0] >> 8)) <= line
            }
            return end > lane.callbackStart ? c.stamps.stamp(Int(c.callbacks[end - 1] >> 8)) : nil
        }
    }

    /// Transition `n` (0-based; its id is `n + 1`) built whole, its members labelled.
    func transition(_ n: Int) -> RecordedTransition {
        switch source {
        case .value(let s): return s.transitions[n]
        case .compact(let c, let s):
            let t = c.transitions[s.transitionStart + n]
            let members = t.members.map { m -> RecordedTransition.Member in
                let v = c.members[m]
                let serial = Int(v >> 3)
                let label = position(ofInstance: serial).map { c.lanes[s.instances.lowerBound + $0].label } ?? ""
                return RecordedTransition.Member(instance: serial, label: label,
                                                 direction: v & 4 != 0 ? .appear : .disappear,
                                                 finalDirection: v & 2 != 0 ? .appear : .disappear, completed: v & 1 != 0)
            }
            return RecordedTransition(id: n + 1, kind: t.kind, start: c.stamps.stamp(t.start), end: c.stamps.stamp(t.end), members: members)
        }
    }

    /// Transition `n`'s id, kind and span, without its members.
    func transitionSpan(_ n: Int) -> (id: Int, kind: TransitionKind, start: TimelineStamp, end: TimelineStamp) {
        switch source {
        case .value(let s):
            let t = s.transitions[n]
            return (t.id, t.kind, t.start, t.end)
        case .compact(let c, let s):
            let t = c.transitions[s.transitionStart + n]
            return (n + 1, t.kind, c.stamps.stamp(t.start), c.stamps.stamp(t.end))
        }
    }

    /// The session's UIKit warnings, in order.
    var warnings: [RecordedWarning] {
        switch source {
        case .value(let s): return s.warnings
        case .compact(let c, let s):
            return c.warnings[s.warningStart..<(s.warningStart + Int(s.warningCount))].map {
                RecordedWarning(kind: $0.kind, stamp: c.stamps.stamp($0.stamp), className: $0.className, text: $0.text)
            }
        }
    }

    /// Every event of the session (its warnings and its instances' callbacks), in order: 4 bytes an
    /// event from a recorder's store.
    func events() -> SessionEvents {
        switch source {
        case .value(let s): return SessionEvents(session: s)
        case .compact(let c, let s):
            let warnings = c.warnings[s.warningStart..<(s.warningStart + Int(s.warningCount))]
            let count = Int(s.warningCount) + s.instances.reduce(0) { $0 + Int(c.lanes[$1].callbackCount) }
            func forEachStamp(_ body: (Int) -> Void) {
                for w in warnings { body(w.stamp) }
                for j in s.instances { for k in c.callbackStamps(c.lanes[j]) { body(k) } }
            }
            // Most sessions are one run of stamps that no other session's interleave: found with a bit a stamp
            // instead of an index each, sorted.
            if count > 0 {
                var low = Int.max, high = Int.min
                forEachStamp { low = min(low, $0); high = max(high, $0) }
                if high - low + 1 == count {
                    var seen = [UInt64](repeating: 0, count: (count + 63) / 64)
                    var twice = false
                    forEachStamp { k in
                        let b = k - low
                        if seen[b >> 6] & 1 << (b & 63) != 0 { twice = true }
                        seen[b >> 6] |= 1 << (b & 63)
                    }
                    if !twice { return SessionEvents(c, run: low..<(high + 1)) }
                }
            }
            var indices: [UInt32] = []
            indices.reserveCapacity(count)
            forEachStamp { indices.append(UInt32($0)) }
            // A stamp's index follows its order (`StampTable.order`).
            indices.sort()
            return SessionEvents(c, indices)
        }
    }
}

/// A session's events in order, read one at a time: stamps, or indices into a recorder's stamps.
struct SessionEvents {
    /// A recorder's store and its stamps' indices, in order; else the stamps themselves.
    private let store: CompactTimeline?
    private let indices: [UInt32]
    /// When the indices are one run of consecutive stamps (a session no other interleaves: 4 bytes an event
    /// for millions of events), that run instead of `indices`.
    private let run: Range<Int>?
    private let values: [TimelineStamp]
    /// A stamp's order is its index + 1 (a store with lanes keeps every event: `StampTable.order`).
    private let ordersFollowIndices: Bool

    init(_ stamps: [TimelineStamp]) {
        store = nil
        indices = []
        run = nil
        values = stamps
        ordersFollowIndices = false
    }

    /// Every event of a session built whole: its warnings and its instances' callbacks, in order.
    init(session s: RecordedSession) {
        var stamps: [TimelineStamp] = s.warnings.map(\.stamp)
        for i in s.instances { stamps.append(contentsOf: i.callbacks.map(\.stamp)) }
        stamps.sort { $0.order < $1.order }
        self.init(stamps)
    }

    /// The store's stamps of `run`, in order.
    init(_ c: CompactTimeline, run: Range<Int>) {
        precondition(run.upperBound <= Int(UInt32.max), "a recording of more than 4G events")
        store = c
        indices = []
        self.run = run
        values = []
        ordersFollowIndices = !c.stamps.sparse
    }

    init(_ c: CompactTimeline, _ indices: [UInt32]) {
        precondition(c.stamps.count <= Int(UInt32.max), "a recording of more than 4G events")
        store = c
        if let first = indices.first, zip(indices, indices.dropFirst()).allSatisfy({ $1 == $0 &+ 1 }) {
            run = Int(first)..<(Int(first) + indices.count)
            self.indices = []
        } else {
            run = nil
            self.indices = indices
        }
        values = []
        ordersFollowIndices = !c.stamps.sparse
    }

    var count: Int { store == nil ? values.count : run?.count ?? indices.count }

    /// Whether its events are kept as one run of the store's stamps.
    var isRun: Bool { run != nil }

    /// Event `k`'s index among the store's stamps.
    @inline(__always)
    private func index(_ k: Int) -> Int {
        if let run { return run.lowerBound + k }
        return Int(indices[k])
    }

    subscript(k: Int) -> TimelineStamp {
        guard let store else { return values[k] }
        return store.stamps.stamp(index(k))
    }

    func order(_ k: Int) -> Int {
        guard let store else { return values[k].order }
        return ordersFollowIndices ? index(k) + 1 : store.stamps.order(index(k))
    }

    func line(_ k: Int) -> Int {
        guard let store else { return values[k].line }
        return store.stamps.line(index(k))
    }

    /// The events `keep` accepts, in order.
    func filter(_ keep: (TimelineStamp) -> Bool) -> SessionEvents {
        guard let store else { return SessionEvents(values.filter(keep)) }
        var kept: [UInt32] = []
        for k in 0..<count where keep(store.stamps.stamp(index(k))) { kept.append(UInt32(index(k))) }
        return SessionEvents(store, kept)
    }

    /// The position of the first event of order `order`, nil when there is none (a binary search).
    func position(ofOrder order: Int) -> Int? {
        if ordersFollowIndices {
            // Compared as indices, without a call per step.
            guard order >= 1, order - 1 <= Int(UInt32.max) else { return nil }
            if let run { return run.contains(order - 1) ? order - 1 - run.lowerBound : nil }
            let key = UInt32(order - 1)
            return indices.withUnsafeBufferPointer { b in
                var lo = 0, hi = b.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if b[mid] < key { lo = mid + 1 } else { hi = mid }
                }
                return lo < b.count && b[lo] == key ? lo : nil
            }
        }
        let k = partitionPoint(0..<count) { self.order($0) < order }
        return k < count && self.order(k) == order ? k : nil
    }

    /// The last event at or before `line` (events are in line order within an input).
    func last(atOrBeforeLine line: Int) -> TimelineStamp? {
        let end = partitionPoint(0..<count) { self.line($0) <= line }
        return end > 0 ? self[end - 1] : nil
    }
}

/// The first position of `range` where `before` is false, when it holds for a prefix of the range only (a binary search).
private func partitionPoint(_ range: Range<Int>, _ before: (Int) -> Bool) -> Int {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi {
        let mid = (lo + hi) / 2
        if before(mid) { lo = mid + 1 } else { hi = mid }
    }
    return lo
}

extension RecordedSessions {
    /// Session `k` (0-based), to be read a piece at a time: a recorder's is not built whole.
    func pieces(at k: Int) -> SessionPieces {
        if let c = compact { return SessionPieces(c, at: k) }
        return SessionPieces(self[k])
    }
}
