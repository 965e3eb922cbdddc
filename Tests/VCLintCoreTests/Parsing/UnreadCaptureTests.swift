import Foundation
import Testing
@testable import VCLintCore

/// Unread is never clean (docs/rules.md#no_lifecycle_events; `inputs[].unrecognized` in docs/output.md#inputs):
/// a capture vclint cannot read fails the gate or says so, and `vclint inspect` shows why.
@Suite(.serialized) struct UnreadCaptureTests {
    let cli = CLITests()

    @Test func capturesWithNothingToReadFailTheGate() throws {
        let passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("passwd", Array(passwd.utf8)),
            ("json array", Array(#"[{"a": 1}, {"b": 2}]"#.utf8)),
            // Logcat whose lines hold no Android statement (docs/lifecycle.md#android-statements): nothing read.
            ("logcat", Array("11-24 10:00:00.123  1234  5678 D MainActivity: onCreateOptionsMenu\n".utf8)),
        ]
        for (name, bytes) in cases {
            let r = try cli.run(["lint", "--reporter", "json", try cli.tempFile(bytes)])
            #expect(r.status == 1, "\(name): exit \(r.status)")
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let rules = (doc["violations"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }
            #expect(rules == ["no_lifecycle_events"], "\(name)")
        }
        // The rule can be turned off like any other.
        let off = try cli.run(["lint", "--disable", "no_lifecycle_events", try cli.tempFile(Array(passwd.utf8))])
        #expect(off.status == 0)
    }

    @Test func unreadLinesAreCountedInTheReportAndOnStderr() throws {
        let r = try cli.run(["lint", "--reporter", "json", "Fixtures/formats/noise-mentions.log"])
        #expect(r.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let input = try #require((doc["inputs"] as? [[String: Any]])?.first)
        let unread = try #require(input["unrecognized"] as? [String: Any])
        #expect(unread["lines"] as? Int == 11)
        #expect(unread["first"] as? Int == 2)
        #expect(r.stderr.contains("vclint: Fixtures/formats/noise-mentions.log: 11 lines mention lifecycle callbacks but were not read (first at line 2); see vclint inspect Fixtures/formats/noise-mentions.log"))
        // A clean capture says nothing of the kind.
        let clean = try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log"])
        #expect(!clean.stderr.contains("not read"))
    }

    @Test func aPathWithoutCapturesFailsTheRun() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("not a capture".utf8).write(to: dir.appendingPathComponent("notes.md"))
        defer { try? FileManager.default.removeItem(at: dir) }
        for command in [["lint"], ["timeline"], ["leaks"], ["inspect"], ["baseline", "create", "--output", dir.appendingPathComponent("b.json").path]] {
            let r = try cli.run(command + [dir.path])
            #expect(r.status == 2, "\(command)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "vclint: error: no capture files found under \(dir.path) (looked for *.log, *.txt, *.ndjson, *.jsonl, logs in *.json and their .gz forms)\n", "\(command): \(r.stderr)")
        }
    }

    /// On a terminal, no path prints the usage instead of waiting on stdin (`script` gives a TTY).
    @Test(.requires(.script, for: "the usage-on-a-terminal test, which needs a pseudo-terminal"))
    func noPathOnATerminalPrintsUsage() throws {
        for (args, usage) in [("", "USAGE: vclint <subcommand>"), ("lint", "USAGE: vclint lint"), ("inspect", "USAGE: vclint inspect")] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            p.arguments = ["-qec", "'\(CLITests.binary.path)' \(args); echo \"EXIT $?\"", "/dev/null"]
            let out = Pipe()
            p.standardOutput = out
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(text.contains(usage), "vclint \(args): \(text)")
            #expect(text.contains("no capture given"), "vclint \(args)")
            #expect(text.contains("EXIT 2"), "vclint \(args)")
        }
        // Not a terminal: standard input is read.
        let piped = try cli.run(["lint"], stdin: Data("HomeViewController viewDidLoad\n".utf8))
        #expect(piped.status == 0)
    }

    // MARK: - vclint inspect

