import Foundation
import Testing
@testable import VCLintCore

/// The streaming side of the reporters, in process: which formats stream, that a finding-by-finding
/// stream is the batch report (xcode; github-actions in another order), and that JSON Lines hold exactly the batch
/// report's objects.
@Suite struct StreamingReporterProtocolTests {
    /// Results with errors, warnings, infos, clean and empty inputs, several inputs, and hostile text.
    static func results() throws -> [LintResult] {
        let sample = try ReporterGoldenTests.result("sample")
        let hostile = try ReporterGoldenTests.result("hostile")
        return [sample, hostile, Hostile.result(), LintResult(files: []),
                LintResult(files: [Linter().lint(text: manyFindingsCapture(40), path: "a.log"), Linter().lint(text: "", path: "empty.log")])]
    }

    static let configuration = RunConfiguration(options: LintOptions(), strict: true)

    @Test func theRegistrySaysWhichFormatsStream() {
        #expect(ReporterRegistry.streamingNames == ["xcode", "json", "github-actions"])
        for e in ReporterRegistry.entries {
            #expect(e.streams == (e.make(ReportContext()) is any StreamingReporter), "\(e.identifier)")
            #expect(!e.summary.isEmpty && !e.summary.contains("\n"), "\(e.identifier)")
            #expect(ReporterRegistry.reporter(named: e.identifier).map { type(of: $0).identifier } == e.identifier)
        }
        #expect(Set(ReporterRegistry.names).count == ReporterRegistry.names.count)
        #expect(ReporterRegistry.streamingReporter(named: "sarif", context: ReportContext()) == nil)
    }

    /// What `lint --follow` prints, one call and one flush at a time, is the batch report.
    @Test(arguments: ["xcode", "github-actions"])
    func aStreamOfFindingsIsTheBatchReport(name: String) throws {
        for result in try Self.results() {
            var reporter = try #require(ReporterRegistry.streamingReporter(named: name, context: ReportContext()))
            var printed = ""
            func call(_ write: (ReportWriter) throws(ReportWriteError) -> Void) throws {
                let out = ReportWriter()
                try write(out)
                printed += out.text
            }
            try call { out throws(ReportWriteError) in try reporter.begin(to: out) }
            for file in result.files {
                try call { out throws(ReportWriteError) in try reporter.input(file.stats.path, to: out) }
                for f in file.findings { try call { out throws(ReportWriteError) in try reporter.finding(f, to: out) } }
            }
            try call { out throws(ReportWriteError) in try reporter.end(result, to: out) }
            if name == GitHubActionsReporter.identifier {
                // Within the budget, the same annotations: the batch report orders them by
                // importance, a stream as they are decided. Past it, as many, and a notice of as many left out.
                let streamed = printed.split(separator: "\n"), batch = reporter.report(result).split(separator: "\n")
                if result.count(.error) <= AnnotationBudget.perStep && result.count(.warning) <= AnnotationBudget.perStep {
                    #expect(streamed.sorted() == batch.sorted())
                } else {
                    #expect(streamed.count == batch.count)
                    #expect(streamed.last?.prefix { $0 != "(" } == batch.last?.prefix { $0 != "(" })
                }
                #expect(streamed.last == batch.last || streamed.last?.hasPrefix("::notice title=vclint::") == true)
            } else {
                #expect(printed == reporter.report(result))
            }
        }
    }

    /// Each finding's line parses to its object in the batch report's `violations`, in the same
    /// order; the last line is the batch report without `violations`, keys in the same order.
    @Test func jsonLinesHoldTheBatchReportsObjects() throws {
        for result in try Self.results() {
            let reporter = JSONReporter(configuration: Self.configuration)
            let out = ReportWriter()
            try reporter.stream(result, to: out)
            let lines = out.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "", "every line ends with a newline")
            let objects = try lines.dropLast().map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
            }
            var batch = try #require(try JSONSerialization.jsonObject(with: Data(reporter.report(result).utf8)) as? [String: Any])
            let violations = try #require(batch.removeValue(forKey: "violations") as? [NSDictionary])
            #expect(objects.count == violations.count + 1)
            #expect(Array(objects.dropLast()) == violations)
            #expect(objects.last == batch as NSDictionary)
            let end = String(lines[lines.count - 2])
            let keys = ["\"version\":", "\"tool\":", "\"configuration\":", "\"inputs\":", "\"summary\":"].map { end.range(of: $0)?.lowerBound }
            #expect(keys.allSatisfy { $0 != nil } && keys == keys.sorted { $0! < $1! }, "\(end)")
            #expect(!out.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "control characters are escaped")
        }
    }

    /// Without a configuration (a test's reporter) the end line leaves it out, as the batch report does.
    @Test func theEndLineWithoutAConfiguration() throws {
        let out = ReportWriter()
        try JSONReporter().end(LintResult(files: []), to: out)
        #expect(out.text == #"{"version":1,"tool":{"name":"vclint","version":"\#(VCLintVersion.version)"},"inputs":[],"summary":{"error":0,"warning":0,"info":0,"files":0}}"# + "\n")
    }
}

