#if canImport(Glibc)
import Glibc
#endif

/// What routing keeps per session (`SessionTimeline.identity`): the classes and their live instances,
/// instances by address, and what was dropped but may be heard from again.
struct SessionIdentity {
    var classes: [String: SessionTimeline.ClassState] = [:]
    /// Recently used classes (a String compare costs less than a hash).
    var recentClasses = RecentClassSlots()
    let byAddress = AddressTable()
    /// The instance whose `init` was the session's previous event.
    var lastInitInstance: Instance?
    /// The addresses of the latest deallocated instances, oldest first from `deadAddressHead` once full
    /// (`rememberDead`).
    var deadAddresses: [UInt64] = []
    var deadAddressHead = 0
    /// The removed controllers with an address that were dropped, by address (`EvictedController`).
    var evicted = EvictedTable()
    /// The classes folded away (`SessionTimeline.foldIdleClasses`), each holding its controller in
    /// `ClassEntry.folded`, and how many of them still are.
    var foldedEntries: [Instrumentation.ClassEntry] = []
    var foldedCount = 0
    /// The folded classes whose entries were given up (`Instrumentation.retire`), by dormant row.
    var foldedRows: [UInt32] = []
    /// The stems of the folded controllers that were owners (docs/lifecycle.md#owners), by stem; those
    /// whose classes are dormant by their stem's hash (`Stem.key`), each the class's dormant row.
    var foldedStems: [Stem: Instrumentation.ClassEntry] = [:]
    var dormantStems = RowsByHash()
    /// `classes.count` at which idle classes are folded next (0: at `TimelineOptions.classFoldFloor`).
    var foldAt = 0
    /// How many instances (and classes) the twin swaps' scans have looked at (`SessionTimeline.stackScanAllowed`).
    var stackScanned = 0
}

/// The classes a session used recently, direct-mapped by their names' length and first byte: names of one length
/// mostly differ in their first byte (`ItemViewController`, `ListViewController`), and both are read without walking
/// the name. A slot answers only the name it holds. The slots are made at the first class remembered: a session
/// that never names a class (logcat's, whose classes live elsewhere) neither makes nor destroys them.
struct RecentClassSlots {
    private struct Slot {
        var name = ""
        var state: SessionTimeline.ClassState?
    }
    private var slots: [Slot] = []
    private static let count = 32

    @inline(__always)
    private static func slot(_ name: String) -> Int {
        let u = name.utf8
        return (Int(u.first ?? 0) &* 7 &+ u.count) & (count - 1)
    }

    @inline(__always)
    subscript(name: String) -> SessionTimeline.ClassState? {
        let k = Self.slot(name)
        guard k < slots.count, let s = slots[k].state, slots[k].name == name else { return nil }
        return s
    }

    mutating func remember(_ name: String, _ state: SessionTimeline.ClassState) {
        if slots.isEmpty { slots = Array(repeating: Slot(), count: Self.count) }
        slots[Self.slot(name)] = Slot(name: name, state: state)
    }

    /// Forgets the classes `isGone` picks (folded away).
    mutating func forget(where isGone: (SessionTimeline.ClassState) -> Bool) {
        for k in slots.indices where slots[k].state.map(isGone) ?? false { slots[k] = Slot() }
    }
}

/// Identity and routing (docs/lifecycle.md#identity-and-sessions): which instance an event belongs to. An
/// address names it; without one, the class's live instance whose state accepts the event, else the
/// instance active most recently (dead or alive); only a callback that can begin a controller's life begins
/// a new address-less instance.
extension SessionTimeline {
    /// The class's state, if the session has seen the class.
    @inline(__always)
    func existingClass(_ name: String) -> ClassState? {
        if let s = identity.recentClasses[name] { return s }
        guard let s = identity.classes[name] else {
            guard identity.foldedCount > 0, let entry = instrumentation.existing(name, foldedBy: serial), let f = entry.folded, f.session == serial else { return nil }
            return unfold(entry)
        }
        identity.recentClasses.remember(name, s)
        return s
    }

    /// The class's state, made when the session first sees the class.
    @inline(__always)
    func classState(_ name: String, dialect: Dialect) -> ClassState {
        if let s = existingClass(name) { return s }
        if identity.classes.count >= max(identity.foldAt, options.classFoldFloor) { foldIdleClasses() }
        let s = ClassState(entry: instrumentation.entry(name, dialect: dialect), evictAt: options.evictionFloor)
        identity.classes[name] = s
        identity.recentClasses.remember(name, s)
        return s
    }

    /// Dead instances stay findable by address (a callback after dealloc), but only the most recent
    /// ones: memory follows live controllers, not every controller the capture ever had.
    static let deadAddressMemory = 4096

    func rememberDead(_ address: UInt64) {
        if identity.deadAddresses.count < Self.deadAddressMemory {
            identity.deadAddresses.append(address)
            return
        }
        let oldest = identity.deadAddresses[identity.deadAddressHead]
        if let old = identity.byAddress[oldest], !old.isAlive { identity.byAddress[oldest] = nil }
        identity.deadAddresses[identity.deadAddressHead] = address
        identity.deadAddressHead = (identity.deadAddressHead + 1) % Self.deadAddressMemory
    }

