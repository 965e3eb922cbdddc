/// The per-instance lifecycle machine (docs/lifecycle.md#the-timeline) as one table: for an instance in a
/// state, what an event moves it to and what the timeline observes on the way. A pure function: the
/// session applies its answer (`SessionTimeline.appearance`, `apply`, `deallocate`), which is where the
/// instance's transition, removal and findings are updated.
///
/// Appearance and disappearance are one row of rules written once, with the direction as a parameter
/// (`Transition.Direction`): a will-callback moves an instance to `moving(d)`, its did-callback to
/// `settled(d)`. A second platform's machine (Android's activity and fragment states) is another table of
/// this shape: its states, its events, the same `Facts` for what the session does with them.
/// docs/lifecycle.md's state section is generated from this table (`markdown()`; `LifecycleTableTests`).
enum LifecycleTable {
    /// docs/lifecycle.md's states. `unknown`: no event has placed it yet (the log began mid-flight).
    enum State: Hashable, CaseIterable {
        case unknown, hidden, appearing, visible, disappearing, deallocated

        @inline(__always) init(_ a: Appearance) {
            switch a {
            case .unknown: self = .unknown
            case .hidden: self = .hidden
            case .appearing: self = .appearing
            case .visible: self = .visible
            case .disappearing: self = .disappearing
            }
        }

        /// The instance's `Appearance` in this state (none once deallocated).
        var appearance: Appearance? {
            switch self {
            case .unknown: return .unknown
            case .hidden: return .hidden
            case .appearing: return .appearing
            case .visible: return .visible
            case .disappearing: return .disappearing
            case .deallocated: return nil
            }
        }

        /// The word docs/lifecycle.md uses.
        var word: String {
            switch self {
            case .unknown: return "unknown"
            case .hidden: return "hidden"
            case .appearing: return "appearing"
            case .visible: return "visible"
            case .disappearing: return "disappearing"
            case .deallocated: return "deallocated"
            }
        }
    }

    /// An event as the machine sees it.
    enum Event: Hashable {
        /// `init`, `loadView`, `viewDidLoad`: the instance exists, its view (about to be) loaded.
        case load
        case will(Transition.Direction)
        case did(Transition.Direction)
        case dealloc
        /// Any other callback (layout, memory warning, parent moves, view unloads): it moves no state.
        case other
        /// Not a callback of this machine: a presentation or completion marker, a SwiftUI view's onAppear or
        /// onDisappear (a view is a value: nothing it logs is a finding of its own).
        case notACallback

        @inline(__always) init(_ kind: EventKind) {
            switch kind {
            case .initialize, .loadView, .viewDidLoad: self = .load
            case .viewWillAppear: self = .will(.appear)
            case .viewDidAppear: self = .did(.appear)
            case .viewWillDisappear: self = .will(.disappear)
            case .viewDidDisappear: self = .did(.disappear)
            case .dealloc: self = .dealloc
            default: self = kind.isCallback && !kind.isViewAppearance ? .other : .notACallback
            }
        }

        static let all: [Event] = [.load, .will(.appear), .did(.appear), .will(.disappear), .did(.disappear), .dealloc, .other, .notACallback]

        var name: String {
            switch self {
            case .load: return "init, loadView, viewDidLoad"
            case .will(.appear): return "viewWillAppear"
            case .did(.appear): return "viewDidAppear"
            case .will(.disappear): return "viewWillDisappear"
            case .did(.disappear): return "viewDidDisappear"
            case .dealloc: return "dealloc"
            case .other: return "any other callback"
            case .notACallback: return "a marker, onAppear, onDisappear"
            }
        }
    }

    /// What the session does for a step, in the order `SessionTimeline.appearance` applies them. A fact
    /// that leads to a finding names its rule (`words`).
    struct Facts: OptionSet, Hashable {
        let rawValue: UInt16

        /// The will starts a move: the instance joins the open transition or starts the next (`begin`).
        static let begins = Facts(rawValue: 1 << 0)
        /// The will reverses the opposite move still pending: a cancellation if its transition allows one
        /// (`cancel`), else that move never completed (`incomplete`, superseded) and this one begins.
        static let reverses = Facts(rawValue: 1 << 1)
        /// A will for the move already pending: reported against the pending will, which it replaces.
        static let repeatsWill = Facts(rawValue: 1 << 2)
        /// A will for the state already reached: reported against the did that reached it, unless a gap in
        /// the log explains it (`gapExplains`); the move begins again, its will recorded as reported.
        static let willAgain = Facts(rawValue: 1 << 3)
        /// The did completes the pending will (`finish`).
        static let completes = Facts(rawValue: 1 << 4)
        /// A did without its will.
        static let didWithoutWill = Facts(rawValue: 1 << 5)
        /// The opposite move it cuts short leaves its transition unfinished (`dropFromTransition`).
        static let dropsOpposite = Facts(rawValue: 1 << 6)
        /// Deallocated in the middle of a move: that move never completed (`incomplete`).
        static let leavesMoveUnfinished = Facts(rawValue: 1 << 7)
        /// Deallocated while on screen.
        static let deallocWhileVisible = Facts(rawValue: 1 << 8)
        /// A callback of a deallocated instance (reported once per instance).
        static let eventAfterDealloc = Facts(rawValue: 1 << 9)

