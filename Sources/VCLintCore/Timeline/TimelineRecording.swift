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

/// What the state machine made of a group of will/did callbacks (docs/lifecycle.md#transitions). Where the log
/// cannot tell two kinds apart (a push and a full-screen present look alike without markers or
/// containment callbacks) the kind says so ("push/present") instead of guessing.
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
    /// A lone appearance or disappearance while a controller of ours stayed on screen, with a
    /// present/dismiss marker: an iOS 13 sheet (its presenter gets no callbacks).
    case sheet
    /// The same without marker or containment callback: a sheet or a child, the log cannot say.
    case sheetOrChild = "sheet/child"
    /// Containment callbacks (willMove/didMove toParent) for the controller that came or went alone.
    case child
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
    /// Instances that were removed and never deallocated: they might be leaks, or fine.
    public var removedWithoutDealloc: Int
}

/// The timeline of one input.
public struct TimelineRecording: Sendable {
    public var sessions: [RecordedSession]
    public var leaks: [LeakRecord]
    public var unjudgedClasses: [UnjudgedClass]
}

/// Collects the timeline while the state machine runs (hooks in `SessionTimeline`).
final class TimelineRecorder {
    final class InstanceLog {
        let instance: Instance
        let session: Int
        var callbacks: [RecordedCallback] = []
        var intervals: [StateInterval] = []
        var openState: LaneState?
        var openStart: TimelineStamp?
        var beenOnScreen = false
        var dealloc: TimelineStamp?
        var deallocJudgedInSession = false
        var lastPresentMarker = 0
        var lastDismissMarker = 0
        var lastToParent = 0
        var lastFromParent = 0
        /// What the latest callback said of the parent (willMove/didMove), kept when callbacks are not.
        var lastToParentValue: Bool?
        /// A SwiftUI view's: whether its latest `onAppear`/`onDisappear` showed it (nil: no such event yet).
        var viewShown: Bool?

        init(_ instance: Instance, session: Int) {
            self.instance = instance
            self.session = session
        }
    }

    final class SessionLog {
        let serial: Int
        let process: String
        let pid: Int?
        var instances: [InstanceLog] = []
        var transitions: [RecordedTransition] = []
        var transitionMembers: [[Int]] = []
        var warnings: [RecordedWarning] = []
        var first: TimelineStamp?
        var last: TimelineStamp?
        var endTime: LogTime?
        var events = 0
        var hasTimes = false
        /// The latest present marker of any controller: a sheet's presenter logs it but gets no callbacks.
        var lastPresentMarker = 0

        init(serial: Int, process: String, pid: Int?) {
            self.serial = serial
            self.process = process
            self.pid = pid
        }

        /// Markers logged after the previous transition ended belong to the next one.
        var windowStart: Int { transitions.last?.end.line ?? 0 }
    }

    /// Keep what lanes draw (`TimelineOptions.recordLanes`); without, an instance keeps its first
    /// callback and one of each other kind, and no interval, transition or warning is kept.
    let lanes: Bool
    private var order = 0
    private var current = TimelineStamp(line: 0, order: 0, time: nil)
    private var sessions: [SessionLog] = []
    private var sessionBySerial: [Int: SessionLog] = [:]
    private var instances: [Int: InstanceLog] = [:]

    init(lanes: Bool = true) { self.lanes = lanes }

    func begin(session serial: Int, process: String, pid: Int?) {
        let s = SessionLog(serial: serial, process: process, pid: pid)
        sessions.append(s)
        sessionBySerial[serial] = s
    }

    private func stamp(_ e: Event, _ s: SessionLog) -> TimelineStamp {
        order += 1
        current = TimelineStamp(line: e.line, order: order, time: e.time)
        if s.first == nil { s.first = current }
        s.last = current
        s.events += 1
        if e.time != nil { s.hasTimes = true }
        return current
    }

    func warning(_ e: Event, session serial: Int) {
        guard let s = sessionBySerial[serial] else { return }
        let st = stamp(e, s)
        guard lanes else { return }
        s.warnings.append(RecordedWarning(kind: e.kind, stamp: st, className: e.className, text: e.text ?? ""))
    }

