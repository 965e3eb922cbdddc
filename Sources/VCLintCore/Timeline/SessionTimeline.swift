#if canImport(Glibc)
import Glibc
#endif

/// The instrumentation of one input: which callbacks each class logs (lifecycle.md §3).
/// Apps log through a base class, so a class that logs part of a will/did family is taken to log
/// the rest of it when another class of the same dialect does (seed 000 logs each controller's
/// viewDidDisappear once; deleting one must still be a finding).
final class Instrumentation {
    /// One class: what it logs, shared by every session's `SessionTimeline.ClassState` of the class
    /// (recording an event, or asking what its class logs, costs no lookup by name).
    final class ClassEntry {
        fileprivate(set) var kinds: EventKinds = []
        /// The dialect of the class's first event (whose family `instruments` consults).
        let dialect: Dialect
        /// How many instances of the class the input has had: `TimelineContext.makeInstance`
        /// numbers them here (`Type#3`), which saves it a lookup by name.
        var instancesMade = 0
        init(dialect: Dialect) { self.dialect = dialect }
    }
    private var entries: [String: ClassEntry] = [:]
    private var kindsByDialect: [Dialect: EventKinds] = [:]

    /// The class's entry, made at its first event.
    func entry(_ className: String, dialect: Dialect) -> ClassEntry {
        if let known = entries[className] { return known }
        let made = ClassEntry(dialect: dialect)
        entries[className] = made
        return made
    }

    @inline(__always)
    func record(_ c: ClassEntry, _ kind: EventKind, dialect: Dialect) {
        if c.kinds.contains(kind) { return }
        c.kinds.insert(kind)
        kindsByDialect[dialect, default: []].insert(kind)
    }

    /// A set of event kinds as one word (recorded for every event).
    struct EventKinds: ExpressibleByArrayLiteral {
        private var bits: UInt32 = 0
        init(arrayLiteral kinds: EventKind...) { for k in kinds { insert(k) } }
        @inline(__always) func contains(_ k: EventKind) -> Bool { bits & k.bit != 0 }
        @inline(__always) mutating func insert(_ k: EventKind) { bits |= k.bit }
    }

    func logs(_ className: String, _ kind: EventKind) -> Bool {
        entries[className]?.kinds.contains(kind) == true
    }

    /// Whether `kind` is logged for the class, directly or through its dialect's family.
    func instruments(_ className: String, _ kind: EventKind) -> Bool {
        guard let entry = entries[className] else { return false }
        let own = entry.kinds
        if own.contains(kind) { return true }
        guard let sibling = Self.sibling(kind), own.contains(sibling),
              kindsByDialect[entry.dialect]?.contains(kind) == true else { return false }
        return true
    }

    /// The callback of the same family (will or did) in the other direction.
    static func sibling(_ k: EventKind) -> EventKind? {
        switch k {
        case .viewWillAppear: return .viewWillDisappear
        case .viewWillDisappear: return .viewWillAppear
        case .viewDidAppear: return .viewDidDisappear
        case .viewDidDisappear: return .viewDidAppear
        case .willMoveToParent: return .didMoveToParent
        case .didMoveToParent: return .willMoveToParent
        default: return nil
        }
    }

    func satisfies(_ r: Requirement) -> Bool {
        r.anyOf.contains { instruments(r.className, $0) }
    }
}

/// One run of one process (lifecycle.md §3): its controllers and their timeline (§4).
final class SessionTimeline {
    let serial: Int
    let processName: String
    let pid: Int?
    let options: TimelineOptions
    unowned let context: TimelineContext
    /// The context's, held strongly: an `unowned` reference costs a check and a retain per use.
    private let instrumentation: Instrumentation

    /// What the session knows per class, found once per event (`classState`).
    final class ClassState {
        /// The class's live instances, oldest first.
        var live: [Instance] = []
        /// The instance of the class deallocated last.
        var lastDead: Instance?
        /// Whether the class ever had an instance without an address: only its new addresses may
        /// bind one (skips a scan of every live instance of the class per new address).
        var hasUnbound = false
        /// What the class logs, and how many instances it had (shared with the other sessions).
        let entry: Instrumentation.ClassEntry
        init(entry: Instrumentation.ClassEntry) { self.entry = entry }
    }
    private var classes: [String: ClassState] = [:]
    /// Recently used classes by name length (a String compare costs less than a hash).
    private var recentClasses = [(name: String, state: ClassState?)](repeating: ("", nil), count: 8)
    private var byAddress: [UInt64: Instance] = [:]
    private var transition: Transition?
    private var transitionSerial = 0
    private var memoryWarnings = 0
    private var deallocDialects: Set<Dialect> = []
    /// The dialect of the latest dealloc (inserted already): skips hashing it again.
    private var lastDeallocDialect: Dialect?
    private(set) var lastTime: LogTime?
    private(set) var eventCount = 0
    private var lastEventLine = 0
    private var hasTimes = false
    private var lastInitInstance: Instance?
    /// Set only for `vclint timeline`/`leaks`/`report`: lint pays a nil check per event.
    private let recorder: TimelineRecorder?
    /// `TimelineDebug.enabled`, read once (a global's lazy initialisation is checked on every read).
    private let debug = TimelineDebug.enabled

    init(serial: Int, processName: String, pid: Int?, options: TimelineOptions, context: TimelineContext) {
        self.serial = serial
        self.processName = processName
        self.pid = pid
        self.options = options
        self.context = context
        self.instrumentation = context.instrumentation
        self.recorder = context.recorder
        recorder?.begin(session: serial, process: processName, pid: pid)
    }