        static let all: [(Facts, String)] = [
            (.begins, "begins a move (joins or starts a transition)"),
            (.reverses, "reverses the pending move: a cancellation, else `missing_did_*` for it"),
            (.repeatsWill, "`unbalanced_appearance` (will in the same state)"),
            (.willAgain, "`unbalanced_appearance` (will in the same state) unless a log gap explains it; begins a move"),
            (.completes, "completes the move"),
            (.didWithoutWill, "`unbalanced_appearance` (did without will)"),
            (.dropsOpposite, "the pending move leaves its transition"),
            (.leavesMoveUnfinished, "`missing_did_*` for the pending move"),
            (.deallocWhileVisible, "`dealloc_while_visible`"),
            (.eventAfterDealloc, "`event_after_dealloc` (once per instance)"),
        ]

        /// The facts in words, in `all`'s order.
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
        if state == .deallocated {
            return Step(.deallocated, event == .notACallback ? [] : .eventAfterDealloc)
        }
        switch event {
        case .load:
            return Step(state == .unknown ? .hidden : state)
        case .will(let d):
            switch state {
            case .unknown, settled(d.opposite): return Step(moving(d), .begins)
            case moving(d.opposite): return Step(moving(d), .reverses)
            case moving(d): return Step(state, .repeatsWill)
            default: return Step(moving(d), .willAgain)  // settled(d)
            }
        case .did(let d):
            switch state {
            case moving(d): return Step(settled(d), .completes)
            case .unknown: return Step(settled(d))
            case moving(d.opposite): return Step(settled(d), [.didWithoutWill, .dropsOpposite])
            default: return Step(settled(d), .didWithoutWill)  // hidden or visible
            }
        case .dealloc:
            switch state {
            case .appearing, .disappearing: return Step(.deallocated, .leavesMoveUnfinished)
            case .visible: return Step(.deallocated, .deallocWhileVisible)
            default: return Step(.deallocated)
            }
        case .other, .notACallback:
            return Step(state)
        }
    }

    /// The state a will-callback of direction `d` moves an instance to.
    @inline(__always) static func moving(_ d: Transition.Direction) -> State { d == .appear ? .appearing : .disappearing }
    /// The state its did-callback settles it in.
    @inline(__always) static func settled(_ d: Transition.Direction) -> State { d == .appear ? .visible : .hidden }

    // MARK: - docs/lifecycle.md

    /// docs/lifecycle.md's state section, between its markers: one row per state, one column per event.
    static func markdown() -> String {
        StateTableMarkdown.render(states: State.allCases, events: Event.all.filter { $0 != .notACallback }, word: \.word, name: \.name) {
            let s = step($0, $1)
            return (s.next, s.facts.words)
        }
    }

    static let markerBegin = "<!-- lifecycle-states:begin: generated from LifecycleTable; VCLINT_UPDATE_DOCS=1 swift test --filter LifecycleTableTests rewrites it -->"
    static let markerEnd = "<!-- lifecycle-states:end -->"
}

/// docs/lifecycle.md's state tables (`LifecycleTable`'s and `AndroidTable`'s): one row per state, one column per event,
/// each cell the state the event moves it to (or `stays`) and the facts it observes on the way.
enum StateTableMarkdown {
    static func render<State: Equatable, Event>(states: [State], events: [Event], word: (State) -> String, name: (Event) -> String,
                                                step: (State, Event) -> (next: State, facts: [String])) -> String {
        var out = "| state | " + events.map { "`\(name($0))`" }.joined(separator: " | ") + " |\n"
        out += "| --- |" + String(repeating: " --- |", count: events.count) + "\n"
        for state in states {
            out += "| **\(word(state))** |"
            for event in events {
                let s = step(state, event)
                var cell = s.next == state ? "stays" : "→ **\(word(s.next))**"
                if !s.facts.isEmpty { cell += ": " + s.facts.joined(separator: "; ") }
                out += " \(cell) |"
            }
            out += "\n"
        }
        return out
    }
}

extension Transition.Direction {
    @inline(__always) var opposite: Transition.Direction { self == .appear ? .disappear : .appear }
    /// Its will- and did-callback.
    var will: EventKind { self == .appear ? .viewWillAppear : .viewWillDisappear }
    var did: EventKind { self == .appear ? .viewDidAppear : .viewDidDisappear }
}

extension Appearance {
    /// The state `LifecycleTable` moved an instance to (a deallocated one keeps its last appearance).
    @inline(__always) init(_ s: LifecycleTable.State) { self = s.appearance ?? .unknown }
}
