import Foundation
import Testing
@testable import VCLintCore

/// Lints a fixture with the timeline recorded, as `vclint timeline` does.
func timelineInput(_ relative: String, grace: Double = 3) throws -> TimelineInput {
    var options = LintOptions()
    options.timeline.recordTimeline = true
    options.timeline.leakGraceSeconds = grace
    let result = try lintFixture(relative, options: options)
    return TimelineInput.from(LintResult(files: [result]))[0]
}

func timelineInput(text: String, path: String = "<text>", grace: Double = 3) -> TimelineInput {
    var options = LintOptions()
    options.timeline.recordTimeline = true
    options.timeline.leakGraceSeconds = grace
    return TimelineInput.from(LintResult(files: [Linter(options: options).lint(text: text, path: path)]))[0]
}

/// The golden files of the timeline views: `Fixtures/timeline/NAME.timeline.golden` (text, 100
/// columns, no color), `NAME.timeline.json` and `NAME.trace.json`. Regenerate after an intended
/// change with `VCLINT_UPDATE_GOLDENS=1 swift test --filter TimelineGoldenTests` and review the diff.
@Suite struct TimelineGoldenTests {
    static let fixtures = [
        "Fixtures/seeds/navtest-seed000.log",
        "Fixtures/seeds/swipe-back-cancelled-seed002.log",
        "Fixtures/flows/tab-switch-new-first.log",
        "Fixtures/flows/leak-pop.log",
        "Fixtures/objects/swiftui-only.log",
        "Fixtures/dialects/uikit-warnings.log",
        "Fixtures/dialects/swift-function.log",
        // Android: Activity lanes across three pids, a rotation recreate, and a leak LeakCanary proved.
        "Fixtures/android/capture-57-studio-rotation-recreate-pids.log",
        "Fixtures/android/leakcanary-application-leak-in-test.log",
        // A ViewModel across a recreate, a composable's effects, constructors and finalize lines.
        "Fixtures/android/viewmodel-compose-recreate-legal.log",
    ]

    static func golden(_ fixture: String, _ suffix: String) -> URL {
        let name = URL(fileURLWithPath: fixture).deletingPathExtension().lastPathComponent
        return packageRoot.appendingPathComponent("Fixtures/timeline/\(name).\(suffix)")
    }

    static func check(_ output: String, _ url: URL) throws {
        let output = releaseVersion(output)
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try output.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(output == expected, "differs from \(url.lastPathComponent)")
    }