    /// A new instance of the event's class (`state`).
    func newInstance(_ e: Event, _ state: ClassState) -> Instance {
        let inst = context.makeInstance(className: e.className, address: e.address, dialect: e.dialect, line: e.line, of: state.entry)
        state.live.append(inst)
        if !options.lifetimes.isEmpty { countBirth(inst, entry: inst.entry, e) }
        if let a = e.address { identity.byAddress[a] = inst } else { state.hasUnbound = true }
        if state.live.count > state.evictAt { evictUnreachable(state) }
        return inst
    }

    /// Drops the class's instances that no event can reach (when its live list has grown past
    /// `TimelineOptions.evictionFloor`) and that can produce no finding but their leak (memory follows the
    /// live controllers, not the log: docs/performance.md#memory). An instance is out of reach when it has
    /// no address and is older than both routing windows (`routeWithoutAddress`, `unboundWindow`); it is
    /// dropped only when it was removed for good (not taken along by another's removal, which may be taken
    /// back), is hidden, in no transition, and has nothing pending. Its leak, which only the session's end
    /// can word (how long the session went on), is kept encoded.
    /// A removed controller with an address stays reachable by it: it is dropped the same way, and
    /// its address keeps what brings it back if the address is heard from again (`EvictedController`,
    /// 16 bytes), so that it costs about what an address-less one does (docs/performance.md#memory).
    /// In live mode only instances whose leak was reported already are dropped (leaks are reported
    /// as their grace expires there).
    func evictUnreachable(_ state: ClassState) {
        let live = state.live
        // Older than the latest `routingWindow`; without an address, also out of the unbound window.
        let reachable = max(0, live.count - Self.routingWindow), unbound = unboundWindow(live).startIndex
        var kept: [Instance] = []
        kept.reserveCapacity(live.count)
        for k in 0..<reachable {
            let i = live[k]
            guard i.isAlive, let r = i.removal, r.kind != .poppedWithTop, i.transition == nil,
                  i.appearance == .hidden || i.appearance == .unknown, i.completionPending == nil,
                  i !== identity.lastInitInstance, !(options.live && !i.emitted.contains(.leak)),
                  context.observations.count < UInt32.max, i.address == nil ? k < unbound : mayEvictAddressed(i, r) else {
                kept.append(i)
                continue
            }
            if case .adding = i.parentState { kept.append(i); continue }
            var leak: UInt32?
            if let (index, dialect) = removals.emittedLive.removeValue(forKey: ObjectIdentifier(i)) {
                // Live mode: its leak was printed; kept under its address as a pending one is, so
                // that a dealloc or a reappearance still resolves it (`bringBack`).
                removals.evictedLeaks.append((index, dialect))
                leak = index
            } else if !i.emitted.contains(.leak) {
                let o = r.kind == .ownerDeallocated ? objectLeakObservation(i, r, wentOn: nil, confirmed: true)
                    : Self.leakObservation(i, r, wentOn: nil, confirmed: true, requirement: nil)
                // Completed at the session's end (`reportEvictedLeaks`), in place.
                context.observations.append(o)
                let index = UInt32(context.observations.count - 1)
                removals.evictedLeaks.append((index, i.dialect.family))
                leak = index
            }
            if let a = i.address {
                if identity.byAddress[a] === i { identity.byAddress[a] = nil }
                identity.evicted.insert(a, EvictedController(i, leak: leak))
            }
            // No event reaches it any more. Nothing else points at it but others' `coveredBy`
            // (skipped once removed from there) and its stem's owners (pruned of forgotten ones).
            i.forgotten = true
            i.coveredBy.removeAll()
            i.tookAlong.removeAll()
        }
        kept.append(contentsOf: live[reachable...])
        state.live = kept
        // Past twice what stayed: amortised constant time per instance however many cannot go.
        state.evictAt = max(options.evictionFloor, kept.count * 2)
    }

    /// The instance an event belongs to; `state`: its class's.
    func resolve(_ e: Event, _ state: ClassState) -> Instance {
        if let addr = e.address {
            if let known = identity.byAddress[addr] {
                if known.className == e.className {
                    if known.isAlive { return known }
                    // An address seen again after dealloc: a new instance if it is being created
                    // (or added as a child, which addChild announces before the view loads).
                    if e.kind.isCreation || Self.startsChild(e) { return newInstance(e, state) }
                    return known
                }
                // Another class at this address: the old object is gone without a logged dealloc.
                forget(known)
            } else if !identity.evicted.isEmpty, let gone = identity.evicted.remove(addr), let back = bringBack(gone, addr, e, state) {
                return back
            }
            // An instance of this class first seen without an address takes it: one of the latest
            // `routingWindow` of them, found in place (without a filtered copy of the class's list).
            if state.hasUnbound, let unbound = pick(unboundWindow(state.live), for: e, unboundOnly: true) {
                unbound.address = addr
                identity.byAddress[addr] = unbound
                return unbound
            }
            return newInstance(e, state)
        }
        // Decided apart from creating the instance: a copy of the class's list held here while
        // appending to it would copy the whole list on every new instance.
        return routeWithoutAddress(e, state) ?? newInstance(e, state)
    }

