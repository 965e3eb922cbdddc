import Foundation
import Testing
@testable import VCLintCore

/// Android's evidence (docs/lifecycle.md#android-evidence): the lines read as evidence, how LeakCanary's findings bind
/// to instances and tests, StrictMode's recreate window, `Displayed`, and what resolves a retained count.
@Suite struct AndroidEvidenceTests {
    private func evidence(_ text: String, tag: String?) -> AndroidEvidence? {
        var m = Array(text.utf8), t = Array((tag ?? "").utf8)
        return m.withUnsafeMutableBufferPointer { mb in
            t.withUnsafeMutableBufferPointer { tb in AndroidEvidence.read(UnsafeBufferPointer(mb), tag: tag == nil ? nil : UnsafeBufferPointer(tb)) }
        }
    }

    @Test func strictModeAndDisplayedLines() {
        #expect(evidence("class com.example.MainActivity; instances=2; limit=1", tag: "StrictMode")
                == .strictMode(className: "MainActivity", instances: 2, limit: 1))
        // The exception text may follow on the same line.
        #expect(evidence("class a.B; instances=3; limit=1 android.os.StrictMode$InstanceCountViolation: class a.B; instances=3; limit=1", tag: "StrictMode")
                == .strictMode(className: "B", instances: 3, limit: 1))
        // Its continuation line is no count.
        #expect(evidence("android.os.StrictMode$InstanceCountViolation: class a.B; instances=3; limit=1", tag: nil) == nil)
        #expect(evidence("Displayed com.example/.MainActivity: +1s230ms", tag: "ActivityTaskManager")
                == .displayed(className: "MainActivity", package: "com.example", milliseconds: 1230))
        #expect(evidence("Displayed com.eternalrave.app/.MainActivity for user 0: +23s157ms", tag: "ActivityTaskManager")
                == .displayed(className: "MainActivity", package: "com.eternalrave.app", milliseconds: 23157))
        #expect(evidence("Displayed com.companyname.foo/crc64808a40cc7e533249.MainActivity: +173ms (total +2s)", tag: "ActivityManager")
                == .displayed(className: "MainActivity", package: "com.companyname.foo", milliseconds: 173))
        // Another tag's `Displayed` sentence is the app's, not the system's.
        #expect(evidence("Displayed com.example/.MainActivity: +1s230ms", tag: "MyApp") == nil)
        // LeakCanary's lines under its tag, or recognisable without it.
        #expect(evidence("anything at all", tag: "LeakCanary") == .leakCanary("anything at all"))
        #expect(evidence("╰→ com.example.A instance", tag: "MyApp") == .leakCanary("╰→ com.example.A instance"))
        #expect(evidence("Found 3 items in the cart", tag: "MyApp") == nil)
    }

    /// The system's start request (the `startRequested` event): every shape its releases print, the class by its simple
    /// name; anything else that begins with `START` is no request.
    @Test func startLinesAreStartRequests() {
        let expected = AndroidEvidence.startRequested(className: "MainActivity", package: "com.example")
        for text in [
            "START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=com.example/.MainActivity bnds=[0,0][10,10]} from uid 10123",
            "START u0 {flg=0x10000000 cmp=com.example/.MainActivity} from pid 1234",
            "START u0 {cmp=com.example/com.example.ui.MainActivity} from uid 10123",
            "START u10 {cmp=com.example/.MainActivity (has extras)} with LAUNCH_MULTIPLE from uid 10123 (BAL_ALLOW_VISIBLE_WINDOW) result code=0",
            "START {act=android.intent.action.VIEW cmp=com.example/.MainActivity} from pid 4821",
        ] {
            #expect(evidence(text, tag: "ActivityTaskManager") == expected, "\(text)")
            #expect(evidence(text, tag: "ActivityManager") == expected, "\(text)")
        }
        #expect(evidence("START u0 {cmp=com.example/.Outer$Inner} from uid 1", tag: "ActivityManager")
                == .startRequested(className: "Outer$Inner", package: "com.example"))
        for text in [
            "START u0 {act=android.intent.action.MAIN} from uid 10123",            // no component
            "START u0 {cmp=com.example/.MainActivity from uid 10123",              // braces never closed
            "START u0 {cmp=/.MainActivity} from uid 1", "START u0 {cmp=com.example/} from uid 1",
            "START u0 {xcmp=com.example/.Main} from uid 1", "START ux {cmp=com.example/.Main}", "STARTED u0 {cmp=a/.B}",
            "START u0 cmp=com.example/.MainActivity",
        ] {
            #expect(evidence(text, tag: "ActivityTaskManager") == nil, "\(text)")
        }
        // Only the system's tags: an app's own `START` sentence is its own.
        #expect(evidence("START u0 {cmp=com.example/.MainActivity} from uid 10123", tag: "MyApp") == nil)
    }

    /// An input whose only events are the system's start requests is read (not `no_lifecycle_events`) and gives no
    /// finding; the request binds to the session of the app it names.
    @Test func startRequestsAloneAreReadAndClean() {
        let system = "07-01 18:48:40.101  1949  1977 I ActivityTaskManager: "
        let r = lint([
            system + "START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=com.eternalrave.app/.MainActivity} from uid 10123",
            system + "START u0 {cmp=com.eternalrave.app/.SettingsActivity} from uid 10245",
            system + "Something else entirely: START u0 {cmp=x/.Y}",
        ].joined(separator: "\n"))
        #expect(r.findings.isEmpty, "\(r.findings.map(\.message))")
        #expect(r.stats.events == 2)
        // Android Studio's layout names the processes: the system's request goes to the session of the app it names.
        let studio = lint([
            "2021-04-28 16:54:50.000 11992-11992/com.example.space D/MainActivity: onCreate",
            "2021-04-28 16:54:50.100 1949-1977/system_process I/ActivityTaskManager: START u0 {cmp=com.example.space/.ServiceActivity} from uid 10123",
            "2021-04-28 16:54:50.200 11992-11992/com.example.space D/ServiceActivity: onCreate",
        ].joined(separator: "\n"))
        #expect(studio.findings.isEmpty)
        #expect(studio.stats.events == 3)
        #expect(studio.stats.sessions == 1)
    }

    /// The receiver of a watch's reason or a leaking node's note, as Foundation's searches read it before it was read by bytes.
    @Test func theReceiverIsTheWordBeforeReceived() {
        func oracle(_ text: String) -> String? {
            guard let r = text.range(of: " received ") else { return nil }
            var head = text[..<r.lowerBound]
            if let b = head.range(of: "because ", options: .backwards) { head = head[b.upperBound...] }
            let name = head.split(separator: " ").last.map(String.init) ?? ""
            return name.isEmpty ? nil : name
        }
        let cases = [
            "com.example.MainActivity received Activity#onDestroy() callback",
            "ObjectWatcher was watching this because com.example.HomeFragment received Fragment#onDestroyView() callback",
            "because because X received Y", "because received Y", "  received x", "X  received  Y", "no receiver here", "",
            "a because b because C received D received E", "ÜberActivity received Activity#onDestroy()", "because\u{301} X received Y",
        ]
        for c in cases { #expect(SessionTimeline.receiver(c) == oracle(c), "\(c)") }
    }

    @Test func theTwoTwoNotePrefixGivesTheTime() {
        var line = Array(" 14:40:13.697 : Watching instance of a.B (a.B received Activity#onDestroy() callback) with key k".utf8)
        let (e, t) = line.withUnsafeMutableBufferPointer { b in
            (AndroidEvidence.unenveloped(UnsafeBufferPointer(b)), AndroidEvidence.clockTime(UnsafeBufferPointer(b)))
        }
        #expect(e == .leakCanary("Watching instance of a.B (a.B received Activity#onDestroy() callback) with key k"))
        let expected: Double = 14 * 3600 + 40 * 60 + 13.697
        #expect(t?.seconds == expected)
    }

    /// A trace published as text, as LeakCanary 2 prints it: the lines under its `╰→` node begin with a zero-width
    /// space, and its `Leaking: YES` note says the object is a destroyed Activity.
    @Test func aPublishedTraceReadsItsZeroWidthIndentedNotes() {
        let zw = "\u{200B}"
        let trace = [
            "┬───", "│ GC Root: System class", "│", "├─ android.view.inputmethod.InputMethodManager class",
            "│    Leaking: NO (InputMethodManager↓ is not leaking and a class is never leaking)", "│    ↓ static InputMethodManager.sInstance",
            "╰→ com.example.MainActivity instance",
            "\(zw)     Leaking: YES (ObjectWatcher was watching this because com.example.MainActivity received Activity#onDestroy() callback and Activity#mDestroyed is true)",
            "\(zw)     key = 4bc9e6d8-d7ed-4af6-a5ef-0f8fbda0a8ad",
        ]
        var m = Array(trace[7].utf8)
        let e = m.withUnsafeMutableBufferPointer { AndroidEvidence.unenveloped(UnsafeBufferPointer($0)) }
        #expect(e == .leakCanary(String(trace[7].dropFirst(6))))
        let r = lint(trace.joined(separator: "\n"))
        #expect(r.findings.map(\.rule) == ["leaked_activity"])
        #expect(r.findings.first?.line == 7)
    }

    /// A LeakCanary 1.x block pasted without its tag: its `* ` lines are LeakCanary's (a bullet that is not one of them is
    /// not), and the block gives the finding its tagged copy gives.
    @Test func anUntaggedLegacyBlockIsRead() {
        for text in ["* com.example.A has leaked:", "* com.example.A has leaked: ", "* GC ROOT static a.B.sInstance",
                     "* references a.B.field", "* leaks com.example.A instance", "* Retaining: 12 KB."] {
            #expect(evidence(text, tag: nil) == .leakCanary(text), "\(text)")
        }
        for text in ["* has leaked:", "* a list item", "* leaked: a", "- references a.B", "has leaked:", "* gc root static"] {
            #expect(evidence(text, tag: nil) == nil, "\(text)")
        }
        let block = ["In com.example:1.0:1.", "* com.example.DetailActivity has leaked:", "* GC ROOT static com.example.Holder.sActivity",
                     "* leaks com.example.DetailActivity instance", "* Retaining: 12 KB."]
        let bare = lint(block.joined(separator: "\n"))
        #expect(bare.findings.map(\.rule) == ["leaked_object"])  // no callbacks show the class is an Activity
        #expect(bare.findings.first?.line == 4)
        let tagged = lint(block.map { "D/LeakCanary: \($0)" }.joined(separator: "\n"))
        #expect(tagged.findings.map(\.rule) == bare.findings.map(\.rule))
        #expect(tagged.findings.first?.message == bare.findings.first?.message)
    }

    private let app = "2021-04-28 16:54:"
    private func line(_ t: String, _ tag: String, _ m: String, pid: String = "500-500/com.example") -> String { "\(app)\(t) \(pid) \(tag): \(m)" }

    /// A Fragment's view: the watch binds to the fragment instance whose view was destroyed last.
    @Test func aFragmentViewLeakNamesTheFragmentInstance() {
        let r = lint([
            line("01.000", "D/HomeFragment", "onAttach"), line("01.010", "D/HomeFragment", "onCreate"),
            line("01.020", "D/HomeFragment", "onCreateView"), line("02.000", "D/HomeFragment", "onDestroyView"),
            line("02.100", "D/LeakCanary", "Watching instance of androidx.recyclerview.widget.RecyclerView (com.example.HomeFragment received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks)) with key v1"),
            line("09.000", "D/LeakCanary", "┬───"),
            line("09.000", "D/LeakCanary", "│ GC Root: System class"),
            line("09.000", "D/LeakCanary", "├─ com.example.HomeFragment instance"),
            line("09.000", "D/LeakCanary", "│    Leaking: NO (Fragment.mLifecycleRegistry.state is CREATED)"),
            line("09.000", "D/LeakCanary", "│    ↓ HomeFragment.list"),
            line("09.000", "D/LeakCanary", "╰→ androidx.recyclerview.widget.RecyclerView instance"),
            line("09.000", "D/LeakCanary", "     key = v1"),
        ].joined(separator: "\n"))
        let f = r.findings.map { $0 }
        #expect(f.map(\.rule) == ["leaked_fragment_view"])
        #expect(f.first?.line == 11)
        #expect(f.first?.controller.instance == "HomeFragment#1")
        #expect(f.first?.message.hasPrefix("HomeFragment#1's view (RecyclerView) was destroyed and is still retained: GC Root: System class → HomeFragment.list → RecyclerView") == true)
        #expect(f.first?.related.map(\.line).contains(4) == true)  // its onDestroyView
    }

    /// A 1.x block names no end of use: the class's callbacks say it is an Activity.
    @Test func aLegacyBlockIsAnActivityByItsCallbacks() {
        let r = lint([
            line("01.000", "D/DetailActivity", "onCreate"), line("01.100", "D/DetailActivity", "onDestroy"),
            line("05.000", "D/LeakCanary", "In com.example:1.0:1."),
            line("05.000", "D/LeakCanary", "* com.example.DetailActivity has leaked:"),
            line("05.000", "D/LeakCanary", "* GC ROOT static com.example.Holder.sActivity"),
            line("05.000", "D/LeakCanary", "* leaks com.example.DetailActivity instance"),
            line("05.000", "D/LeakCanary", "* Retaining: 12 KB."),
        ].joined(separator: "\n"))
        #expect(r.findings.map(\.rule) == ["leaked_activity"])
        #expect(r.findings.first?.line == 6)
        #expect(r.findings.first?.controller.instance == "DetailActivity#1")
    }

    /// The same trace in two heap dumps keeps its fingerprint: LeakCanary's signature, not keys or sizes.
    @Test func theFingerprintIsTheSignature() {
        func capture(key: String, size: String) -> String {
            [line("01.000", "D/LeakCanary", "HEAP ANALYSIS RESULT"), line("01.000", "D/LeakCanary", "1 APPLICATION LEAKS"),
             line("01.000", "D/LeakCanary", "\(size) bytes retained by leaking objects"),
             line("01.000", "D/LeakCanary", "Signature: abc123"),
             line("01.000", "D/LeakCanary", "┬───"),
             line("01.000", "D/LeakCanary", "╰→ com.example.MainActivity instance"),
             line("01.000", "D/LeakCanary", "     Leaking: YES (Activity#mDestroyed is true)"),
             line("01.000", "D/LeakCanary", "     key = \(key)"),
             line("01.000", "D/LeakCanary", "===================================="),
            ].joined(separator: "\n")
        }
        let a = lint(capture(key: "k1", size: "100")).findings.map { $0 }, b = lint(capture(key: "k2", size: "999")).findings.map { $0 }
        #expect(a.map(\.rule) == ["leaked_activity"])
        #expect(a.first?.fingerprint == b.first?.fingerprint)
    }

    /// A retained count is resolved by an analysis or the all-collected line, not by a heap dump alone.
    @Test func retainedCountsResolve() {
        let count = line("01.000", "D/LeakCanary", "Found 2 retained instances, which is less than the visible threshold of 5")
        #expect(lint(count).findings.map(\.rule) == ["retained_unconfirmed"])
        #expect(lint(count + "\n" + line("02.000", "D/LeakCanary", "Check for retained objects found 2 objects, dumping the heap")).findings.map(\.rule)
                == ["retained_unconfirmed"])
        #expect(lint(count + "\n" + line("03.000", "D/LeakCanary", "All retained objects have been garbage collected")).findings.isEmpty)
        // A count of 0 leaves nothing to confirm.
        #expect(lint(line("01.000", "D/LeakCanary", "Found 0 retained instances, which is less than the visible threshold of 5")).findings.isEmpty)
    }

    /// StrictMode one over the limit right after a rotation recreate is a warning; without the recreate, an error.
    @Test func strictModeRecreateWindow() {
        let recreate = [
            line("01.000", "D/MainActivity", "onCreate"), line("01.010", "D/MainActivity", "onStart"), line("01.020", "D/MainActivity", "onResume"),
            line("05.000", "D/MainActivity", "onPause"), line("05.010", "D/MainActivity", "onStop"), line("05.020", "D/MainActivity", "onDestroy"),
            line("05.100", "D/MainActivity", "onCreate"), line("05.110", "D/MainActivity", "onStart"), line("05.120", "D/MainActivity", "onResume"),
        ]
        let strict = line("05.500", "E/StrictMode", "class com.example.MainActivity; instances=2; limit=1")
        let warned = lint((recreate + [strict]).joined(separator: "\n")).findings.map { $0 }
        #expect(warned.map(\.rule) == ["lifetime_limit"])
        #expect(warned.first?.severity == .warning)
        #expect(warned.first?.related.map(\.line) == [7])
        // Long after the recreate: an error.
        let late = line("30.000", "E/StrictMode", "class com.example.MainActivity; instances=2; limit=1")
        #expect(lint((recreate + [late]).joined(separator: "\n")).findings.map(\.severity) == [.error])
        // Two over the limit: an error whatever came before.
        let three = line("05.500", "E/StrictMode", "class com.example.MainActivity; instances=3; limit=1")
        #expect(lint((recreate + [three]).joined(separator: "\n")).findings.map(\.severity) == [.error])
    }

    /// `Displayed` lines are read (a capture of them alone is no `no_lifecycle_events`) and time launches when
    /// `slow_transition` is on.
    @Test func displayedLines() {
        let text = "07-01 18:48:47.219  1949  1977 I ActivityTaskManager: Displayed com.example/.MainActivity: +2s10ms"
        #expect(lint(text).findings.isEmpty)
        let on = lint(text, rules: .all).findings.map { $0 }
        #expect(on.map(\.rule) == ["slow_transition"])
        #expect(on.first?.message == "MainActivity was displayed 2010 ms after its launch (the system's Displayed line); expected under 1000 ms")
    }

    /// LeakCanary's analysis process (`pkg:leakcanary`) reports on its app's session: the watch and the trace bind.
    @Test func theAnalysisProcessReportsOnItsApp() {
        let r = lint([
            line("01.000", "D/MainActivity", "onCreate"), line("01.100", "D/MainActivity", "onDestroy"),
            line("01.200", "D/LeakCanary", "Watching instance of com.example.MainActivity (com.example.MainActivity received Activity#onDestroy() callback) with key m1"),
            line("09.000", "D/LeakCanary", "╰→ com.example.MainActivity instance", pid: "900-910/com.example:leakcanary"),
            line("09.000", "D/LeakCanary", "     key = m1", pid: "900-910/com.example:leakcanary"),
        ].joined(separator: "\n"))
        #expect(r.findings.map(\.rule) == ["leaked_activity"])
        #expect(r.findings.first?.controller.instance == "MainActivity#1")
        #expect(r.findings.first?.related.map(\.line) == [2, 3])
    }

    /// androidx.test's runner: a failed test ends its interval; the finding inside names it.
    @Test func androidxRunnerLinesNameTests() {
        let r = lint([
            line("00.000", "I/TestRunner", "started: testRotate(com.example.MainTest)"),
            line("01.000", "D/MainActivity", "onCreate"), line("01.010", "D/MainActivity", "onStart"),
            line("01.020", "D/MainActivity", "onResume"), line("01.030", "D/MainActivity", "onPause"),
            line("01.040", "D/MainActivity", "onDestroy"),
            line("02.000", "I/TestRunner", "failed: testRotate(com.example.MainTest)"),
            line("02.010", "I/TestRunner", "finished: testRotate(com.example.MainTest)"),
            line("03.000", "D/MainActivity", "onStop"),
        ].joined(separator: "\n"))
        let f = r.findings.map { $0 }
        #expect(f.map(\.rule) == ["missing_on_stop", "callback_after_destroy"])
        #expect(f.map(\.test) == ["com.example.MainTest/testRotate", nil])
    }

    /// A hostile block: a trace of 100,000 nodes never closed, after box characters everywhere. The trace keeps its
    /// first nodes (and the leaking one), the finding stays one line of bounded size, and nothing is lost around it.
    @Test func aHostileBlockIsBounded() {
        var lines = (0..<2000).map { _ in "│ ├─ ╰→ ┬─── │ ~~~ ║ Leaking: YES (" }
        lines.append(line("01.000", "D/MainActivity", "onCreate"))
        lines.append(line("01.100", "D/MainActivity", "onDestroy"))
        lines.append("┬───")
        for k in 0..<100_000 {
            lines.append("├─ com.example.Node\(k) instance")
            lines.append("│    Leaking: UNKNOWN")
            lines.append("│    ↓ Node\(k).next")
        }
        lines.append("╰→ com.example.MainActivity instance")
        lines.append("     Leaking: YES (Activity#mDestroyed is true)")
        let r = lint(lines.joined(separator: "\n"))
        let f = r.findings.map { $0 }
        #expect(f.map(\.rule) == ["leaked_activity"])
        #expect(f.first?.controller.instance == "MainActivity#1")
        #expect((f.first?.related.count ?? 0) <= LeakCanaryReader.maxNodes + 4)
        #expect((f.first?.message.utf8.count ?? 0) < 64 * 1024)
        #expect(f.first?.message.contains("more") == true)
    }

    /// An iOS capture and an Android capture in one run: one report, both platforms' findings, each test named.
    @Test func iosAndAndroidCapturesLintIntoOneReport() throws {
        let ios = try lintFixture("Fixtures/flows/leak-pop.log")
        let android = try lintFixture("Fixtures/android/leakcanary-application-leak-in-test.log")
        let result = LintResult(files: [ios, android])
        let json = try #require(JSONSerialization.jsonObject(with: Data(JSONReporter().report(result).utf8)) as? [String: Any])
        let rules = (json["violations"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(rules == ["leaked_controller", "leaked_activity"])
        let sarif = try #require(ReporterRegistry.reporter(named: "sarif", rules: .default)).report(result)
        #expect(sarif.contains("\"ruleId\": \"leaked_activity\"") || sarif.contains("\"ruleId\":\"leaked_activity\""))
        let junit = try #require(ReporterRegistry.reporter(named: "junit", rules: .default)).report(result)
        #expect(junit.contains("classname=\"com.example.space.ServiceActivityTest\" name=\"leaksServiceActivity\""))
    }
}
