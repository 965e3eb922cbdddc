import Foundation
import Testing
@testable import VCLintCore

/// The timeline names every transition when it settles (docs/lifecycle.md#naming-transitions), and the
/// findings about a transition carry that kind: in the JSON report (`lint --reporter json`) as
/// `"transition"`, and the same transition has the same kind in the timeline view.
@Suite struct TransitionKindTests {
    /// A capture of `lines` (seconds after the start, message), in one process.
    static func capture(_ lines: [(Double, String)]) -> String {
        lines.map { t, message in
            let ms = Int((t * 1000).rounded())
            let stamp = String(format: "2024-03-01 10:%02d:%02d.%03d", ms / 60_000, ms / 1000 % 60, ms % 1000)
            return "\(stamp) Shop[100:200] \(message)"
        }.joined(separator: "\n") + "\n"
    }

    /// Linted with every rule on and transitions slower than 100 ms reported, the timeline recorded.
    static var options: LintOptions {
        var options = LintOptions()
        options.rules = .all
        options.timeline.slowTransitionMilliseconds = 100
        return options
    }

    static func lint(_ lines: [(Double, String)]) -> FileResult {
        var options = Self.options
        options.timeline.recordTimeline = true
        return Linter(options: options).lint(text: capture(lines), path: "flow.log")
    }

    /// Each finding of the JSON report: its rule, line and `transition` (nil when absent).
    static func jsonFindings(_ r: FileResult) throws -> [(rule: String, line: Int, transition: String?)] {
        let json = JSONReporter().report(LintResult(files: [r]))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let violations = try #require(root["violations"] as? [[String: Any]])
        return violations.map { ($0["rule"] as? String ?? "", $0["line"] as? Int ?? 0, $0["transition"] as? String) }
    }

    /// The timeline view's transition that `f` is about: the one of the session whose extent holds the
    /// finding's line and which has the finding's controller among its members.
    static func viewTransition(of f: Finding, in r: FileResult) throws -> RecordedTransition {
        let input = TimelineInput.from(LintResult(files: [r]))[0]
        let s = try #require(input.timeline.sessions.first)
        let id = try #require(s.instances.first { $0.controller.instance == f.controller.instance }?.id)
        return try #require(s.transitions.last { $0.start.line <= f.line && f.line <= $0.end.line && $0.members.contains { $0.instance == id } })
    }

    // The flows: the app's home screen first, then the flow under test, whose slow member (a did
    // 0.5 s after its will) is the finding about it.
    static let home: [(Double, String)] = [
        (0.00, "HomeViewController viewDidLoad()"),
        (0.01, "HomeViewController viewWillAppear(_:)"),
        (0.02, "HomeViewController viewDidAppear(_:)"),
    ]
    static let nav = "<UINavigationController: 0x7fa1c9024a00>"
    static let pushDetail: [(Double, String)] = [
        (1.00, "DetailViewController init(nibName:bundle:)"),
        (1.01, "DetailViewController willMove(toParent:) \(nav)"),
        (1.02, "DetailViewController viewDidLoad()"),
        (1.03, "HomeViewController viewWillDisappear(_:)"),
        (1.04, "DetailViewController viewWillAppear(_:)"),
        (1.05, "HomeViewController viewDidDisappear(_:)"),
    ]
    static let end: [(Double, String)] = [(20.0, "Sync finished")]

