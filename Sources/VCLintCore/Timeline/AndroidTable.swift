/// Android's per-instance machine (docs/lifecycle.md#android-activities-and-fragments), the second table beside
/// UIKit's `LifecycleTable` and of its shape: for an Activity or Fragment instance in a state, what a callback
/// moves it to and what the timeline observes on the way. A pure function; the session applies its answer
/// (`SessionTimeline+Android.swift`), which is where the instance's findings are emitted.
///
/// The table is lenient where apps log a part of the lifecycle (a class that logs no `onStart` goes from created
/// to resumed): only the orders docs/lifecycle.md names as wrong are facts. docs/lifecycle.md's Android state
/// section is generated from it (`markdown()`; `AndroidTableTests`).
enum AndroidTable {
    /// The states of docs/lifecycle.md#android-activities-and-fragments. `unknown`: no callback has placed it yet
    /// (the log began mid-flow).
    enum State: UInt8, Hashable, CaseIterable {
        case unknown, attached, created, viewCreated, started, resumed, paused, stopped, viewDestroyed, detached, destroyed

        /// The word docs/lifecycle.md uses.
        var word: String {
            switch self {
            case .unknown: return "unknown"
            case .attached: return "attached"
            case .created: return "created"
            case .viewCreated: return "view created"
            case .started: return "started"
            case .resumed: return "resumed"
            case .paused: return "paused"
            case .stopped: return "stopped"
            case .viewDestroyed: return "view destroyed"
            case .detached: return "detached"
            case .destroyed: return "destroyed"
            }
        }

        /// An `onStart` with no `onStop` since.
        var isStarted: Bool { self == .started || self == .resumed || self == .paused }
    }

    /// A callback as the machine sees it.
    enum Event: Hashable, CaseIterable {
        case attach, create, createView, viewCallback, start, resume, pause, stop, destroyView, destroy, detach, restart
        /// `onSaveInstanceState`, `onRestoreInstanceState`, `onPostCreate`, `onPostResume`, `onNewIntent`,
        /// `onConfigurationChanged`, `onActivityCreated`: they move no state.
        case other
        /// androidx's `Can't access the Fragment View's LifecycleOwner` exception.
        case viewMisuse

        init?(_ kind: EventKind) {
            switch kind {
            case .onAttach: self = .attach
            case .onCreate: self = .create
            case .onCreateView: self = .createView
            case .onViewCreated, .onViewStateRestored: self = .viewCallback
            case .onStart: self = .start
            case .onResume: self = .resume
            case .onPause: self = .pause
            case .onStop: self = .stop
            case .onDestroyView: self = .destroyView
            case .onDestroy: self = .destroy
            case .onDetach: self = .detach
            case .onRestart: self = .restart
            case .onSaveInstanceState, .onRestoreInstanceState, .onPostCreate, .onPostResume, .onNewIntent, .onConfigurationChanged,
                 .onActivityCreated: self = .other
            case .fragmentViewMisuse: self = .viewMisuse
            default: return nil
            }
        }

        var name: String {
            switch self {
            case .attach: return "onAttach"
            case .create: return "onCreate"
            case .createView: return "onCreateView"
            case .viewCallback: return "onViewCreated, onViewStateRestored"
            case .start: return "onStart"
            case .resume: return "onResume"
            case .pause: return "onPause"
            case .stop: return "onStop"
            case .destroyView: return "onDestroyView"
            case .destroy: return "onDestroy"
            case .detach: return "onDetach"
            case .restart: return "onRestart"
            case .other: return "any other callback"
            case .viewMisuse: return "view-misuse exception"
            }
        }
    }

    /// What the session does for a step. Each fact that leads to a finding names its rule (`words`).
    struct Facts: OptionSet, Hashable {
        let rawValue: UInt16

