/// Naming transitions (docs/lifecycle.md#naming-transitions): when a transition settles, the timeline
/// decides what it was (push, pop, present, dismiss, sheet, tab, child add or remove, pop to root,
/// cancelled, …) from what it already knows: its members' directions, which direction came first,
/// whether it was cancelled, whether it covered or uncovered a controller, whether a pop took the
/// controllers between along, and the completion and containment markers logged since the previous
/// transition ended. A marker logged after it settled (`X present end`, `didMove(toParent:)`) may
/// still say more of the latest one. The findings about a transition carry its kind
/// (`Observation.transition`, set in place when it is decided or said more of), the removals it made
/// carry it for the leaks, and the recorder records the kind it is given.

/// Which transition a fact is about, if any (`Fact.transitionConcern`).
enum TransitionConcern {
    case none
    /// The one its controller is in when the fact is observed, else the latest named one if the
    /// controller was in it (a did-callback that came after its transition settled).
    case current
    /// The one the event that showed it joins (a will-callback in the wrong state begins or joins one).
    case joined
    /// The one that removed its controller (`Removal.transition`).
    case removal
}

extension Fact {
    static var transitionConcern: TransitionConcern { .none }
}

/// What the timeline keeps to name transitions: the markers of the current window and the latest
/// named transition.
struct TransitionNaming {
    /// A controller's latest markers and parent moves, by line (0: none), kept by the controller
    /// (`Instance.transitionMarks`). Only those after `windowStart` count.
    struct Marks {
        var present = 0, dismiss = 0, toParent = 0, fromParent = 0
    }
    /// The latest present marker of any controller: a sheet's presenter logs it but gets no callbacks.
    var lastPresentMarker = 0
    /// Markers logged after the latest named transition ended belong to the next one.
    var windowStart = 0

    /// The latest named transition, which a later marker may say more of.
    var hasLast = false
    var lastSerial = 0
    /// Its kind before a pop that took others along is told apart (what markers refine).
    var lastBase = TransitionKind.transition
    var lastTookAlong = false
    var lastKind: TransitionKind { Self.kind(lastBase, tookAlong: lastTookAlong) }
    /// Its members and whether each left, then the controllers a pop of it took along.
    var lastMembers: [(instance: Instance, leaving: Bool)] = []
    var lastTakenAlong: [Instance] = []
    /// The observations about it, set again when it is refined.
    var lastObservations: [Int] = []

    /// Observations waiting for the transition their event joins (`TransitionConcern.joined`).
    var joining: [(observation: Int, instance: Instance)] = []

    /// The kinds whose events name transitions after they are applied: markers and child moves.
    static let markerBits: UInt64 = EventKind.presentBegin.bit | EventKind.presentEnd.bit | EventKind.dismissBegin.bit
        | EventKind.dismissEnd.bit | EventKind.willMoveToParent.bit | EventKind.didMoveToParent.bit

    /// A pop or pop/dismiss that took the controllers between along is a pop to root.
    static func kind(_ base: TransitionKind, tookAlong: Bool) -> TransitionKind {
        guard tookAlong else { return base }
        switch base {
        case .pop: return .popToRoot
        case .popOrDismiss: return .popToRootOrDismiss
        default: return base
        }
    }

    func inLast(_ inst: Instance) -> Bool {
        guard hasLast else { return false }
        for m in lastMembers where m.instance === inst { return true }
        for m in lastTakenAlong where m === inst { return true }
        return false
    }
}

extension SessionTimeline {
    /// Names `t`, which is settling, once its removals are inferred: `popped` a leaving member had
    /// covered an arriving one, `covering` an arriving member made for it covered a leaving one,
    /// `tookAlong` a pop took the controllers between along.
    func name(_ t: Transition, popped: Bool, covering: Bool, tookAlong: Bool) {
        guard !t.members.isEmpty else { return }
        let base = classify(t, popped: popped, covering: covering)
        let kind = TransitionNaming.kind(base, tookAlong: tookAlong)
        naming.hasLast = true
        naming.lastSerial = t.serial
        naming.lastBase = base
        naming.lastTookAlong = tookAlong
        // Emptied keeping their buffers (removeLast costs less than removeAll(keepingCapacity:)).
        while !naming.lastMembers.isEmpty { naming.lastMembers.removeLast() }
        while !naming.lastTakenAlong.isEmpty { naming.lastTakenAlong.removeLast() }
        while !naming.lastObservations.isEmpty { naming.lastObservations.removeLast() }
        if !t.observations.isEmpty {
            for i in t.observations {
                context.observations.setTransition(at: i, kind)
                naming.lastObservations.append(i)
            }
        }
        for k in t.members.indices {
            let inst = t.members[k].instance
            let leaving = t.members[k].direction == .disappear
            naming.lastMembers.append((inst, leaving))
            if inst.isRemoved, inst.removalTransition == nil { inst.removalTransition = kind }
            guard tookAlong, leaving else { continue }
            for m in inst.tookAlong where m.removal?.kind == .poppedWithTop {
                m.removalTransition = kind
                naming.lastTakenAlong.append(m)
            }
        }
        naming.windowStart = t.lastLine
        recorder?.settled(t, session: serial, kind: kind)
    }

