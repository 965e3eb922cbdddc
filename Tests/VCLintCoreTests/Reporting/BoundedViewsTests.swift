import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// `timeline`, `report`, `leaks` and `inspect` bounded like `lint`: a view's work per session
/// follows that session, per file that file, and what it writes is streamed. Functional checks of
/// the shapes that were quadratic (one process id per line, many files, many findings in one
/// session); the figures are `Benchmarks/memory.sh`'s (docs/performance.md).
@Suite struct BoundedViewsTests {
    /// `n` lines, each from a process id of its own: `n` sessions of one event; one line in four a
    /// memory warning (a finding: its session's `memory_warning`). (A session that ends right after
    /// a will-callback has no finding: the process was killed in the middle of an animation.)
    static func onePIDPerLine(_ n: Int) -> String {
        let callbacks = ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "didReceiveMemoryWarning"]
        var lines: [String] = []
        for i in 0..<n {
            let time = String(format: "10:00:%02d.%03d", (i / 1000) % 60, i % 1000)
            lines.append("2024-03-01 \(time) Shop[\(1000 + i):2] -[HomeViewController \(callbacks[i % 4])]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func finding(line: Int, label: String) -> Finding {
        Finding(rule: "no_lifecycle_events", severity: .error, message: "m", path: "<text>", line: line, time: nil,
                controller: ControllerRef(className: "X", address: nil, instance: label), related: [], fingerprint: "f")
    }

    /// Each session is handed its own findings, placed once for the input: with a session per line,
    /// every finding is in the session of its line and in no other.
    @Test func aSessionPerLineGetsItsOwnFindings() {
        let input = timelineInput(text: Self.onePIDPerLine(400))
        let sessions = input.timeline.sessions
        #expect(sessions.count == 400)
        #expect(input.findings.count > 0)
        var seen = 0
        for s in sessions {
            for k in input.findings(inSession: s.id) {
                #expect(input.findings[k].line == s.firstEvent.line)
                #expect(input.placement(of: k)?.session == s.id)
                seen += 1
            }
        }
        #expect(seen == input.findings.count)
        // The views agree: one finding line per finding, the trace one finding event per finding.
        let text = TimelineTextRenderer(width: 100).render([input])
        #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("  ! line ") }.count == input.findings.count)
        let trace = ChromeTrace().render([input])
        #expect(trace.components(separatedBy: "\"cat\":\"finding\"").count - 1 == input.findings.count)
    }

    /// A finding of no controller of the input goes to the row of the first session (in session
    /// order) whose events span its line, else to the first session: found by one sweep.
    @Test func unlabelledFindingsGoToTheFirstSpanningSession() {
        let log = """
        2024-03-01 10:00:00.000 Shop[1:2] -[HomeViewController viewDidLoad]
        2024-03-01 10:00:00.001 Other[7:2] -[AViewController viewDidLoad]
        2024-03-01 10:00:00.002 Other[7:2] -[AViewController viewWillAppear:]
        2024-03-01 10:00:00.003 Third[9:2] -[BViewController viewDidLoad]
        2024-03-01 10:00:00.004 Shop[1:2] -[HomeViewController viewWillAppear:]
        2024-03-01 10:00:00.005 Third[9:2] -[BViewController viewWillAppear:]
        2024-03-01 10:00:00.006 Other[7:2] -[AViewController viewDidAppear:]
        noise
        """
        let recorded = timelineInput(text: log)
        let sessions = recorded.timeline.sessions
        #expect(sessions.map(\.firstEvent.line) == [1, 2, 4])
        let findings = [Self.finding(line: 3, label: "none"), Self.finding(line: 6, label: "none"), Self.finding(line: 8, label: "none"),
                        Self.finding(line: 4, label: sessions[2].instances[0].controller.instance)]
        let input = TimelineInput(path: "<text>", stats: recorded.stats, findings: findings, timeline: recorded.timeline)
        #expect(input.placement(of: 0) == .init(session: 1, instance: nil))  // lines 1-5 span it, and so do 2-7
        #expect(input.placement(of: 1) == .init(session: 2, instance: nil))  // session 1 ended at line 5
        #expect(input.placement(of: 2) == .init(session: 1, instance: nil))  // spanned by none: the first
        #expect(input.placement(of: 3) == .init(session: 3, instance: sessions[2].instances[0].id))
        #expect(input.findings(inSession: 1) == [0, 2])
        #expect(input.findings(inSession: 2) == [1])
        #expect(input.findings(inSession: 3) == [3])
    }

    /// Many findings in one session: the trace finds each one's stamp by a binary search of its
    /// controller's callbacks (it scanned them per finding).
    @Test func manyFindingsOfOneControllerEachGetTheirStamp() throws {
        var lines = ["-[HomeViewController viewDidLoad]", "-[HomeViewController viewWillAppear:]", "-[HomeViewController viewDidAppear:]"]
        lines += Array(repeating: "-[HomeViewController viewDidAppear:]", count: 300)
        var stamped: [String] = []
        for (k, line) in lines.enumerated() {
            let time = String(format: "10:00:%02d.%03d", k / 1000, k % 1000)
            stamped.append("2024-03-01 \(time) Shop[1:2] \(line)")
        }
        let log = stamped.joined(separator: "\n")
        let input = timelineInput(text: log)
        #expect(input.findings.count == 300)
        let trace = try #require(try JSONSerialization.jsonObject(with: Data(ChromeTrace().render([input]).utf8)) as? [String: Any])
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let marks = events.filter { $0["cat"] as? String == "finding" }
        #expect(marks.count == 300)
        // Line k + 1 is at k milliseconds from the first: each finding on its own line's time.
        for m in marks {
            let line = try #require((m["args"] as? [String: Any])?["line"] as? Int)
            #expect(m["ts"] as? Int == (line - 1) * 1000)
        }
    }

    /// The page lists at most `listedFindings` findings, says how many more there are, and marks on
    /// the lanes only those it lists (every dot links to a row).
    @Test func thePageCapsItsFindingsWithAMoreLine() {
        let input = timelineInput(text: Self.onePIDPerLine(40))
        let total = input.findings.count
        #expect(total > 5)
        var page = HTMLReport(inputs: [input], leaks: LeakReport(inputs: [input], graceSeconds: 3))
        page.listedFindings = 5
        let html = page.render()
        #expect(html.components(separatedBy: "<tr id=\"finding-").count - 1 == 5)
        #expect(html.contains("\(total - 5) more findings not listed here</strong>: the page lists the 5 most severe"))
        let links = html.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(links.count == 5)
        for id in links { #expect(html.contains("<tr id=\"\(id)\">"), "\(id)") }
        #expect(html.hasSuffix("</body>\n</html>\n"))
        // Under the cap, no such line.
        page.listedFindings = total
        #expect(!page.render().contains("not listed here"))
    }

    /// The page draws at most `drawnSessions` sessions, or `timelineBytes` of drawing, in input
    /// order, and says how many more there are; headings of inputs past the cap are not written.
    @Test func thePageCapsItsTimelinesWithAMoreLine() {
        let few = timelineInput(text: Self.onePIDPerLine(3), path: "few.log")
        let more = timelineInput(text: Self.onePIDPerLine(4), path: "more.log")
        var page = HTMLReport(inputs: [few, more], leaks: LeakReport(inputs: [few, more], graceSeconds: 3))
        func drawn(_ html: String) -> Int { html.components(separatedBy: "<svg class=\"lanes\"").count - 1 }
        let whole = page.render()
        #expect(drawn(whole) == 7 && !whole.contains("not drawn here"))
        for cap in [1, 3, 5] {
            page.drawnSessions = cap
            for batch in [1, 2, 512] {
                page.batch = batch
                let html = page.render()
                #expect(drawn(html) == cap, "cap \(cap), batch \(batch)")
                #expect(html.contains("\(7 - cap) more session\(7 - cap == 1 ? "" : "s") not drawn here</strong>: the page draws the first \(cap);"))
                #expect(html.contains("<h3>more.log</h3>") == (cap > 3), "cap \(cap)")
                #expect(html.hasSuffix("</body>\n</html>\n"))
            }
        }
        // The byte cap: the session that passes it is the last one drawn.
        page.drawnSessions = HTMLReport.maxDrawnSessions
        page.timelineBytes = 1
        let one = page.render()
        #expect(drawn(one) == 1)
        #expect(one.contains("6 more sessions not drawn here</strong>: the page draws the first 1 (its drawing is capped at 0 MB);"))
    }

    /// Every format of every view streams through the writer: written to a file, a buffer at a time,
    /// it gives the bytes it renders in memory.
    @Test func streamedViewsAreTheRenderedOnes() throws {
        let options = ViewGoldenTests.options(inspect: true)
        let file = try lintFixture("Fixtures/flows/leak-pop.log", options: options)
        let inputs = TimelineInput.from(LintResult(files: [file]))
        let leaks = LeakReport(inputs: inputs, graceSeconds: 3)
        let inspections = [try #require(file.inspection)]
        var writers: [(String, ReportWriting, String)] = []
        for e in ViewFormats.timeline.entries {
            let f = e.make(TimelineDrawing())
            writers.append(("timeline \(e.identifier)", f.writer(for: inputs), f.render(inputs)))
        }
        for e in ViewFormats.leaks.entries {
            let f = e.make(RunConfiguration(options: options))
            writers.append(("leaks \(e.identifier)", f.writer(for: leaks), f.render(leaks)))
        }
        for e in ViewFormats.inspect.entries {
            let f = e.make(())
            writers.append(("inspect \(e.identifier)", f.writer(for: inspections), f.render(inspections)))
        }
        for (name, write, rendered) in writers {
            let url = scratchRoot.appendingPathComponent("vclint-view-\(UUID().uuidString)")
            let fd = open(url.path, O_RDWR | O_CREAT | O_EXCL, 0o600)
            try #require(fd >= 0)
            defer { close(fd); try? FileManager.default.removeItem(at: url) }
            let out = ReportWriter(descriptor: fd)
            try write(out)
            try out.flush()
            #expect(try Data(contentsOf: url) == Data(rendered.utf8), "\(name)")
            #expect(rendered.hasSuffix("\n"), "\(name)")
        }
    }

    /// An unjudged class in every one of many files: each path listed once (a set, not a scan of
    /// the list per file), a path given twice still once.
    @Test func anUnjudgedClassInManyFilesListsEachPathOnce() throws {
        let base = try timelineInput("Fixtures/flows/tab-switch.log")
        var inputs: [TimelineInput] = []
        for i in 0..<2_000 {
            var copy = base
            copy.path = "capture-\(i).log"
            inputs.append(copy)
        }
        inputs.append(inputs[0])
        let r = LeakReport(inputs: inputs, graceSeconds: 3)
        #expect(r.unjudged.map(\.className) == ["AccountViewController", "HomeViewController", "SearchViewController"])
        for u in r.unjudged {
            #expect(u.paths.count == 2_000)
            #expect(Set(u.paths).count == 2_000)
        }
    }

    /// `leaks` and `inspect` record no lanes: the same leak report and inspection, from a recording
    /// that keeps per class a tally of its instances (`ClassTallies`) and no lane, interval, transition or warning.
    @Test(arguments: allFixtureLogs()) func withoutLanesLeaksAndInspectionAreTheSame(_ fixture: String) throws {
        let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
        try Self.expectSameWithoutLanes(bytes, fixture)
    }

    /// The same over simulated apps of every family (objects, dealloc logged or not, faults, two sessions) and
    /// simulated Android captures (with and without LeakCanary).
    @Test(arguments: NavigationSimulator.Family.allCases)
    func withoutLanesSimulatedAppsAreTheSame(_ family: NavigationSimulator.Family) throws {
        for seed in UInt64(1)...6 {
            try Self.expectSameWithoutLanes(Array(variedSimulatedApp(family, seed: seed, steps: 200).utf8), "\(family) seed \(seed)")
        }
    }

    @Test(arguments: AndroidSimulator.Format.allCases)
    func withoutLanesSimulatedAndroidIsTheSame(_ format: AndroidSimulator.Format) throws {
        for seed in UInt64(1)...3 {
            var o = AndroidSimulator.Options(seed: seed)
            o.format = format
            o.leakCanary = seed != 2
            o.fault = seed == 3 ? .callbackAfterDestroy : nil
            try Self.expectSameWithoutLanes(Array(AndroidSimulator.generate(o).text.utf8), "\(format) seed \(seed)")
        }
    }

    /// Sheets of distinct classes closed and never deallocated, one of them named again later: without lanes the
    /// session folds them (`foldIdleClasses`), and what `leaks` and `inspect` show is still the lanes' picture.
    @Test(arguments: [false, true]) func withoutLanesFoldedClassesAreTheSame(deallocLogged: Bool) throws {
        let then = ["-[Sheet3ViewController viewDidLoad]", "-[Sheet5ViewController dealloc]", "<ItemViewModel: 0x7001> init",
                    "-[Sheet3ViewController viewWillAppear:]", "-[HomeViewController viewWillDisappear:]"]
        try Self.expectSameWithoutLanes(Array(FoldingTests.sheets(300, deallocLogged: deallocLogged, then: then).utf8), "sheets")
    }

    /// The same across sessions: a relaunch ends the first session while its leaks wait for a dealloc of the dialect,
    /// which the second logs. The leaks of folded and live controllers come in the order of their serials.
    @Test func withoutLanesFoldedClassesOfAnEndedSessionAreTheSame() throws {
        var text = FoldingTests.sheets(300, deallocLogged: false)
        for (k, m) in ["-[HomeViewController viewDidLoad]", "-[SplashViewController dealloc]"].enumerated() {
            text += "2024-03-01 10:09:00.\(String(format: "%03d", k)) Shop[101:200] \(m)\n"
        }
        try Self.expectSameWithoutLanes(Array(text.utf8), "two sessions")
    }

    /// The leak report and the inspection of `bytes` with lanes, and without them (folding at its usual floor, and
    /// before every event), are the same; without lanes nothing is kept per instance.
    static func expectSameWithoutLanes(_ bytes: [UInt8], _ name: String) throws {
        var full = LintOptions()
        full.inspect = true
        full.timeline.recordTimeline = true
        let a = Linter(options: full).lint(bytes: bytes, path: "app.log")
        let ia = TimelineInput.from(LintResult(files: [a]))
        let ta = try #require(a.timeline), ia0 = try #require(a.inspection)
        for foldAlways in [false, true] {
            var bare = full
            bare.timeline.recordLanes = false
            if foldAlways {
                bare.timeline.classFoldFloor = 1
                bare.timeline.foldBeforeEveryEvent = true
            }
            let b = Linter(options: bare).lint(bytes: bytes, path: "app.log")
            let ib = TimelineInput.from(LintResult(files: [b]))
            let what = "\(name)\(foldAlways ? ", folding before every event" : "")"
            #expect(LeakJSON().render(LeakReport(inputs: ib, graceSeconds: 3)) == LeakJSON().render(LeakReport(inputs: ia, graceSeconds: 3)), "\(what)")
            #expect(LeakText().render(LeakReport(inputs: ib, graceSeconds: 3)) == LeakText().render(LeakReport(inputs: ia, graceSeconds: 3)), "\(what)")
            // What the inspection takes from the recording: its sessions and classes.
            let ib0 = try #require(b.inspection)
            #expect("\(ib0.sessions)" == "\(ia0.sessions)", "\(what)")
            #expect("\(Array(ib0.classes))" == "\(Array(ia0.classes))", "\(what)")
            #expect(b.findings.map(\.message) == a.findings.map(\.message), "\(what)")
            let tb = try #require(b.timeline)
            #expect("\(tb.unjudgedClasses)" == "\(ta.unjudgedClasses)", "\(what)")
            // Each leak in its session (a folded controller's leak is written after the live ones': the same set).
            #expect(tb.leaks.map { "\($0.controller.instance) \($0.session)" }.sorted() == ta.leaks.map { "\($0.controller.instance) \($0.session)" }.sorted(),
                    "\(what)")
            // No lane is kept: the sessions alone, their instances counted per class.
            let compact = try #require(tb.sessions.compact)
            #expect(compact.lanes.isEmpty && compact.callbacks.isEmpty && compact.intervals.isEmpty && compact.transitions.isEmpty, "\(what)")
            for s in tb.sessions { #expect(s.instances.isEmpty && s.warnings.isEmpty) }
        }
    }
}

/// The views draw a session a lane at a time from the recorder's store (`SessionPieces`): what they write is what
/// they write from the same sessions built whole, in every format, window and axis.
@Suite struct PiecewiseViewsTests {
    /// `input` with its sessions built whole (a list of `RecordedSession` values, read as such).
    static func whole(_ input: TimelineInput) -> TimelineInput {
        var t = input.timeline
        t.sessions = RecordedSessions(Array(input.timeline.sessions))
        var copy = TimelineInput(path: input.path, stats: input.stats, findings: input.findings, timeline: t)
        copy.baselined = input.baselined
        return copy
    }

    static func expectSame(_ input: TimelineInput, _ name: String) {
        let built = whole(input)
        #expect(built.timeline.sessions.compact == nil)
        let window = TimelineWindow(from: .line(5), to: .line(40))
        let renderers: [(String, ([TimelineInput]) -> String)] = [
            ("text", { TimelineTextRenderer(width: 100).render($0) }),
            ("text, time axis, colored", { TimelineTextRenderer(width: 160, color: true, axis: .time).render($0) }),
            ("text, lines 5-40", { TimelineTextRenderer(width: 70, window: window).render($0) }),
            ("json", { TimelineJSON().render($0) }),
            ("chrome-trace", { ChromeTrace().render($0) }),
            ("html", { HTMLReport(inputs: $0, leaks: LeakReport(inputs: $0, graceSeconds: 3)).render() }),
        ]
        for (format, render) in renderers {
            #expect(render([input]) == render([built]), "\(name): \(format)")
        }
    }

    @Test(arguments: allFixtureLogs()) func fixturesAreDrawnAlike(_ fixture: String) throws {
        Self.expectSame(try timelineInput(fixture), fixture)
    }

    @Test(arguments: NavigationSimulator.Family.allCases) func simulatedAppsAreDrawnAlike(_ family: NavigationSimulator.Family) {
        for seed in UInt64(1)...3 {
            Self.expectSame(timelineInput(text: variedSimulatedApp(family, seed: seed, steps: 150)), "\(family) seed \(seed)")
        }
    }

    @Test func simulatedAndroidIsDrawnAlike() {
        for format in AndroidSimulator.Format.allCases {
            var o = AndroidSimulator.Options(seed: 2)
            o.format = format
            o.leakCanary = true
            Self.expectSame(timelineInput(text: AndroidSimulator.generate(o).text), "\(format)")
        }
    }

    /// A recorder's session lists its events as 4-byte indices into the input's stamps, in order.
    @Test func aSessionsEventsAreIndices() throws {
        let input = try timelineInput("Fixtures/seeds/navtest-seed000.log")
        let compact = try #require(input.timeline.sessions.compact)
        let pieces = input.timeline.sessions.pieces(at: 0)
        let events = pieces.events()
        let built = SessionEvents(session: input.timeline.sessions[0])
        #expect(events.count == built.count && events.count > 0)
        for k in 0..<events.count { #expect(events[k] == built[k]) }
        #expect(compact.sessionCount == input.timeline.sessions.count)
        // Every instance is found by its id.
        for k in 0..<pieces.instanceCount { #expect(pieces.position(ofInstance: pieces.instanceID(k)) == k) }
        #expect(pieces.position(ofInstance: -1) == nil)
    }

    /// A session that no other interleaves keeps its events as one run of stamps, not an index each; two
    /// processes' sessions that interleave keep their indices. Either reads as the session built whole: in
    /// order, by order, and filtered.
    @Test func aSessionsEventsAreOneRunWhenNothingInterleaves() throws {
        var text = ""
        for (k, cb) in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"].enumerated() {
            text += "2024-03-01 22:13:2\(k).000 Shop[100:200] -[HomeViewController \(cb)]\n"
            text += "2024-03-01 22:13:2\(k).500 Other[300:400] -[ListViewController \(cb)]\n"
        }
        for (capture, runs) in [(rootOnScreen, true), (text, false)] {
            let input = timelineInput(text: capture)
            for k in 0..<input.timeline.sessions.count {
                let events = input.timeline.sessions.pieces(at: k).events()
                let built = SessionEvents(session: input.timeline.sessions[k])
                #expect(events.isRun == runs)
                #expect(events.count == built.count && events.count > 0)
                for e in 0..<events.count {
                    #expect(events[e] == built[e] && events.line(e) == built.line(e) && events.order(e) == built.order(e))
                    #expect(events.position(ofOrder: built.order(e)) == built.position(ofOrder: built.order(e)))
                }
                #expect(events.position(ofOrder: 0) == nil && events.position(ofOrder: Int.max) == nil)
                let odd = events.filter { $0.line % 2 == 1 }, oddBuilt = built.filter { $0.line % 2 == 1 }
                #expect(odd.count == oddBuilt.count && (0..<odd.count).allSatisfy { odd[$0] == oddBuilt[$0] })
            }
        }
    }

    /// The page draws a session's lanes and transitions up to `sessionBytes` of drawing, counts the rest and
    /// says so; `vclint timeline` draws every one.
    @Test func thePageCapsOneSessionsDrawing() {
        var text = rootOnScreen
        for k in 0..<60 {
            let t = String(format: "22:13:%02d.%03d", 21 + k / 100, k % 100 * 10)
            text += "2024-03-01 \(t) Shop[100:200] <DetailViewController: 0x6000000\(String(k, radix: 16))0> viewDidLoad\n"
            text += "2024-03-01 \(t) Shop[100:200] <DetailViewController: 0x6000000\(String(k, radix: 16))0> dealloc\n"
        }
        let input = timelineInput(text: text, path: "many.log")
        var page = HTMLReport(inputs: [input], leaks: LeakReport(inputs: [input], graceSeconds: 3))
        func lanes(_ html: String) -> Int { html.components(separatedBy: "<line class=\"grid\"").count - 1 }
        let whole = page.render()
        #expect(lanes(whole) == 61)
        #expect(!whole.contains("of this session not drawn here"))
        page.sessionBytes = 4_000
        let cut = page.render()
        let drawn = lanes(cut)
        #expect(drawn > 0 && drawn < 61)
        #expect(cut.contains("<strong>\(61 - drawn) more lanes of this session not drawn here</strong>: the page draws each session up to 0 MB;"))
        #expect(cut.contains("height=\"\(22 + drawn * 20 + 22)\""))
        #expect(cut.hasSuffix("</body>\n</html>\n"))
    }

    /// The page's leak tables stop at `listedLeakRows` rows each and say how many more there are; `vclint leaks`
    /// lists every one. One capture has 30 classes whose dealloc is not logged, the other 14 confirmed leaks (and one
    /// more that the capture's end leaves within its grace).
    @Test func thePageCapsItsLeakTables() {
        var unjudged = rootOnScreen
        for k in 0..<30 {
            let t = String(format: "22:13:%02d.000", 21 + k)
            unjudged += "2024-03-01 \(t) Shop[100:200] <Sheet\(k)ViewController: 0x6000000\(String(k, radix: 16))0> viewDidLoad\n"
        }
        var leaks = rootOnScreen
        for k in 0..<16 {
            let detail = "<DetailViewController: 0x6000000\(String(k, radix: 16))0>"
            let t = String(format: "22:%02d:%02d", 14 + k / 6, k % 6 * 10)
            for (n, what) in (pushedAndPopped(detail) + ["<HomeViewController: 0x100> viewDidAppear:"]).enumerated() {
                leaks += "2024-03-01 \(t).00\(n) Shop[100:200] \(what)\n"
            }
            // The first one is deallocated: the class logs its dealloc, and the others leak.
            if k == 0 { leaks += "2024-03-01 \(t).009 Shop[100:200] \(detail) dealloc\n" }
        }
        let inputs = [timelineInput(text: unjudged, path: "unjudged.log"), timelineInput(text: leaks, path: "leaks.log")]
        let report = LeakReport(inputs: inputs, graceSeconds: 3)
        #expect(report.confirmedCount == 14 && report.unconfirmed.count == 1 && report.unjudged.count >= 30)
        var page = HTMLReport(inputs: inputs, leaks: report)
        let whole = page.render()
        #expect(!whole.contains("not listed here"))
        page.listedLeakRows = 10
        let cut = page.render()
        let leaksSection = cut.components(separatedBy: "<h2 id=\"leaks\">")[1]
        #expect(leaksSection.contains("<strong>4 more leaks not listed here</strong>: the page lists the first 10 of each table; "
                                      + "<code>vclint leaks PATH</code> lists every one."))
        #expect(leaksSection.contains("<strong>\(report.unjudged.count - 10) more classes not listed here</strong>"))
        // 10 confirmed leaks and the unconfirmed one; 10 classes.
        #expect(leaksSection.components(separatedBy: "<td><ul>").count - 1 == 10 + 1)
        let unjudgedTable = leaksSection.components(separatedBy: "<h3>Classes whose dealloc")[1].components(separatedBy: "</table>")[0]
        #expect(unjudgedTable.components(separatedBy: "<tr><td>").count - 1 == 10)
        // `vclint leaks --format html` lists them all.
        let full = ReportWriter()
        try? LeakHTML().write(report, to: full)
        #expect(!full.text.contains("not listed here") && full.text.contains("Sheet29ViewController"))
    }

    /// One lane begun under half the budget is drawn up to the whole of it: a controller alive through a long run
    /// (here 300 pushes and pops over it) has states enough to pass any budget on its own. What it did not draw is
    /// counted, its states and its findings' marks, and the lanes after it are not begun.
    @Test func thePageCapsOneLanesDrawing() {
        var text = rootOnScreen
        var second = 21
        func line(_ what: String) {
            text += "2024-03-01 22:\(String(format: "%02d:%02d", second / 60 % 60, second % 60)).000 Shop[100:200] \(what)\n"
            second += 1
        }
        for k in 0..<300 {
            let detail = "<DetailViewController: 0x6000000\(String(k, radix: 16))0>"
            for what in pushedAndPopped(detail) { line(what) }
            // Every tenth appearance of the root misses its did-callback: a finding on its lane each time.
            if k % 10 != 0 { line("<HomeViewController: 0x100> viewDidAppear:") }
            line("\(detail) dealloc")
        }
        let input = timelineInput(text: text, path: "long.log")
        var page = HTMLReport(inputs: [input], leaks: LeakReport(inputs: [input], graceSeconds: 3))
        func count(_ html: String, _ s: String) -> Int { html.components(separatedBy: s).count - 1 }
        let whole = page.render()
        #expect(count(whole, "<line class=\"grid\"") == 301)
        #expect(!whole.contains("of this session not drawn here"))
        // The root's lane: from the first grid line to the second.
        let root = whole.components(separatedBy: "<line class=\"grid\"")[1]
        let states = count(root, "<rect class=\"s-"), marks = count(root, "<circle class=\"finding")
        #expect(states > 900 && marks == 30, "\(states) states, \(marks) marks")
        page.sessionBytes = 20_000
        let cut = page.render()
        // The root's lane, begun first, stops at the budget: the lanes after it are not begun.
        #expect(count(cut, "<line class=\"grid\"") == 1)
        let cutRoot = cut.components(separatedBy: "<line class=\"grid\"")[1].components(separatedBy: "</svg>")[0]
        let drawnStates = count(cutRoot, "<rect class=\"s-")
        #expect(drawnStates > 0 && drawnStates < states)
        let drawnMarks = count(cutRoot, "<circle class=\"finding")
        #expect(cut.contains("<strong>300 more lanes, \(states - drawnStates) more states, \(marks - drawnMarks) more finding marks and "))
        #expect(cut.contains(" of this session not drawn here</strong>: the page draws each session up to 0 MB;"))
        #expect(cut.utf8.count < whole.utf8.count / 4)
        #expect(cut.hasSuffix("</body>\n</html>\n"))
    }
}

/// Reports read back are bounded like the baseline: `merge /dev/zero` fails at once, exit 2.
@Suite struct BoundedReportReadTests {
    @Test func mergeRefusesAnEndlessReport() throws {
        let r = try CLITests().run(["merge", "/dev/zero"])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: /dev/zero: more than 256 MiB, which no vclint JSON report is; refused unparsed\n")
    }

    @Test func aLargeRegularFileIsRefusedUnread() throws {
        let big = scratchRoot.appendingPathComponent("vclint-big-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: big) }
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(LoadedReport.maxBytes) + 1)  // sparse: nothing is written
        try handle.close()
        let e = #expect(throws: ReportReadError.self) { _ = try LoadedReport.read(path: big.path) }
        #expect(e?.description == "\(big.path): more than 256 MiB, which no vclint JSON report is; refused unparsed")
        let leaks = #expect(throws: ReportReadError.self) { _ = try LeakReport.read(path: big.path) }
        #expect(leaks?.description == "\(big.path): more than 256 MiB, which no vclint leak report is; refused unparsed")
    }
}

/// A configuration costs what its bytes say: aliases are capped in expanded bytes as well as
/// nodes, and each distinct pattern text is compiled once.
@Suite(.serialized) struct BoundedConfigTests {
    /// A 20 KB pattern (valid PCRE2, slow to compile).
    static let bigPattern: String = {
        var p = "^(?<class>[A-Z]\\w*) (?<event>load|appear)"
        var i = 0
        while p.utf8.count < 20_000 {
            p += "(?:x\(i))?"
            i += 1
        }
        return p
    }()

    static func aliased(_ n: Int) -> String {
        var yaml = "dialects:\n  - {pattern: &p '\(bigPattern)', events: &e {load: viewDidLoad}}\n"
        for _ in 1..<n { yaml += "  - {pattern: *p, events: *e}\n" }
        return yaml
    }

    /// 1,000 aliases of a 20 KB pattern (a 50 KB file, 20 MB expanded): refused before Yams
    /// expands anything, in a moment, with the reason.
    @Test func aliasesOfALargePatternAreRefusedByBytes() {
        let start = Date()
        let e: String?
        do { _ = try Configuration.parse(Self.aliased(1_000), path: ".vclint.yml"); e = nil } catch { e = error.description }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(e?.hasPrefix(".vclint.yml: refused: YAML aliases expand to more than 4 MiB of text") == true, "\(e ?? "accepted")")
    }

    /// Under the cap, the aliases are one dialect, compiled once.
    @Test func aliasesUnderTheCapAreOneDialect() throws {
        let c = try Configuration.parse(Self.aliased(150), path: ".vclint.yml")
        #expect(c.dialects.count == 1)
        let lists = try Configuration.parse("ignore_classes: [&p '^Debug', *p, *p, '^UI']\n", path: ".vclint.yml")
        #expect(lists.ignoreClasses == ["^Debug", "^UI"])
    }

    /// The cache: one compilation per distinct text (and limits) while a configuration is read.
    @Test func eachDistinctPatternIsCompiledOnce() throws {
        let cache = PatternCache()
        try PatternCache.$current.withValue(cache) {
            let a = try PatternCache.pattern(Self.bigPattern, matchLimit: 10, depthLimit: 10)
            for _ in 0..<50 { #expect(try PatternCache.pattern(Self.bigPattern, matchLimit: 10, depthLimit: 10) === a) }
            _ = try CustomDialect(pattern: "^(?<class>\\w+) (?<event>\\w+)$", events: ["load": "viewDidLoad"])
            _ = try CustomDialect(pattern: "^(?<class>\\w+) (?<event>\\w+)$", events: ["show": "viewDidAppear"])
        }
        // The big pattern, the dialects' shared pattern, and each dialect's literal prefilter (load, show).
        #expect(cache.compilations == 4)
    }
}

/// A long session keeps its lanes, not its dead instances: the recording moves a deallocated instance's lists into
/// the flat lists at once and lets the instance go once nothing else holds it (`TimelineRecorder.retire`,
/// `releaseUnheld`). Every view is the same as when every instance is held to its session's end.
@Suite struct RetiredLanesTests {
    static func input(_ bytes: [UInt8], path: String, retires: Bool) -> TimelineInput {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.retiresDeadLanes = retires
        return TimelineInput.from(LintResult(files: [Linter(options: options).lint(bytes: bytes, path: path)]))[0]
    }

    static func expectSame(_ text: String, _ name: String) { expectSame(Array(text.utf8), name) }

    /// `everyFormat`: the text at three widths and windows, JSON, the trace and the page; else the JSON timeline
    /// (every lane's callbacks, intervals, removal and owner) and the leak report.
    static func expectSame(_ bytes: [UInt8], _ name: String, everyFormat: Bool = true) {
        let retired = input(bytes, path: name, retires: true), held = input(bytes, path: name, retires: false)
        let window = TimelineWindow(from: .line(5), to: .line(40))
        var renderers: [(String, ([TimelineInput]) -> String)] = [
            ("json", { TimelineJSON().render($0) }),
            ("leaks", { LeakJSON().render(LeakReport(inputs: $0, graceSeconds: 3)) }),
        ]
        if everyFormat {
            renderers += [
                ("text", { TimelineTextRenderer(width: 100).render($0) }),
                ("text, time axis, colored", { TimelineTextRenderer(width: 160, color: true, axis: .time).render($0) }),
                ("text, lines 5-40", { TimelineTextRenderer(width: 70, window: window).render($0) }),
                ("chrome-trace", { ChromeTrace().render($0) }),
                ("html", { HTMLReport(inputs: $0, leaks: LeakReport(inputs: $0, graceSeconds: 3)).render() }),
            ]
        }
        for (format, render) in renderers {
            #expect(render([retired]) == render([held]), "\(name): \(format)")
        }
    }

    @Test(arguments: allFixtureLogs()) func fixturesAreDrawnAlike(_ fixture: String) throws {
        Self.expectSame([UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture))), fixture)
    }

    @Test(arguments: NavigationSimulator.Family.allCases) func simulatedAppsAreDrawnAlike(_ family: NavigationSimulator.Family) {
        for seed in UInt64(1)...3 { Self.expectSame(variedSimulatedApp(family, seed: seed, steps: 150), "\(family) seed \(seed)") }
    }

    @Test func simulatedAndroidIsDrawnAlike() {
        var o = AndroidSimulator.Options(seed: 3)
        o.leakCanary = true
        Self.expectSame(AndroidSimulator.generate(o).text, "android")
    }

    /// More dead controllers than the state machine remembers by address (4,096), each with a view model it owns;
    /// some get a callback after their dealloc (their lists come back), some are popped and never deallocated, and
    /// a transition settles after its member's dealloc.
    @Test func deadControllersPastTheAddressMemoryAreDrawnAlike() {
        var text = rootOnScreen
        var ms = 3
        func line(_ s: String) {
            text += String(format: "2024-03-01 22:%02d:%02d.%03d Shop[100:200] ", 13 + ms / 60_000, ms / 1000 % 60, ms % 1000) + s + "\n"
            ms += 1
        }
        for k in 0..<4_300 {
            let a = String(0x6000_0000_0000 + 16 * k, radix: 16)
            let detail = "<DetailViewController: 0x\(a)>"
            line("\(detail) viewDidLoad")
            line("<DetailViewModel: 0x\(String(0x7000_0000_0000 + 16 * k, radix: 16))> init")
            line("<HomeViewController: 0x100> viewWillDisappear:")
            line("\(detail) viewWillAppear:")
            line("<HomeViewController: 0x100> viewDidDisappear:")
            line("\(detail) viewDidAppear:")
            line("\(detail) viewWillDisappear:")
            line("<HomeViewController: 0x100> viewWillAppear:")
            if k % 11 == 3 { line("\(detail) dealloc") }  // before its transition is over
            line("\(detail) viewDidDisappear:")
            line("<HomeViewController: 0x100> viewDidAppear:")
            if k % 13 != 5 && k % 11 != 3 { line("\(detail) dealloc") }
            if k % 3 == 0 { line("<DetailViewModel: 0x\(String(0x7000_0000_0000 + 16 * k, radix: 16))> deinit") }
            // A callback after its dealloc: its lists come back into its log.
            if k % 17 == 2 { line("\(detail) viewWillLayoutSubviews") }
            if k % 170 == 2 { line("<DetailViewController: 0x\(String(0x6000_0000_0000 + 16 * (k / 2), radix: 16))> viewDidLayoutSubviews") }
        }
        Self.expectSame(Array(text.utf8), "dead.log", everyFormat: false)
        // Every lane is there, one per controller and object.
        let input = Self.input(Array(text.utf8), path: "dead.log", retires: true)
        #expect(input.timeline.sessions.count == 1)
        #expect(input.timeline.sessions.pieces(at: 0).instanceCount == 1 + 2 * 4_300)
    }
}

/// The first lines of the synthetic captures above: the root controller loads and appears (22:13:20.000–.002).
private let rootOnScreen = """
    2024-03-01 22:13:20.000 Shop[100:200] -[HomeViewController viewDidLoad]
    2024-03-01 22:13:20.001 Shop[100:200] -[HomeViewController viewWillAppear:]
    2024-03-01 22:13:20.002 Shop[100:200] -[HomeViewController viewDidAppear:]

    """

/// `detail` pushed over the root of `rootOnScreen` and popped, up to the root's viewWillAppear and its own
/// viewDidDisappear (the root's viewDidAppear and the detail's dealloc are the caller's).
private func pushedAndPopped(_ detail: String) -> [String] {
    [detail + " viewDidLoad", "<HomeViewController: 0x100> viewWillDisappear:", detail + " viewWillAppear:",
     "<HomeViewController: 0x100> viewDidDisappear:", detail + " viewDidAppear:", detail + " viewWillDisappear:",
     "<HomeViewController: 0x100> viewWillAppear:", detail + " viewDidDisappear:"]
}
