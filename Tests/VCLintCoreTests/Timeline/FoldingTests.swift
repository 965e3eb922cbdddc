import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// Memory follows what is alive (docs/performance.md#memory): a session of many distinct classes, each
/// with one removed controller waiting for a dealloc, folds those classes away and unfolds one, exactly as
/// it was, at the next line that names it. Folding must not change a single finding: every capture is
/// linted folding as soon as a session holds two classes, and never.
@Suite struct FoldingTests {
    /// `foldFloor` 0: folding before every event.
    static func findings(_ bytes: [UInt8], path: String = "x.log", foldFloor: Int, base: LintOptions = LintOptions()) -> [String] {
        var options = base
        options.timeline.classFoldFloor = max(1, foldFloor)
        options.timeline.foldBeforeEveryEvent = foldFloor == 0
        let result = Linter(options: options).lint(bytes: bytes, path: path)
        return result.findings.map {
            "\($0.line) \($0.rule) \($0.severity.rawValue) \($0.controller.instance): \($0.message) "
                + "\($0.related.map { "\($0.line) \($0.note)" }) \($0.transition?.rawValue ?? "-") \($0.owner?.instance ?? "-") \($0.fingerprint)"
        }
    }

    static func findings(_ text: String, foldFloor: Int) -> [String] { findings(Array(text.utf8), foldFloor: foldFloor) }