    @Test(arguments: fixtures) func textTimeline(_ fixture: String) throws {
        let out = TimelineTextRenderer(width: 100).render([try timelineInput(fixture)])
        for line in out.split(separator: "\n") { #expect(line.count <= 100, "\(line)") }
        #expect(!out.contains("\u{1B}"))
        try Self.check(out, Self.golden(fixture, "timeline.golden"))
    }

    @Test(arguments: fixtures) func jsonTimeline(_ fixture: String) throws {
        let out = TimelineJSON().render([try timelineInput(fixture)])
        _ = try JSONSerialization.jsonObject(with: Data(out.utf8))
        try Self.check(out, Self.golden(fixture, "timeline.json"))
    }

    @Test(arguments: fixtures) func chromeTrace(_ fixture: String) throws {
        let out = ChromeTrace().render([try timelineInput(fixture)])
        try TraceChecks.validate(out)
        try Self.check(out, Self.golden(fixture, "trace.json"))
    }
}

/// What the Trace Event Format requires of the events we write.
enum TraceChecks {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func validate(_ json: String) throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try #require(doc["traceEvents"] as? [[String: Any]])
        #expect(!events.isEmpty)
        var named: Set<String> = []
        var processes: Set<Int> = []
        var used: Set<String> = []
        var intervals: [String: [(Int, Int)]] = [:]
        for e in events {
            for key in ["name", "ph", "ts", "pid", "tid"] { #expect(e[key] != nil, "event without \(key): \(e)") }
            let ph = try #require(e["ph"] as? String)
            let pid = try #require(e["pid"] as? Int), tid = try #require(e["tid"] as? Int)
            let ts = try #require(e["ts"] as? Int)
            #expect(["M", "X", "i"].contains(ph))
            switch ph {
            case "M":
                if e["name"] as? String == "process_name" { processes.insert(pid) }
                if e["name"] as? String == "thread_name" { named.insert("\(pid)/\(tid)") }
                #expect((e["args"] as? [String: Any])?.isEmpty == false)
            case "X":
                let dur = try #require(e["dur"] as? Int)
                #expect(dur >= 0)
                intervals["\(pid)/\(tid)", default: []].append((ts, ts + dur))
                used.insert("\(pid)/\(tid)")
            default:
                #expect(e["s"] as? String == "t")
                used.insert("\(pid)/\(tid)")
            }
        }
        for track in used {
            #expect(named.contains(track), "track \(track) has no thread_name")
            #expect(processes.contains(Int(track.split(separator: "/")[0])!), "process of \(track) has no process_name")
        }
        // On one track, complete events nest or are disjoint (what trace viewers can stack).
        for (track, list) in intervals {
            let sorted = list.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }
            var stack: [(Int, Int)] = []
            for iv in sorted {
                while let top = stack.last, top.1 <= iv.0, !(top.0 == iv.0 && top.1 >= iv.1) { stack.removeLast() }
                if let top = stack.last, iv.1 > top.1 { throw Failure(description: "\(track): \(iv) overlaps \(top) without nesting") }
                stack.append(iv)
            }
        }
    }
}

@Suite struct TimelineRecordingTests {
    @Test func lintRecordsNothing() throws {
        let result = try lintFixture("Fixtures/seeds/navtest-seed000.log")
        #expect(result.timeline == nil)
    }

    /// The recorder only watches: every fixture gives the same findings with and without it.
    @Test(arguments: allFixtureLogs()) func recordingDoesNotChangeFindings(_ fixture: String) throws {
        let plain = try lintFixture(fixture)
        var options = LintOptions()
        options.timeline.recordTimeline = true
        let recorded = try lintFixture(fixture, options: options)
        #expect(recorded.summary == plain.summary)
        #expect(recorded.findings.map(\.message) == plain.findings.map(\.message))
        #expect(recorded.timeline != nil)
    }

    /// Seed 000: the present, then the recursive dismiss, both dismissed controllers deallocated.
    @Test func seed000ShowsThePresentThenTheRecursiveDismiss() throws {
        let input = try timelineInput("Fixtures/seeds/navtest-seed000.log")
        let s = try #require(input.timeline.sessions.first)
        #expect(input.timeline.sessions.count == 1)
        #expect(s.transitions.map(\.kind) == [.appear, .present, .dismiss, .dismiss])
        #expect(s.transitions[1].summary == "mainViewCtrl#1 → SecondViewController#1")
        #expect(s.transitions[2].summary == "Child1ViewController#1 → SecondViewController#1")
        #expect(s.transitions[3].summary == "SecondViewController#1 → mainViewCtrl#1")
        for label in ["Child1ViewController#1", "SecondViewController#1"] {
            let i = try #require(s.instances.first { $0.controller.instance == label })
            #expect(i.removal?.kind == .dismissed)
            #expect(i.dealloc != nil)
        }
        let main = try #require(s.instances.first { $0.controller.instance == "mainViewCtrl#1" })
        #expect(main.dealloc == nil)
        #expect(main.intervals.last?.state == .visible && main.intervals.last?.openAtEnd == true)
        let text = TimelineTextRenderer(width: 100).render([input])
        let order = ["T2 present", "T3 dismiss", "T4 dismiss"].map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(text.contains("Child1ViewController#1: removed (dismiss) at line 11, deallocated at line 18"))
        #expect(text.contains("SecondViewController#1: removed (dismiss) at line 17, deallocated at line 25"))
    }