    /// Whether a removed controller with an address may be dropped (`evictUnreachable`): not while a
    /// timeline is recorded (it draws every controller's lane), not an object (its late dealloc names
    /// its owner), not a controller that owns live objects (its dealloc decides theirs), nor one whose
    /// state does not fit an `EvictedController`.
    func mayEvictAddressed(_ i: Instance, _ r: Removal) -> Bool {
        guard recorder == nil, r.kind != .ownerDeallocated, !i.entry.isObjectClass,
              EvictedController.fits(i, r, pendingLeak: !i.emitted.contains(.leak) || removals.emittedLive[ObjectIdentifier(i)] != nil) else { return false }
        guard let link = i.objects else { return true }
        return !link.owned.contains { $0.isAlive && $0.owner === i }
    }

    /// An evicted controller's address heard from again (`evictUnreachable`): the controller as it
    /// was dropped (removed, hidden, its leak pending), its leak taken back from the observations
    /// (a dealloc or a reappearance decides it anew, as for any removed controller). Another class
    /// at the address: the old object is gone without a logged dealloc, and its leak with it
    /// (`forget`); nil then.
    func bringBack(_ gone: EvictedController, _ address: UInt64, _ e: Event, _ state: ClassState) -> Instance? {
        var removal: Removal?, will: EventRef?
        var printed: Int?
        if let index = gone.leak {
            let leak = context.observations.fact(at: index, as: ControllerLeak.self)
            (removal, will) = (leak.removal, leak.will)
            // Live mode printed it: it stands until the controller's next line decides it
            // (`resolveEmittedLeak`). Otherwise it is decided anew, as for any removed controller.
            if options.live { printed = index } else { context.observations.withdraw(at: index) }
        }
        guard gone.isOf(state.entry) else {
            // Another class at its address: gone without a logged dealloc, and its leak with it.
            if let printed { withdrawEmittedLeak(at: printed, .addressReused) }
            return nil
        }
        let inst = Instance(serial: context.nextSerial(), entry: state.entry, address: address, generation: Int(gone.generation),
                            dialect: e.dialect, line: e.line)
        gone.restore(inst, removal: removal)
        inst.removal = removal
        inst.lastWillDisappear = will
        if gone.disappeared { setAppearance(inst, .hidden) }
        if let printed { removals.emittedLive[ObjectIdentifier(inst)] = (UInt32(printed), e.dialect.family) }
        state.live.append(inst)
        identity.byAddress[address] = inst
        if debug { TimelineDebug.print("  \(inst.label) brought back by its address (evicted)") }
        return inst
    }

    /// The end of `live` that holds its latest `routingWindow` instances without an address.
    func unboundWindow(_ live: [Instance]) -> ArraySlice<Instance> {
        var start = live.endIndex, found = 0
        while start > 0, found < Self.routingWindow {
            start -= 1
            if live[start].address == nil { found += 1 }
        }
        return live[start...]
    }

