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
    // Each concern's state, in a struct of its own declared beside the code that uses it, stored inline and
    // updated in place (no copies of its arrays).
    /// Which instance an event belongs to (SessionTimeline+Identity.swift).
    @exclusivity(unchecked) var identity = SessionIdentity()
    /// The open transition and what is on screen (SessionTimeline+Transitions.swift).
    @exclusivity(unchecked) var transitions = SessionTransitions()
    /// Removals, leaks and deallocs (SessionTimeline+Removal.swift).
    @exclusivity(unchecked) var removals = SessionRemovals()
    /// Memory warnings (SessionTimeline+Removal.swift, where `finish` words them).
    @exclusivity(unchecked) var warnings = WarningTally()
    /// Owners and the objects looking for one (docs/lifecycle.md#owners; SessionTimeline+Objects.swift).
    @exclusivity(unchecked) var objects = SessionObjects()
    /// Live instances per `lifetimes` limit (SessionTimeline+Lifetimes.swift).
    @exclusivity(unchecked) var lifetimeCounts = LifetimeCounts()
    /// Android's Activities and Fragments (SessionTimeline+Android.swift).
    @exclusivity(unchecked) var android = SessionAndroid()
    @exclusivity(unchecked) var evidenceState = SessionEvidence()
    /// What names transitions (TransitionNaming.swift).
    @exclusivity(unchecked) var naming = TransitionNaming()
    /// The session's clock: what every concern reads.
    @exclusivity(unchecked) var clock = TimelineClock()
    /// Set only for `vclint timeline`/`leaks`/`report`: lint pays a nil check per event.
    let recorder: TimelineRecorder?
    /// `TimelineDebug.enabled`, read once (a global's lazy initialisation is checked on every read).
    let debug = TimelineDebug.enabled

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
        for state in identity.classes.values {
            for inst in state.live { inst.unlink() }
        }
        releaseFolded()
    }

    /// Any line of this session with a time (noise lines included) extends it.
    func observe(time: LogTime) {
        clock.hasTimes = true
        if let last = clock.lastTime, time.seconds < last.seconds { return }  // clocks that go backwards
        clock.lastTime = time
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
        if options.foldBeforeEveryEvent { foldIdleClasses() }
        clock.eventCount += 1
        clock.lastEventLine = e.line
        if let t = e.time { observe(time: t) }
        if e.kind.isAndroid || isAndroidConstruction(e) { return androidEvent(e) }
        if e.kind.isUIKitWarning {
            recorder?.warning(e, session: serial)
            let known = e.address.flatMap { identity.byAddress[$0] }
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
        if e.kind == .dealloc, family != removals.lastDeallocDialect, !state.entry.isObjectClass {
            removals.deallocDialects.insert(family)
            removals.lastDeallocDialect = family
        }
        if e.kind == .initialize, untracks(e, state) {
            context.countUntracked(of: state.entry)
            identity.lastInitInstance = nil
            return
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
        if e.kind == .initialize { identity.lastInitInstance = inst } else if identity.lastInitInstance != nil { identity.lastInitInstance = nil }
    }

    // MARK: - The state machine

    func apply(_ e: Event, to inst: Instance) {
        let ref = EventRef(e)
        if !inst.isAlive {
            if !inst.emitted.contains(.eventAfterDealloc),
               LifecycleTable.step(.deallocated, LifecycleTable.Event(e.kind)).facts.contains(.eventAfterDealloc) {
                inst.emitted.insert(.eventAfterDealloc)
                emit(EventAfterDealloc(event: ref, dealloc: inst.dealloc!), inst.ref, line: e.line, time: e.time)
            }
            return
        }
        switch e.kind {
        case .initialize:
            inst.initSeen = true
            // Transitions ask when a controller was made; an object is in none (and the epoch costs
            // an `Extras`: memory per live object, docs/performance.md#memory).
            if inst.initEpoch == nil, !inst.entry.isObjectClass { inst.initEpoch = transitions.serial }
            if inst.appearance == .unknown { placeOnLoad(inst) }
        case .loadView:
            inst.loadViewPending = true
            if inst.appearance == .unknown { placeOnLoad(inst) }
        case .viewDidLoad:
            if inst.loaded && !inst.viewMayBeUnloaded {
                emit(SecondViewDidLoad(event: ref, firstLoad: inst.loadLine), inst.ref, line: e.line, time: e.time)
            }
            if inst.appearance == .unknown && !inst.appearedEver { placeOnLoad(inst) }
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
            if inst.appearance != .visible && inst.appearance != .appearing { inst.viewMayBeUnloaded = true }
            warnings.note(ref, inst)
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
            inst.dismissPending = (ref, transitions.serial)
        case .dismissEnd:
            dismissCompletion(inst, ref)
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews, .uikitPresentationConflict, .uikitUnbalancedTransition:
            break
        case .viewIsAppearing:
            // Between viewWillAppear and viewDidAppear (iOS 17): it tells where the instance is, but
            // no rule is about it, and an app that logs it may not log the other two.
            break
        case .onCreate, .onRestart, .onStart, .onRestoreInstanceState, .onPostCreate, .onResume, .onPostResume, .onPause,
             .onSaveInstanceState, .onStop, .onDestroy, .onNewIntent, .onConfigurationChanged, .onAttach, .onCreateView,
             .onViewCreated, .onActivityCreated, .onViewStateRestored, .onDestroyView, .onDetach, .fragmentViewMisuse, .processDied,
             .onCleared, .finalize:
            break  // Android's: `androidEvent`, never here
        case .onAppear, .onDisappear:
            // A SwiftUI view (SessionTimeline+Views.swift): no appearance rule, never leaked.
            viewAppearance(e, ref, inst)
        }
    }

    /// An unknown instance whose creation or view load is logged: the table places it (hidden).
    @inline(__always)
    private func placeOnLoad(_ inst: Instance) {
        setAppearance(inst, Appearance(LifecycleTable.step(.unknown, .load).next))
    }

    /// A will- or did-callback: `LifecycleTable` says where it moves the instance and what that observes, for
    /// either direction; what only an appearance does (a load check, an undone removal, a twin's place) and
    /// what each did-callback records are the direction's own.
    func appearance(_ e: Event, _ ref: EventRef, _ inst: Instance) {
        let state = inst.appearance
        switch LifecycleTable.Event(e.kind) {
        case .will(let d):
            if d == .appear {
                if inst.initSeen && !inst.loaded && !inst.emitted.contains(.appearanceBeforeLoad) {
                    inst.emitted.insert(.appearanceBeforeLoad)
                    emit(AppearanceBeforeLoad(event: ref, created: nil), inst.ref, line: e.line, time: e.time,
                         requires: [.viewDidLoad], of: inst)
                }
                unremove(inst)
            }
            will(d, LifecycleTable.step(LifecycleTable.State(state), .will(d)).facts, ref, inst, from: state)
        case .did(let d):
            if d == .appear { unremove(inst) }
            let step = LifecycleTable.step(LifecycleTable.State(state), .did(d))
            if step.facts.contains(.completes) { finish(inst, ref) }
            if step.facts.contains(.didWithoutWill) {
                emit(UnbalancedAppearance.didWithoutWill(did: ref, state: state), inst.ref, line: e.line, time: e.time,
                     requires: [d.will], of: inst)
            }
            if step.facts.contains(.dropsOpposite) { dropFromTransition(inst) }
            setAppearance(inst, Appearance(step.next))
            if d == .appear { appeared(inst, ref) } else { disappeared(inst, ref, from: state) }
        default:
            break
        }
    }

    /// A will-callback of direction `d` with the table's `facts` for the state it found.
    private func will(_ d: Transition.Direction, _ facts: LifecycleTable.Facts, _ ref: EventRef, _ inst: Instance, from state: Appearance) {
        // A completion marker bound to its previous move counts only until its own next will-callback
        // (docs/lifecycle.md#when-a-transition-is-over): a did-callback after that completes the new move.
        if inst.completionPending != nil, !facts.contains(.reverses) { inst.completionPending = nil }
        if facts.contains(.begins) {
            if d == .appear, state == .hidden, inst.appearedEver { takeTwinsPlace(inst) }
            begin(inst, d, ref, fromUnknown: state == .unknown)
        } else if facts.contains(.reverses) {
            if !cancel(inst, to: d, ref) {
                incomplete(inst, appearing: d.opposite == .appear, reason: .superseded(ref))
                begin(inst, d, ref, fromUnknown: false)
            }
        } else if facts.contains(.repeatsWill) {
            emit(UnbalancedAppearance.willInSameState(will: ref, state: state, since: inst.pendingWill), inst.ref, line: ref.line, time: ref.time,
                 requires: [d.opposite.will, d.opposite.did], of: inst)
            inst.pendingWill = ref
        } else if facts.contains(.willAgain) {
            let excused = gapExplains(inst, direction: d)
            if !excused {
                emit(UnbalancedAppearance.willInSameState(will: ref, state: state, since: d == .appear ? inst.lastAppear : inst.lastDidDisappear),
                     inst.ref, line: ref.line, time: ref.time, requires: [d.opposite.will, d.opposite.did], of: inst)
            }
            begin(inst, d, ref, fromUnknown: false)
            if !excused { inst.emitted.insert(.pendingWill) }
        }
    }

    /// What a viewDidAppear records, once the table has moved the instance.
    private func appeared(_ inst: Instance, _ ref: EventRef) {
        if inst.firstAppearSerial == nil { inst.firstAppearSerial = 0 }
        inst.appearedEver = true
        inst.lastAppear = ref
        inst.pendingWill = nil
    }

    /// What a viewDidDisappear records and settles, once the table has moved the instance.
    private func disappeared(_ inst: Instance, _ ref: EventRef, from state: Appearance) {
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
    }

    // MARK: -

    /// Records what was observed for the rules (`fact`'s rule words it), pointing at `line`.
    func emit(_ fact: some Fact, _ who: ControllerRef, line: Int, time: LogTime?, requires: [EventKind]? = nil, of inst: Instance? = nil) {
        let req = requires.map { Requirement(className: inst?.className ?? who.className, anyOf: $0) }
        context.observations.append(Observation(fact, controller: who, requires: req, line: line, time: time))
        if let inst { concerns(type(of: fact).transitionConcern, inst) }
    }
}

/// How far a session has got: its latest time and event (`SessionTimeline.clock`).
struct TimelineClock {
    /// The latest time of any of its lines (a clock that goes backwards does not move it).
    var lastTime: LogTime?
    var eventCount = 0
    var lastEventLine = 0
    var hasTimes = false
}

/// `VCLINT_DEBUG_TIMELINE=1` prints how each event was routed (for debugging routing decisions).
enum TimelineDebug {
    static let enabled: Bool = getenv("VCLINT_DEBUG_TIMELINE").map { String(cString: $0) == "1" } ?? false
    static func print(_ s: String) {
        var line = s + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