    @Test func inspectShowsWhatWasRead() throws {
        let r = try cli.run(["inspect", "Fixtures/formats/en-dash-labels.log", "Fixtures/formats/noise-mentions.log"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Fixtures/formats/en-dash-labels.log: 16 lines, 15 events, 1 session"))
        #expect(r.stdout.contains("free-form"))
        #expect(r.stdout.contains("{label} \u{2013} {callback}"), "the learned shape")
        #expect(r.stdout.contains("e.g. line 1: vc1 \u{2013} loadView"))
        #expect(r.stdout.contains("vc2  1 instance, free-form: loadView, viewDidLoad"))
        #expect(r.stdout.contains("11 lines mention callbacks but were not read"))
        #expect(r.stdout.contains("[Analytics] queued screen event {callback} for {class}  (1 callback, 1 class)"))
        // Sentences that mention callbacks are noise: listed, with the reason, and no dialect.
        #expect(r.stdout.contains("mentions callbacks in a sentence (`queued`, `screen`, `event`): noise; no dialect suggested"))
        #expect(!r.stdout.contains("- pattern: '"))
        #expect(r.stdout.contains("in no shape that repeats as a lifecycle statement"))
    }

    @Test func inspectJSON() throws {
        let r = try cli.run(["inspect", "--format", "json", "Fixtures/formats/value-labels.log"])
        #expect(r.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let input = try #require((doc["inputs"] as? [[String: Any]])?.first)
        #expect(input["events"] as? Int == 14)
        let dialects = try #require(input["dialects"] as? [[String: Any]])
        #expect(dialects.first?["shape"] as? String == "{callback} {value}")
        #expect(dialects.first?["classes"] as? Int == 2, "the two pages")
        let classes = try #require(input["classes"] as? [[String: Any]])
        #expect(classes.compactMap { $0["class"] as? String }.contains("2 UIDeviceRGBColorSpace 1 0.5 0 1"))
        let sessions = try #require(input["sessions"] as? [[String: Any]])
        #expect(sessions.first?["process"] as? String == "PageDemo")
    }

    /// The lines of a shape that repeats as a lifecycle statement get a dialect that reads them; the
    /// sentences beside them (`screen … did call`, `lifecycle hook … fired on`), however regular, are
    /// listed with the reason and no dialect. The JSON form says the same.
    @Test func suggestedDialectsReadTheUnreadLines() throws {
        let capture = """
        2024-03-01 10:00:00.000 Shop[100:200] HomeViewController@0x7f8a1c00a000 viewDidLoad
        2024-03-01 10:00:00.100 Shop[100:200] HomeViewController@0x7f8a1c00a000 viewWillAppear
        2024-03-01 10:00:00.300 Shop[100:200] HomeViewController@0x7f8a1c00a000 viewDidAppear
        2024-03-01 10:00:01.000 Shop[100:200] [Nav] screen DetailViewController did call viewDidLoad
        2024-03-01 10:00:01.010 Shop[100:200] [Nav] screen HomeViewController did call viewWillDisappear
        2024-03-01 10:00:01.020 Shop[100:200] [Nav] screen DetailViewController did call viewWillAppear
        2024-03-01 10:00:01.000 Shop[100:200] DetailViewController@0x7f8a1c00b000 viewDidLoad
        2024-03-01 10:00:01.010 Shop[100:200] HomeViewController@0x7f8a1c00a000 viewWillDisappear
        2024-03-01 10:00:01.020 Shop[100:200] DetailViewController@0x7f8a1c00b000 viewWillAppear
        2024-03-01 10:00:01.400 Shop[100:200] HomeViewController@0x7f8a1c00a000 viewDidDisappear
        2024-03-01 10:00:01.410 Shop[100:200] DetailViewController@0x7f8a1c00b000 viewDidAppear
        2024-03-01 10:00:02.000 Shop[100:200] 🧭 lifecycle hook viewWillDisappear fired on DetailViewController (animated 1)
        2024-03-01 10:00:02.010 Shop[100:200] 🧭 lifecycle hook viewWillAppear fired on HomeViewController (animated 1)
        2024-03-01 10:00:02.400 Shop[100:200] 🧭 lifecycle hook viewDidDisappear fired on DetailViewController (animated 1)
        """
        var o = LintOptions()
        o.inspect = true
        let before = Linter(options: o).lint(text: capture)
        #expect(before.stats.events == 0)
        #expect(before.stats.unrecognized == 14)
        let inspection = try #require(before.inspection)
        #expect(inspection.unreadGroups.map(\.template) == ["{class}@0x# {callback}", "[Nav] screen {class} did call {callback}", "🧭 lifecycle hook {callback} fired on {class} (animated #)"])
        #expect(inspection.unreadGroups.map(\.reason) == [nil, "mentions callbacks in a sentence (`screen`, `did`): noise; no dialect suggested",
                                                           "mentions callbacks in a sentence (`hook`): noise; no dialect suggested"])
        let suggested = inspection.unreadGroups.compactMap(\.dialect)
        #expect(suggested.count == 1)
        var withDialects = LintOptions()
        for d in suggested {
            withDialects.customDialects.append(try CustomDialect(pattern: d.pattern, events: Dictionary(uniqueKeysWithValues: d.events.map { ($0.text, $0.kind.rawValue) })))
            // The YAML that inspect prints is a valid configuration for the same dialect.
            let config = try Configuration.parse("dialects:\n" + d.yaml.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n", path: ".vclint.yml")
            #expect(config.dialects.count == 1)
        }
        let after = Linter(options: withDialects).lint(text: capture)
        #expect(after.stats.events == 8)
        #expect(after.stats.unrecognized == 6)
        #expect(after.findings.isEmpty, "\(after.summary)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(InspectionJSON().render([inspection]).utf8)) as? [String: Any])
        let groups = try #require(((json["inputs"] as? [[String: Any]])?.first?["unread"]) as? [[String: Any]])
        #expect(groups.count == 3)
        #expect(groups[0]["yaml"] as? String == suggested[0].yaml)
        #expect(groups[0]["reason"] is NSNull)
        #expect(groups[0]["callbacks"] as? [String] == ["viewDidLoad", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"])
        #expect(groups[0]["classes"] as? Int == 2)
        #expect(groups[1]["dialect"] is NSNull && groups[1]["yaml"] is NSNull)
        #expect((groups[1]["reason"] as? String)?.hasSuffix("no dialect suggested") == true)
    }

    /// A logcat capture in a shape vclint does not read is unread, never clean: its lines that name an Activity's
    /// callback count, `vclint inspect` suggests the dialect that reads them, and that dialect reads logcat messages.
    /// A stack frame that names a callback is no such line.
    @Test func logcatInAnUnknownShapeGetsADialect() throws {
        let capture = """
        2023-05-10 10:00:01.000 4321-4321/com.example.app D/Nav: [Nav] MainActivity -> onCreate
        2023-05-10 10:00:01.100 4321-4321/com.example.app D/Nav: [Nav] MainActivity -> onStart
        2023-05-10 10:00:01.200 4321-4321/com.example.app D/Nav: [Nav] DetailActivity -> onCreate
        2023-05-10 10:00:01.300 4321-4321/com.example.app E/AndroidRuntime:     at com.example.app.MainActivity.onCreate(MainActivity.kt:20)
        2023-05-10 10:00:02.100 4321-4321/com.example.app D/Nav: [Nav] MainActivity -> onDestroy
        """
        var o = LintOptions()
        o.inspect = true
        let before = Linter(options: o).lint(text: capture)
        #expect(before.stats.events == 0)
        #expect(before.stats.unrecognized == 4)
        #expect(before.findings.map(\.rule) == ["no_lifecycle_events"])
        let inspection = try #require(before.inspection)
        let suggested = try #require(inspection.unreadGroups.first?.dialect)
        #expect(suggested.events.map(\.kind) == [.onCreate, .onStart, .onDestroy, .onResume, .onPause, .onStop])
        var withDialect = LintOptions()
        withDialect.customDialects = [try CustomDialect(pattern: suggested.pattern,
                                                        events: Dictionary(uniqueKeysWithValues: suggested.events.map { ($0.text, $0.kind.rawValue) }))]
        let after = Linter(options: withDialect).lint(text: capture)
        #expect(after.stats.events == 4)
        #expect(after.findings.isEmpty, "\(after.summary)")
    }
}