    /// The live (or dead) instance an address-less event belongs to; nil: a new instance.
    func routeWithoutAddress(_ e: Event, _ state: ClassState) -> Instance? {
        // Without addresses, an event goes to the live instance of its class whose state accepts it.
        // Only the most recent ones are candidates: thousands of live instances of one class (logs
        // concatenated without relaunch lines, say) would make every event cost a scan of them all.
        let live = state.live.suffix(Self.routingWindow)
        let logged = state.entry.kinds
        switch e.kind {
        case .initialize:
            // An object's every init is a new one (a list's cell view models come in a row).
            if state.entry.isObjectClass { return nil }
            // initWithNibName: → init chains log several initializers for one object.
            if let last = identity.lastInitInstance, last.className == e.className, last.isAlive { return last }
            if let fresh = live.last(where: { $0.initSeen && !$0.loaded && $0.appearance == .unknown && !$0.loadViewPending }),
               !fresh.activeAfterCreation, identity.lastInitInstance === fresh {
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
        case .dealloc where state.entry.isObjectClass:
            // An object's deinit without an address (docs/lifecycle.md#objects); with none alive,
            // one made before the capture began.
            return objectForDeinit(live)
        default:
            // Most events: the one live instance accepts them (pick's shortcut, without the call).
            if live.count == 1, Self.accepts(live[live.startIndex], e) { return live[live.startIndex] }
            let chosen = pick(live, for: e)
            if let chosen, Self.accepts(chosen, e) { return chosen }
            // No live instance accepts it (docs/lifecycle.md#events-no-live-instance-accepts).
            let logsCreation = logged.contains(.initialize) || logged.contains(.loadView) || logged.contains(.viewDidLoad)
            if Self.canBegin(e) {
                // A second viewWillAppear while the live ones are appearing or appeared: a second
                // instance, unless the class logs its creation (that instance would have shown its
                // birth: the will is unbalanced on the live one).
                if e.kind == .viewWillAppear, let chosen { return logsCreation ? chosen : nil }
                if let chosen { return chosen }
                // Only dead instances: an event after dealloc, unless the class never logs its
                // creation (then a new instance may simply have been created silently).
                // willMove(toParent: parent) is the first callback of a child being added (addChild
                // calls it before the child's view loads): a new instance, not a zombie.
                if e.kind.isCallback, !Self.startsChild(e), let dead = state.lastDead, logsCreation { return dead }
                return nil
            }
            // A callback that cannot begin a controller's life goes to the instance of its class
            // active most recently, dead or alive: a stray viewDidDisappear right after a dealloc is
            // that instance's event_after_dealloc, not an older twin's. The first of its class in
            // the session begins one (the log began mid-flow).
            var recent = state.lastDead
            for i in live where recent == nil || i.lastActivity > recent!.lastActivity { recent = i }
            return recent
        }
    }

    /// Callbacks that may begin a controller's life in the log (docs/lifecycle.md#mid-flow-starts): a
    /// creation, an appearance's start, a child's addition, a memory warning (UIKit sends it to every live
    /// controller, also to one that logged nothing yet).
    static func canBegin(_ e: Event) -> Bool {
        switch e.kind {
        case .initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .didReceiveMemoryWarning: return true
        case .willMoveToParent: return e.parent != .none
        default: return false
        }
    }

    /// Whether an instance's state accepts the event (where it stands lets the event follow).
    static func accepts(_ i: Instance, _ e: Event) -> Bool {
        let state = i.appearance
        if state == .unknown { return true }
        switch e.kind {
        case .viewWillAppear: return state == .hidden || state == .disappearing
        case .viewDidAppear, .viewIsAppearing: return state == .appearing
        case .viewWillDisappear: return state == .visible || state == .appearing
        case .viewDidDisappear: return state == .disappearing
        // Deallocated while hidden, or in the middle of a will/did pair (that pair's finding).
        case .dealloc: return state != .visible
        default: return true
        }
    }

    static func startsChild(_ e: Event) -> Bool { e.kind == .willMoveToParent && e.parent != .none }

    /// Among live instances of a class, the one whose state accepts the event
    /// (docs/lifecycle.md#generations).
    static let routingWindow = 64

    /// The latest instance of the lowest rank (nil: not a candidate). The same as asking each rank's
    /// `last(where:)` in turn, in one pass from the end.
    @inline(__always)
    func latest(_ live: ArraySlice<Instance>, _ rank: (Instance) -> Int?) -> Instance? {
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
    func pick(_ live: ArraySlice<Instance>, for e: Event, unboundOnly: Bool = false) -> Instance? {
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
            // A will-appear that comes first (no leaving controller announced yet) is a tab switch, a
            // presentation or a push: it shows a tab's top or a new controller, never one that a live
            // controller still covers (only a pop or a dismissal, which announce the leaving one first,
            // reveal that).
            let leads = !leavingAnnounced
            let ordinary = best { i in
                switch i.appearance {
                case .disappearing: return i.transition.map { $0.cancelled && !$0.settled } == true ? 0 : 4
                case .hidden, .unknown:
                    if i.isRemoved { return 3 }
                    return leads && i.coveredBy.contains(where: { $0.isAlive }) ? 2 : 1
                case .appearing, .visible: return 5
                }
            }
            if !unboundOnly, let ordinary, let revealed = revealedByPop(live, instead: ordinary) { return revealed }
            return ordinary
        case .viewDidAppear, .viewIsAppearing:
            return best { $0.appearance == .appearing ? 0 : 1 }
        case .viewWillDisappear:
            // An appearance whose viewDidAppear was judged missing (`incomplete`: no will pending any more)
            // is on screen all the same: it leaves before one whose will-appear just came, which would be
            // an appearance taken back at once.
            return best { i in
                switch i.appearance {
                case .visible: return 0
                case .appearing: return i.pendingWill == nil ? 1 : 2
                default: return 3
                }
            }
        case .viewDidDisappear:
            return best { $0.appearance == .disappearing ? 0 : 1 }
        case .dealloc:
            // Usually the instance removed most recently; the leaving side of a pop that has not
            // settled yet counts as removed from its viewDidDisappear
            // (docs/lifecycle.md#events-no-live-instance-accepts).
            var removed = -1, removedLine = 0
            for k in live.indices {
                let i = live[k]
                if unboundOnly && i.address != nil { continue }
                if let line = i.removal?.anchor.line ?? poppingLine(i), removed < 0 || line >= removedLine {
                    removed = k
                    removedLine = line
                }
            }
            if removed >= 0 { return live[removed] }
            return best { $0.appearance == .hidden || $0.appearance == .unknown ? 0 : 1 }
        case .willMoveToParent, .didMoveToParent:
            return best {
                switch $0.parentState { case .adding, .removing: return 0; default: return 1 }
            }
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews, .didReceiveMemoryWarning:
            return best { $0.appearance == .appearing || $0.appearance == .visible ? 0 : 1 }
        case .viewWillUnload, .viewDidUnload:
            return best { $0.appearance != .visible && $0.appearance != .appearing ? 0 : 1 }
        default:
            return best { _ in 0 }
        }
    }

    /// Whether an open transition has a leaving controller whose did-callback is still due (a
    /// will-appear now is the other side of a push, pop or dismissal).
    var leavingAnnounced: Bool {
        guard let t = transitions.current, !t.settled else { return false }
        for k in t.members.indices where t.members[k].direction == .disappear && t.members[k].pending { return true }
        return false
    }

    /// A pop reveals the controller below the leaving one (docs/lifecycle.md#evidence-of-removal). When the
    /// one chosen by state (`ordinary`) is not right below it, the hidden instances of the arriving class are
    /// ranked by how a pop would reveal them (`popRank`): right below the leaving controller, right below an
    /// address-less twin of it (same class, hidden, on top of its stack: the log could not tell the twins
    /// apart when one of them appeared earlier, in a tab switch that showed the other tab's top, and
    /// `takeTwinsPlace` then puts the leaving one in its twin's place), further below the leaving one (a pop
    /// to it: the controllers between go too), further below a twin. The latest active of the best rank wins,
    /// even if another was active more recently (the top of another tab). Nil when the ordinary choice
    /// stands: a new controller (a push), one right below the leaving one, or no pop.
    func revealedByPop(_ live: ArraySlice<Instance>, instead ordinary: Instance) -> Instance? {
        guard ordinary.appearedEver, Self.hiddenInStack(ordinary), let leaving = soleLeaving() else { return nil }
        // The common pop: what the state chose is right below the leaving one.
        if coverPath(from: ordinary, to: leaving)?.count == 1 { return nil }
        var chosen: Instance?, chosenRank = Int.max
        for c in live where Self.hiddenInStack(c) {
            guard let r = popRank(c, below: leaving), r < chosenRank || (r == chosenRank && c.lastActivity > chosen!.lastActivity) else { continue }
            chosen = c
            chosenRank = r
        }
        return chosen
    }

    /// How a pop of `leaving` would reveal `c`, best first: 0 right below it, 1 right below an address-less
    /// twin of it (`twinAbove`), 2 further below it, 3 further below a twin; nil when it is below neither.
    /// A pop shows the controller right below the one leaving; only a pop to a given controller (or to the
    /// root) skips some, which is the rarer reading, so one right below a twin is the likelier one.
    func popRank(_ c: Instance, below leaving: Instance) -> Int? {
        let own = coverPath(from: c, to: leaving)?.count
        if own == 1 { return 0 }
        if let twin = twinAbove(c, of: leaving)?.count, twin == 1 || own == nil { return twin == 1 ? 1 : 3 }
        return own == nil ? nil : 2
    }

    /// The controller leaving in the open transition, when it is the only one, address-less and
    /// announced first (a pop or a dismissal, not yet complete).
    func soleLeaving() -> Instance? {
        guard let t = transitions.current, !t.settled, !t.cancelled, t.firstDirection == .disappear else { return nil }
        var leaving: Instance?
        for k in t.members.indices where t.members[k].direction == .disappear {
            guard leaving == nil, t.members[k].pending else { return nil }
            leaving = t.members[k].instance
        }
        guard let leaving, leaving.address == nil, leaving.isAlive, !leaving.isRemoved else { return nil }
        return leaving
    }

    static func hiddenInStack(_ i: Instance) -> Bool { i.isAlive && !i.isRemoved && i.appearance == .hidden }

    /// The shortest path (`coverPath`) from `below` up to an address-less twin of `leaving` (same class,
    /// hidden, on top of its stack) that `below` is under; nil when it is under none.
    func twinAbove(_ below: Instance, of leaving: Instance) -> [Instance]? {
        guard below.coveredBy.contains(where: { $0.isAlive }), let twins = existingClass(leaving.className)?.live, twins.count > 1 else { return nil }
        var shortest: [Instance]?
        for twin in twins.suffix(Self.routingWindow).reversed() where twin !== leaving && twin !== below && twin.address == nil
            && Self.hiddenInStack(twin) && !twin.coveredBy.contains(where: { $0.isAlive }) {
            guard let path = coverPath(from: below, to: twin), path.count < shortest?.count ?? Int.max else { continue }
            if path.count == 1 { return path }
            shortest = path
        }
        return shortest
    }

    /// An appearance that a pop of `leaving` explains better if `leaving` stood where its twin is
    /// (`popRank`: the twins were told apart wrongly before, by a tab switch that showed one tab's top for the
    /// other's): the two trade places (`swapPlaces`), so that the pop removes the leaving one (and what stands
    /// between), not the controllers that stand between the arriving one and where the leaving one was thought to be.
    /// Before that, two readings that explain more are tried when the twin is further up than right above the arriving
    /// one: the whole stack was told apart (`takeTwinsStack`: what was popped off the leaving one since were twins of
    /// the controllers between), or the leaving one was pushed onto a twin of the top, which is the one the switch
    /// showed (that twin and the top trade places, and the pop takes it along).
    ///
    /// When the arriving one is under neither the leaving one nor a twin of it, the twins told apart wrongly may
    /// stand lower: a controller the leaving one stands on, whose twin is on top of a stack the arriving one is
    /// under (`ancestorsTwinAbove`: a pop to the root of the tab whose top the earlier tab switch showed). That
    /// controller and its twin trade places, and the pop removes it with what stands on it.
    func takeTwinsPlace(_ arriving: Instance) {
        guard let leaving = soleLeaving(), leaving !== arriving else { return }
        let rank = popRank(arriving, below: leaving)
        guard stackScanAllowed else {
            // Out of scans (bounded work): the leaving one takes the twin's place, the twin keeps its own.
            let found = rank == 1 || rank == 3 ? twinAbove(arriving, of: leaving).map { ($0, leaving) }
                : rank == nil ? ancestorsTwinAbove(arriving, of: leaving) : nil
            guard let (path, mistaken) = found, let twin = path.last else { return }
            (path.count >= 2 ? path[path.count - 2] : arriving).coveredBy.replace(twin, with: mistaken)
            mistaken.mistakenForTwin = true
            twin.mistakenForTwin = true
            return
        }
        if rank == 1 || rank == 3, let path = twinAbove(arriving, of: leaving) {
            if path.count >= 2 {
                if takeTwinsStack(arriving, path: path, leaving: leaving) { return }
                // A pop that skips controllers either way: when `leaving` was pushed onto a twin of the top, that twin
                // was the top a tab switch showed (as below), and the pop takes it along, not the top.
                let twin = path[path.count - 1]
                if let parent = stackScan(parentsOf: [leaving]).parents[0], parent !== twin, parent.address == nil,
                   parent.className == twin.className, Self.hiddenInStack(parent), !path.contains(where: { $0 === parent }) {
                    swapPlaces(parent, twin)
                    return
                }
            }
            // The leaving one was the twin: a tab switch showed it for the other tab's top.
            swapPlaces(leaving, path[path.count - 1])
        } else if rank == nil, let found = ancestorsTwinAbove(arriving, of: leaving), let top = found.path.last {
            swapPlaces(found.mistaken, top)
        }
    }

    /// Two address-less twins that an earlier event told apart wrongly (a tab switch that showed one tab's top for the
    /// other's): each takes the other's place on its stack, and the other's live objects (an object follows the
    /// history it was made in). Neither's objects are judged by its dealloc afterwards (`mistakenForTwin`).
    func swapPlaces(_ a: Instance, _ b: Instance) {
        let scan = stackScan(parentsOf: [a, b], objectsOf: [a, b])
        if let pa = scan.parents[0], let pb = scan.parents[1], pa === pb {
            // Siblings: their places are the same.
        } else {
            scan.parents[0]?.coveredBy.replace(a, with: b)
            scan.parents[1]?.coveredBy.replace(b, with: a)
        }
        for o in scan.objects[0] { assign(o, to: b, o.ownerReason ?? .setup) }
        for o in scan.objects[1] { assign(o, to: a, o.ownerReason ?? .setup) }
        a.mistakenForTwin = true
        b.mistakenForTwin = true
        if debug { TimelineDebug.print("  \(a.label) and its twin \(b.label) change places") }
    }

    /// One pass over the session's live instances (rare: once per twin swap): for each of `targets`, the live controller
    /// it stands on (the latest made if several list it), and for each of `owners`, its live objects in the order they
    /// were made (a deallocated owner no longer lists them).
    func stackScan(parentsOf targets: [Instance], objectsOf owners: [Instance] = []) -> (parents: [Instance?], objects: [[Instance]]) {
        var parents = [Instance?](repeating: nil, count: targets.count)
        var objects = [[Instance]](repeating: [], count: owners.count)
        for state in identity.classes.values {
            identity.stackScanned += state.live.count + 1
            for i in state.live {
                if !owners.isEmpty, let owner = i.owner, !i.forgotten, let k = owners.firstIndex(where: { $0 === owner }) { objects[k].append(i) }
                guard !i.coveredBy.isEmpty else { continue }
                for (k, t) in targets.enumerated() where i !== t && i.serial > (parents[k]?.serial ?? Int.min) && i.coveredBy.contains(where: { $0 === t }) {
                    parents[k] = i
                }
            }
        }
        // The classes come in the dictionary's order: the objects in the order they were made.
        for k in objects.indices where objects[k].count > 1 { objects[k].sort { $0.serial < $1.serial } }
        return (parents, objects)
    }

    /// A pop of `leaving` that shows `arriving`, under the address-less twin of `leaving` at the top of `path` and the
    /// controllers between (`path`, from the one right above `arriving`): when the controllers popped off `leaving`
    /// (`Instance.poppedOff`) are twins of those between, one for each, the tab switch that showed the other tab's top
    /// earlier showed this stack's instead (docs/lifecycle.md#evidence-of-removal). The whole stack was told apart
    /// wrongly, not only its top: `leaving` is the one right above `arriving` (the pop shows what is right below the
    /// leaving one, the common pop), and that one stands where `leaving` stood (`swapPlaces`); the popped ones were the
    /// ones between (their deallocs were theirs), whose objects go to them. False (nothing changed) when the popped
    /// ones are not such twins.
    func takeTwinsStack(_ arriving: Instance, path: [Instance], leaving: Instance) -> Bool {
        let first = path[0]
        guard first.address == nil, first.className == leaving.className, Self.hiddenInStack(first) else { return false }
        // The ones popped off `leaving`, lowest first: each a twin of the controller at its height, gone, and active
        // since that one last was.
        var popped: [Instance] = []
        var node = leaving
        for k in 1..<path.count {
            guard let c = node.poppedOff, !c.isAlive || c.isRemoved, c.address == nil, c.className == path[k].className,
                  c.lastActivity > path[k].lastActivity else { return false }
            popped.append(c)
            node = c
        }
        if debug {
            TimelineDebug.print("  the tab switch showed \(first.label)'s stack for \(leaving.label)'s: "
                + zip(popped, path.dropFirst()).map { "\($0.label) was \($1.label)" }.joined(separator: ", "))
        }
        swapPlaces(leaving, first)
        let orphans = stackScan(parentsOf: [], objectsOf: popped).objects
        for (k, objects) in orphans.enumerated() {
            for o in objects { assign(o, to: path[k + 1], o.ownerReason ?? .setup) }
        }
        for i in popped + path.dropFirst() { i.mistakenForTwin = true }
        return true
    }

    /// Whether a twin swap may scan the live instances (`stackScan`): the scans of a session look at no more than
    /// `stackScanPerEvent` instances per event it has had, beyond a first allowance, so that a capture of many live
    /// twins whose pops keep finding them out stays linear (the swaps then fall back to moving the top alone).
    var stackScanAllowed: Bool { identity.stackScanned <= Self.stackScanAllowance + Self.stackScanPerEvent * clock.eventCount }
    static let stackScanAllowance = 1 << 16
    static let stackScanPerEvent = 64

    /// Whether another live address-less instance has `inst`'s class, among its class's latest (`routingWindow`, as
    /// the twin searches look): asked at every address-less pop, so it must not walk a long list.
    func hasTwin(_ inst: Instance) -> Bool {
        guard let live = existingClass(inst.className)?.live, live.count > 1 else { return false }
        return live.suffix(Self.routingWindow).contains { $0 !== inst && $0.address == nil }
    }

    /// The path from `below` up to an address-less controller on top of its stack (hidden, nothing live over
    /// it) whose address-less twin `leaving` stands on, directly or higher up, and that twin; nil when there is
    /// none. The tops nearest `below` come first; at most `ancestorNodes` instances are walked and `ancestorChecks`
    /// twins tried (bounded work per event).
    func ancestorsTwinAbove(_ below: Instance, of leaving: Instance) -> (path: [Instance], mistaken: Instance)? {
        guard below.coveredBy.contains(where: { $0.isAlive }) else { return nil }
        // The stacks' tops over `below`, breadth first (as `coverPath` walks them), collected before any
        // other search takes the marks.
        let mark = nextCoverMark()
        below.coverMark = mark
        var nodes: [Instance] = [below], tops: [Instance] = []
        var next = 0
        while next < nodes.count, next < Self.ancestorNodes {
            let node = nodes[next]
            next += 1
            var covered = false
            for above in node.coveredBy where above.isAlive {
                covered = true
                if above.coverMark != mark {
                    above.coverMark = mark
                    nodes.append(above)
                }
            }
            if !covered, node !== below, node.address == nil, Self.hiddenInStack(node) { tops.append(node) }
        }
        var tried = 0
        for top in tops {
            guard let twins = existingClass(top.className)?.live, twins.count > 1 else { continue }
            for twin in twins.suffix(Self.routingWindow).reversed() where twin !== top && twin !== leaving && twin.address == nil
                && Self.hiddenInStack(twin) && twin.coveredBy.contains(where: { $0.isAlive }) {
                tried += 1
                if tried > Self.ancestorChecks { return nil }
                if coverPath(from: twin, to: leaving) != nil, let path = coverPath(from: below, to: top) { return (path, twin) }
            }
        }
        return nil
    }
    static let ancestorChecks = 16
    /// At most so many instances are walked for the stacks' tops over the arriving controller.
    static let ancestorNodes = 256

    /// The line of the viewDidDisappear with which an instance left, as the covering side of a pop
    /// whose other side has not completed yet; nil when it is not leaving so.
    func poppingLine(_ i: Instance) -> Int? {
        guard i.appearance == .hidden, let t = i.transition, !t.settled, t.firstDirection == .disappear,
              let k = t.memberIndex(i), t.members[k].done, t.members[k].direction == .disappear,
              let did = i.lastDidDisappear else { return nil }
        for c in t.members.indices where t.members[c].direction == .appear {
            if coverPath(from: t.members[c].instance, to: i) != nil { return did.line }
        }
        return nil
    }

    func forget(_ inst: Instance) {
        resolveEmittedLeak(inst, .addressReused)
        inst.forgotten = true
        if inst.poppedOff != nil { inst.poppedOff = nil }
        if let link = inst.objects, !link.owned.isEmpty { link.owned = [] }
        if inst.isAlive { leaveLive(inst) }
        if let a = inst.address, identity.byAddress[a] === inst { identity.byAddress[a] = nil }
        existingClass(inst.className)?.live.removeAll { $0 === inst }
        recorder?.settled(inst, session: serial)
    }
}

/// A removed controller with an address that `SessionTimeline.evictUnreachable` dropped, kept under
/// its address (`EvictedTable`) in 16 bytes: its leak among the observations, and what
/// `SessionTimeline.bringBack` needs to make it again if the address is heard from.
struct EvictedController {
    /// The index of its pending leak among the observations when it had one (batch mode: the
    /// leak's removal anchor is then its last viewDidDisappear, if it had one); else (its leak
    /// reported already, in live mode) the line of its last viewDidDisappear (0: none).
    private let pending: UInt32
    let generation: UInt32
    /// Its class (`Instrumentation.ClassEntry.number`, its low 22 bits) above 10 bits of flags.
    private let classAndFlags: UInt32
    /// The line of its viewDidLoad (0: none), which a second one cites.
    private let loadLine: UInt32
    /// What an empty slot of `EvictedTable` holds.
    static let empty = EvictedController(pending: 0, generation: 0, classAndFlags: 0, loadLine: 0)
    private static let classMask: UInt32 = 0x3F_FFFF
    private static let hasLeak: UInt32 = 1 << 7, didIsAnchor: UInt32 = 1 << 8