    /// `n` sheets of distinct classes over a visible root, each closed and never deallocated, then `then`.
    static func sheets(_ n: Int, deallocLogged: Bool, then: [String] = []) -> String {
        var out = ""
        var ms = 0
        func line(_ m: String) {
            ms += 7
            out += "2024-03-01 10:\(String(format: "%02d:%02d.%03d", ms / 60000 % 60, ms / 1000 % 60, ms % 1000)) Shop[100:200] \(m)\n"
        }
        for cb in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:"] { line("-[HomeViewController \(cb)]") }
        if deallocLogged { line("-[SplashViewController dealloc]") }
        for k in 0..<n {
            for cb in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"] {
                line("-[Sheet\(k)ViewController \(cb)]")
            }
        }
        ms += 5000
        for m in then { line(m) }
        return out
    }

    @Test(arguments: [false, true])
    func foldedSheetsAreTheSheetsThatStayed(deallocLogged: Bool) {
        let text = Self.sheets(300, deallocLogged: deallocLogged, then: [
            "-[Sheet3ViewController dealloc]",                                  // late: a late_dealloc
            "-[Sheet5ViewController viewWillAppear:]",                          // shown again: not removed
            "-[Sheet5ViewController viewDidAppear:]",
            "-[Sheet7ViewController viewDidLoad]",                              // its view loaded again
            "-[Sheet9ViewController viewWillDisappear:]",                       // a will in the state it was left in
            "<Sheet11ViewModel: 0x6000> init",                                  // an object of a folded owner's stem
            "-[Sheet13ViewController dismissViewControllerAnimated:completion:] dismiss end",
        ])
        let folding = Self.findings(text, foldFloor: 2)
        #expect(folding == Self.findings(text, foldFloor: .max))
        #expect(Self.findings(text, foldFloor: 0) == folding)
        // The late dealloc instruments the dialect's dealloc either way.
        #expect(folding.contains { $0.contains("late_dealloc") && $0.contains("Sheet3ViewController#1:") })
        #expect(!folding.contains { $0.contains("leaked_controller") && $0.contains("Sheet5ViewController#1:") })
        #expect(folding.filter { $0.contains(" leaked_controller ") }.count >= 290)
    }

    /// A builder that has read `text` (its sessions still open), and its scanner.
    static func scanning(_ text: String, _ options: TimelineOptions) -> (TimelineBuilder, LogScanner<EventStage>) {
        let builder = TimelineBuilder(options: options)
        let scanner = LogScanner(sink: EventStage(builder: builder, customDialects: []))
        Array(text.utf8).withUnsafeBytes { scanner.consume($0) }
        return (builder, scanner)
    }

    /// The session keeps a bounded number of classes however many it has seen.
    @Test func aSessionOfManyClassesKeepsFew() throws {
        var options = TimelineOptions()
        options.classFoldFloor = 64
        let (builder, scanner) = Self.scanning(Self.sheets(2_000, deallocLogged: true), options)
        let session = try #require(builder.openSessions.first)
        #expect(session.identity.classes.count <= 128)
        #expect(session.identity.foldedCount >= 2_000 - 128)
        #expect(session.identity.foldedEntries.count <= 2 * session.identity.foldedCount + 64)
        // Nothing else holds the folded classes: they give up their entries for dormant rows.
        let dormant = session.instrumentation.dormant.count
        #expect(dormant >= 2_000 - 128 && session.identity.foldedRows.count == dormant)
        // A folded class comes back by its name, as it was, its entry made again.
        let back = try #require(session.existingClass("Sheet17ViewController"))
        #expect(back.live.count == 1 && back.live[0].label == "Sheet17ViewController#1" && back.live[0].removal?.kind == .closed)
        #expect(session.instrumentation.dormant.count == dormant - 1)
        #expect(back.entry.number == 19 && back.entry.kinds.contains(.viewDidDisappear) && !back.entry.kinds.contains(.dealloc))
        _ = scanner.finish()
    }

    /// A class one process folded away and made dormant, named by another process's line: its entry is made
    /// again there, and the first process still words its folded controller's leak at its end.
    @Test(arguments: [false, true])
    func aDormantClassNamedByAnotherProcess(deallocLogged: Bool) {
        var text = Self.sheets(400, deallocLogged: deallocLogged)
        for (k, cb) in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:", "dealloc"].enumerated() {
            text += "2024-03-01 10:05:00.\(String(format: "%03d", k)) Shop[300:400] -[Sheet17ViewController \(cb)]\n"
        }
        text += "2024-03-01 10:05:00.100 Shop[100:200] <Sheet21ViewModel: 0x6000> init\n"
        text += "2024-03-01 10:05:09.000 Shop[100:200] -[Sheet23ViewController dealloc]\n"
        let never = Self.findings(text, foldFloor: .max)
        #expect(Self.findings(text, foldFloor: 2) == never)
        #expect(Self.findings(text, foldFloor: 0) == never)
        #expect(never.contains { $0.contains("leaked_controller") && $0.contains("Sheet17ViewController#1:") })
        Self.expectSameViews(text, "another process, dealloc logged: \(deallocLogged)")
    }

    /// Leaks deferred (`TimelineContext.defersLeaks`): a session that ends before anything logged a dealloc leaves
    /// its folded controllers' leaks in their dormant rows. What a later session logs decides them as it decides the
    /// observations the session's end would have written: a dealloc of the dialect (every leak counts), of one
    /// class, a line naming a deferred class again, another process, or nothing (none counts).
    @Test(arguments: [
        ["-[SplashViewController dealloc]"],
        ["-[Sheet40ViewController viewDidLoad]", "-[Sheet40ViewController dealloc]"],
        ["-[Sheet5ViewController viewWillAppear:]", "-[Sheet5ViewController viewDidAppear:]", "-[Sheet6ViewController viewDidLoad]"],
        ["-[Sheet8ViewController viewDidLoad]", "-[Sheet8ViewController dealloc]", "-[Sheet9ViewController dealloc]"],
        ["-[HomeViewController viewDidLoad]", "<Sheet11ViewModel: 0x6000> init", "<Sheet11ViewModel: 0x6000> deinit"],
        ["Sheet12ViewController deinit", "-[Sheet13ViewController viewDidLoad]"],
        [],
    ])
    func deferredLeaksAreDecidedAsTheSessionsEndWouldHave(then: [String]) {
        var text = Self.sheets(300, deallocLogged: false)
        // A relaunch (another pid) ends the first session; then the lines of the second.
        for (k, m) in (["-[HomeViewController viewDidLoad]"] + then).enumerated() {
            text += "2024-03-01 10:09:00.\(String(format: "%03d", k)) Shop[101:200] \(m)\n"
        }
        // A third session, after the second.
        text += "2024-03-01 10:12:00.000 Shop[102:200] -[Sheet20ViewController viewDidLoad]\n"
        let never = Self.findings(text, foldFloor: .max)
        #expect(Self.findings(text, foldFloor: 2) == never, "\(then)")
        #expect(Self.findings(text, foldFloor: 0) == never, "\(then)")
        let leaks = never.filter { $0.contains(" leaked_controller ") }.count
        if then.contains(where: { $0.hasSuffix(" dealloc]") }) { #expect(leaks >= 290, "\(then)") }
        if then.isEmpty { #expect(leaks == 0) }
        Self.expectSameViews(text, "deferred, then \(then)")
    }

    /// The input's end keeps no deferred leak: each is written or let go, its row's record with it.
    @Test(arguments: [false, true])
    func theInputsEndTakesEveryDeferredLeak(deallocLater: Bool) throws {
        var options = TimelineOptions()
        options.classFoldFloor = 64
        let text = Self.sheets(2_000, deallocLogged: false) + "2024-03-01 10:09:00.000 Shop[101:200] -[HomeViewController viewDidLoad]\n"
        let (builder, scanner) = Self.scanning(text, options)
        let dormant = builder.context.instrumentation.dormant
        #expect(dormant.deferredLeaks >= 2_000 - 128)
        #expect((0..<dormant.rowCount).filter { dormant.row($0).leakDeferred }.count == dormant.deferredLeaks)
        if deallocLater {
            Array("2024-03-01 10:09:01.000 Shop[101:200] -[HomeViewController dealloc]\n".utf8).withUnsafeBytes { scanner.consume($0) }
        }
        _ = scanner.finish()
        let summary = builder.finish()
        #expect(builder.context.instrumentation.dormant.deferredLeaks == 0)
        #expect(builder.context.instrumentation.dormant.heldBytes == 0)
        let leaks = summary.observations.indices.filter { summary.observations.tag(at: $0) == RuleRegistry.leakTag }.count
        #expect(deallocLater ? leaks >= 2_000 - 128 : leaks == 0)
    }

    /// Every fixture, whatever its shape.
    @Test func fixtureFindingsDoNotDependOnFolding() throws {
        for path in allFixtureLogs() {
            let data = try Data(contentsOf: packageRoot.appendingPathComponent(path))
            let bytes = [UInt8](data)
            #expect(Self.findings(bytes, path: path, foldFloor: 0) == Self.findings(bytes, path: path, foldFloor: .max), "\(path)")
        }
    }

    /// Simulated apps of every family, with and without objects and dealloc.
    @Test(arguments: NavigationSimulator.Family.allCases)
    func simulatedFindingsDoNotDependOnFolding(_ family: NavigationSimulator.Family) {
        for seed in UInt64(1)...8 {
            let text = variedSimulatedApp(family, seed: seed, steps: 300)
            #expect(Self.findings(text, foldFloor: 0) == Self.findings(text, foldFloor: .max), "seed \(seed)")
        }
    }

    /// Random traffic over a visible root among a few dozen classes, legal or not: sheets and pushes
    /// closed and shown again, views reloaded, deallocs on time, late or never, view models of a
    /// screen's stem, markers, child moves, memory warnings. Folded before every event, the findings
    /// are those of a run that never folds.
    @Test(arguments: UInt64(1)...12)
    func randomTrafficDoesNotDependOnFolding(seed: UInt64) {
        let out = Self.randomTraffic(seed: seed)
        let folding = Self.findings(out, foldFloor: 0)
        #expect(folding == Self.findings(out, foldFloor: .max))
        #expect(Self.findings(out, foldFloor: 2) == folding)
    }

    /// Random traffic over a visible root among a few dozen classes (`randomTrafficDoesNotDependOnFolding`).
    static func randomTraffic(seed: UInt64) -> String {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        var out = "", ms = 0
        func line(_ m: String) {
            ms += 7 + (next(10) == 0 ? 4_000 : 0)
            out += "2024-03-01 10:\(String(format: "%02d:%02d.%03d", ms / 60000 % 60, ms / 1000 % 60, ms % 1000)) Shop[100:200] \(m)\n"
        }
        for cb in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:"] { line("-[HomeViewController \(cb)]") }
        let callbacks = ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:", "dealloc",
                         "didReceiveMemoryWarning", "willMoveToParentViewController:", "didMoveToParentViewController:"]
        for _ in 0..<1_500 {
            let c = "Screen\(next(40))"
            switch next(12) {
            case 0, 1, 2:  // a sheet shown and closed over the root
                for cb in callbacks[0...4] { line("-[\(c)ViewController \(cb)]") }
            case 3:  // a push and a pop
                line("-[\(c)ViewController viewDidLoad]")
                line("-[HomeViewController viewWillDisappear:]"); line("-[\(c)ViewController viewWillAppear:]")
                line("-[HomeViewController viewDidDisappear:]"); line("-[\(c)ViewController viewDidAppear:]")
                line("-[\(c)ViewController viewWillDisappear:]"); line("-[HomeViewController viewWillAppear:]")
                line("-[\(c)ViewController viewDidDisappear:]"); line("-[HomeViewController viewDidAppear:]")
            case 4: line("-[\(c)ViewController dealloc]")
            case 5: line("<\(c)ViewModel: 0x\(String(0x6000 + 16 * next(64), radix: 16))> \(next(2) == 0 ? "init" : "deinit")")
            case 6: line("\(c)ViewController \(next(2) == 0 ? "present" : "dismiss") end")
            default: line("-[\(c)ViewController \(callbacks[next(callbacks.count)])]")
            }
        }
        return out
    }

    /// What `timeline`, `report` and `leaks` draw of a recording made while the session folds before every event is
    /// what they draw of one made while it never folds: a folded controller's lane keeps what it needs of it
    /// (`TimelineRecorder.folded`), and its class is read by name when the lanes are decided.
    static func views(_ bytes: [UInt8], foldFloor: Int, foldsLogs: Bool = true) -> [String] {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.foldsLaneLogs = foldsLogs
        options.timeline.classFoldFloor = max(1, foldFloor)
        options.timeline.foldBeforeEveryEvent = foldFloor == 0
        let inputs = TimelineInput.from(LintResult(files: [Linter(options: options).lint(bytes: bytes, path: "x.log")]))
        let leaks = LeakReport(inputs: inputs, graceSeconds: 3)
        return [TimelineJSON().render(inputs), ChromeTrace().render(inputs), TimelineTextRenderer(width: 120).render(inputs),
                LeakJSON().render(leaks), HTMLReport(inputs: inputs, leaks: leaks).render()]
    }

    /// Each view of `text` folding before every event, and from two classes, is the one that never folds (folded
    /// controllers' logs folded with them, or kept); a difference is named by its view and its first differing line.
    static func expectSameViews(_ text: String, _ name: String) {
        let bytes = Array(text.utf8)
        let never = views(bytes, foldFloor: .max)
        let names = ["timeline json", "chrome trace", "timeline text", "leaks json", "report html"]
        for (floor, foldsLogs) in [(0, true), (2, true), (0, false)] {
            for (k, view) in views(bytes, foldFloor: floor, foldsLogs: foldsLogs).enumerated() where view != never[k] {
                let a = view.split(separator: "\n", omittingEmptySubsequences: false)
                let b = never[k].split(separator: "\n", omittingEmptySubsequences: false)
                let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                Issue.record("\(name), fold floor \(floor)\(foldsLogs ? "" : ", logs kept"), \(names[k]) line \(at + 1): \(at < a.count ? a[at] : "(end)") | never folding: \(at < b.count ? b[at] : "(end)")")
            }
        }
    }

    @Test func fixtureTimelinesDoNotDependOnFolding() throws {
        for path in allFixtureLogs() {
            let data = try Data(contentsOf: packageRoot.appendingPathComponent(path))
            Self.expectSameViews(String(decoding: data, as: UTF8.self), path)
        }
    }

    @Test(arguments: UInt64(1)...6) func randomTrafficTimelinesDoNotDependOnFolding(seed: UInt64) {
        Self.expectSameViews(Self.randomTraffic(seed: seed), "seed \(seed)")
    }

    @Test(arguments: NavigationSimulator.Family.allCases)
    func simulatedTimelinesDoNotDependOnFolding(_ family: NavigationSimulator.Family) {
        for seed in UInt64(1)...3 { Self.expectSameViews(variedSimulatedApp(family, seed: seed, steps: 300), "\(family) seed \(seed)") }
    }

    /// Sheets of distinct classes, one named again later, with and without deallocs logged.
    @Test(arguments: [false, true]) func foldedSheetsDrawAlike(deallocLogged: Bool) {
        let then = ["-[Sheet3ViewController viewDidLoad]", "-[Sheet5ViewController dealloc]", "<ItemViewModel: 0x7001> init",
                    "-[Sheet3ViewController viewWillAppear:]", "-[HomeViewController viewWillDisappear:]"]
        Self.expectSameViews(Self.sheets(300, deallocLogged: deallocLogged, then: then), "sheets")
    }

    /// With its lanes recorded, a session of many idle classes still keeps few (the lanes hold no instance of a
    /// folded class, so its entry goes dormant), and the folded controllers' lanes are all drawn.
    @Test func aRecordedSessionOfManyClassesKeepsFew() throws {
        var options = TimelineOptions()
        options.recordTimeline = true
        options.classFoldFloor = 64
        let (builder, scanner) = Self.scanning(Self.sheets(2_000, deallocLogged: false), options)
        let session = try #require(builder.openSessions.first)
        #expect(session.identity.classes.count <= 128)
        #expect(session.instrumentation.dormant.count >= 2_000 - 128)
        _ = scanner.finish()
        let summary = builder.finish()
        let recording = try #require(builder.recording(summary))
        let lanes = recording.sessions.flatMap(\.instances)
        #expect(lanes.count == 2_001)
        #expect(lanes.last?.controller.instance == "Sheet1999ViewController#1" && lanes.last?.removal?.kind == .closed)
        #expect(lanes.last?.intervals.last?.openAtEnd == true && lanes.last?.intervals.last?.state == .hidden)
    }
}
