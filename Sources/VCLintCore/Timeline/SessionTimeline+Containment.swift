#if canImport(Glibc)
import Glibc
#endif

/// Child controllers (docs/lifecycle.md#child-removal: a move whose direction the log does not
/// show) and completion markers (`X present end`, `X dismiss end`: they end their transition).
extension SessionTimeline {
    func containment(_ e: Event, _ ref: EventRef, _ inst: Instance) {
        var toParent: Bool
        switch e.parent {
        case .none: toParent = false
        case .parent: toParent = true
        case .unknown:
            // ObjC `__func__` lines show no argument (docs/lifecycle.md#child-removal): a move is an
            // addition while the child is not in a parent, a removal while it is. A second
            // willMoveToParent after the child appeared, while the first is still unmatched by
            // didMoveToParent, is the removal's (and the first the unmatched call).
            switch inst.parentState {
            case .attached, .removing: toParent = false
            case .adding(let will): toParent = !(e.kind == .willMoveToParent && (inst.lastAppear?.line ?? 0) > will.line)
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
                    emit(ContainmentMismatch.willMoveWithoutDidMove(will: will, reason: .superseded(ref)), inst.ref, line: will.line, time: will.time,
                         requires: [.didMoveToParent], of: inst)
                }
                inst.parentState = .removing(ref)
                markRemoved(inst, .removedFromParent, evidence: ref, anchor: inst.lastDidDisappear.map { $0.line > ref.line ? $0 : ref } ?? ref)
                moveRemovalAnchor(inst, to: ref)
            }
        } else {
            if toParent {
                if case .removing = inst.parentState { unremove(inst) }  // an interactive pop that was cancelled
                inst.parentState = .attached
            } else {
                switch inst.parentState {
                case .removing: break
                case .adding(let will):
                    emit(ContainmentMismatch.willMoveWithoutDidMove(will: will, reason: .superseded(ref)), inst.ref, line: will.line, time: will.time,
                         requires: [.didMoveToParent], of: inst)
                default:
                    emit(ContainmentMismatch.removedWithoutWillMove(did: ref), inst.ref, line: e.line, time: e.time,
                         requires: [.willMoveToParent], of: inst)
                }
                inst.parentState = .detached
                if inst.removal == nil || inst.removal!.kind != .removedFromParent {
                    markRemoved(inst, .removedFromParent, evidence: ref, anchor: ref)
                }
                if let d = inst.lastDidDisappear, inst.appearance == .hidden { moveRemovalAnchor(inst, to: d) }
            }
        }
    }

    // MARK: - Completion markers

    /// `X present end` completes the latest presentation X took part in, as presenter or presented
    /// (docs/lifecycle.md#when-a-transition-is-over): X itself when it is appearing in the latest transition,
    /// else whoever is appearing there (a sheet X presented gives X no callback); never an appearance
    /// of X's that an earlier transition left open.
    func presentCompletion(_ inst: Instance, _ ref: EventRef) {
        endTransition(by: ref)
        if inst.appearance == .appearing, inst.transition != nil, inst.transition === transitions.current {
            inst.completionPending = (ref, true)
            return
        }
        if let t = transitions.current, !t.settled {
            for m in t.members where m.instance !== inst && m.pending && m.direction == .appear {
                m.instance.completionPending = (ref, true)
                return
            }
        }
    }

    /// UIKit runs a present or dismiss completion after the transition: the open one is over
    /// (a member still pending then never completes; its did-callback, if it comes, is late).
    func endTransition(by ref: EventRef) {
        if let t = transitions.current, !t.settled, t.hasPending, t.endedBy == nil { t.endedBy = ref }
    }

    /// `X dismiss end`, as `presentCompletion`: X's own disappearance only in the latest transition.
    func dismissCompletion(_ inst: Instance, _ ref: EventRef) {
        endTransition(by: ref)
        if inst.appearance == .disappearing, inst.transition != nil, inst.transition === transitions.current {
            inst.completionPending = (ref, false)
            return
        }
        if inst.appearance == .hidden, let d = inst.dismissPending, let last = inst.lastDidDisappear, last.line > d.ref.line {
            markRemoved(inst, .dismissed, evidence: d.ref, anchor: last)
        }
        if let t = transitions.current, !t.settled, t.isMember(inst) {
            for m in t.members where m.instance !== inst && m.pending && m.direction == .disappear {
                m.instance.completionPending = (ref, false)
                return
            }
        }
    }
}