    private init(pending: UInt32, generation: UInt32, classAndFlags: UInt32, loadLine: UInt32) {
        (self.pending, self.generation, self.classAndFlags, self.loadLine) = (pending, generation, classAndFlags, loadLine)
    }

    /// Whether `i` can be kept this way (`evictUnreachable`): its leak, if pending, is at `leak`.
    /// Not when a line does not fit in 32 bits, nor when its last viewDidDisappear is not what
    /// its pending leak's removal is anchored at (later findings may cite that line).
    static func fits(_ i: Instance, _ r: Removal, pendingLeak: Bool) -> Bool {
        if let load = i.loadLine, UInt32(exactly: load.line) == nil { return false }
        guard let did = i.lastDidDisappear else { return true }
        return pendingLeak ? did.line == r.anchor.line : UInt32(exactly: did.line) != nil
    }

    init(_ i: Instance, leak: UInt32?) {
        var f: UInt32 = 0
        if i.loaded { f |= 1 }
        if i.initSeen { f |= 2 }
        if i.appearedEver { f |= 4 }
        if i.viewMayBeUnloaded { f |= 8 }
        if i.viewUnloadLogged { f |= 16 }
        if i.appearance == .hidden { f |= 32 }
        if i.emitted.contains(.leak) { f |= 64 }
        if let leak {
            f |= Self.hasLeak
            if i.lastDidDisappear != nil { f |= Self.didIsAnchor }
            pending = leak
        } else {
            pending = i.lastDidDisappear.map { UInt32(truncatingIfNeeded: $0.line) } ?? 0
        }
        generation = UInt32(truncatingIfNeeded: i.generation)
        classAndFlags = (i.entry.number & Self.classMask) << 10 | f
        loadLine = i.loadLine.map { $0.kind == .viewDidLoad ? UInt32(truncatingIfNeeded: $0.line) : 0 } ?? 0
    }

