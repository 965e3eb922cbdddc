/// Android's Activities and Fragments in one session (docs/lifecycle.md#android-activities-and-fragments): which
/// instance a callback belongs to (docs/lifecycle.md#android-identity) and what `AndroidTable` observes for it.
/// An Android instance is not UIKit's `Instance`: it has no appearance, no transition and no dealloc, and no
/// iOS rule (a leak inferred from a missing dealloc, a will without its did) ever sees it.

/// One Activity or Fragment instance.
final class AndroidInstance {
    let entry: Instrumentation.ClassEntry
    let generation: Int
    /// Its number among the input's instances (its timeline lane's id).
    let serial: Int
    var address: UInt64?
    var state: AndroidTable.State = .unknown
    /// Its `onDestroy`, once destroyed.
    var destroyed: EventRef?
    /// Its `finalize`: the collector released it (docs/lifecycle.md#android-evidence).
    var finalized: EventRef?
    /// Its `onDestroy` said `isFinishing=true`: it ended for good, and its ViewModels stay with it.
    var finishing = false
    /// Whether an `onDetach` followed its `onDestroy` (a Fragment's last callback).
    var detachedAfterDestroy = false
    var afterDestroyReported = false
    /// The callbacks the facts point back to.
    var lastResume: EventRef?
    var lastStart: EventRef?
    var lastStop: EventRef?
    var lastPause: EventRef?
    var lastDestroyView: EventRef?
    /// The callback that began it (StrictMode's recreate window: docs/lifecycle.md#strictmode).
    var created: EventRef?
    /// Its latest callback and who logged it: an app line and the event log's line for one callback are one
    /// event (`SessionTimeline.isDuplicate`).
    var lastKind: EventKind?
    var lastDialect: Dialect = .logcat

    init(entry: Instrumentation.ClassEntry, generation: Int, address: UInt64?, serial: Int) {
        self.entry = entry
        self.generation = generation
        self.serial = serial
        self.address = address
    }

    var label: String { "\(entry.name)#\(generation)" }
    var ref: ControllerRef { ControllerRef(className: entry.name, address: address, instance: label) }
}

/// One Activity or Fragment class in a session: one lookup by name per callback finds all of it.
final class AndroidClass {
    let entry: Instrumentation.ClassEntry
    /// Its instances not yet destroyed, oldest first.
    var live: [AndroidInstance] = []
    /// Its instance destroyed last.
    var lastDestroyed: AndroidInstance?
    init(entry: Instrumentation.ClassEntry) { self.entry = entry }
}

/// The four classes looked up last, by name, the oldest replaced first. A class, so that a lookup copies nothing.
final class RecentClasses {
    @exclusivity(unchecked) private var name0 = "", name1 = "", name2 = "", name3 = ""
    @exclusivity(unchecked) private var class0: AndroidClass?, class1: AndroidClass?, class2: AndroidClass?, class3: AndroidClass?
    @exclusivity(unchecked) private var next = 0

    func find(_ name: String) -> AndroidClass? {
        if name0 == name, let c = class0 { return c }
        if name1 == name, let c = class1 { return c }
        if name2 == name, let c = class2 { return c }
        if name3 == name, let c = class3 { return c }
        return nil
    }

    func remember(_ name: String, _ cls: AndroidClass) {
        switch next {
        case 0: (name0, class0) = (name, cls)
        case 1: (name1, class1) = (name, cls)
        case 2: (name2, class2) = (name, cls)
        default: (name3, class3) = (name, cls)
        }
        next = (next + 1) & 3
    }
}

/// The session's Android instances.
struct SessionAndroid {
    /// The classes seen, by name.
    var classes: [String: AndroidClass] = [:]
    /// The classes of the latest callbacks (`classes` never loses one): most callbacks are of one of a few classes,
    /// found by comparing names instead of hashing one.
    let recent = RecentClasses()
    /// The Activity and Fragment classes by name stem (`MainActivity` and `MainFragment` under `Main`): a ViewModel's
    /// owner shares its stem.
    var classesByStem: [String: [String]] = [:]
    /// The ViewModels each instance serves (by the instance's identity), not cleared yet: when its class is created again
    /// after its destroy (a recreate), they serve the new instance. Only ViewModels still in use are listed.
    var served: [ObjectIdentifier: [Instance]] = [:]
    /// Recording only (`timeline`, `inspect`): per class, the ViewModel its `onCleared` ended last, until the class's
    /// next `finalize`, which is then drawn on that ViewModel's lane (one per class at most).
    var cleared: [String: Instance] = [:]
    /// The previous Android statement (class, callback, id, time, dialect): one logger's identical statement at
    /// the same time is one event (loglifecycle prints `⟳ onCreate` once per overload).
    var previous: (className: String, kind: EventKind, address: UInt64?, time: LogTime?, dialect: Dialect)?
}