    /// Any line of this session with a time (noise lines included) extends it.
    func observe(time: LogTime) {
        hasTimes = true
        if let last = lastTime, time.seconds < last.seconds { return }  // clocks that go backwards
        lastTime = time
        if options.live { reportExpiredLeaks(now: time) }
    }

    /// Live mode (`--follow`): a removed controller is leaked as soon as the grace period has passed
    /// in log time without its dealloc, instead of when the session ends.
    private func reportExpiredLeaks(now: LogTime) {
        for state in classes.values {
            for inst in state.live where !inst.leakReported {
                guard let r = inst.removal, let at = r.anchor.time ?? r.evidence.time else { continue }
                let wentOn = now.seconds - at.seconds
                if wentOn >= options.leakGraceSeconds { reportLeak(inst, r, wentOn: wentOn, confirmed: true) }
            }
        }
    }

    private func reportLeak(_ inst: Instance, _ r: Removal, wentOn: Double?, confirmed: Bool) {
        inst.leakReported = true
        // dealloc is instrumented when this class logs it, or every class of its dialect does.
        let requirement: [EventKind]? = deallocDialects.contains(inst.dialect) ? nil : [.dealloc]
        let will = r.takenAlongBy == nil ? inst.lastWillDisappear.flatMap { $0.line < r.anchor.line ? $0 : nil } : nil
        emit(.leaked(removal: r, anchor: r.anchor, will: will, wentOn: wentOn, confirmed: confirmed), inst.ref,
             line: r.anchor.line, time: r.anchor.time, requires: requirement, of: inst)
    }

    // MARK: - Events

    func handle(_ e: Event) {
        eventCount += 1
        lastEventLine = e.line
        if let t = e.time { observe(time: t) }
        if e.kind.isUIKitWarning {
            recorder?.warning(e, session: serial)
            let known = e.address.flatMap { byAddress[$0] }
            let named = known?.ref ?? ControllerRef(className: e.className, address: e.address,
                                                    instance: existingClass(e.className)?.live.last?.label ?? e.className)
            if e.kind == .uikitUnbalancedTransition {
                emit(.uikitUnbalanced(event: EventRef(e), text: e.text ?? ""), named, line: e.line, time: e.time)
            } else {
                let others = e.others.map { ControllerRef(className: $0.className, address: $0.address, instance: $0.className) }
                emit(.uikitPresentationConflict(event: EventRef(e), text: e.text ?? "", others: others), named, line: e.line, time: e.time)
            }
            return
        }
        // The class's state, made at its first event: the one lookup by name of the event.
        let state = classState(e.className, dialect: e.dialect)
        instrumentation.record(state.entry, e.kind, dialect: e.dialect)
        if e.kind == .dealloc, e.dialect != lastDeallocDialect {
            deallocDialects.insert(e.dialect)
            lastDeallocDialect = e.dialect
        }
        let inst = resolve(e, state)
        inst.lastActivity = e.line
        let before = inst.appearance
        recorder?.callback(e, inst, session: serial)
        apply(e, to: inst)
        recorder?.applied(e, inst, session: serial)
        if debug {
            TimelineDebug.print("\(e.line): \(e.kind.rawValue) → \(inst.label) \(before.rawValue)→\(inst.appearance.rawValue)\(inst.removal.map { " removed(\($0.kind.rawValue))" } ?? "")")
        }
        if e.kind == .initialize { lastInitInstance = inst } else if lastInitInstance != nil { lastInitInstance = nil }
    }

    // MARK: - Identity (lifecycle.md §3)

    /// The class's state, if the session has seen the class.
    @inline(__always)
    private func existingClass(_ name: String) -> ClassState? {
        let slot = name.utf8.count & 7
        if let s = recentClasses[slot].state, recentClasses[slot].name == name { return s }
        guard let s = classes[name] else { return nil }
        recentClasses[slot] = (name, s)
        return s
    }

    /// The class's state, made when the session first sees the class.
    @inline(__always)
    private func classState(_ name: String, dialect: Dialect) -> ClassState {
        if let s = existingClass(name) { return s }
        let s = ClassState(entry: instrumentation.entry(name, dialect: dialect))
        classes[name] = s
        recentClasses[name.utf8.count & 7] = (name, s)
        return s
    }

    /// A new instance of the event's class (`state`).
    private func newInstance(_ e: Event, _ state: ClassState) -> Instance {
        let inst = context.makeInstance(className: e.className, address: e.address, dialect: e.dialect, line: e.line, of: state.entry)
        state.live.append(inst)
        if let a = e.address { byAddress[a] = inst } else { state.hasUnbound = true }
        return inst
    }

    /// The instance an event belongs to; `state`: its class's.
    private func resolve(_ e: Event, _ state: ClassState) -> Instance {
        if let addr = e.address {
            if let known = byAddress[addr] {
                if known.className == e.className {
                    if known.isAlive { return known }
                    // An address seen again after dealloc: a new instance if it is being created
                    // (or added as a child, which addChild announces before the view loads).
                    if e.kind.isCreation || Self.startsChild(e) { return newInstance(e, state) }
                    return known
                }
                // Another class at this address: the old object is gone without a logged dealloc.
                forget(known)
            }
            // An instance of this class first seen without an address takes it: one of the latest
            // `routingWindow` of them, found in place (without a filtered copy of the class's list).
            if state.hasUnbound, let unbound = pick(unboundWindow(state.live), for: e, unboundOnly: true) {
                unbound.address = addr
                byAddress[addr] = unbound
                return unbound
            }
            return newInstance(e, state)
        }
        // Decided apart from creating the instance: a copy of the class's list held here while
        // appending to it would copy the whole list on every new instance.
        return routeWithoutAddress(e, state) ?? newInstance(e, state)
    }