    /// An event routed to `inst`, before the state machine applies it.
    func callback(_ e: Event, _ inst: Instance, session serial: Int) {
        guard let s = sessionBySerial[serial] else { return }
        let st = stamp(e, s)
        let log: InstanceLog
        if let known = instances[inst.serial] {
            log = known
        } else {
            log = InstanceLog(inst, session: serial)
            instances[inst.serial] = log
            s.instances.append(log)
        }
        var toParent: Bool?
        if e.kind == .willMoveToParent || e.kind == .didMoveToParent {
            switch e.parent {
            case .none: toParent = false
            case .parent: toParent = true
            case .unknown: toParent = nil
            }
        }
        log.lastToParentValue = toParent
        if lanes || !log.callbacks.contains(where: { $0.kind == e.kind }) {
            log.callbacks.append(RecordedCallback(kind: e.kind, stamp: st, toParent: toParent))
        }
    }

    /// After the state machine applied the event: the instance's lane and late markers.
    func applied(_ e: Event, _ inst: Instance, session serial: Int) {
        guard let log = instances[inst.serial], let s = sessionBySerial[serial] else { return }
        let st = current
        guard lanes else {
            if log.dealloc == nil, !inst.isAlive { log.dealloc = st }
            return
        }
        if e.kind.isViewAppearance { log.viewShown = e.kind == .onAppear }
        if log.dealloc == nil {
            if !inst.isAlive {
                close(log, at: st, openAtEnd: false)
                log.dealloc = st
            } else {
                let state = laneState(inst, log)
                if state != log.openState {
                    close(log, at: st, openAtEnd: false)
                    log.openState = state
                    log.openStart = st
                }
            }
        }
        switch e.kind {
        case .presentBegin, .presentEnd:
            log.lastPresentMarker = e.line
            s.lastPresentMarker = e.line
        case .dismissBegin, .dismissEnd:
            log.lastDismissMarker = e.line
        case .willMoveToParent, .didMoveToParent:
            switch log.lastToParentValue {
            case true?: log.lastToParent = e.line
            case false?: log.lastFromParent = e.line
            case nil:
                // The state machine decided the direction from the parent state.
                if case .removing = inst.parentState { log.lastFromParent = e.line }
                else if case .detached = inst.parentState { log.lastFromParent = e.line }
                else { log.lastToParent = e.line }
            }
        default:
            break
        }
        // Completion blocks and didMove come after the callbacks they complete: they tell what the
        // last transition was when it could not tell by itself.
        if [.presentEnd, .dismissEnd, .didMoveToParent].contains(e.kind) { refineLast(s, with: e.kind, log: log) }
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
        case .appeared: log.beenOnScreen = true; return .visible
        case .disappearing: log.beenOnScreen = true; return .disappearing
        case .disappeared: return log.beenOnScreen || inst.appearedEver ? .hidden : .loaded
        }
    }

    private func close(_ log: InstanceLog, at end: TimelineStamp, openAtEnd: Bool) {
        guard let state = log.openState, let start = log.openStart else { return }
        log.intervals.append(StateInterval(state: state, start: start, end: end, openAtEnd: openAtEnd))
        log.openState = nil
        log.openStart = nil
    }

    struct SettleFacts {
        /// A leaving member had covered an arriving one (a pop or dismissal back).
        var popped: Bool
        /// An arriving member was made for the transition and covered a leaving one (push or present).
        var covering: Bool
        /// A live controller outside the transition was on screen when it settled.
        var othersVisible: Bool
    }

    /// A transition the state machine settled (its removal inference is done).
    func settled(_ t: Transition, session serial: Int, facts: SettleFacts) {
        guard lanes, let s = sessionBySerial[serial], !t.members.isEmpty else { return }
        let members = t.members.map { m in
            RecordedTransition.Member(
                instance: m.instance.serial, label: m.instance.label,
                direction: m.initialDirection == .appear ? .appear : .disappear,
                finalDirection: m.direction == .appear ? .appear : .disappear,
                completed: m.done)
        }
        // Its extent: from the earliest will-callback of a member to its latest callback.
        func find(_ line: Int, _ serial: Int) -> TimelineStamp? {
            instances[serial]?.callbacks.last(where: { $0.stamp.line == line })?.stamp
        }
        guard let from = t.members.compactMap({ find($0.will.line, $0.instance.serial) }).min(by: { $0.order < $1.order }) else { return }
        var to = current.line == t.lastLine ? current : (t.members.lazy.compactMap { find(t.lastLine, $0.instance.serial) }.first ?? from)
        if to.order < from.order { to = from }
        let kind = classify(t, members, s, facts)
        s.transitions.append(RecordedTransition(id: s.transitions.count + 1, kind: kind, start: from, end: to, members: members))
        s.transitionMembers.append(members.map(\.instance))
    }

    private func marker(_ members: [RecordedTransition.Member], _ s: SessionLog, upTo line: Int,
                        _ pick: (InstanceLog) -> Int) -> Bool {
        let from = s.windowStart
        return members.contains { m in
            guard let log = instances[m.instance] else { return false }
            let l = pick(log)
            return l > from && l <= line
        }
    }

    private func classify(_ t: Transition, _ members: [RecordedTransition.Member], _ s: SessionLog, _ f: SettleFacts) -> TransitionKind {
        let upTo = max(t.lastLine, current.line)
        if t.cancelled {
            let both = members.contains { $0.direction == .disappear } && members.contains { $0.direction == .appear }
            return both ? .cancelledSwipeBack : .cancelled
        }
        let gone = members.filter { $0.finalDirection == .disappear }
        let came = members.filter { $0.finalDirection == .appear }
        let dismissMarker = marker(gone, s, upTo: upTo) { $0.lastDismissMarker }
        let presentMarker = marker(members, s, upTo: upTo) { $0.lastPresentMarker }
        if !gone.isEmpty && !came.isEmpty {
            if t.firstDirection == .appear { return .tab }
            if f.popped {
                if dismissMarker { return .dismiss }
                if marker(gone, s, upTo: upTo, { $0.lastFromParent }) { return .pop }
                return .popOrDismiss
            }
            if dismissMarker { return .dismiss }
            if f.covering {
                if presentMarker { return .present }
                if marker(came, s, upTo: upTo, { $0.lastToParent }) { return .push }
                return .pushOrPresent
            }
            return .transition
        }
        if !came.isEmpty {
            if marker(came, s, upTo: upTo, { $0.lastToParent }) { return .child }
            let presentMarker = presentMarker || (s.lastPresentMarker > s.windowStart && s.lastPresentMarker <= upTo)
            if !f.othersVisible { return presentMarker ? .present : .appear }
            return presentMarker ? .sheet : .sheetOrChild
        }
        if marker(gone, s, upTo: upTo, { $0.lastFromParent }) { return .child }
        if dismissMarker { return f.othersVisible ? .sheet : .dismiss }
        return f.othersVisible ? .sheetOrChild : .disappear
    }

    /// A completion marker or didMove after the session's latest transition, logged by one of its members.
    private func refineLast(_ s: SessionLog, with kind: EventKind, log: InstanceLog) {
        guard var t = s.transitions.last else { return }
        guard let member = t.members.first(where: { $0.instance == log.instance.serial }) else {
            // A sheet's presenter logs `present end` but is no member: a lone appearance it completes.
            if kind == .presentEnd, t.members.allSatisfy({ $0.finalDirection == .appear }), t.kind == .sheetOrChild || t.kind == .appear {
                t.kind = t.kind == .appear ? .present : .sheet
                s.transitions[s.transitions.count - 1] = t
            }
            return
        }
        let leaving = member.finalDirection == .disappear
        var refined = t.kind
        switch (kind, t.kind) {
        case (.presentEnd, .pushOrPresent), (.presentEnd, .appear): refined = .present
        case (.presentEnd, .sheetOrChild) where !leaving: refined = .sheet
        case (.dismissEnd, .popOrDismiss) where leaving, (.dismissEnd, .transition) where leaving,
             (.dismissEnd, .disappear) where leaving: refined = .dismiss
        case (.dismissEnd, .sheetOrChild) where leaving: refined = .sheet
        case (.didMoveToParent, .pushOrPresent) where !leaving && log.lastToParent == current.line: refined = .push
        case (.didMoveToParent, .sheetOrChild) where log.lastToParent == current.line || log.lastFromParent == current.line,
             (.didMoveToParent, .appear) where !leaving && log.lastToParent == current.line,
             (.didMoveToParent, .disappear) where leaving && log.lastFromParent == current.line: refined = .child
        case (.didMoveToParent, .popOrDismiss) where leaving && log.lastFromParent == current.line: refined = .pop
        default: break
        }
        if refined != t.kind {
            t.kind = refined
            s.transitions[s.transitions.count - 1] = t
        }
    }

    /// The session ended: lanes still open end with it.
    func finished(session serial: Int, deallocDialects: Set<Dialect>, lastTime: LogTime?) {
        guard let s = sessionBySerial[serial] else { return }
        s.endTime = lastTime
        let end = s.last ?? current
        for log in s.instances {
            if log.dealloc == nil { close(log, at: end, openAtEnd: true) }
            log.deallocJudgedInSession = deallocDialects.contains(log.instance.dialect.family)
        }
    }

    /// What the instance's lane is, from what its class logs in the input (`LaneKind`).
    static func laneKind(_ i: Instance) -> LaneKind {
        let kinds = i.entry.kinds
        if kinds.contains(.onAppear) || kinds.contains(.onDisappear) { return .view }
        // The timeline's own test (docs/lifecycle.md#objects), on what the class logged in the whole input.
        return i.entry.isObjectClass ? .object : .controller
    }

    /// The recording, once every session has finished.
    func result(observations: ObservationList, instrumentation: Instrumentation) -> TimelineRecording {
        var labelSession: [String: Int] = [:]
        var out: [RecordedSession] = []
        var perClass: [String: (instances: Int, removed: Int, judged: Bool)] = [:]
        for s in sessions where s.first != nil {
            let id = out.count + 1
            var insts: [RecordedInstance] = []
            for log in s.instances {
                let i = log.instance
                let kind = Self.laneKind(i)
                // An object class is judged only when it logs its own deinit (docs/lifecycle.md#objects).
                let judged = kind == .object ? instrumentation.logs(i.className, .dealloc)
                    : log.deallocJudgedInSession || instrumentation.logs(i.className, .dealloc)
                let owner = kind == .object ? i.owner : nil
                insts.append(RecordedInstance(
                    id: i.serial, controller: i.ref, kind: kind, dialect: i.dialect, callbacks: log.callbacks, intervals: log.intervals,
                    removal: i.removal, dealloc: log.dealloc, deallocInstrumented: judged,
                    owner: owner?.ref, ownerReason: owner == nil ? nil : i.ownerReason))
                labelSession[i.label] = id
                // A view is a value: it has no dealloc to judge.
                if kind == .view { continue }
                var c = perClass[i.className] ?? (0, 0, false)
                c.instances += 1
                if i.removal != nil && log.dealloc == nil { c.removed += 1 }
                c.judged = c.judged || judged
                perClass[i.className] = c
            }
            out.append(RecordedSession(
                id: id, process: s.process, pid: s.pid, instances: insts, transitions: s.transitions,
                warnings: s.warnings, firstEvent: s.first!, lastEvent: s.last!, endTime: s.endTime,
                eventCount: s.events, hasTimes: s.hasTimes))
        }
        var leaks: [LeakRecord] = []
        for o in observations {
            if let leak = o.fact as? ObjectLeak {
                leaks.append(LeakRecord(controller: o.controller, session: labelSession[o.controller.instance] ?? 0, removal: leak.ownerGone,
                                        anchor: leak.ownerGone.anchor, will: nil, wentOn: leak.wentOn, confirmed: leak.confirmed,
                                        owner: leak.owner, made: leak.made))
                continue
            }
            guard let leak = o.fact as? ControllerLeak else { continue }
            leaks.append(LeakRecord(controller: o.controller, session: labelSession[o.controller.instance] ?? 0, removal: leak.removal,
                                    anchor: leak.anchor, will: leak.will, wentOn: leak.wentOn, confirmed: leak.confirmed))
        }
        let unjudged = perClass.filter { !$0.value.judged }
            .map { UnjudgedClass(className: $0.key, instances: $0.value.instances, removedWithoutDealloc: $0.value.removed) }
            .sorted { $0.className < $1.className }
        return TimelineRecording(sessions: out, leaks: leaks, unjudgedClasses: unjudged)
    }
}