    /// What the transition was, markers and containment aside from pops to root.
    private func classify(_ t: Transition, popped: Bool, covering: Bool) -> TransitionKind {
        if t.cancelled {
            var left = false, came = false
            for k in t.members.indices {
                if t.members[k].initialDirection == .disappear { left = true } else { came = true }
            }
            return left && came ? .cancelledSwipeBack : .cancelled
        }
        let upTo = max(t.lastLine, clock.lastEventLine)
        var gone = false, came = false, anyMarks = false
        for k in t.members.indices {
            if t.members[k].direction == .disappear { gone = true } else { came = true }
            if !anyMarks, t.members[k].instance.transitionMarks != nil { anyMarks = true }
        }
        if !anyMarks && naming.lastPresentMarker <= naming.windowStart { return unmarked(t, gone: gone, came: came, popped: popped, covering: covering) }
        let dismissMarker = marked(t, .disappear, upTo) { $0.dismiss }
        let presentMarker = marked(t, nil, upTo) { $0.present }
        if gone && came {
            if t.firstDirection == .appear { return .tab }
            if popped {
                if dismissMarker { return .dismiss }
                return marked(t, .disappear, upTo) { $0.fromParent } ? .pop : .popOrDismiss
            }
            if dismissMarker { return .dismiss }
            if covering {
                if presentMarker { return .present }
                return marked(t, .appear, upTo) { $0.toParent } ? .push : .pushOrPresent
            }
            return .transition
        }
        let othersVisible = othersVisible(t)
        if came {
            if marked(t, .appear, upTo, { $0.toParent }) { return .childAdd }
            let present = presentMarker || (naming.lastPresentMarker > naming.windowStart && naming.lastPresentMarker <= upTo)
            if !othersVisible { return present ? .present : .appear }
            return present ? .sheet : .sheetOrChild
        }
        if marked(t, .disappear, upTo, { $0.fromParent }) { return .childRemove }
        if dismissMarker { return othersVisible ? .sheet : .dismiss }
        return othersVisible ? .sheetOrChild : .disappear
    }

    /// `classify` when no member ever logged a marker or parent move, and no present marker was
    /// logged since the previous transition ended (most transitions of most apps).
    private func unmarked(_ t: Transition, gone: Bool, came: Bool, popped: Bool, covering: Bool) -> TransitionKind {
        if gone && came {
            if t.firstDirection == .appear { return .tab }
            if popped { return .popOrDismiss }
            return covering ? .pushOrPresent : .transition
        }
        let othersVisible = othersVisible(t)
        if came { return othersVisible ? .sheetOrChild : .appear }
        return othersVisible ? .sheetOrChild : .disappear
    }

    /// A live controller outside the transition is on screen as it settles.
    private func othersVisible(_ t: Transition) -> Bool {
        var visibleMembers = 0
        for k in t.members.indices where t.members[k].instance.isAlive && t.members[k].instance.appearance.isVisible { visibleMembers += 1 }
        return transitions.visibleCount > visibleMembers
    }

    /// Whether a member going `direction` (nil: any) logged the marker `pick` reads since the
    /// previous transition ended.
    private func marked(_ t: Transition, _ direction: Transition.Direction?, _ upTo: Int, _ pick: (TransitionNaming.Marks) -> Int) -> Bool {
        for k in t.members.indices where direction == nil || t.members[k].direction == direction {
            guard let m = t.members[k].instance.transitionMarks else { continue }
            let line = pick(m)
            if line > naming.windowStart && line <= upTo { return true }
        }
        return false
    }