    /// The end of `live` that holds its latest `routingWindow` instances without an address.
    private func unboundWindow(_ live: [Instance]) -> ArraySlice<Instance> {
        var start = live.endIndex, found = 0
        while start > 0, found < Self.routingWindow {
            start -= 1
            if live[start].address == nil { found += 1 }
        }
        return live[start...]
    }

    /// The live (or dead) instance an address-less event belongs to; nil: a new instance.
    private func routeWithoutAddress(_ e: Event, _ state: ClassState) -> Instance? {
        // Without addresses, an event goes to the live instance of its class whose state accepts it.
        // Only the most recent ones are candidates: thousands of live instances of one class (logs
        // concatenated without relaunch lines, say) would make every event cost a scan of them all.
        let live = state.live.suffix(Self.routingWindow)
        let logged = state.entry.kinds
        switch e.kind {
        case .initialize:
            // initWithNibName: → init chains log several initializers for one object.
            if let last = lastInitInstance, last.className == e.className, last.isAlive { return last }
            if let fresh = live.last(where: { $0.initSeen && !$0.loaded && $0.appearance == .unknown && !$0.loadViewPending }),
               fresh.lastActivity == fresh.firstLine, lastInitInstance === fresh {
                return fresh
            }
            return nil
        case .loadView:
            // A memory warning may have unloaded a hidden view; when the class logs init, a new
            // instance would have announced itself, so this is that view reloading.
            let logsInit = logged.contains(.initialize)
            return latest(live) { i in
                if i.loadViewPending { return nil }
                if !i.loaded && i.initSeen { return 0 }  // fresh
                if i.viewUnloadLogged { return 1 }
                if logsInit && i.viewMayBeUnloaded { return 2 }
                return nil
            }
        case .viewDidLoad:
            let classLogsCreation = logged.contains(.initialize) || logged.contains(.loadView)
            return latest(live) { i in
                if i.loadViewPending { return 0 }
                if !i.loaded && i.initSeen { return 1 }  // fresh
                if i.viewUnloadLogged { return 2 }
                if classLogsCreation && i.viewMayBeUnloaded { return 3 }
                if classLogsCreation && i.loaded { return 4 }  // duplicate_view_did_load
                if !i.loaded && i.appearance == .unknown { return 5 }
                return nil
            }
        default:
            if live.count == 1 { return live[live.startIndex] }  // most events: pick's shortcut, without the call
            if let chosen = pick(live, for: e) { return chosen }
            // Only dead instances of this class: an event after dealloc, unless the class never logs
            // its creation (then a new instance may simply have been created silently).
            // willMove(toParent: parent) is the first callback of a child being added (addChild
            // calls it before the child's view loads): a new instance, not a zombie.
            if e.kind.isCallback, !Self.startsChild(e), let dead = state.lastDead {
                if logged.contains(.initialize) || logged.contains(.loadView) || logged.contains(.viewDidLoad) {
                    return dead
                }
            }
            return nil
        }
    }

    static func startsChild(_ e: Event) -> Bool { e.kind == .willMoveToParent && e.parent != .none }

    /// Among live instances of a class, the one whose state accepts the event (lifecycle.md §3).
    static let routingWindow = 64

    /// The latest instance of the lowest rank (nil: not a candidate). The same as asking each rank's
    /// `last(where:)` in turn, in one pass from the end.
    @inline(__always)
    private func latest(_ live: ArraySlice<Instance>, _ rank: (Instance) -> Int?) -> Instance? {
        var chosen = -1, chosenRank = Int.max
        var k = live.endIndex
        while k > live.startIndex {
            k -= 1
            guard let r = rank(live[k]), r < chosenRank else { continue }
            chosen = k
            chosenRank = r
            if r == 0 { break }
        }
        return chosen < 0 ? nil : live[chosen]
    }

    /// `unboundOnly`: only the instances of `live` without an address are candidates.
    private func pick(_ live: ArraySlice<Instance>, for e: Event, unboundOnly: Bool = false) -> Instance? {
        guard !live.isEmpty else { return nil }
        if live.count == 1 && !unboundOnly { return live[live.startIndex] }
        // The fallbacks of each kind of event are ranks: an instance's rank is the first fallback it
        // satisfies (the last, any instance, always). The latest active instance of the lowest rank
        // wins, later instances on ties: the same as trying each fallback in turn, in one pass.
        func best(_ rank: (Instance) -> Int) -> Instance? {
            var chosen = -1, chosenRank = Int.max, chosenActivity = 0
            for k in live.indices {
                let i = live[k]
                if unboundOnly && i.address != nil { continue }
                let r = rank(i)
                if r < chosenRank || (r == chosenRank && i.lastActivity >= chosenActivity) {
                    chosen = k
                    chosenRank = r
                    chosenActivity = i.lastActivity
                }
            }
            return chosen < 0 ? nil : live[chosen]
        }
        switch e.kind {
        case .viewWillAppear:
            // Inside an interactive transition that is being cancelled, the leaving controller comes back.
            // Then a hidden controller that is still in the stack before one that was removed (a
            // removed one may come back, but a pop reveals the controller below).
            return best { i in
                switch i.appearance {
                case .disappearing: return i.transition.map { $0.cancelled && !$0.settled } == true ? 0 : 3
                case .disappeared, .unknown: return i.removal == nil ? 1 : 2
                case .appearing, .appeared: return 4
                }
            }
        case .viewDidAppear, .viewIsAppearing:
            return best { $0.appearance == .appearing ? 0 : 1 }
        case .viewWillDisappear:
            return best { $0.appearance == .appeared ? 0 : $0.appearance == .appearing ? 1 : 2 }
        case .viewDidDisappear:
            return best { $0.appearance == .disappearing ? 0 : 1 }
        case .dealloc:
            // Usually the instance removed most recently.
            var removed = -1, removedLine = 0
            for k in live.indices {
                let i = live[k]
                if unboundOnly && i.address != nil { continue }
                if let line = i.removal?.anchor.line, removed < 0 || line >= removedLine {
                    removed = k
                    removedLine = line
                }
            }
            if removed >= 0 { return live[removed] }
            return best { $0.appearance == .disappeared || $0.appearance == .unknown ? 0 : 1 }
        case .willMoveToParent, .didMoveToParent:
            return best {
                switch $0.parentState { case .adding, .removing: return 0; default: return 1 }
            }
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews, .didReceiveMemoryWarning:
            return best { $0.appearance == .appearing || $0.appearance == .appeared ? 0 : 1 }
        case .viewWillUnload, .viewDidUnload:
            return best { $0.appearance != .appeared && $0.appearance != .appearing ? 0 : 1 }
        default:
            return best { _ in 0 }
        }
    }