    static let flows: [(name: String, kind: TransitionKind, lines: [(Double, String)])] = [
        ("push", .push, home + pushDetail + [
            (1.60, "DetailViewController viewDidAppear(_:)"),
            (1.61, "DetailViewController didMove(toParent:) \(nav)"),
        ] + end),
        ("pop", .pop, home + pushDetail + [
            (1.06, "DetailViewController viewDidAppear(_:)"),
            (1.07, "DetailViewController didMove(toParent:) \(nav)"),
            (3.00, "DetailViewController willMove(toParent:) nil"),
            (3.01, "DetailViewController viewWillDisappear(_:)"),
            (3.55, "HomeViewController viewWillAppear(_:)"),
            (3.60, "DetailViewController viewDidDisappear(_:)"),
            (3.61, "HomeViewController viewDidAppear(_:)"),
            (3.62, "DetailViewController didMove(toParent:) nil"),
            (3.63, "DetailViewController deinit"),
        ] + end),
        ("present", .present, home + [
            (1.00, "HomeViewController present begin"),
            (1.01, "ModalViewController viewDidLoad()"),
            (1.02, "HomeViewController viewWillDisappear(_:)"),
            (1.03, "ModalViewController viewWillAppear(_:)"),
            (1.04, "HomeViewController viewDidDisappear(_:)"),
            (1.60, "ModalViewController viewDidAppear(_:)"),
            (1.62, "HomeViewController present end"),
        ] + end),
        ("dismiss", .dismiss, home + [
            (1.00, "HomeViewController present begin"),
            (1.01, "ModalViewController viewDidLoad()"),
            (1.02, "HomeViewController viewWillDisappear(_:)"),
            (1.03, "ModalViewController viewWillAppear(_:)"),
            (1.04, "ModalViewController viewDidAppear(_:)"),
            (1.05, "HomeViewController viewDidDisappear(_:)"),
            (1.06, "HomeViewController present end"),
            (3.00, "ModalViewController dismiss begin"),
            (3.01, "ModalViewController viewWillDisappear(_:)"),
            (3.02, "HomeViewController viewWillAppear(_:)"),
            (3.03, "HomeViewController viewDidAppear(_:)"),
            (3.60, "ModalViewController viewDidDisappear(_:)"),
            (3.61, "ModalViewController dismiss end"),
            (3.62, "ModalViewController deinit"),
        ] + end),
        ("sheet", .sheet, home + [
            (1.00, "HomeViewController present begin"),
            (1.01, "FilterViewController viewDidLoad()"),
            (1.02, "FilterViewController viewWillAppear(_:)"),
            (1.60, "FilterViewController viewDidAppear(_:)"),
            (1.61, "HomeViewController present end"),
        ] + end),
        ("tab", .tab, home + [
            (1.00, "ProfileViewController viewDidLoad()"),
            (1.01, "ProfileViewController viewWillAppear(_:)"),
            (1.02, "HomeViewController viewWillDisappear(_:)"),
            (1.03, "HomeViewController viewDidDisappear(_:)"),
            (1.60, "ProfileViewController viewDidAppear(_:)"),
        ] + end),
        ("child add", .childAdd, home + [
            (1.00, "ChildViewController init(nibName:bundle:)"),
            (1.01, "ChildViewController willMove(toParent:) <HomeViewController: 0x7fa1c8d0a200>"),
            (1.02, "ChildViewController viewDidLoad()"),
            (1.03, "ChildViewController viewWillAppear(_:)"),
            (1.60, "ChildViewController viewDidAppear(_:)"),
            (1.61, "ChildViewController didMove(toParent:) <HomeViewController: 0x7fa1c8d0a200>"),
        ] + end),
        ("child remove", .childRemove, home + [
            (1.00, "ChildViewController init(nibName:bundle:)"),
            (1.01, "ChildViewController willMove(toParent:) <HomeViewController: 0x7fa1c8d0a200>"),
            (1.02, "ChildViewController viewDidLoad()"),
            (1.03, "ChildViewController viewWillAppear(_:)"),
            (1.04, "ChildViewController viewDidAppear(_:)"),
            (1.05, "ChildViewController didMove(toParent:) <HomeViewController: 0x7fa1c8d0a200>"),
            (3.00, "ChildViewController willMove(toParent:) nil"),
            (3.01, "ChildViewController viewWillDisappear(_:)"),
            (3.60, "ChildViewController viewDidDisappear(_:)"),
            (3.61, "ChildViewController didMove(toParent:) nil"),
            (3.62, "ChildViewController deinit"),
        ] + end),
        ("pop to root", .popToRoot, home + pushDetail + [
            (1.06, "DetailViewController viewDidAppear(_:)"),
            (1.07, "DetailViewController didMove(toParent:) \(nav)"),
            (2.00, "ReviewViewController init(nibName:bundle:)"),
            (2.01, "ReviewViewController willMove(toParent:) \(nav)"),
            (2.02, "ReviewViewController viewDidLoad()"),
            (2.03, "DetailViewController viewWillDisappear(_:)"),
            (2.04, "ReviewViewController viewWillAppear(_:)"),
            (2.05, "DetailViewController viewDidDisappear(_:)"),
            (2.06, "ReviewViewController viewDidAppear(_:)"),
            (2.07, "ReviewViewController didMove(toParent:) \(nav)"),
            (3.00, "ReviewViewController willMove(toParent:) nil"),
            (3.01, "ReviewViewController viewWillDisappear(_:)"),
            (3.55, "HomeViewController viewWillAppear(_:)"),
            (3.60, "ReviewViewController viewDidDisappear(_:)"),
            (3.61, "HomeViewController viewDidAppear(_:)"),
            (3.62, "ReviewViewController didMove(toParent:) nil"),
            (3.63, "ReviewViewController deinit"),
        ] + end),
        ("cancelled swipe-back", .cancelledSwipeBack, home + pushDetail + [
            (1.06, "DetailViewController viewDidAppear(_:)"),
            (1.07, "DetailViewController didMove(toParent:) \(nav)"),
            (3.00, "DetailViewController viewWillDisappear(_:)"),
            (3.01, "HomeViewController viewWillAppear(_:)"),
            (3.20, "HomeViewController viewWillDisappear(_:)"),
            (3.21, "DetailViewController viewWillAppear(_:)"),
            (3.22, "HomeViewController viewDidDisappear(_:)"),
            (3.80, "DetailViewController viewDidAppear(_:)"),
        ] + end),
    ]