        /// `onStop` or `onDestroy` on a resumed instance.
        static let missingPause = Facts(rawValue: 1 << 0)
        /// `onDestroy` on a started or paused instance.
        static let missingStop = Facts(rawValue: 1 << 1)
        /// A callback repeated in the state it leads to, or one out of its place (`onPause` on an instance that
        /// is not resumed, `onResume` on a stopped one).
        static let unbalanced = Facts(rawValue: 1 << 2)
        /// A callback of a destroyed instance (once per instance).
        static let afterDestroy = Facts(rawValue: 1 << 3)
        /// A view callback while the fragment has no view.
        static let viewAfterDestroyView = Facts(rawValue: 1 << 4)
        /// The creation callback of an instance that ended: a new instance begins (`SessionTimeline+Android`).
        static let beginsNew = Facts(rawValue: 1 << 5)

        static let all: [(Facts, String)] = [
            (.missingPause, "`missing_on_pause`"),
            (.missingStop, "`missing_on_stop`"),
            (.unbalanced, "`unbalanced_appearance`"),
            (.afterDestroy, "`callback_after_destroy` (once per instance)"),
            (.viewAfterDestroyView, "`fragment_view_after_destroy_view`"),
            (.beginsNew, "a new instance begins"),
        ]

        var words: [String] { Self.all.filter { contains($0.0) }.map(\.1) }
    }

    struct Step: Equatable {
        var next: State
        var facts: Facts
        init(_ next: State, _ facts: Facts = []) {
            self.next = next
            self.facts = facts
        }
    }

    /// The table: `(state × event) → (next state, facts)`.
    static func step(_ state: State, _ event: Event) -> Step {
        if state == .destroyed {
            switch event {
            case .detach: return Step(.destroyed)  // a Fragment's onDetach follows its onDestroy
            case .attach, .create: return Step(event == .attach ? .attached : .created, .beginsNew)
            case .viewMisuse: return Step(.destroyed, .viewAfterDestroyView)
            default: return Step(.destroyed, .afterDestroy)
            }
        }
        switch event {
        case .attach:
            return Step(.attached)
        case .create:
            return Step(.created)
        case .createView:
            return Step(.viewCreated)
        case .viewCallback:
            return state == .viewDestroyed ? Step(.viewDestroyed, .viewAfterDestroyView) : Step(state == .unknown || state.isStarted ? state : .viewCreated)
        case .start:
            return Step(.started, state.isStarted ? .unbalanced : [])
        case .resume:
            return Step(.resumed, state == .resumed || state == .stopped ? .unbalanced : [])
        case .pause:
            return Step(.paused, state == .unknown || state == .resumed ? [] : .unbalanced)
        case .stop:
            if state == .resumed { return Step(.stopped, .missingPause) }
            return Step(.stopped, state == .stopped ? .unbalanced : [])
        case .restart:
            return Step(.created)
        case .destroyView:
            if state == .resumed { return Step(.viewDestroyed, .missingPause) }
            return Step(.viewDestroyed)
        case .destroy:
            if state == .resumed { return Step(.destroyed, .missingPause) }
            return Step(.destroyed, state.isStarted ? .missingStop : [])
        case .detach:
            return Step(.detached)
        case .other:
            return Step(state)
        case .viewMisuse:
            // androidx's exception is the evidence itself, whatever the timeline shows.
            return Step(state, .viewAfterDestroyView)
        }
    }

    /// Whether the state takes the event without a fact: an event goes to the live instance that accepts it.
    static func accepts(_ state: State, _ event: Event) -> Bool {
        let f = step(state, event).facts
        return f.isEmpty
    }

    // MARK: - docs/lifecycle.md

    /// docs/lifecycle.md's Android state section, between its markers: one row per state, one column per event.
    static func markdown() -> String {
        StateTableMarkdown.render(states: State.allCases, events: Event.allCases.filter { $0 != .viewMisuse }, word: \.word, name: \.name) {
            let s = step($0, $1)
            return (s.next, s.facts.words)
        }
    }

    static let markerBegin = "<!-- android-states:begin: generated from AndroidTable; VCLINT_UPDATE_DOCS=1 swift test --filter AndroidTableTests rewrites it -->"
    static let markerEnd = "<!-- android-states:end -->"
}
