import Foundation
import Testing
@testable import VCLintCore

/// The per-instance machine is one table (`LifecycleTable`), and docs/lifecycle.md's state section is it.
@Suite struct LifecycleTableTests {
    typealias T = LifecycleTable

    /// docs/lifecycle.md's state table is `LifecycleTable.markdown()`. After a change to the table,
    /// `VCLINT_UPDATE_DOCS=1 swift test --filter LifecycleTableTests` rewrites the file's copy.
    @Test func theStateSectionOfTheDocsIsGenerated() throws {
        try Docs.expectGenerated("docs/lifecycle.md", between: T.markerBegin + "\n", and: T.markerEnd, is: T.markdown(),
                                 "docs/lifecycle.md's state table is not LifecycleTable: VCLINT_UPDATE_DOCS=1 swift test --filter LifecycleTableTests rewrites it")
    }

    /// The table has a row per state in the words of docs/lifecycle.md#appearance-states, and a column per event.
    @Test func theSectionNamesEveryStateAndEvent() {
        let text = T.markdown()
        for s in T.State.allCases { #expect(text.contains("| **\(s.word)** |"), "\(s.word)") }
        for e in T.Event.all where e != .notACallback { #expect(text.contains("`\(e.name)`"), "\(e.name)") }
        #expect(T.State.allCases.map(\.word) == ["unknown", "hidden", "appearing", "visible", "disappearing", "deallocated"])
    }

    static func mirror(_ s: T.State) -> T.State {
        switch s {
        case .hidden: return .visible
        case .visible: return .hidden
        case .appearing: return .disappearing
        case .disappearing: return .appearing
        case .unknown, .deallocated: return s
        }
    }

    /// Appearance and disappearance are one rule: swapping the direction of the event and the state
    /// swaps the answer, facts included.
    @Test(arguments: T.State.allCases) func bothDirectionsAreOneRule(_ s: T.State) {
        for d in [Transition.Direction.appear, .disappear] {
            for (event, mirrored) in [(T.Event.will(d), T.Event.will(d.opposite)), (.did(d), .did(d.opposite))] {
                let step = T.step(s, event), other = T.step(Self.mirror(s), mirrored)
                #expect(other.facts == step.facts, "\(s) \(event)")
                #expect(other.next == Self.mirror(step.next), "\(s) \(event)")
            }
        }
    }

    /// The flows docs/lifecycle.md#legal-flows calls legal observe nothing that a rule words.
    @Test func aBalancedFlowObservesNoFinding() {
        let findings: T.Facts = [.repeatsWill, .willAgain, .didWithoutWill, .dropsOpposite, .leavesMoveUnfinished, .deallocWhileVisible, .eventAfterDealloc]
        let flow: [T.Event] = [.load, .will(.appear), .did(.appear), .will(.disappear), .did(.disappear), .will(.appear), .will(.disappear), .did(.disappear), .dealloc]
        var state = T.State.unknown
        var states: [T.State] = []
        for e in flow {
            let step = T.step(state, e)
            #expect(step.facts.isDisjoint(with: findings), "\(state) \(e)")
            state = step.next
            states.append(state)
        }
        #expect(states == [.hidden, .appearing, .visible, .disappearing, .hidden, .appearing, .disappearing, .hidden, .deallocated])
    }

    /// Each unbalanced case of docs/rules.md#unbalanced_appearance, and the dealloc row.
    @Test func unbalancedStepsAreObserved() {
        #expect(T.step(.appearing, .will(.appear)) == T.Step(.appearing, .repeatsWill))
        #expect(T.step(.visible, .will(.appear)) == T.Step(.appearing, .willAgain))
        #expect(T.step(.hidden, .did(.appear)) == T.Step(.visible, .didWithoutWill))
        #expect(T.step(.disappearing, .did(.appear)) == T.Step(.visible, [.didWithoutWill, .dropsOpposite]))
        #expect(T.step(.unknown, .did(.disappear)) == T.Step(.hidden))
        #expect(T.step(.appearing, .will(.disappear)) == T.Step(.disappearing, .reverses))
        #expect(T.step(.visible, .dealloc) == T.Step(.deallocated, .deallocWhileVisible))
        #expect(T.step(.disappearing, .dealloc) == T.Step(.deallocated, .leavesMoveUnfinished))
        #expect(T.step(.hidden, .load) == T.Step(.hidden))
        #expect(T.step(.deallocated, .will(.appear)) == T.Step(.deallocated, .eventAfterDealloc))
        #expect(T.step(.deallocated, .other) == T.Step(.deallocated, .eventAfterDealloc))
        #expect(T.step(.deallocated, .notACallback) == T.Step(.deallocated))
        for s in T.State.allCases where s != .deallocated {
            #expect(T.step(s, .other) == T.Step(s), "\(s)")
            #expect(T.step(s, .notACallback) == T.Step(s), "\(s)")
        }
        // Which events are callbacks of this machine: EventKind.isCallback, less a SwiftUI view's.
        for k in EventKind.allCases {
            #expect((T.Event(k) == .notACallback) == (!k.isCallback || k.isViewAppearance), "\(k)")
        }
    }

    /// The states are the words of docs/lifecycle.md#appearance-states in code; what findings print stays as it was
    /// ("it was appeared", `will-in-state:…:disappeared` in a baseline's cause).
    @Test func appearanceKeepsItsPrintedWords() {
        #expect(Appearance.hidden.rawValue == "disappeared")
        #expect(Appearance.visible.rawValue == "appeared")
        for a in Appearance.allCases {
            #expect(Appearance(T.State(a)) == a)
            #expect(Appearance(code: a.code) == a)
        }
    }

    /// A pending will already reported is not reported again as missing its did (`EmittedFacts.pendingWill`);
    /// appearance_before_load once per instance (`EmittedFacts.appearanceBeforeLoad`).
    @Test func onceFactsAreEmittedOnce() {
        let twice = lint("""
            -[ListViewController viewDidLoad]
            -[ListViewController viewWillAppear:]
            -[ListViewController viewDidAppear:]
            -[ListViewController viewWillAppear:]
            -[ListViewController viewWillDisappear:]
            -[ListViewController viewDidDisappear:]
            """)
        #expect(twice.findings.map(\.rule) == ["unbalanced_appearance"], "\(twice.summary)")
        let early = lint("""
            -[ListViewController init]
            -[ListViewController viewWillAppear:]
            -[ListViewController viewDidAppear:]
            -[ListViewController viewWillDisappear:]
            -[ListViewController viewDidDisappear:]
            -[ListViewController viewWillAppear:]
            -[ListViewController viewDidAppear:]
            -[ListViewController viewDidLoad]
            """)
        #expect(early.findings.filter { $0.rule == "appearance_before_load" }.count == 1, "\(early.summary)")
    }
}