    @Test(arguments: [
        ("Fixtures/seeds/swipe-back-cancelled-seed002.log", [TransitionKind.appear, .pushOrPresent, .cancelledSwipeBack, .popOrDismiss]),
        ("Fixtures/flows/tab-switch-new-first.log", [.appear, .tab, .tab, .pushOrPresent, .popOrDismiss]),
        ("Fixtures/flows/page-sheet.log", [.appear, .sheetOrChild, .sheetOrChild]),
        ("Fixtures/flows/child-add-remove.log", [.appear, .childAdd, .childRemove]),
        ("Fixtures/dialects/swift-function.log", [.appear, .push, .pop]),
        ("Fixtures/dialects/named-invoke.log", [.appear, .present, .dismiss, .present, .dismiss]),
    ])
    func transitionKindsComeFromTheStateMachine(_ fixture: String, _ kinds: [TransitionKind]) throws {
        let s = try #require(try timelineInput(fixture).timeline.sessions.first)
        #expect(s.transitions.map(\.kind) == kinds)
    }

    @Test func sheetWithMarkersIsASheet() {
        let log = """
        HomeViewController viewDidLoad()
        HomeViewController viewWillAppear(_:)
        HomeViewController viewDidAppear(_:)
        HomeViewController present begin
        FilterViewController viewDidLoad()
        FilterViewController viewWillAppear(_:)
        FilterViewController viewDidAppear(_:)
        HomeViewController present end
        FilterViewController dismiss begin
        FilterViewController viewWillDisappear(_:)
        FilterViewController viewDidDisappear(_:)
        FilterViewController dismiss end
        FilterViewController deinit
        """
        let s = timelineInput(text: log).timeline.sessions[0]
        #expect(s.transitions.map(\.kind) == [.appear, .sheet, .sheet])
    }