extension SessionTimeline {
    /// A class's instances not yet destroyed, oldest first. (Read through the dictionary: a method of `android` would
    /// copy the whole struct out of the session first.)
    func androidLive(_ name: String) -> [AndroidInstance] { android.classes[name]?.live ?? [] }
    /// A class's instance destroyed last.
    func androidLastDestroyed(_ name: String) -> AndroidInstance? { android.classes[name]?.lastDestroyed }

    /// An Android callback (`EventKind.isAndroid`).
    func androidEvent(_ e: Event) {
        if e.kind == .onCleared || e.kind == .finalize { return androidObjectEvent(e) }
        if e.kind == .initialize { return construct(e) }
        guard let event = AndroidTable.Event(e.kind) else { return }
        if let p = android.previous, let t = e.time, p.time == t, p.className == e.className, p.kind == e.kind, p.address == e.address,
           p.dialect == e.dialect {
            return
        }
        android.previous = (e.className, e.kind, e.address, e.time, e.dialect)
        let cls = androidClass(e)
        let entry = cls.entry
        instrumentation.record(entry, e.kind, dialect: e.dialect)
        let ref = EventRef(e)
        if event == .viewMisuse {
            viewMisuse(e, ref, entry)
            return
        }
        let inst = androidInstance(e, event, cls)
        if isDuplicate(e, inst) { return }
        recorder?.androidCallback(e, inst, session: serial)
        defer { recorder?.androidApplied(e, inst, session: serial) }
        inst.lastKind = e.kind
        inst.lastDialect = e.dialect
        if inst.address == nil, let a = e.address { inst.address = a }
        let before = inst.state
        let step = AndroidTable.step(before, event)
        if step.facts.contains(.missingPause) {
            emit(MissingOnPause(callback: ref, resumed: inst.lastResume), inst.ref, line: e.line, time: e.time, requires: [.onPause])
        }
        if step.facts.contains(.missingStop) {
            emit(MissingOnStop(destroy: ref, started: inst.lastStart), inst.ref, line: e.line, time: e.time, requires: [.onStop])
        }
        if step.facts.contains(.unbalanced) {
            let since: EventRef?
            let requires: [EventKind]
            switch event {
            case .start: (since, requires) = (inst.lastStart, [.onStop])
            case .resume where before == .stopped: (since, requires) = (inst.lastStop, [.onStart, .onRestart])
            // The class's onCreate says the instance is the same one (docs/lifecycle.md#android-rules).
            case .resume: (since, requires) = (inst.lastResume, [.onPause, .onCreate])
            case .pause: (since, requires) = (inst.lastPause, [.onResume])
            default: (since, requires) = (inst.lastStop, [.onStart, .onRestart])
            }
            emit(UnbalancedAppearance.android(callback: ref, state: before.rawValue, since: since), inst.ref, line: e.line, time: e.time,
                 requires: requires)
        }
        if step.facts.contains(.afterDestroy), !inst.afterDestroyReported, let destroyed = inst.destroyed {
            inst.afterDestroyReported = true
            emit(CallbackAfterDestroy(event: ref, destroy: destroyed), inst.ref, line: e.line, time: e.time)
        }
        if step.facts.contains(.viewAfterDestroyView) {
            emit(FragmentViewAfterDestroyView.callback(ref, destroyView: inst.lastDestroyView), inst.ref, line: e.line, time: e.time,
                 requires: [.onCreateView])
        }
        inst.state = step.next
        switch event {
        case .start: inst.lastStart = ref
        case .resume: inst.lastResume = ref
        case .pause: inst.lastPause = ref
        case .stop: inst.lastStop = ref
        case .destroyView: inst.lastDestroyView = ref
        case .destroy where inst.destroyed == nil:
            inst.destroyed = ref
            inst.finishing = e.text == LogcatStatement.finishing
            if !options.lifetimes.isEmpty { countDeath(inst, entry: inst.entry) }
            cls.live.removeAll { $0 === inst }
            cls.lastDestroyed = inst
            evidenceState.lastDestroyed = inst
        case .detach where inst.destroyed != nil: inst.detachedAfterDestroy = true
        default: break
        }
        if !lifetimeCounts.over.isEmpty { observeOver() }
        if debug { TimelineDebug.print("\(e.line): \(e.kind.rawValue) → \(inst.label) \(before.word)→\(inst.state.word)") }
    }