    private func forget(_ inst: Instance) {
        if let a = inst.address, byAddress[a] === inst { byAddress[a] = nil }
        existingClass(inst.className)?.live.removeAll { $0 === inst }
    }

    // MARK: - The state machine

    private func apply(_ e: Event, to inst: Instance) {
        let ref = EventRef(e)
        if !inst.isAlive {
            if e.kind.isCallback && !inst.afterDeallocReported {
                inst.afterDeallocReported = true
                emit(.eventAfterDealloc(event: ref, dealloc: inst.dealloc!), inst.ref, line: e.line, time: e.time)
            }
            return
        }
        switch e.kind {
        case .initialize:
            inst.initSeen = true
            if inst.initEpoch == nil { inst.initEpoch = transitionSerial }
            if inst.appearance == .unknown { inst.appearance = .disappeared }
        case .loadView:
            inst.loadViewPending = true
            if inst.appearance == .unknown { inst.appearance = .disappeared }
        case .viewDidLoad:
            if inst.loaded && !inst.viewMayBeUnloaded {
                emit(.duplicateViewDidLoad(event: ref, firstLoad: inst.loadLine), inst.ref, line: e.line, time: e.time)
            }
            if inst.appearance == .unknown && !inst.appearedEver { inst.appearance = .disappeared }
            inst.loaded = true
            inst.loadViewPending = false
            inst.viewMayBeUnloaded = false
            inst.viewUnloadLogged = false
            inst.loadLine = ref
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            appearance(e, ref, inst)
        case .willMoveToParent, .didMoveToParent:
            containment(e, ref, inst)
        case .didReceiveMemoryWarning:
            memoryWarnings += 1
            if inst.appearance != .appeared && inst.appearance != .appearing { inst.viewMayBeUnloaded = true }
            emit(.memoryWarning(event: ref, countInSession: memoryWarnings), inst.ref, line: e.line, time: e.time)
        case .viewWillUnload, .viewDidUnload:
            inst.viewMayBeUnloaded = true
            inst.viewUnloadLogged = true
        case .dealloc:
            deallocate(inst, ref)
        case .presentBegin:
            inst.presentPending = ref
        case .presentEnd:
            presentCompletion(inst, ref)
        case .dismissBegin:
            inst.dismissPending = (ref, transitionSerial)
        case .dismissEnd:
            dismissCompletion(inst, ref)
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews, .uikitPresentationConflict, .uikitUnbalancedTransition:
            break
        case .viewIsAppearing:
            // Between viewWillAppear and viewDidAppear (iOS 17): it tells where the instance is, but
            // no rule is about it, and an app that logs it may not log the other two.
            break
        }
    }