    /// The index of its pending leak among the observations.
    var leak: Int? { classAndFlags & Self.hasLeak != 0 ? Int(pending) : nil }

    /// Whether it was of the class of `entry`.
    func isOf(_ entry: Instrumentation.ClassEntry) -> Bool { classAndFlags >> 10 == entry.number & Self.classMask }

    /// The state it was dropped in, on a new instance of it; `removal`: its pending leak's.
    func restore(_ i: Instance, removal: Removal?) {
        i.loaded = classAndFlags & 1 != 0
        i.initSeen = classAndFlags & 2 != 0
        i.appearedEver = classAndFlags & 4 != 0
        i.viewMayBeUnloaded = classAndFlags & 8 != 0
        i.viewUnloadLogged = classAndFlags & 16 != 0
        if classAndFlags & 64 != 0 { i.emitted.insert(.leak) }
        if loadLine != 0 { i.loadLine = EventRef(line: Int(loadLine), time: nil, kind: .viewDidLoad) }
        if classAndFlags & Self.hasLeak != 0 {
            if classAndFlags & Self.didIsAnchor != 0, let r = removal { i.lastDidDisappear = r.anchor }
        } else if pending != 0 {
            i.lastDidDisappear = EventRef(line: Int(pending), time: nil, kind: .viewDidDisappear)
        }
    }

