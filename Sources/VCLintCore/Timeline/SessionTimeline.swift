#if canImport(Glibc)
import Glibc
#endif

/// One run of one process (docs/lifecycle.md#sessions): its controllers and their timeline
/// (docs/lifecycle.md#the-timeline).
final class SessionTimeline {
    let serial: Int
    let processName: String
    let pid: Int?
    let options: TimelineOptions
    unowned let context: TimelineContext
    /// The context's, held strongly: an `unowned` reference costs a check and a retain per use.
    let instrumentation: Instrumentation

    /// What the session knows per class, found once per event (`classState`).
    final class ClassState {
        /// The class's live instances, oldest first.
        @exclusivity(unchecked) var live: [Instance] = []
        /// The instance of the class deallocated last.
        @exclusivity(unchecked) var lastDead: Instance?
        /// Whether the class ever had an instance without an address: only its new addresses may
        /// bind one (skips a scan of every live instance of the class per new address).
        @exclusivity(unchecked) var hasUnbound = false
        /// `live`'s length at which out-of-reach removed instances are evicted (`evictUnreachable`).
        @exclusivity(unchecked) var evictAt: Int
        /// What the class logs, and how many instances it had (shared with the other sessions).
        let entry: Instrumentation.ClassEntry
        init(entry: Instrumentation.ClassEntry, evictAt: Int) {
            self.entry = entry
            self.evictAt = evictAt
        }
    }
    @exclusivity(unchecked) var classes: [String: ClassState] = [:]
    /// Recently used classes by name length (a String compare costs less than a hash).
    @exclusivity(unchecked) var recentClasses = [(name: String, state: ClassState?)](repeating: ("", nil), count: 8)
    let byAddress = AddressTable()
    /// Live mode: removed controllers by when their leak falls due (`reportExpiredLeaks`).
    @exclusivity(unchecked) var leakClock = LeakClock()
    @exclusivity(unchecked) var transition: Transition?
    @exclusivity(unchecked) var transitionSerial = 0
    @exclusivity(unchecked) var memoryWarnings = 0
    /// How many live instances are appearing or appeared (`setAppearance`).
    @exclusivity(unchecked) var visibleCount = 0
    /// The session's first memory warning and its controller, and the classes that got one (the
    /// first `warnedClassLimit` of them: the finding names a few, and memory stays bounded).
    @exclusivity(unchecked) var firstWarning: (ref: EventRef, who: ControllerRef)?
    @exclusivity(unchecked) var warnedClasses: [String] = []
    @exclusivity(unchecked) var warnedClassCount = 0
    static let warnedClassLimit = 8
    @exclusivity(unchecked) var deallocDialects: Set<Dialect> = []
    /// The dialect of the latest dealloc (inserted already): skips hashing it again.
    @exclusivity(unchecked) var lastDeallocDialect: Dialect?
    @exclusivity(unchecked) private(set) var lastTime: LogTime?
    @exclusivity(unchecked) private(set) var eventCount = 0
    @exclusivity(unchecked) var lastEventLine = 0
    @exclusivity(unchecked) var hasTimes = false
    @exclusivity(unchecked) var lastInitInstance: Instance?
    /// Owners and the objects looking for one (docs/lifecycle.md#owners).
    @exclusivity(unchecked) var objects = SessionObjects()
    /// Live instances per `lifetimes` limit (SessionTimeline+Lifetimes.swift).
    @exclusivity(unchecked) var lifetimeCounts = LifetimeCounts()
    /// What names transitions (TransitionNaming.swift).
    @exclusivity(unchecked) var naming = TransitionNaming()
    /// Set only for `vclint timeline`/`leaks`/`report`: lint pays a nil check per event.
    let recorder: TimelineRecorder?
    /// `TimelineDebug.enabled`, read once (a global's lazy initialisation is checked on every read).
    let debug = TimelineDebug.enabled

    /// Numbers `coverPath`'s searches (`Instance.coverMark`).
    @exclusivity(unchecked) var coverSearches = 0
    @exclusivity(unchecked) var deadAddresses: [UInt64] = []
    @exclusivity(unchecked) var deadAddressHead = 0
    /// The leaks of removed controllers that no event can reach any more, already among the
    /// observations, to be worded at the session's end (`evictUnreachable`): each observation's
    /// index and its controller's dialect family (whether its dealloc is instrumented).
    @exclusivity(unchecked) var evictedLeaks: [(observation: UInt32, dialect: Dialect)] = []
    /// The removed controllers with an address that were dropped, by address (`EvictedController`).
    @exclusivity(unchecked) var evicted = EvictedTable()

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