    private func appearance(_ e: Event, _ ref: EventRef, _ inst: Instance) {
        let state = inst.appearance
        switch e.kind {
        case .viewWillAppear:
            if inst.initSeen && !inst.loaded && !inst.appearanceBeforeLoadReported {
                inst.appearanceBeforeLoadReported = true
                emit(.appearanceBeforeLoad(event: ref, created: nil), inst.ref, line: e.line, time: e.time,
                     requires: [.viewDidLoad], of: inst)
            }
            unremove(inst)
            switch state {
            case .unknown, .disappeared:
                begin(inst, .appear, ref, fromUnknown: state == .unknown)
            case .disappearing:
                if !cancel(inst, to: .appear, ref) {
                    incomplete(inst, appearing: false, reason: .superseded(ref))
                    begin(inst, .appear, ref, fromUnknown: false)
                }
            case .appearing:
                emit(.willInSameState(will: ref, state: state, since: inst.pendingWill), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillDisappear, .viewDidDisappear], of: inst)
                inst.pendingWill = ref
            case .appeared:
                let excused = gapExplains(inst, direction: .appear)
                if !excused {
                    emit(.willInSameState(will: ref, state: state, since: inst.lastAppear), inst.ref, line: e.line, time: e.time,
                         requires: [.viewWillDisappear, .viewDidDisappear], of: inst)
                }
                begin(inst, .appear, ref, fromUnknown: false)
            }
        case .viewDidAppear:
            unremove(inst)
            if state == .appearing {
                finish(inst, ref)
            } else if state != .unknown {
                emit(.didWithoutWill(did: ref, state: state), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillAppear], of: inst)
                if state == .disappearing { dropFromTransition(inst) }
            }
            inst.appearance = .appeared
            if inst.firstAppearSerial == nil { inst.firstAppearSerial = 0 }
            inst.appearedEver = true
            inst.lastAppear = ref
            inst.pendingWill = nil
        case .viewWillDisappear:
            switch state {
            case .unknown, .appeared:
                begin(inst, .disappear, ref, fromUnknown: state == .unknown)
            case .appearing:
                if !cancel(inst, to: .disappear, ref) {
                    incomplete(inst, appearing: true, reason: .superseded(ref))
                    begin(inst, .disappear, ref, fromUnknown: false)
                }
            case .disappearing:
                emit(.willInSameState(will: ref, state: state, since: inst.pendingWill), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillAppear, .viewDidAppear], of: inst)
                inst.pendingWill = ref
            case .disappeared:
                if !gapExplains(inst, direction: .disappear) {
                    emit(.willInSameState(will: ref, state: state, since: inst.lastDidDisappear), inst.ref, line: e.line, time: e.time,
                         requires: [.viewWillAppear, .viewDidAppear], of: inst)
                }
                begin(inst, .disappear, ref, fromUnknown: false)
            }
        case .viewDidDisappear:
            if state == .disappearing {
                finish(inst, ref)
            } else if state != .unknown {
                emit(.didWithoutWill(did: ref, state: state), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillDisappear], of: inst)
                if state == .appearing { dropFromTransition(inst) }
            }
            inst.appearance = .disappeared
            inst.lastWillDisappear = state == .disappearing ? inst.pendingWill : nil
            inst.pendingWill = nil
            inst.lastDidDisappear = ref
            if let r = inst.removal, r.kind != .popped, r.kind != .poppedWithTop { inst.removal?.anchor = ref }
            if let d = inst.dismissPending, d.transitionSerial + 1 >= (inst.transition?.serial ?? 0) {
                markRemoved(inst, .dismissed, evidence: d.ref, anchor: ref)
            }
            if let c = inst.completionPending, !c.appearing {
                inst.completionPending = nil
                emit(.completionBeforeDisappearance(marker: c.marker, did: ref, will: nil), inst.ref, line: c.marker.line, time: c.marker.time)
            }
            settleIfDone(inst.transition)
        default:
            break
        }
    }

    /// Starts (or joins) the transition for a will-callback.
    private func begin(_ inst: Instance, _ dir: Transition.Direction, _ ref: EventRef, fromUnknown: Bool) {
        inst.appearance = dir == .appear ? .appearing : .disappearing
        inst.pendingWill = ref
        let t: Transition
        if let open = transition, !open.settled, open.hasPending, !isStale(open, at: ref) {
            t = open
        } else {
            if let open = transition, !open.settled { settle(open) }
            transitionSerial += 1
            t = nextTransition()
        }
        if let old = t.memberIndex(inst) {
            // Seen again in the same transition after completing: a new member entry.
            t.members.remove(at: old)
        }
        t.members.append(Transition.Member(inst, dir, fromUnknown: fromUnknown, will: ref))
        if t.firstDirection == nil { t.firstDirection = dir }
        t.lastTime = ref.time ?? t.lastTime
        t.lastLine = max(t.lastLine, ref.line)
        inst.transition = t
        if dir == .appear, inst.firstAppearSerial == nil { inst.firstAppearSerial = inst.appearedEver ? 0 : t.serial }
    }

    /// A new current transition. The previous one is settled, and its members no longer point at it:
    /// unless something else still holds it, it is reset and reused, with its members' buffer.
    private func nextTransition() -> Transition {
        if isKnownUniquelyReferenced(&transition), let t = transition, t.settled {
            t.reset(serial: transitionSerial)
            return t
        }
        let t = Transition(serial: transitionSerial)
        transition = t
        return t
    }

    /// A transition whose last callback is long past is over, even if some did-callback never came.
    private func isStale(_ t: Transition, at ref: EventRef) -> Bool {
        guard let a = t.lastTime, let b = ref.time else { return false }
        return b.seconds - a.seconds > 10
    }

    /// The opposite will-callback while a will/did pair is open: an interactive transition that was
    /// cancelled (seed 002), legal while no member of its transition has completed the move.
    private func cancel(_ inst: Instance, to dir: Transition.Direction, _ ref: EventRef) -> Bool {
        guard let t = inst.transition, !t.settled, let k = t.memberIndex(inst), t.members[k].pending, !t.committed else { return false }
        // An appearance is only cancelled by an interactive pop or dismissal, which has a controller
        // leaving; a lone appearing controller (a child, a sheet) cannot take it back. A lone
        // disappearance can be cancelled (a sheet swiped down and let go).
        if dir == .disappear, !t.members.indices.contains(where: { $0 != k && t.members[$0].initialDirection == .disappear }) { return false }
        t.members[k].direction = dir
        t.cancelled = true
        inst.appearance = dir == .appear ? .appearing : .disappearing
        inst.pendingWill = ref
        t.lastTime = ref.time ?? t.lastTime
        t.lastLine = max(t.lastLine, ref.line)
        return true
    }

    /// A did-callback completing the pending will.
    private func finish(_ inst: Instance, _ ref: EventRef) {
        if let will = inst.pendingWill, let a = will.time, let b = ref.time {
            let ms = (b.seconds - a.seconds) * 1000
            if ms > options.slowTransitionMilliseconds {
                emit(.slowTransition(will: will, did: ref, milliseconds: ms), inst.ref, line: will.line, time: will.time)
            }
        }
        if let t = inst.transition, let k = t.memberIndex(inst), t.members[k].pending {
            t.members[k].done = true
            if t.members[k].direction == t.members[k].initialDirection { t.committed = true }
            t.lastTime = ref.time ?? t.lastTime
            t.lastLine = max(t.lastLine, ref.line)
        }
        if let c = inst.completionPending, c.appearing, ref.kind == .viewDidAppear {
            inst.completionPending = nil
            emit(.completionBeforeAppearance(marker: c.marker, did: ref, will: nil), inst.ref, line: c.marker.line, time: c.marker.time)
        }
        if ref.kind == .viewDidAppear { settleIfDone(inst.transition) }
    }

    private func dropFromTransition(_ inst: Instance) {
        if let t = inst.transition, t.failPending(inst) { settleIfDone(t) }
    }

    /// A will-callback that never completed: one missing_did_* finding, then the pair is closed.
    private func incomplete(_ inst: Instance, appearing: Bool, reason: IncompleteReason) {
        guard let will = inst.pendingWill else { return }
        inst.completionPending = nil
        if appearing {
            emit(.missingDidAppear(will: will, reason: reason), inst.ref, line: will.line, time: will.time,
                 requires: [.viewDidAppear], of: inst)
        } else {
            emit(.missingDidDisappear(will: will, reason: reason), inst.ref, line: will.line, time: will.time,
                 requires: [.viewDidDisappear], of: inst)
        }
        inst.pendingWill = nil
        if let t = inst.transition, t.failPending(inst) { settleIfDone(t) }
    }

    /// The log has a gap: a controller whose arrival was never logged is leaving in this transition,
    /// so the state of the others is what that unlogged arrival left (seed 000's excerpt).
    private func gapExplains(_ inst: Instance, direction: Transition.Direction) -> Bool {
        guard let t = transition, !t.settled, t.hasPending else { return false }
        for k in t.members.indices where t.members[k].instance !== inst {
            if t.members[k].fromUnknown && t.members[k].initialDirection != direction { return true }
        }
        return false
    }

    private func settleIfDone(_ t: Transition?) {
        guard let t, !t.settled, !t.hasPending else { return }
        settle(t)
    }

    /// Removal inference over a finished transition (lifecycle.md §4).
    private func settle(_ t: Transition) {
        t.settled = true
        defer {
            // Members no longer need their transition; dropping the link frees both.
            for k in t.members.indices where t.members[k].instance.transition === t { t.members[k].instance.transition = nil }
        }
        if t.cancelled {
            recorder?.settled(t, session: serial, facts: .init(popped: false, covering: false, othersVisible: false))
            return
        }
        var poppedAny = false, coveringAny = false
        // The members are walked in place rather than filtered into lists of the leaving and the
        // arriving: settling changes no member, and no instance dies meanwhile.
        let members = t.members
        let stacks = t.firstDirection == .disappear
        var cameAny = false
        for k in members.indices where members[k].direction == .appear { cameAny = true; break }
        for g in members.indices where members[g].direction == .disappear && members[g].instance.isAlive {
            let leaving = members[g].instance
            let will = members[g].will
            // Its viewDidDisappear in this transition, or (when that never came) the will-callback.
            let ownDid = leaving.lastDidDisappear.flatMap { $0.line > will.line ? $0 : nil }
            var popped = false
            // Pops and dismissals, like pushes, announce the leaving controller first.
            for c in members.indices where stacks && members[c].direction == .appear {
                let arriving = members[c].instance
                if let path = coverPath(from: arriving, to: leaving) {
                    let anchor = ownDid ?? will
                    markRemoved(leaving, .popped, evidence: anchor, anchor: anchor)
                    var leavingName: String?  // made once, for the first controller taken along
                    for middle in path where middle !== leaving && middle.isAlive && middle.appearance != .appeared {
                        if leavingName == nil { leavingName = leaving.ref.display }
                        markRemoved(middle, .poppedWithTop, evidence: anchor, anchor: anchor, takenAlongBy: leavingName)
                    }
                    // Keeping the buffer: it is likely to be covered again (the next push or presentation).
                    if !arriving.coveredBy.isEmpty { arriving.coveredBy.removeAll(keepingCapacity: true) }
                    popped = true
                    poppedAny = true
                }
            }
            if popped { continue }
            if !cameAny {
                // Sheet dismissal or child removal, but only while something of ours stays on screen
                // (a system controller we cannot see may have covered it instead).
                if stillVisible(except: leaving) {
                    let anchor = ownDid ?? will
                    markRemoved(leaving, .closed, evidence: anchor, anchor: anchor)
                }
            } else if t.firstDirection == .disappear {
                // Pushed or presented over it: a controller made for this transition. One created
                // long before (a tab root instantiated at launch, a cached screen) is a sibling.
                for c in members.indices where members[c].direction == .appear {
                    let arriving = members[c].instance
                    guard arriving.isAlive && !arriving.appearedBefore(t) && arriving.createdFor(t) else { continue }
                    coveringAny = true
                    if !leaving.coveredBy.contains(where: { $0 === arriving }) {
                        if leaving.coveredBy.contains(where: { !$0.isAlive }) { leaving.coveredBy.removeAll { !$0.isAlive } }
                        leaving.coveredBy.append(arriving)
                    }
                }
            }
        }
        if let recorder {
            let othersVisible = classes.values.contains { state in
                state.live.contains { i in !t.isMember(i) && (i.appearance == .appeared || i.appearance == .appearing) }
            }
            recorder.settled(t, session: serial, facts: .init(popped: poppedAny, covering: coveringAny, othersVisible: othersVisible))
        }
    }

    private func stillVisible(except inst: Instance) -> Bool {
        for state in classes.values {
            for i in state.live where i !== inst && (i.appearance == .appeared || i.appearance == .appearing) { return true }
        }
        return false
    }

    /// The chain of instances from `arriving` up through what covered it to `leaving` (exclusive of
    /// `arriving`), or nil when `leaving` is not above it: breadth first, at most 256 nodes expanded.
    private func coverPath(from arriving: Instance, to leaving: Instance) -> [Instance]? {
        // Most controllers are covered by nothing, or directly by the one leaving (a pop, a dismissal).
        if arriving.coveredBy.isEmpty { return nil }
        if leaving !== arriving, arriving.coveredBy.contains(where: { $0 === leaving }), leaving.isAlive { return [leaving] }
        // The nodes reached, in order (the queue), each with the index of the node it covers (the
        // paths, walked back). A node is seen when it carries this search's mark (no hashing).
        coverSearches += 1
        let mark = coverSearches
        arriving.coverMark = mark
        var nodes: [Instance] = [arriving]
        var below: [Int] = [-1]
        var next = 0
        while next < nodes.count, next < 256 {
            let node = nodes[next]
            for above in node.coveredBy where above.isAlive && above.coverMark != mark {
                if above === leaving {
                    var path = [above]
                    var k = next
                    while k > 0 { path.append(nodes[k]); k = below[k] }
                    path.reverse()
                    return path
                }
                above.coverMark = mark
                nodes.append(above)
                below.append(next)
            }
            next += 1
        }
        return nil
    }
    /// Numbers `coverPath`'s searches (`Instance.coverMark`).
    private var coverSearches = 0

    private func markRemoved(_ inst: Instance, _ kind: RemovalKind, evidence: EventRef, anchor: EventRef, takenAlongBy: String? = nil) {
        if let existing = inst.removal, existing.kind == .dismissed || existing.kind == .removedFromParent { return }
        inst.removal = Removal(kind: kind, evidence: evidence, takenAlongBy: takenAlongBy, anchor: anchor)
    }

    private func unremove(_ inst: Instance) {
        // A controller that appears again was not removed, whatever was inferred (lifecycle.md §4).
        // (Checked first: storing nil destroys the old value even when there is none.)
        if inst.removal != nil { inst.removal = nil }
        if inst.dismissPending != nil { inst.dismissPending = nil }
    }

    // MARK: - Containment

    private func containment(_ e: Event, _ ref: EventRef, _ inst: Instance) {
        var toParent: Bool
        switch e.parent {
        case .none: toParent = false
        case .parent: toParent = true
        case .unknown:
            switch inst.parentState {
            case .attached, .removing: toParent = false
            default: toParent = true
            }
        }
        if e.kind == .willMoveToParent {
            if toParent {
                if case .adding = inst.parentState { return }
                inst.parentState = .adding(ref)
                unremove(inst)
            } else {
                if case .adding(let will) = inst.parentState {
                    emit(.willMoveWithoutDidMove(will: will, reason: .superseded(ref)), inst.ref, line: will.line, time: will.time,
                         requires: [.didMoveToParent], of: inst)
                }
                inst.parentState = .removing(ref)
                markRemoved(inst, .removedFromParent, evidence: ref, anchor: inst.lastDidDisappear.map { $0.line > ref.line ? $0 : ref } ?? ref)
                inst.removal?.anchor = ref
            }
        } else {
            if toParent {
                if case .removing = inst.parentState { unremove(inst) }  // an interactive pop that was cancelled
                inst.parentState = .attached
            } else {
                switch inst.parentState {
                case .removing: break
                case .adding(let will):
                    emit(.willMoveWithoutDidMove(will: will, reason: .superseded(ref)), inst.ref, line: will.line, time: will.time,
                         requires: [.didMoveToParent], of: inst)
                default:
                    emit(.removedWithoutWillMove(did: ref), inst.ref, line: e.line, time: e.time,
                         requires: [.willMoveToParent], of: inst)
                }
                inst.parentState = .detached
                if inst.removal == nil || inst.removal!.kind != .removedFromParent {
                    markRemoved(inst, .removedFromParent, evidence: ref, anchor: ref)
                }
                if let d = inst.lastDidDisappear, inst.appearance == .disappeared { inst.removal?.anchor = d }
            }
        }
    }

    // MARK: - Completion markers

    private func presentCompletion(_ inst: Instance, _ ref: EventRef) {
        // The presented controller: the one logging it if it is still appearing, else whoever is
        // appearing in the latest transition (the presenter usually logs `X present end`).
        if inst.appearance == .appearing {
            inst.completionPending = (ref, true)
            return
        }
        if let t = transition, !t.settled {
            for m in t.members where m.instance !== inst && m.pending && m.direction == .appear {
                m.instance.completionPending = (ref, true)
                return
            }
        }
    }

    private func dismissCompletion(_ inst: Instance, _ ref: EventRef) {
        if inst.appearance == .disappearing {
            inst.completionPending = (ref, false)
            return
        }
        if inst.appearance == .disappeared, let d = inst.dismissPending, let last = inst.lastDidDisappear, last.line > d.ref.line {
            markRemoved(inst, .dismissed, evidence: d.ref, anchor: last)
        }
        if let t = transition, !t.settled, t.isMember(inst) {
            for m in t.members where m.instance !== inst && m.pending && m.direction == .disappear {
                m.instance.completionPending = (ref, false)
                return
            }
        }
    }

    // MARK: - Dealloc and the end of the session

    private func deallocate(_ inst: Instance, _ ref: EventRef) {
        switch inst.appearance {
        case .appearing: incomplete(inst, appearing: true, reason: .deallocated(ref))
        case .disappearing: incomplete(inst, appearing: false, reason: .deallocated(ref))
        case .appeared:
            emit(.deallocWhileVisible(dealloc: ref, appeared: inst.lastAppear), inst.ref, line: ref.line, time: ref.time,
                 requires: [.viewWillDisappear, .viewDidDisappear], of: inst)
        default: break
        }
        if case .adding(let will) = inst.parentState {
            emit(.willMoveWithoutDidMove(will: will, reason: .deallocated(ref)), inst.ref, line: will.line, time: will.time,
                 requires: [.didMoveToParent], of: inst)
        }
        if let r = inst.removal, let removedAt = r.anchor.time ?? r.evidence.time, let at = ref.time {
            let delay = at.seconds - removedAt.seconds
            if delay > options.leakGraceSeconds, !inst.leakReported {  // live mode reported the leak already
                emit(.lateDealloc(dealloc: ref, removal: r, delay: delay), inst.ref, line: ref.line, time: ref.time)
            }
        }
        inst.dealloc = ref
        if let t = inst.transition, t.failPending(inst) { settleIfDone(t) }
        inst.transition = nil
        inst.coveredBy.removeAll()
        let state = classState(inst.className, dialect: inst.dialect)
        // Its one entry (removeAll(where:) costs a partition and a generic replaceSubrange).
        if let k = state.live.lastIndex(where: { $0 === inst }) { state.live.remove(at: k) }
        state.lastDead = inst
        // Others' `coveredBy` may still hold it: they skip dead entries (removing it from every live
        // controller here made each dealloc cost O(live controllers), quadratic on long captures).
        if let a = inst.address { rememberDead(a) }
    }

    /// Dead instances stay findable by address (a callback after dealloc), but only the most recent
    /// ones: memory follows live controllers, not every controller the capture ever had.
    private static let deadAddressMemory = 4096
    private var deadAddresses: [UInt64] = []
    private var deadAddressHead = 0

    private func rememberDead(_ address: UInt64) {
        if deadAddresses.count < Self.deadAddressMemory {
            deadAddresses.append(address)
            return
        }
        let oldest = deadAddresses[deadAddressHead]
        if let old = byAddress[oldest], !old.isAlive { byAddress[oldest] = nil }
        deadAddresses[deadAddressHead] = address
        deadAddressHead = (deadAddressHead + 1) % Self.deadAddressMemory
    }

    /// The process ended: what was still pending is reported, removed controllers that were never
    /// deallocated are leaks (controllers merely alive were killed with the process).
    /// `captureEnded`: the input ended (the process may well have gone on), as opposed to a relaunch.
    func finish(captureEnded: Bool = false) {
        if let t = transition, !t.settled { settle(t) }
        recorder?.finished(session: serial, deallocDialects: deallocDialects, lastTime: lastTime)
        var live: [Instance] = []
        for state in classes.values { live.append(contentsOf: state.live) }
        live.sort { $0.serial < $1.serial }
        for inst in live {
            let pendingLine = inst.transition?.lastLine ?? inst.pendingWill?.line ?? 0
            if !captureEnded || wentOn(after: inst.pendingWill, lastLine: pendingLine) {
                switch inst.appearance {
                case .appearing: incomplete(inst, appearing: true, reason: .sessionEnded)
                case .disappearing: incomplete(inst, appearing: false, reason: .sessionEnded)
                default: break
                }
            }
            if case .adding(let will) = inst.parentState, !captureEnded || wentOn(after: will, lastLine: will.line) {
                emit(.willMoveWithoutDidMove(will: will, reason: .sessionEnded), inst.ref, line: will.line, time: will.time,
                     requires: [.didMoveToParent], of: inst)
            }
            guard let r = inst.removal, !inst.leakReported else { continue }
            var wentOn: Double?
            var confirmed = true
            if hasTimes, let end = lastTime {
                if let at = r.anchor.time ?? r.evidence.time {
                    wentOn = max(0, end.seconds - at.seconds)
                    confirmed = wentOn! >= options.leakGraceSeconds
                }
            }
            reportLeak(inst, r, wentOn: wentOn, confirmed: confirmed)
        }
        // The session is over: release its controllers (memory follows live controllers only).
        for inst in live {
            inst.transition = nil
            inst.coveredBy.removeAll()
        }
        for state in classes.values {
            state.live = []
            state.lastDead = nil
        }
        byAddress = [:]
        transition = nil
        lastInitInstance = nil
    }

    /// Whether the capture went on long enough after `ref` to judge that something never came: a
    /// capture that stops in the middle of an animation has not shown its end.
    private func wentOn(after ref: EventRef?, lastLine: Int) -> Bool {
        guard let ref else { return false }
        if hasTimes, let at = ref.time, let end = lastTime {
            return end.seconds - at.seconds >= options.leakGraceSeconds
        }
        return lastEventLine > max(lastLine, ref.line)
    }

    // MARK: -

    private func emit(_ kind: ObservationKind, _ who: ControllerRef, line: Int, time: LogTime?, requires: [EventKind]? = nil, of inst: Instance? = nil) {
        let req = requires.map { Requirement(className: inst?.className ?? who.className, anyOf: $0) }
        context.observations.append(Observation(kind: kind, controller: who, requires: req, line: line, time: time))
    }
}

extension Instance {
    /// Whether it was created for this transition (or its creation is not in the log).
    func createdFor(_ t: Transition) -> Bool {
        guard let epoch = initEpoch else { return true }
        return epoch >= t.serial - 1
    }

    /// Whether it had appeared before this transition (a "new" controller has not).
    func appearedBefore(_ t: Transition) -> Bool {
        if let first = firstAppearSerial { return first < t.serial }
        return false
    }
}

/// `VCLINT_DEBUG_TIMELINE=1` prints how each event was routed (for debugging routing decisions).
enum TimelineDebug {
    static let enabled: Bool = getenv("VCLINT_DEBUG_TIMELINE").map { String(cString: $0) == "1" } ?? false
    static func print(_ s: String) {
        var line = s + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