    /// Whether it had disappeared (else its appearance was unknown).
    var disappeared: Bool { classAndFlags & 32 != 0 }
}

/// The evicted controllers by address (`SessionTimeline.evicted`): open addressing with linear
/// probing over two arrays, 24 bytes a slot (key 0 marks an empty one: an instance at address 0
/// has none), grown by half when four fifths are full, removal shifting back the entries after
/// the hole (no tombstones). That is 30 to 45 bytes an evicted controller, where a dictionary
/// (24-byte buckets, three quarters full at most, doubling) takes 32 to 64 and three times its
/// size while it grows (docs/performance.md#memory).
struct EvictedTable {
    private var keys: [UInt64] = []
    private var values: [EvictedController] = []
    private(set) var count = 0
    var isEmpty: Bool { count == 0 }

    @inline(__always) private func home(_ key: UInt64) -> Int {
        Int(UInt(bitPattern: key.hashValue).multipliedFullWidth(by: UInt(keys.count)).high)
    }

    @inline(__always) private func next(_ i: Int) -> Int { i + 1 == keys.count ? 0 : i + 1 }

    mutating func insert(_ key: UInt64, _ value: EvictedController) {
        precondition(key != 0, "EvictedTable: an evicted controller has an address")
        if (count + 1) * 5 > keys.count * 4 { grow() }
        var i = home(key)
        while keys[i] != 0 {
            if keys[i] == key { values[i] = value; return }
            i = next(i)
        }
        keys[i] = key
        values[i] = value
        count += 1
    }