    /// The observation just emitted is about the transition `concern` says.
    func concerns(_ concern: TransitionConcern, _ inst: Instance) {
        let index = context.observations.count - 1
        switch concern {
        case .none: return
        case .current: attach(index, to: inst)
        case .joined: naming.joining.append((index, inst))
        case .removal:
            guard let kind = inst.removalTransition else { return }
            context.observations.setTransition(at: index, kind)
            if naming.inLast(inst) { naming.lastObservations.append(index) }
        }
    }

    /// Observation `index` is about the transition `inst` is in: it waits for its kind while that is
    /// open, or takes the latest named one's if `inst` was in it.
    func attach(_ index: Int, to inst: Instance) {
        if let t = inst.transition, !t.settled {
            t.observations.append(index)
            context.observations.setTransitionPending(at: index)
        } else if naming.inLast(inst) {
            context.observations.setTransition(at: index, naming.lastKind)
            naming.lastObservations.append(index)
        }
    }

    /// After a marker, a child move or an event that showed a finding waiting for its transition is
    /// applied: the marker is noted, may say more of the latest transition, and the waiting findings
    /// take the transition their event joined.
    func transitionEvent(_ e: Event, _ inst: Instance) {
        if TransitionNaming.markerBits & e.kind.bit != 0 { mark(e, inst) }
        if !naming.joining.isEmpty {
            for (index, waiting) in naming.joining { attach(index, to: waiting) }
            naming.joining.removeAll(keepingCapacity: true)
        }
    }

    private func mark(_ e: Event, _ inst: Instance) {
        var m = inst.transitionMarks ?? TransitionNaming.Marks()
        var toParent = false
        switch e.kind {
        case .presentBegin, .presentEnd:
            m.present = e.line
            naming.lastPresentMarker = e.line
        case .dismissBegin, .dismissEnd:
            m.dismiss = e.line
        default:
            switch e.parent {
            case .parent: toParent = true
            case .none: toParent = false
            case .unknown:
                // The state machine decided the direction from the parent state.
                switch inst.parentState {
                case .removing, .detached: toParent = false
                default: toParent = true
                }
            }
            if toParent { m.toParent = e.line } else { m.fromParent = e.line }
        }
        inst.transitionMarks = m
        // Completion blocks and didMove come after the callbacks they complete: they tell what the
        // latest transition was when it could not tell by itself.
        if e.kind == .presentEnd || e.kind == .dismissEnd || e.kind == .didMoveToParent { refine(e.kind, inst, toParent: toParent) }
    }

    /// A completion marker or didMove after the latest named transition, logged by one of its members
    /// (or a sheet's presenter).
    private func refine(_ kind: EventKind, _ inst: Instance, toParent: Bool) {
        guard naming.hasLast else { return }
        let base = naming.lastBase
        var refined = base
        if let member = naming.lastMembers.first(where: { $0.instance === inst }) {
            let leaving = member.leaving
            switch (kind, base) {
            case (.presentEnd, .pushOrPresent), (.presentEnd, .appear): refined = .present
            case (.presentEnd, .sheetOrChild) where !leaving: refined = .sheet
            case (.dismissEnd, .popOrDismiss) where leaving, (.dismissEnd, .transition) where leaving,
                 (.dismissEnd, .disappear) where leaving: refined = .dismiss
            case (.dismissEnd, .sheetOrChild) where leaving: refined = .sheet
            case (.didMoveToParent, .pushOrPresent) where !leaving && toParent: refined = .push
            case (.didMoveToParent, .sheetOrChild): refined = leaving ? .childRemove : .childAdd
            case (.didMoveToParent, .appear) where !leaving && toParent: refined = .childAdd
            case (.didMoveToParent, .disappear) where leaving && !toParent: refined = .childRemove
            case (.didMoveToParent, .popOrDismiss) where leaving && !toParent: refined = .pop
            default: break
            }
        } else if kind == .presentEnd, base == .sheetOrChild || base == .appear, !naming.lastMembers.contains(where: { $0.leaving }) {
            // A sheet's presenter logs `present end` but is no member: a lone appearance it completes.
            refined = base == .appear ? .present : .sheet
        }
        guard refined != base else { return }
        let old = naming.lastKind
        naming.lastBase = refined
        let kind = naming.lastKind
        guard kind != old else { return }
        for i in naming.lastObservations { context.observations.setTransition(at: i, kind) }
        for m in naming.lastMembers where m.instance.removalTransition == old { m.instance.removalTransition = kind }
        for m in naming.lastTakenAlong where m.removalTransition == old { m.removalTransition = kind }
        recorder?.renamed(serial: naming.lastSerial, session: serial, kind: kind)
    }
}
