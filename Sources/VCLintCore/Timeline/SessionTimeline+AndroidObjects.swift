/// Android's objects in one session (docs/lifecycle.md#android-objects-and-composables). A ViewModel is an object of
/// docs/lifecycle.md#objects: its `init` goes through the objects' machine as an iOS object's does, and its
/// `onCleared` ends it there (its end of use: the lane ends, lifetime counts drop it); `onCleared` proves no release,
/// so it is never recorded as a dealloc and no leak rule reads it. Its owner is the Activity or Fragment of its stem, and
/// moves to the instance that recreates it. A `finalize` proves a release: an object's ends the
/// object if `onCleared` did not; an Activity's or Fragment's marks its instance released, and closes the LeakCanary
/// watch on it. A constructor line of an Activity or Fragment class begins an instance, as `onCreate` does.
/// Composables need nothing here: their effects are `onAppear`/`onDisappear`, SwiftUI views' events.

extension SessionTimeline {
    /// Whether a logcat `init` is an Activity's or Fragment's constructor: the class is one by name, or has had
    /// Android instances in the session.
    func isAndroidConstruction(_ e: Event) -> Bool {
        guard e.kind == .initialize, e.dialect.isAndroid else { return false }
        return ObjectNames.isAndroidController(e.className) || android.classes[e.className] != nil
    }

    /// A ViewModel's owner (docs/lifecycle.md#android-objects-and-composables): the live Activity or Fragment of its
    /// stem created most recently (`MainViewModel`: `MainActivity`, `MainFragment`).
    func androidStemOwner(_ stem: String) -> AndroidInstance? {
        var chosen: AndroidInstance?
        for cls in android.classesByStem[stem] ?? [] {
            if let latest = android.classes[cls]?.live.last, latest.serial > chosen?.serial ?? 0 { chosen = latest }
        }
        return chosen
    }

    /// A ViewModel's owner found by stem: it serves that instance, and whatever instance recreates it.
    func serve(_ object: Instance, _ owner: AndroidInstance) {
        object.androidOwner = owner
        android.served[ObjectIdentifier(owner), default: []].append(object)
    }

    /// A cleared (or released) ViewModel keeps the owner it served and moves no more.
    private func stopServing(_ object: Instance) {
        guard let owner = object.androidOwner, var list = android.served[ObjectIdentifier(owner)] else { return }
        list.removeAll { $0 === object }
        android.served[ObjectIdentifier(owner)] = list.isEmpty ? nil : list
    }

    /// A ViewModel's `onCleared`, or a `finalize`.
    func androidObjectEvent(_ e: Event) {
        let ref = EventRef(e)
        if e.kind == .finalize, let inst = finalizedAndroidInstance(e) {
            instrumentation.record(inst.entry, e.kind, dialect: e.dialect)
            recorder?.androidCallback(e, inst, session: serial)
            if inst.finalized == nil {
                inst.finalized = ref
                released(inst.label, className: e.className)
            }
            recorder?.androidApplied(e, inst, session: serial)
            return
        }
        let state = classState(e.className, dialect: e.dialect.family)
        instrumentation.record(state.entry, e.kind, dialect: e.dialect.family)
        if e.kind == .finalize { released(nil, className: e.className) }
        var inst: Instance?
        if let a = e.address, let known = identity.byAddress[a], known.entry === state.entry, known.isAlive { inst = known }
        if inst == nil { inst = objectForDeinit(state.live[...]) }
        // None alive: the capture began after its init, or `onCleared` already ended it (a finalize: its lane shows it).
        guard let inst else {
            if e.kind == .finalize, let ended = android.cleared.removeValue(forKey: e.className) { recorder?.callback(e, ended, session: serial) }
            return
        }
        recorder?.callback(e, inst, session: serial)
        inst.lastActivity = e.line
        // Its owner is the one it served when cleared (an instance made later is not its owner).
        stopServing(inst)
        deallocate(inst, ref)
        if recorder != nil { android.cleared[e.className] = e.kind == .onCleared ? inst : nil }
        recorder?.applied(e, inst, session: serial)
        if debug { TimelineDebug.print("\(e.line): \(e.kind.rawValue) → \(inst.label) ended") }
    }

    /// The Activity or Fragment instance a `finalize` releases: the one of its id, else the one destroyed last (the
    /// collector frees what nothing uses); nil for a class that is no Activity or Fragment of the session.
    private func finalizedAndroidInstance(_ e: Event) -> AndroidInstance? {
        let dead = androidLastDestroyed(e.className)
        let live = androidLive(e.className)
        if let a = e.address {
            if let dead, dead.address == a { return dead }
            if let known = live.last(where: { $0.address == a }) { return known }
        }
        return dead ?? live.first
    }

    /// A released object's LeakCanary watch is closed (the instance's, else the oldest on its class); when no watch is
    /// left open, the retained count is resolved: every watched object was released.
    private func released(_ label: String?, className: String) {
        guard !evidenceState.watches.isEmpty else { return }
        let at = evidenceState.watches.firstIndex { w in
            label.map { w.bound.ref.instance == $0 } ?? false
        } ?? evidenceState.watches.firstIndex { w in
            w.bound.ref.className == className || LeakCanaryReader.simpleName(w.watch.className) == className
        }
        guard let at else { return }
        evidenceState.watches.remove(at: at)
        if evidenceState.watches.isEmpty { evidenceState.retained = nil }
    }
}