    /// The entry under `key`, taken out of the table.
    mutating func remove(_ key: UInt64) -> EvictedController? {
        guard count > 0, key != 0 else { return nil }
        var i = home(key)
        while keys[i] != key {
            if keys[i] == 0 { return nil }
            i = next(i)
        }
        let found = values[i]
        keys[i] = 0
        count -= 1
        // The entries after the hole whose probe from home passes through it move back into it.
        var hole = i, j = i
        while true {
            j = next(j)
            if keys[j] == 0 { break }
            let h = home(keys[j])
            let fromHome = j >= h ? j - h : j + keys.count - h
            let fromHole = j >= hole ? j - hole : j + keys.count - hole
            if fromHome >= fromHole {
                keys[hole] = keys[j]
                values[hole] = values[j]
                keys[j] = 0
                hole = j
            }
        }
        return found
    }

    mutating func removeAll() {
        keys = []
        values = []
        count = 0
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let capacity = max(16, oldKeys.count + oldKeys.count / 2)
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: .empty, count: capacity)
        for k in oldKeys.indices where oldKeys[k] != 0 {
            var i = home(oldKeys[k])
            while keys[i] != 0 { i = next(i) }
            keys[i] = oldKeys[k]
            values[i] = oldValues[k]
        }
    }
}