/// `vclint lint --follow` with each streaming format on stdout, and the batch formats refused there.
@Suite(.serialized) struct FollowReporterCLITests {
    let cli = CLITests()

    /// Captures that live and batch mode judge alike (a leak's message says how long the session had
    /// gone on when it was decided, so a leak capture is not one of them).
    static let agreeing = [
        "Fixtures/reporters/hostile.log", "Fixtures/formats/uikit-warning-forms.log",
        "Fixtures/hostile/html-injection.log", "Fixtures/seeds/navtest-missing-did-disappear.log", "Fixtures/seeds/navtest-seed000.log",
    ]

    /// One controller with a second viewDidLoad: a duplicate_view_did_load warning at line 5.
    /// (Made anew each time: a stored `Data` is held through a tagged pointer, which LeakSanitizer
    /// takes for a leak at exit.)
    static var warningCapture: Data {
        Data(["initWithNibName:bundle:", "viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewDidLoad"].enumerated().map { i, m in
            "2024-03-01 10:00:0\(i).000 Shop[100:200] -[HomeViewController \(m)]\n"
        }.joined().utf8)
    }

    func fixture(_ path: String) throws -> Data { try Data(contentsOf: packageRoot.appendingPathComponent(path)) }

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-live-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func objects(_ jsonLines: String) throws -> [NSDictionary] {
        try jsonLines.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary, "\(line)")
        }
    }

    /// A finding's line is its object in `lint --reporter json` of the same capture, and the last line
    /// is that report without `violations`.
    @Test func jsonLinesAreTheBatchReport() throws {
        for path in Self.agreeing {
            let input = try fixture(path)
            let live = try cli.run(["lint", "--follow", "--reporter", "json", "-"], stdin: input)
            let batch = try cli.run(["lint", "--reporter", "json", "-"], stdin: input)
            #expect(live.status == batch.status, "\(path)")
            let lines = try Self.objects(live.stdout)
            var doc = try #require(try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any])
            let violations = try #require(doc.removeValue(forKey: "violations") as? [NSDictionary])
            /// Live mode prints in the order findings are decided; the batch report, by line.
            func key(_ o: NSDictionary) -> String { "\(o["line"]!) \(o["rule"]!) \(o["fingerprint"]!)" }
            #expect(lines.dropLast().sorted { key($0) < key($1) } == violations.sorted { key($0) < key($1) }, "\(path)")
            #expect(lines.last == doc as NSDictionary, "\(path)")
        }
    }

    @Test func githubActionsCommandsAreTheBatchOnes() throws {
        for path in Self.agreeing {
            let input = try fixture(path)
            let live = try cli.run(["lint", "--follow", "--reporter", "github-actions", "-"], stdin: input)
            let batch = try cli.run(["lint", "--reporter", "github-actions", "-"], stdin: input)
            #expect(live.status == batch.status)
            #expect(live.stdout.split(separator: "\n").sorted() == batch.stdout.split(separator: "\n").sorted(), "\(path)")
        }
    }

    /// `--strict` makes a streamed warning an error, in every streaming format, as in the end counts.
    @Test(arguments: ReporterRegistry.streamingNames)
    func strictPromotesStreamedWarnings(name: String) throws {
        let plain = try cli.run(["lint", "--follow", "--reporter", name, "-"], stdin: Self.warningCapture)
        let strict = try cli.run(["lint", "--follow", "--strict", "--reporter", name, "-"], stdin: Self.warningCapture)
        #expect(plain.status == 0 && strict.status == 1)
        #expect(plain.stderr.contains("0 errors, 1 warning") && strict.stderr.contains("1 error, 0 warnings"))
        let expected: [String: (String, String)] = [
            "xcode": ("<stdin>:5: warning: ", "<stdin>:5: error: "),
            "github-actions": ("::warning file=<stdin>,line=5,", "::error file=<stdin>,line=5,"),
            "json": (#""severity":"warning""#, #""severity":"error""#),
        ]
        let (warning, error) = try #require(expected[name])
        #expect(plain.stdout.split(separator: "\n").count == (name == "json" ? 2 : 1), "one finding")
        let finding = (plain: plain.stdout.split(separator: "\n").first ?? "", strict: strict.stdout.split(separator: "\n").first ?? "")
        #expect(finding.plain.contains(warning) && !finding.plain.contains(error), "\(plain.stdout)")
        #expect(finding.strict.contains(error) && !finding.strict.contains(warning), "\(strict.stdout)")
        if name == "json" {
            let end = try #require(try Self.objects(strict.stdout).last)
            #expect(end["summary"] as? NSDictionary == ["error": 1, "warning": 0, "info": 0, "files": 1])
            #expect((end["configuration"] as? NSDictionary)?["strict"] as? Bool == true)
        }
    }

    /// A class name holding a newline and a workflow command, a carriage return and an ESC (a custom
    /// dialect reads it whole from an ndjson message): no streamed line becomes a command for the
    /// runner or the terminal.
    @Test(arguments: ReporterRegistry.streamingNames)
    func hostileClassNameStaysInert(name: String) throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("vclint.yml")
        try Data("""
        dialects:
          - pattern: '^(?<class>[\\s\\S]+) (?<event>loaded|will|shown)$'
            events: {loaded: viewDidLoad, will: viewWillAppear, shown: viewDidAppear}
        """.utf8).write(to: config)
        let evil = "Evil\n::error::pwned\r\u{1B}[31mX"
        var capture = Data()
        for (i, event) in ["loaded", "will", "shown", "shown"].enumerated() {
            let line: [String: Any] = ["timestamp": "2024-03-01 10:00:0\(i).000000+0000", "processID": 100, "process": "Shop", "eventMessage": "\(evil) \(event)"]
            capture += try JSONSerialization.data(withJSONObject: line) + Data("\n".utf8)
        }
        let r = try cli.run(["lint", "--follow", "--config", config.path, "--reporter", name, "-"], stdin: capture)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "no raw ESC or CR: \(r.stdout.debugDescription)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        switch name {
        case "xcode":
            #expect(lines == ["<stdin>:4: error: Evil\\n::error::pwned\\r\\x1B[31mX#1 got viewDidAppear without a preceding viewWillAppear (it was appeared); expected viewWillAppear first (unbalanced_appearance)", ""])
        case "github-actions":
            #expect(lines.count == 2 && lines[0].hasPrefix("::error file=<stdin>,line=4,title=unbalanced_appearance::Evil%0A::error::pwned%0D\u{FFFD}[31mX#1 got"), "\(lines)")
        default:
            let objects = try Self.objects(r.stdout)
            #expect(objects.count == 2)
            #expect((objects.first?["controller"] as? NSDictionary)?["class"] as? String == evil, "read back exactly")
        }
    }

    /// Documents whose head holds counts are refused on stdout with one line that names the formats
    /// that stream; written to a file, they come at the end, as a batch run writes them.
    @Test(arguments: ReporterRegistry.names.filter { !ReporterRegistry.streamingNames.contains($0) })
    func batchFormatsGoToAFile(name: String) throws {
        let refused = try cli.run(["lint", "--follow", "--reporter", name, "-"], stdin: Data())
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains("xcode, json or github-actions") && refused.stderr.contains("--reporter \(name):FILE"), "\(refused.stderr)")

        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try fixture("Fixtures/seeds/navtest-missing-did-disappear.log")
        let live = try cli.run(["lint", "--follow", "--reporter", "\(name):\(dir.path)/live", "-"], stdin: input)
        let batch = try cli.run(["lint", "--reporter", "\(name):\(dir.path)/batch", "-"], stdin: input)
        #expect(live.status == 1 && batch.status == 1)
        #expect(live.stdout.hasPrefix("<stdin>:19: error: "), "findings still stream in the default format")
        #expect(try Data(contentsOf: dir.appendingPathComponent("live")) == Data(contentsOf: dir.appendingPathComponent("batch")))
    }

    /// A finding the baseline records is not streamed, as it is not counted.
    @Test(arguments: ReporterRegistry.streamingNames)
    func baselineFindingsAreNotStreamed(name: String) throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = dir.appendingPathComponent("baseline.json").path
        let created = try cli.run(["baseline", "create", "-", "--output", baseline], stdin: Self.warningCapture)
        #expect(created.status == 0, "\(created.stderr)")
        let r = try cli.run(["lint", "--follow", "--strict", "--baseline", baseline, "--reporter", name, "-"], stdin: Self.warningCapture)
        #expect(r.status == 0)
        #expect(r.stderr.contains("0 errors, 0 warnings"))
        if name == "json" {
            let lines = try Self.objects(r.stdout)
            #expect(lines.count == 1 && lines[0]["summary"] as? NSDictionary == ["error": 0, "warning": 0, "info": 0, "files": 1])
        } else {
            #expect(r.stdout.isEmpty, "\(r.stdout)")
        }
    }
}