    /// The instance a callback belongs to (docs/lifecycle.md#android-identity): a creation begins one; any other
    /// callback goes to the instance of its id, else to the live one whose state accepts it; failing that, to the
    /// instance destroyed last (a callback after its end), else to the latest live one (an order fault), else a
    /// new one (the log began mid-flow).
    private func androidInstance(_ e: Event, _ event: AndroidTable.Event, _ cls: AndroidClass) -> AndroidInstance {
        let live = cls.live
        let dead = cls.lastDestroyed
        let entry = cls.entry
        if let a = e.address {
            if let known = live.last(where: { $0.address == a }) { return known }
            if let dead, dead.address == a, event != .create, event != .attach { return dead }
        }
        // The event log's copy of the callback an app line just logged (or the other way round).
        if let latest = live.last ?? dead, latest.lastKind == e.kind, latest.lastDialect != e.dialect,
           latest.lastDialect == .eventLog || e.dialect == .eventLog {
            return latest
        }
        switch event {
        case .create:
            // A Fragment whose class logs onAttach begins at onAttach: its onCreate is the attached one's.
            if let attached = live.last(where: { $0.state == .attached }), entry.kinds.contains(.onAttach) { return attached }
            return constructed(live) ?? newAndroidInstance(e, cls)
        case .attach:
            // A retained fragment attaching again is the same instance.
            if let detached = live.last(where: { $0.state == .detached }) { return detached }
            return constructed(live) ?? newAndroidInstance(e, cls)
        case .detach:
            if let dead, !dead.detachedAfterDestroy, dead.destroyed != nil,
               !live.contains(where: { $0.state == .viewDestroyed || $0.state == .stopped }) { return dead }
        default:
            break
        }
        if let accepting = live.last(where: { AndroidTable.accepts($0.state, event) }) { return accepting }
        if let dead { return dead }
        // A second onResume is a new instance's only when the class logs no onCreate: the log cannot show it created.
        if let latest = live.last, event != .resume || entry.kinds.contains(.onCreate) { return latest }
        return newAndroidInstance(e, cls)
    }

    /// The instance a constructor line began and no callback placed yet: its `onCreate` (or `onAttach`) is its own.
    private func constructed(_ live: [AndroidInstance]) -> AndroidInstance? {
        live.last { $0.state == .unknown && $0.lastKind == .initialize }
    }

    /// An Activity's or Fragment's constructor line (docs/lifecycle.md#android-identity): a new instance, not placed
    /// in any state until its first callback.
    private func construct(_ e: Event) {
        let cls = androidClass(e)
        instrumentation.record(cls.entry, e.kind, dialect: e.dialect)
        if let a = e.address, let known = cls.live.last(where: { $0.address == a }), known.lastKind == .initialize { return }
        let inst = newAndroidInstance(e, cls)
        recorder?.androidCallback(e, inst, session: serial)
        inst.lastKind = .initialize
        inst.lastDialect = e.dialect
        recorder?.androidApplied(e, inst, session: serial)
        if !lifetimeCounts.over.isEmpty { observeOver() }
        if debug { TimelineDebug.print("\(e.line): init → \(inst.label) constructed") }
    }

    /// The class of a callback's name in this session, made at its first callback.
    private func androidClass(_ e: Event) -> AndroidClass {
        if let known = android.recent.find(e.className) { return known }
        if let known = android.classes[e.className] {
            android.recent.remember(e.className, known)
            return known
        }
        let made = AndroidClass(entry: instrumentation.entry(e.className, dialect: e.dialect))
        android.classes[e.className] = made
        android.classesByStem[ObjectNames.androidStem(e.className), default: []].append(e.className)
        android.recent.remember(e.className, made)
        return made
    }

    private func newAndroidInstance(_ e: Event, _ cls: AndroidClass) -> AndroidInstance {
        let entry = cls.entry
        entry.instancesMade += 1
        context.countAndroidInstance()
        let inst = AndroidInstance(entry: entry, generation: entry.instancesMade, address: e.address, serial: context.nextSerial())
        inst.created = EventRef(e)
        if let old = cls.lastDestroyed, let vms = android.served.removeValue(forKey: ObjectIdentifier(old)), !old.finishing {
            let inUse = vms.filter(\.isAlive)
            for vm in inUse { vm.androidOwner = inst }
            if !inUse.isEmpty { android.served[ObjectIdentifier(inst)] = inUse }
        }
        cls.live.append(inst)
        if !options.lifetimes.isEmpty { countBirth(inst, entry: entry, e) }
        return inst
    }

    /// Whether the callback repeats the instance's latest one from the other logger (app line and event log).
    private func isDuplicate(_ e: Event, _ inst: AndroidInstance) -> Bool {
        guard inst.lastKind == e.kind, inst.lastDialect != e.dialect, inst.lastDialect == .eventLog || e.dialect == .eventLog else { return false }
        if inst.address == nil, let a = e.address { inst.address = a }
        inst.lastDialect = e.dialect
        return true
    }

    /// androidx's exception: a finding for the fragment it names, at the exception's line, saying which side of
    /// the view's life the timeline shows.
    private func viewMisuse(_ e: Event, _ ref: EventRef, _ entry: Instrumentation.ClassEntry) {
        let inst = androidLive(e.className).last ?? androidLastDestroyed(e.className)
        let who = inst?.ref ?? ControllerRef(className: e.className, address: e.address, instance: e.className)
        let side: FragmentViewAfterDestroyView.Side
        switch inst?.state {
        case .viewDestroyed?, .detached?, .destroyed?: side = .afterDestroyView
        case .attached?, .created?: side = .beforeCreateView
        default: side = .unknown
        }
        emit(FragmentViewAfterDestroyView.exception(ref, side: side, destroyView: inst?.lastDestroyView), who, line: e.line, time: e.time)
    }
}