    @Test func statesFollowTheCallbacks() throws {
        let s = try #require(try timelineInput("Fixtures/seeds/swipe-back-cancelled-seed002.log").timeline.sessions.first)
        let detail = try #require(s.instances.first { $0.controller.className == "DetailViewController" })
        #expect(detail.intervals.map(\.state) == [.loaded, .appearing, .visible, .disappearing, .appearing, .visible, .disappearing, .hidden])
        #expect(detail.dealloc?.line == 24)
        // Intervals follow each other without gap.
        for (a, b) in zip(detail.intervals, detail.intervals.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test func deallocNotLoggedIsReportedNotGuessed() throws {
        let t = try timelineInput("Fixtures/flows/tab-switch.log").timeline
        #expect(t.leaks.isEmpty)
        #expect(t.unjudgedClasses.map(\.className) == ["AccountViewController", "HomeViewController", "SearchViewController"])
    }
}

@Suite struct TimelineTextTests {
    @Test func boundsParse() {
        #expect(TimelineBound.parse("12") == .line(12))
        let half: Double = 63030.5  // 17:30:30.5
        #expect(TimelineBound.parse("17:30:30.5") == .time(secondsOfDay: half, date: nil))
        #expect(TimelineBound.parse("17:30") == .time(secondsOfDay: half - 30.5, date: nil))
        #expect(TimelineBound.parse("2017-02-11T17:30:30") == .time(secondsOfDay: half - 0.5, date: [2017, 2, 11]))
        #expect(TimelineBound.parse("0") == nil)
        #expect(TimelineBound.parse("25:00") == nil)
        #expect(TimelineBound.parse("soon") == nil)
        #expect(TimelineBound.parse("17:3") == nil)
    }

    @Test func zoomByLineAndByTime() throws {
        let input = try timelineInput("Fixtures/seeds/navtest-seed000.log")
        let byLine = TimelineTextRenderer(width: 100, window: TimelineWindow(from: .line(11), to: .line(25))).render([input])
        let byTime = TimelineTextRenderer(width: 100, window: TimelineWindow(from: TimelineBound.parse("17:30:30.6"), to: nil)).render([input])
        #expect(byLine == byTime)
        let ruler = try #require(byLine.split(separator: "\n").first { $0.hasPrefix("  line") })
        let numbers = ruler.split(separator: " ").dropFirst().compactMap { Int($0) }
        #expect(numbers.first == 11 && numbers.last == 25)
        #expect(!byLine.contains("T2 present"))
        #expect(byLine.contains("T3 dismiss"))
        // mainViewCtrl was hidden before the window: its lane starts with the state it was in.
        let main = try #require(byLine.split(separator: "\n").first { $0.hasPrefix("  mainViewCtrl#1") })
        #expect(main.dropFirst(26).hasPrefix("-"))
        let empty = TimelineTextRenderer(width: 100, window: TimelineWindow(from: .line(900))).render([input])
        #expect(empty.contains("no lifecycle events in the window"))
    }

    @Test func fitsTheWidthAndColorsOnlyWhenAsked() throws {
        let input = try timelineInput("Fixtures/seeds/push-seed001.log")
        for width in [40, 63, 100, 180] {
            let out = TimelineTextRenderer(width: width).render([input])
            for line in out.split(separator: "\n") { #expect(line.count <= width, "\(width): \(line)") }
        }
        #expect(!TimelineTextRenderer(width: 80).render([input]).contains("\u{1B}["))
        #expect(TimelineTextRenderer(width: 80, color: true).render([input]).contains("\u{1B}[32m#"))
    }

    @Test func manyEventsShareColumns() {
        var log = "HomeViewController viewDidLoad()\n"
        for _ in 0..<200 { log += "HomeViewController viewWillAppear(_:)\nHomeViewController viewDidAppear(_:)\nHomeViewController viewWillDisappear(_:)\nHomeViewController viewDidDisappear(_:)\n" }
        let out = TimelineTextRenderer(width: 60).render([timelineInput(text: log)])
        let lane = out.split(separator: "\n").first { $0.hasPrefix("  HomeViewController#1") }
        #expect(lane != nil && lane!.count <= 60)
        // Appearing/disappearing win a shared column over the steady states.
        #expect(lane!.contains(">") || lane!.contains("<"))
    }

    @Test func findingsAreMarkedOnTheirLane() throws {
        let out = TimelineTextRenderer(width: 100).render([try timelineInput("Fixtures/flows/leak-pop.log")])
        let lane = try #require(out.split(separator: "\n").first { $0.hasPrefix("  ProductDetailViewController#2") })
        #expect(lane.contains("!"))
        #expect(out.contains("! line 26 error leaked_controller: ProductDetailViewController#2 was popped or dismissed at line"))
    }

    @Test func timeAxisSpacesEventsByTime() throws {
        let input = try timelineInput("Fixtures/seeds/navtest-seed000.log")
        let out = TimelineTextRenderer(width: 100, axis: .time).render([input])
        #expect(out.contains("  time "))
        // 17:25:16 → 17:31:02: the launch at the left edge, the dismiss 314 s in (~90 % of the width).
        let child = try #require(out.split(separator: "\n").first { $0.hasPrefix("  Child1ViewController#1") })
        let col = child.dropFirst(26).firstIndex { $0 != " " }.map { child.dropFirst(26).distance(from: child.dropFirst(26).startIndex, to: $0) }
        #expect(col != nil && col! > 60)
        // A log without time falls back to one step per event.
        let bare = TimelineTextRenderer(width: 100, axis: .time).render([try timelineInput("Fixtures/envelopes/bare.log")])
        #expect(bare.contains("  line "))
    }

    @Test func controlCharactersNeverReachTheTerminal() throws {
        let out = TimelineTextRenderer(width: 120).render([try timelineInput("Fixtures/reporters/hostile.log")])
        let bad = out.unicodeScalars.filter { s in (s.value < 0x20 && s != "\n") || (0x7F...0x9F).contains(s.value) }
        #expect(bad.isEmpty)
    }
}

@Suite struct LeakReportTests {
    @Test func groupsByClassWithEvidence() throws {
        let inputs = [try timelineInput("Fixtures/flows/leak-pop.log"), try timelineInput("Fixtures/seeds/navtest-missing-dealloc.log"),
                      try timelineInput("Fixtures/seeds/navtest-seed000.log")]
        let r = LeakReport(inputs: inputs, graceSeconds: 3)
        #expect(r.confirmedCount == 2)
        #expect(r.groups.map(\.className) == ["Child1ViewController", "ProductDetailViewController"])
        let child = r.groups[0].leaks[0]
        #expect(child.removal.kind == .dismissed)
        #expect(child.evidence.map(\.line) == [11, 12, 15])
        #expect(child.evidence.map(\.event) == ["dismissBegin", "viewWillDisappear", "viewDidDisappear"])
        #expect(abs((child.wentOn ?? 0) - 31.9) < 0.05)
        let pop = r.groups[1].leaks[0]
        #expect(pop.controller.instance == "ProductDetailViewController#2")
        #expect(pop.removal.kind == .popped)
        #expect(pop.evidence.map(\.line) == [24, 26])
        let text = LeakText().render(r)
        #expect(text.contains("ProductDetailViewController: 1 leaked instance in 1 session of 1 file; removed by pop/dismiss (inferred) ×1"))
        #expect(text.contains("Fixtures/seeds/navtest-missing-dealloc.log:11: dismissBegin"))
        #expect(text.contains("Fixtures/flows/leak-pop.log:24: viewWillDisappear (began the removal)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(LeakJSON().render(r).utf8)) as? [String: Any])
        #expect((json["summary"] as? [String: Any])?["confirmed"] as? Int == 2)
        #expect(LeakMarkdown().render(r).contains("| Child1ViewController | 1 | 1 | 1 | dismiss ×1 |"))
    }

    @Test func sameClassInManyFilesAndSessions() throws {
        let a = try timelineInput("Fixtures/flows/leak-pop.log")
        var b = a
        b.path = "other.log"
        let r = LeakReport(inputs: [a, b], graceSeconds: 3)
        #expect(r.groups.count == 1)
        #expect(r.groups[0].leaks.count == 2 && r.groups[0].sessions == 2 && r.groups[0].files == 2)
    }

    @Test func unconfirmedWhenTheLogEndsWithinTheGrace() {
        let log = """
        2024-03-01 10:00:00.000 Shop[1:2] -[HomeViewController viewDidLoad]
        2024-03-01 10:00:00.010 Shop[1:2] -[HomeViewController viewWillAppear:]
        2024-03-01 10:00:00.020 Shop[1:2] -[HomeViewController viewDidAppear:]
        2024-03-01 10:00:01.000 Shop[1:2] -[DetailViewController viewDidLoad]
        2024-03-01 10:00:01.010 Shop[1:2] -[HomeViewController viewWillDisappear:]
        2024-03-01 10:00:01.020 Shop[1:2] -[DetailViewController viewWillAppear:]
        2024-03-01 10:00:01.400 Shop[1:2] -[HomeViewController viewDidDisappear:]
        2024-03-01 10:00:01.410 Shop[1:2] -[DetailViewController viewDidAppear:]
        2024-03-01 10:00:02.000 Shop[1:2] -[DetailViewController viewWillDisappear:]
        2024-03-01 10:00:02.010 Shop[1:2] -[HomeViewController viewWillAppear:]
        2024-03-01 10:00:02.400 Shop[1:2] -[HomeViewController viewDidAppear:]
        2024-03-01 10:00:02.410 Shop[1:2] -[DetailViewController viewDidDisappear:]
        2024-03-01 10:00:02.420 Shop[1:2] -[OtherViewController dealloc]
        2024-03-01 10:00:03.000 Shop[1:2] done
        """
        let r = LeakReport(inputs: [timelineInput(text: log)], graceSeconds: 3)
        #expect(r.confirmedCount == 0)
        #expect(r.unconfirmed.map(\.controller.instance) == ["DetailViewController#1"])
        #expect(LeakText().render(r).contains("Unconfirmed (the log ended within the grace period): 1"))
    }

    @Test func classesWithoutDeallocAreListedSeparately() throws {
        let r = LeakReport(inputs: [try timelineInput("Fixtures/flows/tab-switch.log")], graceSeconds: 3)
        #expect(r.confirmedCount == 0)
        #expect(r.unjudged.map(\.className) == ["AccountViewController", "HomeViewController", "SearchViewController"])
        #expect(LeakText().render(r).contains("Classes whose dealloc is not logged (a leak cannot be judged): 3"))
    }
}

@Suite struct HTMLReportTests {
    static func report(_ fixtures: [String]) throws -> String {
        let inputs = try fixtures.map { try timelineInput($0) }
        return HTMLReport(inputs: inputs, leaks: LeakReport(inputs: inputs, graceSeconds: 3)).render()
    }

    @Test func escapeEverything() {
        #expect(HTMLText.escape(#"<script>a="b" & 'c'</script>"#) == "&lt;script&gt;a=&quot;b&quot; &amp; &#39;c&#39;&lt;/script&gt;")
        #expect(HTMLText.escape("a\u{1B}b\u{07}c\u{9B}d\u{FFFE}e\u{2028}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}")
        #expect(HTMLText.escape("tab\tnew\nline é 日本") == "tab\tnew\nline é 日本")
    }

    @Test func hostileFixtureIsEscaped() throws {
        let html = try Self.report(["Fixtures/hostile/html-injection.log", "Fixtures/reporters/hostile.log"])
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("</td>="))
        #expect(html.contains("Shop &lt;script&gt;alert(&quot;p&quot;)&lt;/script&gt; &amp; Co"))
        #expect(html.contains("Bad&amp;&quot;Ctrl&#39;=x&amp;#60;"))
        #expect(html.contains("Evil&amp;quot;&quot;Q&#39;s&amp;amp;"))
        let bad = html.unicodeScalars.filter { s in (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value) }
        #expect(bad.isEmpty)
        // Self-contained: no request of any kind.
        for needle in ["http:", "https:", "src=", "url(", "@import", "<link", "<script", "<iframe", "<object", "<embed"] {
            #expect(!html.lowercased().contains(needle), "\(needle)")
        }
        for href in html.components(separatedBy: "href=\"").dropFirst() { #expect(href.hasPrefix("#")) }
    }

    @Test func findingsAreLinkedFromTheirLanes() throws {
        let html = try Self.report(["Fixtures/flows/leak-pop.log", "Fixtures/dialects/uikit-warnings.log"])
        let links = html.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(links.count == 7)  // 1 leak + 6 UIKit warnings
        for id in links { #expect(html.contains("<tr id=\"\(id)\">"), "\(id)") }
        #expect(html.contains("<svg class=\"lanes\""))
        #expect(html.contains("Session 2: Shop [63209]"))
        #expect(html.contains("<h2 id=\"leaks\">Leaks</h2>"))
        #expect(html.contains("ProductDetailViewController#2"))
    }
}

/// The HTML report as a reader meets it: the findings come first, each with the log around it;
/// severities and lane states each have a colour far from the others.
@Suite struct HTMLReportLayoutTests {
    static func report(_ fixtures: [String]) throws -> String {
        let inputs = try fixtures.map { try timelineInput($0) }
        var excerpts: [String: [Int: String]] = [:]
        for (path, lines) in HTMLReport.excerptLines(inputs) {
            excerpts[path] = LineExcerpts.read(.file(packageRoot.appendingPathComponent(path).path), lines: lines)
        }
        return HTMLReport(inputs: inputs, leaks: LeakReport(inputs: inputs, graceSeconds: 3), excerpts: excerpts).render()
    }

    @Test func findingsComeRightAfterTheSummary() throws {
        let html = try Self.report(["Fixtures/seeds/navtest-missing-dealloc.log", "Fixtures/flows/late-dealloc.log"])
        let sections = html.components(separatedBy: "<h2 id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(sections == ["summary", "findings", "timelines", "leaks", "files"])
    }

    /// Each finding's row is followed by the log around it: its line marked in its severity's
    /// colour, the related lines marked with their notes.
    @Test func eachFindingShowsItsLogExcerpt() throws {
        let html = try Self.report(["Fixtures/seeds/navtest-missing-dealloc.log", "Fixtures/flows/late-dealloc.log", "Fixtures/flows/memory-warning-ios5.log"])
        #expect(html.components(separatedBy: "<pre class=\"log\">").count - 1 == 3)
        #expect(html.contains("<span class=\"hit hit-error\"><span class=\"ln\">15</span>2017-02-11 17:30:30.641 navTest[933:17086] Child1ViewController invoke viewDidDisappear</span>"))
        #expect(html.contains("<span class=\"rel\"><span class=\"ln\">11</span>2017-02-11 17:30:30.635 navTest[933:17086] Child1ViewController dismiss begin<span class=\"note\">← removal</span></span>"))
        #expect(html.contains("<span class=\"hit hit-warning\"><span class=\"ln\">18</span>"))
        #expect(html.contains("<span class=\"hit hit-info\"><span class=\"ln\">18</span>"))
        // Lines 13 and 16–20 of late-dealloc: the skipped lines are marked.
        #expect(html.contains("← removal</span></span><span class=\"gap\">"))
    }

    @Test func excerptsAreEscaped() throws {
        let html = try Self.report(["Fixtures/hostile/html-injection.log", "Fixtures/reporters/hostile.log"])
        #expect(html.contains("<pre class=\"log\">"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        let bad = html.unicodeScalars.filter { s in (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value) }
        #expect(bad.isEmpty)
    }

    /// A finding dot is drawn in its severity's colour (an info is not a red dot).
    @Test func findingDotsHaveTheirSeverityColour() throws {
        let html = try Self.report(["Fixtures/seeds/navtest-missing-dealloc.log", "Fixtures/flows/late-dealloc.log", "Fixtures/flows/memory-warning-ios5.log"])
        for sev in ["error", "warning", "info"] {
            #expect(html.contains("<circle class=\"finding finding-\(sev)\" cx="), "\(sev)")
            #expect(html.contains(".finding-\(sev){fill:\(HTMLPalette.severity(Severity(rawValue: sev)!))}"))
        }
    }

    /// CIE76 colour difference between two `#rrggbb` colours (sRGB, D65).
    static func deltaE(_ a: String, _ b: String) -> Double {
        func lab(_ hex: String) -> (Double, Double, Double) {
            let v = Int(hex.dropFirst(), radix: 16)!
            func lin(_ c: Int) -> Double { let x = Double(c) / 255; return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
            let r = lin(v >> 16 & 255), g = lin(v >> 8 & 255), bl = lin(v & 255)
            let x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047
            let y = 0.2126 * r + 0.7152 * g + 0.0722 * bl
            let z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883
            func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16 / 116 }
            return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
        }
        let (l1, a1, b1) = lab(a), (l2, a2, b2) = lab(b)
        return ((l1 - l2) * (l1 - l2) + (a1 - a2) * (a1 - a2) + (b1 - b2) * (b1 - b2)).squareRoot()
    }

    /// Every pair of lane states, and of severities, is far apart: the old "loaded" and "hidden"
    /// greys (#d9dbe1, #c5c8d0) were 5 apart; a difference under about 10 is hard to tell at a glance.
    @Test func coloursAreClearlyDifferent() {
        #expect(Self.deltaE("#d9dbe1", "#c5c8d0") < 10)
        let states = [HTMLPalette.loaded, HTMLPalette.appearing, HTMLPalette.visible, HTMLPalette.disappearing, HTMLPalette.hidden]
        let severities = [HTMLPalette.error, HTMLPalette.warning, HTMLPalette.info]
        for group in [states, severities] {
            for i in group.indices { for j in group.indices where j > i {
                #expect(Self.deltaE(group[i], group[j]) > 25, "\(group[i]) and \(group[j]) are too close")
            } }
        }
        // The legend names every state the lanes use.
        let html = HTMLReport(inputs: [], leaks: LeakReport(inputs: [], graceSeconds: 3), sections: [.timelines]).render()
        for state in ["loaded", "appearing", "visible", "disappearing", "hidden"] {
            #expect(html.contains("class=\"s-\(state)\""), "\(state)")
        }
    }
}

/// The lines the HTML report shows are the lines the scanner numbered: through gzip, CRLF and
/// classic-Mac line ends.
@Suite struct LineExcerptTests {
    func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-excerpt-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func linesAreNumberedAsTheScannerNumbersThem() throws {
        let text = "one\ntwo\r\nthree\nfour"
        for (name, bytes) in [("plain.log", Array(text.utf8)), ("mac.log", Array(text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r").utf8))] {
            let url = try write(bytes, name)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(LineExcerpts.read(.file(url.path), lines: [2, 4, 9]) == [2: "two", 4: "four"], "\(name)")
        }
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-missing-dealloc.log"), encoding: .utf8)
        let gz = scratchRoot.appendingPathComponent("vclint-excerpt-\(UUID().uuidString).log")
        try source.write(to: gz, atomically: true, encoding: .utf8)
        let zipped = Process()
        zipped.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zipped.arguments = ["gzip", "-f", gz.path]
        try zipped.run()
        zipped.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: gz.path + ".gz") }
        let lines = LineExcerpts.read(.file(gz.path + ".gz"), lines: [15])
        #expect(lines[15]?.hasSuffix("Child1ViewController invoke viewDidDisappear") == true)
        #expect(LineExcerpts.read(.standardInput, lines: [1]).isEmpty)
        #expect(LineExcerpts.read(.file("/nonexistent/x.log"), lines: [1]).isEmpty)
    }

    @Test func longLinesAreCut() throws {
        let url = try write(Array((String(repeating: "x", count: 10_000) + "\nshort\n").utf8), "long.log")
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = LineExcerpts.read(.file(url.path), lines: [1, 2])
        #expect(lines[1]?.count == LineExcerpts.maxLength + 1)
        #expect(lines[2] == "short")
    }
}

/// What an excerpt shows of a line (`LineExcerpts.display`): a structured record as the log reads.
@Suite struct ExcerptDisplayTests {
    func show(_ s: String) -> String { LineExcerpts.display(Array(s.utf8)) }

    @Test func anNDJSONRecordShowsItsTimeProcessAndMessage() {
        let record = #"{"traceID":1,"eventMessage":"PantryViewController viewWillAppear(_:)","machTimestamp":5,"#
            + #""timestamp":"2024-05-01 12:00:01.000+0000","processImagePath":"\/Applications\/Kitchen.app\/Kitchen","processID":812}"#
        #expect(show(record) == "2024-05-01 12:00:01.000+0000 Kitchen[812] PantryViewController viewWillAppear(_:)")
        // The message late in a long record (past the few hundred bytes a line is cut to).
        let padded = #"{"pad":""# + String(repeating: "x", count: 5000) + #"","eventMessage":"B viewDidLoad","process":"Kitchen"}"#
        #expect(show(padded) == "Kitchen B viewDidLoad")
    }

    @Test func aJSONArrayMemberShowsItsMessage() {
        #expect(show(#"  "eventMessage" : "PantryViewController deinit","#) == "PantryViewController deinit")
        #expect(show(#"  "processID" : 812,"#) == #"  "processID" : 812,"#)
    }

    @Test func anyOtherLineIsShownAsItIs() {
        for line in ["2024-05-01 12:00:01.000 Kitchen[812:9] -[A viewDidLoad]", "{not json", "}, {", ""] {
            #expect(show(line) == line)
        }
    }
}