    /// An owner and its objects point at each other (`Instance.owner`, `ObjectLink`): a session dropped without
    /// `finish` (a scan stopped midway, a test that reads lines only) unlinks what it still holds,
    /// so that they go with it.
    deinit {
        for state in classes.values {
            for inst in state.live { inst.unlink() }
        }
    }

    /// Any line of this session with a time (noise lines included) extends it.
    func observe(time: LogTime) {
        hasTimes = true
        if let last = lastTime, time.seconds < last.seconds { return }  // clocks that go backwards
        lastTime = time
        if options.live { reportExpiredLeaks(now: time) }
    }

    // MARK: - Events

    func handle(_ e: Event) {
        // A completion marker names the class (`ModalViewController dismiss end`) where the
        // callbacks name a title of it (`Modal Screen — viewDidDisappear`): the one live controller
        // of its stem is the one meant, when the marker's class has logged nothing but markers.
        if e.kind.isMarker, existingClass(e.className).map({ $0.live.isEmpty || $0.entry.kinds.onlyMarkers }) ?? true,
           let alias = markerAlias(e.className) {
            var renamed = e
            renamed.className = alias
            return handle(renamed)
        }
        eventCount += 1
        lastEventLine = e.line
        if let t = e.time { observe(time: t) }
        if e.kind.isUIKitWarning {
            recorder?.warning(e, session: serial)
            let known = e.address.flatMap { byAddress[$0] }
            let named = known?.ref ?? ControllerRef(className: e.className, address: e.address,
                                                    instance: existingClass(e.className)?.live.last?.label ?? e.className)
            if e.kind == .uikitUnbalancedTransition {
                emit(UIKitUnbalancedWarning(event: EventRef(e), text: e.text ?? ""), named, line: e.line, time: e.time)
            } else {
                let others = e.others.map { ControllerRef(className: $0.className, address: $0.address, instance: $0.className) }
                emit(UIKitPresentationWarning(event: EventRef(e), text: e.text ?? "", others: others), named, line: e.line, time: e.time)
            }
            return
        }
        // The class's state, made at its first event: the one lookup by name of the event.
        let family = e.dialect.family
        let state = classState(e.className, dialect: family)
        instrumentation.record(state.entry, e.kind, dialect: family)
        if e.kind == .dealloc, family != lastDeallocDialect, !state.entry.isObjectClass {
            deallocDialects.insert(family)
            lastDeallocDialect = family
        }
        let inst = resolve(e, state)
        inst.lastActivity = e.line
        let before = inst.appearance
        recorder?.callback(e, inst, session: serial)
        apply(e, to: inst)
        trackOwnership(e, inst, state.entry)
        if !lifetimeCounts.over.isEmpty { observeOver() }
        if TransitionNaming.markerBits & e.kind.bit != 0 || !naming.joining.isEmpty { transitionEvent(e, inst) }
        recorder?.applied(e, inst, session: serial)
        if debug {
            TimelineDebug.print("\(e.line): \(e.kind.rawValue) → \(inst.label) \(before.rawValue)→\(inst.appearance.rawValue)\(inst.removal.map { " removed(\($0.kind.rawValue))" } ?? "")")
        }
        if e.kind == .initialize { lastInitInstance = inst } else if lastInitInstance != nil { lastInitInstance = nil }
    }

    // MARK: - The state machine

    func apply(_ e: Event, to inst: Instance) {
        let ref = EventRef(e)
        if !inst.isAlive {
            // (A SwiftUI view is a value: nothing it logs is a finding of its own.)
            if e.kind.isCallback && !e.kind.isViewAppearance && !inst.afterDeallocReported {
                inst.afterDeallocReported = true
                emit(EventAfterDealloc(event: ref, dealloc: inst.dealloc!), inst.ref, line: e.line, time: e.time)
            }
            return
        }
        switch e.kind {
        case .initialize:
            inst.initSeen = true
            // Transitions ask when a controller was made; an object is in none (and the epoch costs
            // an `Extras`: memory per live object, docs/performance.md#memory).
            if inst.initEpoch == nil, !inst.entry.isObjectClass { inst.initEpoch = transitionSerial }
            if inst.appearance == .unknown { setAppearance(inst, .disappeared) }
        case .loadView:
            inst.loadViewPending = true
            if inst.appearance == .unknown { setAppearance(inst, .disappeared) }
        case .viewDidLoad:
            if inst.loaded && !inst.viewMayBeUnloaded {
                emit(SecondViewDidLoad(event: ref, firstLoad: inst.loadLine), inst.ref, line: e.line, time: e.time)
            }
            if inst.appearance == .unknown && !inst.appearedEver { setAppearance(inst, .disappeared) }
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
            if firstWarning == nil { firstWarning = (ref, inst.ref) }
            if !warnedClasses.contains(inst.className) {
                if warnedClasses.count < Self.warnedClassLimit { warnedClasses.append(inst.className) }
                warnedClassCount += 1
            }
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
        case .onAppear, .onDisappear:
            // A SwiftUI view (SessionTimeline+Views.swift): no appearance rule, never leaked.
            viewAppearance(e, ref, inst)
        }
    }

