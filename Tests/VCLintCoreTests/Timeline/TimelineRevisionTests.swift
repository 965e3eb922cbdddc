import Foundation
import Testing
@testable import VCLintCore

/// The revised rules of identity and routing, of when a transition is over, of child removal and of
/// removals reverted (docs/lifecycle.md#identity-and-sessions, docs/lifecycle.md#when-a-transition-is-over,
/// docs/lifecycle.md#child-removal, docs/lifecycle.md#covered-is-not-removed), each with the family of
/// flows it fixes and legal flows it must leave alone.
@Suite struct TimelineRevisionTests {
    static func objc(_ lines: [(Double, String)]) -> String {
        lines.map { t, m in
            let whole = Int(t)
            let ms = Int((t - Double(whole)) * 1000 + 0.5)
            let clock = String(format: "10:%02d:%02d.%03d", whole / 60, whole % 60, ms)
            return "2024-03-01 \(clock) Shop[100:200] \(m)"
        }.joined(separator: "\n") + "\n"
    }

    // MARK: When a transition is over

    /// A push whose new controller never gets viewDidAppear does not swallow the sheet shown next:
    /// the sheet's will-callback ends it (every other member had completed).
    @Test func stalledPushEndsWhenTheNextTransitionBegins() {
        let log = Self.objc([
            (0, "-[A viewDidLoad]"), (0.01, "-[A viewWillAppear:]"), (0.02, "-[A viewDidAppear:]"),
            (1, "-[B viewDidLoad]"), (1.01, "-[A viewWillDisappear:]"), (1.02, "-[B viewWillAppear:]"), (1.4, "-[A viewDidDisappear:]"),
            (1.5, "-[S viewDidLoad]"), (1.51, "-[S viewWillAppear:]"), (1.9, "-[S viewDidAppear:]"),
            (2.5, "-[S viewWillDisappear:]"), (2.9, "-[S viewDidDisappear:]"), (2.91, "-[S dealloc]"),
            (9, "-[B viewWillDisappear:]"), (9.01, "-[A viewWillAppear:]"), (9.4, "-[B viewDidDisappear:]"), (9.41, "-[A viewDidAppear:]"),
            (9.42, "-[B dealloc]"), (20, "noise"),
        ])
        let r = lint(log)
        #expect(r.summary == ["missing_did_appear@6"])
        #expect(r.findings.first?.message.contains("when viewWillAppear arrived at line 9") == true, "\(r.findings.first?.message ?? "")")
    }

