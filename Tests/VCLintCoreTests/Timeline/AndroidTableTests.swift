import Foundation
import Testing
@testable import VCLintCore

/// Android's per-instance machine is one table (`AndroidTable`), and docs/lifecycle.md's Android state section is it.
@Suite struct AndroidTableTests {
    typealias T = AndroidTable

    /// docs/lifecycle.md's Android state table is `AndroidTable.markdown()`. After a change to the table,
    /// `VCLINT_UPDATE_DOCS=1 swift test --filter AndroidTableTests` rewrites the file's copy.
    @Test func theStateSectionOfTheDocsIsGenerated() throws {
        try Docs.expectGenerated("docs/lifecycle.md", between: T.markerBegin + "\n", and: T.markerEnd, is: T.markdown(),
                                 "docs/lifecycle.md's Android state table is not AndroidTable: VCLINT_UPDATE_DOCS=1 swift test --filter AndroidTableTests rewrites it")
    }

    @Test func theSectionNamesEveryStateAndEvent() {
        let text = T.markdown()
        for s in T.State.allCases { #expect(text.contains("| **\(s.word)** |"), "\(s.word)") }
        for e in T.Event.allCases where e != .viewMisuse { #expect(text.contains("`\(e.name)`"), "\(e.name)") }
    }

    static func run(_ flow: [T.Event], from start: T.State = .unknown) -> (T.State, T.Facts) {
        var state = start
        var facts: T.Facts = []
        for e in flow {
            let step = T.step(state, e)
            facts.formUnion(step.facts)
            state = step.next
        }
        return (state, facts)
    }

    /// docs/lifecycle.md#android-legal-orders: each observes no fact.
    @Test(arguments: [
        [T.Event.create, .start, .other, .other, .resume, .other],  // launch with restore and post-create
        [.create, .start, .resume, .pause, .stop, .restart, .start, .resume],  // leave and return
        [.create, .start, .resume, .pause, .stop, .destroy],  // finish
        [.create, .destroy],  // finish() from onCreate
        [.create, .start, .stop, .destroy],  // finish() from onStart
        [.create, .start, .resume, .pause, .resume],  // pause without stop
        [.create, .start, .resume, .pause, .other, .resume],  // onNewIntent
        [.create, .start, .resume, .pause, .other, .stop, .destroy],  // onSaveInstanceState before onStop
        [.attach, .create, .createView, .viewCallback, .other, .viewCallback, .start, .resume],  // fragment add
        [.attach, .create, .createView, .start, .resume, .pause, .stop, .destroyView, .destroy, .detach],  // removal
        [.attach, .create, .createView, .start, .resume, .pause, .stop, .destroyView, .createView, .viewCallback, .start, .resume],  // back stack
        [.attach, .create, .createView, .start, .stop, .destroyView, .detach, .attach, .createView, .start],  // retained fragment
        [.attach, .create, .createView, .start],  // capped lifecycle
    ])
    func legalOrdersObserveNothing(_ flow: [T.Event]) {
        #expect(Self.run(flow).1.isEmpty, "\(flow)")
    }

    @Test func faultsAreTheRulesOfSection() {
        #expect(T.step(.resumed, .stop).facts == .missingPause)
        #expect(T.step(.resumed, .destroy).facts == .missingPause)  // one root cause: not missing_on_stop too
        #expect(T.step(.paused, .destroy).facts == .missingStop)
        #expect(T.step(.started, .destroy).facts == .missingStop)
        #expect(T.step(.created, .destroy).facts.isEmpty)
        #expect(T.step(.resumed, .resume).facts == .unbalanced)
        #expect(T.step(.stopped, .resume).facts == .unbalanced)
        #expect(T.step(.started, .start).facts == .unbalanced)
        #expect(T.step(.stopped, .pause).facts == .unbalanced)
        #expect(T.step(.stopped, .stop).facts == .unbalanced)
        #expect(T.step(.destroyed, .resume).facts == .afterDestroy)
        #expect(T.step(.destroyed, .detach).facts.isEmpty)
        #expect(T.step(.destroyed, .create).facts == .beginsNew)
        #expect(T.step(.viewDestroyed, .viewCallback).facts == .viewAfterDestroyView)
        #expect(T.step(.viewDestroyed, .createView).facts.isEmpty)
        for s in T.State.allCases { #expect(T.step(s, .viewMisuse).facts == .viewAfterDestroyView) }
    }

    /// A log that begins mid-flow places the instance at its first callback, without a fact.
    @Test(arguments: T.Event.allCases.filter { $0 != .viewMisuse })
    func midFlowStartsObserveNothing(_ e: T.Event) {
        #expect(T.step(.unknown, e).facts.isEmpty, "\(e)")
    }
}