    @Test(arguments: flows.indices)
    func theSlowTransitionsFindingCarriesItsKind(_ k: Int) throws {
        let flow = Self.flows[k]
        let r = Self.lint(flow.lines)
        let slow = r.findings.filter { $0.rule == "slow_transition" }
        #expect(slow.count == 1, "\(flow.name): \(r.findings.map { "\($0.line) \($0.rule)" })")
        let f = try #require(slow.first)
        #expect(f.transition == flow.kind, "\(flow.name)")
        // The JSON report says it,
        let json = try Self.jsonFindings(r)
        #expect(json.filter { $0.rule == "slow_transition" }.map(\.transition) == [flow.kind.rawValue], "\(flow.name)")
        // and the timeline view tells the same story.
        #expect(try Self.viewTransition(of: f, in: r).kind == flow.kind, "\(flow.name)")
    }

    @Test func aPopToRootsLeakIsAboutThePopToRoot() throws {
        let flow = try #require(Self.flows.first { $0.name == "pop to root" })
        let r = Self.lint(flow.lines)
        let leak = try #require(r.findings.first { $0.rule == "leaked_controller" })
        #expect(leak.controller.className == "DetailViewController")
        #expect(leak.transition == .popToRoot)
        #expect(try Self.jsonFindings(r).contains { $0.rule == "leaked_controller" && $0.transition == "pop to root" })
    }

    @Test func withoutContainmentAPopToRootMayBeADismissal() throws {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        let r = try lintFixture("Fixtures/flows/pop-to-root.log", options: options)
        let s = try #require(TimelineInput.from(LintResult(files: [r]))[0].timeline.sessions.first)
        #expect(s.transitions.last?.kind == .popToRootOrDismiss)
        // The views keep their wording.
        #expect(s.transitions.last?.kind.viewName == "pop/dismiss")
    }

    @Test func findingsAboutNoTransitionHaveNoField() throws {
        // A UIKit warning is about no transition.
        let r = Self.lint(Self.home + [(1.0, "Attempt to present <UIAlertController: 0x7fa1c9830a00> on <HomeViewController: 0x7fa1c8d0a200> which is already presenting <FilterViewController: 0x7fa1c8d0c000>.")] + Self.end)
        let json = try Self.jsonFindings(r)
        #expect(!json.isEmpty)
        #expect(json.allSatisfy { $0.transition == nil })
        #expect(!JSONReporter().report(LintResult(files: [r])).contains("\"transition\""))
    }

    @Test func aMarkerAfterTheTransitionSettledRefinesTheFindingsKindToo() throws {
        // Without its completion marker the presentation is a push/present; `present end`, logged
        // after the transition settled, says which, for the view and the finding alike.
        let lines = Self.home + [
            (1.01, "ModalViewController viewDidLoad()"),
            (1.02, "HomeViewController viewWillDisappear(_:)"),
            (1.03, "ModalViewController viewWillAppear(_:)"),
            (1.04, "HomeViewController viewDidDisappear(_:)"),
            (1.60, "ModalViewController viewDidAppear(_:)"),
        ]
        let before = Self.lint(lines + Self.end)
        #expect(before.findings.first { $0.rule == "slow_transition" }?.transition == .pushOrPresent)
        let after = Self.lint(lines + [(1.61, "HomeViewController present end")] + Self.end)
        let f = try #require(after.findings.first { $0.rule == "slow_transition" })
        #expect(f.transition == .present)
        #expect(try Self.viewTransition(of: f, in: after).kind == .present)
    }

    @Test func theKindSurvivesTheJSONRoundTripAndEveryKindReadsBack() throws {
        for kind in TransitionKind.allCases {
            var o = Observation(SlowTransition(will: EventRef(line: 1, time: nil, kind: .viewWillAppear),
                                               did: EventRef(line: 2, time: nil, kind: .viewDidAppear), milliseconds: 500),
                                controller: ControllerRef(className: "A", address: nil, instance: "A#1"), line: 1, time: nil)
            o.transition = kind
            let list = ObservationList([o])
            #expect(list[0].transition == kind)
        }
        let flow = try #require(Self.flows.first { $0.name == "pop to root" })
        let r = Self.lint(flow.lines)
        let reporter = JSONReporter(configuration: RunConfiguration(options: Self.options))
        let json = reporter.report(LintResult(files: [r]))
        let back = try LoadedReport.parse(Data(json.utf8), path: "shard.json")
        #expect(back.result.files[0].findings.map(\.transition) == r.findings.map(\.transition))
        #expect(reporter.report(back.result) == json)
        let bad = json.replacingOccurrences(of: "\"transition\": \"pop to root\"", with: "\"transition\": \"leap\"")
        #expect(throws: (any Error).self) { try LoadedReport.parse(Data(bad.utf8), path: "shard.json") }
    }

    @Test func liveModeGivesTheKindOnceTheTransitionIsNamed() throws {
        // The pop's slow viewDidDisappear comes while the pop is open (the home screen's viewDidAppear
        // has not): the finding waits for the pop to settle.
        let flow = try #require(Self.flows.first { $0.name == "pop" })
        let live = LiveLinter(path: "flow.log", options: Self.options)
        var streamed: [Finding] = []
        for line in Self.capture(flow.lines).split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array((line + "\n").utf8)
            streamed += bytes.withUnsafeBytes { live.consume($0) }
        }
        let (late, _) = live.finish()
        streamed += late
        #expect(streamed.first { $0.rule == "slow_transition" }?.transition == .pop)
    }
}