    /// A completion proves the end: the capture ends right after `dismiss end`, the missing
    /// viewDidDisappear is still reported (seed 000's recursive dismiss).
    @Test func completionMarkerProvesTheEnd() throws {
        let seed = try String(contentsOf: fixtureURL("seeds/navtest-seed000.log"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let truncated = (Array(seed[0..<21]) + [seed[22]]).joined(separator: "\n") + "\n"
        let r = lint(truncated)
        #expect(r.findings.filter { $0.severity == .error }.map { "\($0.rule)@\($0.line)" } == ["missing_did_disappear@19"])
        #expect(r.findings.first?.message.contains("dismissEnd arrived at line 22") == true)
    }

    /// Legal: a container's child gets its will-callbacks within the container's transition.
    @Test func childAppearanceInTheSameTransitionIsLegal() {
        let log = Self.objc([
            (0, "-[A viewDidLoad]"), (0.01, "-[A viewWillAppear:]"), (0.02, "-[A viewDidAppear:]"),
            (1, "-[Container viewDidLoad]"), (1.01, "-[A viewWillDisappear:]"), (1.02, "-[Container viewWillAppear:]"),
            (1.03, "-[Child viewWillAppear:]"), (1.4, "-[A viewDidDisappear:]"), (1.41, "-[Container viewDidAppear:]"),
            (1.42, "-[Child viewDidAppear:]"),
        ])
        #expect(lint(log).findings.isEmpty)
    }

    /// Legal: without timestamps, a transition is not closed early by the events of its own members.
    @Test func slowCancelledSwipeBackIsLegal() {
        let log = Self.objc([
            (0, "-[A viewDidLoad]"), (0.01, "-[A viewWillAppear:]"), (0.02, "-[A viewDidAppear:]"),
            (1, "-[B viewDidLoad]"), (1.01, "-[A viewWillDisappear:]"), (1.02, "-[B viewWillAppear:]"), (1.4, "-[A viewDidDisappear:]"),
            (1.41, "-[B viewDidAppear:]"),
            // The user drags for 8 seconds and lets go (seed 002).
            (5, "-[B viewWillDisappear:]"), (5.01, "-[A viewWillAppear:]"), (13, "-[A viewWillDisappear:]"), (13.2, "-[A viewDidDisappear:]"),
            (13.21, "-[B viewWillAppear:]"), (13.4, "-[B viewDidAppear:]"), (20, "noise"),
        ])
        #expect(lint(log).findings.isEmpty)
    }

    // MARK: Identity and routing

    /// A stray callback after a dealloc belongs to the instance that just died, not to a new one
    /// (a viewDidDisappear cannot begin a controller's life in the log) nor to an older live twin.
    @Test func strayCallbackAfterDeallocIsEventAfterDealloc() throws {
        var seed = try String(contentsOf: fixtureURL("seeds/navtest-seed000.log"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        seed.insert("2017-02-11 17:30:30.642 navTest[933:17086] Child1ViewController invoke viewDidDisappear", at: 18)
        let r = lint(seed.joined(separator: "\n"))
        #expect(r.summary == ["event_after_dealloc@19"])
        #expect(r.findings.first?.controller.instance == "Child1ViewController#1")
        // With a live twin on screen: still the one that just died.
        let twin = Self.objc([
            (0, "-[Cell viewDidLoad]"), (0.01, "-[Cell viewWillAppear:]"), (0.02, "-[Cell viewDidAppear:]"),
            (1, "-[Cell viewDidLoad]"), (1.01, "-[Cell viewWillAppear:]"), (1.02, "-[Cell viewDidAppear:]"),
            (2, "-[Cell viewWillDisappear:]"), (2.3, "-[Cell viewDidDisappear:]"), (2.31, "-[Cell dealloc]"),
            (2.32, "-[Cell viewDidDisappear:]"), (9, "noise"),
        ])
        #expect(lint(twin).summary == ["event_after_dealloc@10"])
    }

    /// Two address-less twins: the one popped long ago leaked, the one popped now is deallocated
    /// before its pop settled. The dealloc is the new one's: one leak, no late dealloc.
    @Test func deallocGoesToTheTwinRemovedMostRecently() {
        let log = Self.objc([
            (0, "-[Root viewDidLoad]"), (0.01, "-[Root viewWillAppear:]"), (0.02, "-[Root viewDidAppear:]"),
            (1, "-[Detail viewDidLoad]"), (1.01, "-[Root viewWillDisappear:]"), (1.02, "-[Detail viewWillAppear:]"),
            (1.4, "-[Root viewDidDisappear:]"), (1.41, "-[Detail viewDidAppear:]"),
            (3, "-[Detail viewWillDisappear:]"), (3.01, "-[Root viewWillAppear:]"), (3.4, "-[Detail viewDidDisappear:]"), (3.41, "-[Root viewDidAppear:]"),
            (8, "-[Detail viewDidLoad]"), (8.01, "-[Root viewWillDisappear:]"), (8.02, "-[Detail viewWillAppear:]"),
            (8.4, "-[Root viewDidDisappear:]"), (8.41, "-[Detail viewDidAppear:]"),
            (10, "-[Detail viewWillDisappear:]"), (10.01, "-[Root viewWillAppear:]"), (10.4, "-[Detail viewDidDisappear:]"),
            (10.41, "-[Detail dealloc]"), (10.42, "-[Root viewDidAppear:]"), (20, "noise"),
        ])
        let r = lint(log)
        #expect(r.summary == ["leaked_controller@11"])
        #expect(r.findings.first?.controller.instance == "Detail#1")
    }

    /// A second viewWillAppear while the only live instance is appearing or appeared: a second
    /// instance when the class logs no creation, an unbalanced appearance when it does.
    @Test func secondWillAppearDependsOnWhetherTheClassLogsItsCreation() {
        let silent = "ViewController viewWillAppear(_:)\nViewController viewWillAppear(_:)\nViewController viewDidAppear(_:)\nViewController viewDidAppear(_:)\n"
        #expect(lint(silent).findings.isEmpty)
        let born = "ViewController viewDidLoad()\nViewController viewWillAppear(_:)\nViewController viewDidAppear(_:)\nViewController viewWillAppear(_:)\n"
            + "ViewController viewWillDisappear(_:)\nViewController viewDidDisappear(_:)\n"
        #expect(lint(born).summary == ["unbalanced_appearance@4"])
    }

    // MARK: Child removal

    /// ObjC `__func__` lines show no parent: an addition whose didMoveToParent never came, followed
    /// after the child appeared by the removal's willMove, owes child_containment on the first willMove.
    @Test func unmatchedAdditionBeforeAnUndirectedRemoval() {
        let log = Self.objc([
            (0, "-[Container viewDidLoad]"), (0.01, "-[Container viewWillAppear:]"), (0.02, "-[Container viewDidAppear:]"),
            (1, "-[Child willMoveToParentViewController:]"), (1.01, "-[Child viewDidLoad]"), (1.02, "-[Child viewWillAppear:]"),
            (1.4, "-[Child viewDidAppear:]"),
            (5, "-[Child willMoveToParentViewController:]"), (5.01, "-[Child viewWillDisappear:]"), (5.4, "-[Child viewDidDisappear:]"),
            (5.41, "-[Child didMoveToParentViewController:]"), (5.42, "-[Child dealloc]"), (9, "noise"),
        ])
        let r = lint(log)
        #expect(r.summary == ["child_containment@4"])
        #expect(r.findings.first?.message.contains("its removal began at line 8") == true, "\(r.findings.first?.message ?? "")")
        // The same flow with its didMove: nothing, and the second willMove is the removal.
        var lines = log.split(separator: "\n").map(String.init)
        lines.insert("2024-03-01 10:00:01.500 Shop[100:200] -[Child didMoveToParentViewController:]", at: 7)
        #expect(lint(lines.joined(separator: "\n")).findings.isEmpty)
    }

    // MARK: Removals reverted

    /// A tab switch first read as a pop to root: when the "popped" top controller reappears, the
    /// controllers its removal took along were not removed either (no leak).
    @Test func revertedRemovalRevertsWhatItTookAlong() {
        let log = Self.objc([
            (0, "-[Root viewDidLoad]"), (0.01, "-[Root viewWillAppear:]"), (0.02, "-[Root viewDidAppear:]"),
            (1, "-[Middle viewDidLoad]"), (1.01, "-[Root viewWillDisappear:]"), (1.02, "-[Middle viewWillAppear:]"),
            (1.4, "-[Root viewDidDisappear:]"), (1.41, "-[Middle viewDidAppear:]"),
            (2, "-[Top viewDidLoad]"), (2.01, "-[Middle viewWillDisappear:]"), (2.02, "-[Top viewWillAppear:]"),
            (2.4, "-[Middle viewDidDisappear:]"), (2.41, "-[Top viewDidAppear:]"),
            // Another tab's root shows: read at first as popping Top (and Middle) back to Root.
            (4, "-[Top viewWillDisappear:]"), (4.01, "-[Root viewWillAppear:]"), (4.4, "-[Top viewDidDisappear:]"), (4.41, "-[Root viewDidAppear:]"),
            // Back to the first tab: Top reappears, so nothing was popped.
            (6, "-[Root viewWillDisappear:]"), (6.01, "-[Top viewWillAppear:]"), (6.4, "-[Root viewDidDisappear:]"), (6.41, "-[Top viewDidAppear:]"),
            (7, "-[Other viewDidLoad]"), (7.01, "-[Other dealloc]"), (20, "noise"),
        ])
        let r = lint(log)
        #expect(!r.findings.contains { $0.rule == "leaked_controller" }, "\(r.summary)")
    }

    // MARK: Sessions

    /// The app prints its lifecycle (`print` lines, no envelope) and only its other lines, NSLog
    /// ones, show the relaunch: the new pid ends the old run before the next print, in every read
    /// (one thread or two, any chunk size). Without it, the new run's root would be the old run's
    /// root seen again (its second viewDidLoad, and its push's controller never gone).
    @Test func relaunchShownOnlyOnANoiseLine() {
        var lines: [String] = []
        for (pid, t) in [(100, 1), (101, 2)] {
            let env = { (s: Int) in "2024-03-01 10:\(String(format: "%02d", t)):\(String(format: "%02d", s)).000 Shop[\(pid):7] " }
            lines.append(env(0) + "[Boot] app started")
            lines += ["Home viewDidLoad", "Home viewWillAppear", "Home viewDidAppear"].map { "[lifecycle] " + $0 }
            lines.append(env(1) + "[Net] reachable")
            lines += ["Detail viewDidLoad", "Home viewWillDisappear", "Detail viewWillAppear", "Home viewDidDisappear", "Detail viewDidAppear"]
                .map { "[lifecycle] " + $0 }
            lines += (0..<40).map { env(2) + "[Sync] merged \($0) records" }
        }
        let text = lines.joined(separator: "\n").replacingOccurrences(of: "Home ", with: "HomeViewController ")
            .replacingOccurrences(of: "Detail ", with: "DetailViewController ") + "\n"
        for feed in [nil, 7, 64] {
            for pipelined in [false, true] {
                var o = LintOptions()
                o.pipelined = pipelined
                o.pipeBatch = EventPipe.BatchSize(bytes: 64, records: 2)
                let r = Linter(options: o).lint(bytes: Array(text.utf8), path: "relaunch.log", feedSize: feed)
                #expect(r.summary.isEmpty, "feed \(feed ?? 0), pipelined \(pipelined): \(r.summary)")
                #expect(r.stats.sessions == 2 && r.stats.events == 16)
            }
        }
    }
}