    func appearance(_ e: Event, _ ref: EventRef, _ inst: Instance) {
        let state = inst.appearance
        switch e.kind {
        case .viewWillAppear:
            if inst.initSeen && !inst.loaded && !inst.appearanceBeforeLoadReported {
                inst.appearanceBeforeLoadReported = true
                emit(AppearanceBeforeLoad(event: ref, created: nil), inst.ref, line: e.line, time: e.time,
                     requires: [.viewDidLoad], of: inst)
            }
            unremove(inst)
            switch state {
            case .unknown, .disappeared:
                if state == .disappeared, inst.appearedEver { takeTwinsPlace(inst) }
                begin(inst, .appear, ref, fromUnknown: state == .unknown)
            case .disappearing:
                if !cancel(inst, to: .appear, ref) {
                    incomplete(inst, appearing: false, reason: .superseded(ref))
                    begin(inst, .appear, ref, fromUnknown: false)
                }
            case .appearing:
                emit(UnbalancedAppearance.willInSameState(will: ref, state: state, since: inst.pendingWill), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillDisappear, .viewDidDisappear], of: inst)
                inst.pendingWill = ref
            case .appeared:
                let excused = gapExplains(inst, direction: .appear)
                if !excused {
                    emit(UnbalancedAppearance.willInSameState(will: ref, state: state, since: inst.lastAppear), inst.ref, line: e.line, time: e.time,
                         requires: [.viewWillDisappear, .viewDidDisappear], of: inst)
                }
                begin(inst, .appear, ref, fromUnknown: false)
                inst.pendingWillReported = !excused
            }
        case .viewDidAppear:
            unremove(inst)
            if state == .appearing {
                finish(inst, ref)
            } else if state != .unknown {
                emit(UnbalancedAppearance.didWithoutWill(did: ref, state: state), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillAppear], of: inst)
                if state == .disappearing { dropFromTransition(inst) }
            }
            setAppearance(inst, .appeared)
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
                emit(UnbalancedAppearance.willInSameState(will: ref, state: state, since: inst.pendingWill), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillAppear, .viewDidAppear], of: inst)
                inst.pendingWill = ref
            case .disappeared:
                let excused = gapExplains(inst, direction: .disappear)
                if !excused {
                    emit(UnbalancedAppearance.willInSameState(will: ref, state: state, since: inst.lastDidDisappear), inst.ref, line: e.line, time: e.time,
                         requires: [.viewWillAppear, .viewDidAppear], of: inst)
                }
                begin(inst, .disappear, ref, fromUnknown: false)
                inst.pendingWillReported = !excused
            }
        case .viewDidDisappear:
            if state == .disappearing {
                finish(inst, ref)
            } else if state != .unknown {
                emit(UnbalancedAppearance.didWithoutWill(did: ref, state: state), inst.ref, line: e.line, time: e.time,
                     requires: [.viewWillDisappear], of: inst)
                if state == .appearing { dropFromTransition(inst) }
            }
            setAppearance(inst, .disappeared)
            inst.lastWillDisappear = state == .disappearing ? inst.pendingWill : nil
            inst.pendingWill = nil
            inst.lastDidDisappear = ref
            if let r = inst.removal, r.kind != .popped, r.kind != .poppedWithTop { moveRemovalAnchor(inst, to: ref) }
            if let d = inst.dismissPending, d.transitionSerial + 1 >= (inst.transition?.serial ?? 0) {
                markRemoved(inst, .dismissed, evidence: d.ref, anchor: ref)
            }
            if let c = inst.completionPending, !c.appearing {
                inst.completionPending = nil
                emit(DismissCompletedEarly(marker: c.marker, did: ref, will: nil), inst.ref, line: c.marker.line, time: c.marker.time, of: inst)
            }
            settleIfDone(inst.transition)
        default:
            break
        }
    }

    // MARK: -

    /// Records what was observed for the rules (`fact`'s rule words it), pointing at `line`.
    func emit(_ fact: some Observed, _ who: ControllerRef, line: Int, time: LogTime?, requires: [EventKind]? = nil, of inst: Instance? = nil) {
        let req = requires.map { Requirement(className: inst?.className ?? who.className, anyOf: $0) }
        context.observations.append(Observation(fact, controller: who, requires: req, line: line, time: time))
        if let inst { concerns(type(of: fact).transitionConcern, inst) }
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
