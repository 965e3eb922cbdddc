import Foundation
import Testing
@testable import VCLintCore

/// `vclint merge`: a CI matrix lints shards of the captures, a final job merges their JSON reports.
/// The merged report must be the report of one run over every capture, in every format.
@Suite struct MergeRoundTripTests {
    static let fixtures = allFixtureLogs()

    /// Every reporter's output of a result read back from its own JSON report is the original's, for
    /// every fixture: stats, findings, related lines, times, addresses and fingerprints survive.
    @Test(arguments: fixtures)
    func jsonReportReadsBackToTheSameReports(_ fixture: String) throws {
        var options = LintOptions()
        options.rules = .all
        let result = LintResult(files: [try lintFixture(fixture, options: options)])
        let configuration = RunConfiguration(options: options)
        let json = JSONReporter(configuration: configuration).report(result)
        let back = try LoadedReport.parse(Data(json.utf8), path: "shard.json")
        #expect(back.configuration == configuration)
        let context = ReportContext(configuration: configuration)
        for name in ReporterRegistry.names {
            let reporter = try #require(ReporterRegistry.reporter(named: name, context: context))
            #expect(reporter.report(back.result) == reporter.report(result), "\(fixture): \(name) differs after the JSON round trip")
        }
    }

    @Test func declarationsSurvive() throws {
        var result = LintResult(files: [try lintFixture("Fixtures/seeds/navtest-missing-dealloc.log")])
        let declared = result.files[0].findings[0].controller.className
        result.files[0].findings.attach([declared: Declaration(path: "Shop/Child1ViewController.swift", line: 12)])
        let configuration = RunConfiguration(options: LintOptions())
        let back = try LoadedReport.parse(Data(JSONReporter(configuration: configuration).report(result).utf8), path: "a.json")
        #expect(back.result.findings[0].declaration == Declaration(path: "Shop/Child1ViewController.swift", line: 12))
        #expect(SARIFReporter().report(back.result) == SARIFReporter().report(result))
    }

    @Test func configurationsThatDifferSayHow() {
        var a = LintOptions()
        var b = LintOptions()
        b.timeline.leakGraceSeconds = 5
        #expect(RunConfiguration(options: b).difference(from: RunConfiguration(options: a), there: "in a.json")
            == "leak_grace_seconds is 5 here, 3 in a.json")
        b = LintOptions()
        b.rules = RuleSettings(enabled: a.rules.enabled.union(["slow_transition"]))
        #expect(RunConfiguration(options: b).difference(from: RunConfiguration(options: a)) == "rule slow_transition is enabled here, disabled there")
        b = LintOptions()
        b.rules = RuleSettings(severities: ["late_dealloc": .error])
        #expect(RunConfiguration(options: b).difference(from: RunConfiguration(options: a)) == "rule late_dealloc is error here, warning there")
        #expect(RunConfiguration(options: a, strict: true).difference(from: RunConfiguration(options: a)) == "--strict was given here, not given there")
        a.timeline.ignoreClasses = [try! PCRE2Pattern("^UI")]
        #expect(RunConfiguration(options: a).difference(from: RunConfiguration(options: LintOptions())) != nil)
        #expect(RunConfiguration(options: LintOptions()).difference(from: RunConfiguration(options: LintOptions())) == nil)
    }
}

@Suite(.serialized) struct MergeCLITests {
    let cli = CLITests()

    /// Three shards of different kinds: a directory of seeds (errors, a missing did-callback), flows
    /// (a warning, infos, times with offsets), and the hostile fixture (text that reports escape).
    static let shards = ["Fixtures/seeds", "Fixtures/flows", "Fixtures/reporters/hostile.log"]

    func scratch() throws -> URL {
        let dir = scratchRoot.appendingPathComponent("vclint-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Lints each shard to a JSON report with `flags` (exit 0 or 1), returns the reports' paths.
    func lintShards(_ flags: [String], in dir: URL) throws -> [String] {
        try Self.shards.enumerated().map { i, shard in
            let path = dir.appendingPathComponent("shard-\(i + 1).json").path
            let r = try cli.run(["lint", shard, "--reporter", "json:\(path)", "--quiet"] + flags)
            #expect(r.status == 0 || r.status == 1, "\(shard): \(r.stderr)")
            return path
        }
    }

    struct Options: CustomTestStringConvertible, Sendable {
        let lint: [String]
        let merge: [String]
        let both: [String]
        var testDescription: String { (lint + ["|"] + both).joined(separator: " ") }
    }

    static let optionSets: [Options] = [
        Options(lint: [], merge: [], both: []),
        Options(lint: ["--enable", "slow_transition", "--leak-grace-seconds", "5", "--disable", "memory_warning"],
                merge: [], both: []),
        Options(lint: [], merge: [], both: ["--strict"]),
        Options(lint: [], merge: [], both: ["--max-warnings", "0"]),
        Options(lint: [], merge: [], both: ["--baseline", "Fixtures/reporters/merge-baseline.json"]),
    ]

    /// `lint a b c` ≡ `merge (lint a) (lint b) (lint c)`: the same stdout in every format and the
    /// same exit code.
    @Test(arguments: optionSets)
    func lintOfEverythingIsTheMergeOfItsShards(_ o: Options) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Shards are linted with the rule options; --strict, --max-warnings and --baseline are the
        // merge's (as docs/ci.md#sharded-runs-one-merged-report does it).
        let reports = try lintShards(o.lint, in: dir)
        for name in ReporterRegistry.names {
            let direct = try cli.run(["lint"] + Self.shards + o.lint + o.both + ["--reporter", name])
            let merged = try cli.run(["merge"] + reports + o.merge + o.both + ["--reporter", name])
            #expect(merged.stdout == direct.stdout, "\(name): merge prints another report than lint")
            #expect(merged.status == direct.status, "\(name): merge exits \(merged.status), lint \(direct.status)")
            let notes = { (s: String) in s.split(separator: "\n").filter { $0.hasPrefix("vclint:") } }
            #expect(notes(merged.stderr) == notes(direct.stderr))
            #expect(!direct.stdout.isEmpty || name == "xcode" || name == "github-actions")
        }
    }

    /// Shards linted with the baseline already: merge does not apply it twice (its notes would say
    /// nothing was suppressed), and says so.
    @Test func aBaselineTheShardsAppliedIsNotAppliedTwice() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = ["--baseline", "Fixtures/reporters/merge-baseline.json"]
        let reports = try lintShards(baseline, in: dir)
        let direct = try cli.run(["lint"] + Self.shards + baseline + ["--reporter", "json"])
        let merged = try cli.run(["merge"] + reports + baseline + ["--reporter", "json"])
        #expect(merged.stdout == direct.stdout)
        #expect(merged.stderr.contains("vclint: the shards were linted with the baseline Fixtures/reporters/merge-baseline.json already"))
        let other = try cli.run(["merge"] + reports + ["--baseline", "Fixtures/seeds/navtest-seed000.expected.json"])
        #expect(other.status == 2)
    }

    /// Written to files, in one run, the reports are the same as well.
    @Test func reportFilesAreTheSame() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reports = try lintShards([], in: dir)
        let names = ["sarif", "junit", "checkstyle"]
        func files(_ prefix: String) -> [String] { names.flatMap { ["--reporter", "\($0):\(dir.path)/\(prefix).\($0)"] } }
        let direct = try cli.run(["lint"] + Self.shards + files("direct"))
        let merged = try cli.run(["merge"] + reports + files("merged"))
        #expect(direct.status == 1 && merged.status == 1)
        for n in names {
            let a = try String(contentsOfFile: "\(dir.path)/direct.\(n)", encoding: .utf8)
            let b = try String(contentsOfFile: "\(dir.path)/merged.\(n)", encoding: .utf8)
            #expect(a == b, "\(n)")
        }
        #expect(merged.stderr.hasSuffix(" from 3 reports\n"))
    }

    /// A refused merge: exit 2, nothing on stdout, one stderr line naming the report and why.
    func refused(_ args: [String], _ needle: String) throws {
        let r = try cli.run(["merge"] + args)
        #expect(r.status == 2, "\(args): exit \(r.status)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("vclint: error: "))
        #expect(r.stderr.contains(needle), "\(r.stderr) does not say \(needle)")
    }

    @Test func reportsOfAnotherConfigurationAreRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        #expect(try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log", "--reporter", "json:\(a)"]).status == 0)
        #expect(try cli.run(["lint", "Fixtures/flows/leak-pop.log", "--leak-grace-seconds", "5", "--reporter", "json:\(b)"]).status == 1)
        try refused([a, b], "\(b): linted with another rule configuration: leak_grace_seconds is 5 here, 3 in \(a)")
        #expect(try cli.run(["lint", "Fixtures/flows/leak-pop.log", "--strict", "--reporter", "json:\(b)"]).status == 1)
        try refused([a, b], "--strict was given here, not given there".replacingOccurrences(of: "there", with: "in \(a)"))
        #expect(try cli.run(["lint", "Fixtures/flows/leak-pop.log", "--disable", "leaked_controller", "--reporter", "json:\(b)"]).status == 0)
        try refused([a, b], "rule leaked_controller is disabled here, enabled in \(a)")
    }

    @Test func reportsOfAnotherVclintAreRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json").path
        #expect(try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log", "--reporter", "json:\(a)"]).status == 0)
        let text = try String(contentsOfFile: a, encoding: .utf8)
        func variant(_ name: String, _ edit: (String) -> String) throws -> String {
            let p = dir.appendingPathComponent(name).path
            try edit(text).write(toFile: p, atomically: true, encoding: .utf8)
            return p
        }
        let version = try variant("v2.json") { $0.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 2,") }
        try refused([a, version], "\(version): report version 2, and this vclint reads version 1")
        let tool = try variant("tool.json") { $0.replacingOccurrences(of: "\"version\": \"\(VCLintVersion.version)\"", with: "\"version\": \"9.9.9\"") }
        try refused([a, tool], "\(tool): made by vclint 9.9.9, and this is vclint \(VCLintVersion.version)")
        let old = try variant("old.json") { t in
            let start = t.range(of: "  \"configuration\": {")!.lowerBound
            let end = t.range(of: "  \"inputs\": [")!.lowerBound
            return String(t[..<start]) + String(t[end...])
        }
        try refused([old], "\(old): records no rule configuration")
        try refused([a, "Fixtures/seeds/navtest-seed000.log"], "navtest-seed000.log: not a vclint JSON report (it is not JSON)")
        try refused([a, dir.appendingPathComponent("missing.json").path], "missing.json: no such file or directory")
        try refused([a, a], "Fixtures/seeds/navtest-seed000.log was linted by \(a) too")
        let leaks = dir.appendingPathComponent("leaks.json").path
        #expect(try cli.run(["leaks", "Fixtures/seeds/navtest-seed000.log", "--format", "json", "--output", leaks]).status == 0)
        try refused([leaks], "\(leaks): not a vclint lint report; merge reads what `vclint lint --reporter json` writes")
        try refused([a, "--reporter", "json:\(a)"], a)  // the output would overwrite a report being merged
        #expect(try String(contentsOfFile: a, encoding: .utf8) == text)
    }

    /// One capture named two ways by two shards is one input: refused, with the way each shard
    /// named it, unless --allow-duplicate-inputs; a shard of another folder's file of that name is not.
    @Test func oneCaptureInTwoShardsIsRefusedHoweverItIsNamed() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        #expect(try cli.run(["lint", "Fixtures/flows/leak-pop.log", "--quiet", "--reporter", "json:\(a)"]).status == 1)
        #expect(try cli.run(["lint", "./Fixtures//flows/../flows/leak-pop.log", "--quiet", "--reporter", "json:\(b)"]).status == 1)
        try refused([a, b], "\(b): ./Fixtures//flows/../flows/leak-pop.log (Fixtures/flows/leak-pop.log in \(a)) was linted by \(a) too; give each capture to one shard (or pass --allow-duplicate-inputs)")
        let allowed = try cli.run(["merge", a, b, "--allow-duplicate-inputs", "--reporter", "json"])
        #expect(allowed.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(allowed.stdout.utf8)) as? [String: Any])
        #expect((doc["inputs"] as? [Any])?.count == 2)
        #expect(ReportMerger.lexical("./c.log") == "c.log")
        #expect(ReportMerger.lexical("logs//x/../c.log") == "logs/c.log")
        #expect(ReportMerger.lexical("/a/./b/../../c.log") == "/c.log")
        #expect(ReportMerger.lexical("../c.log") == "../c.log")
        #expect(ReportMerger.lexical("logs/c.log") != ReportMerger.lexical("other/c.log"))
    }

    /// A finding no lint run could have written is refused with the shard and the violation named:
    /// a line outside its input, a rule this vclint does not have, a path that is not an input.
    @Test func impossibleFindingsAreRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json").path
        #expect(try cli.run(["lint", "Fixtures/flows/leak-pop.log", "--quiet", "--reporter", "json:\(a)"]).status == 1)
        let text = try String(contentsOfFile: a, encoding: .utf8)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let violation = try #require((doc["violations"] as? [[String: Any]])?.first)
        let line = try #require(violation["line"] as? Int), rule = try #require(violation["rule"] as? String)
        let lines = try #require((doc["inputs"] as? [[String: Any]])?.first?["lines"] as? Int)
        let violations = try #require(text.range(of: "\"violations\"")).upperBound
        func variant(_ name: String, _ from: String, _ to: String) throws -> String {
            let p = dir.appendingPathComponent(name).path
            let first = try #require(text.range(of: from, range: violations..<text.endIndex))
            try text.replacingCharacters(in: first, with: to).write(toFile: p, atomically: true, encoding: .utf8)
            return p
        }
        for bad in [-1, 0, lines + 1, 1 << 48 + 1] {
            let p = try variant("line\(bad).json", "\"line\": \(line),", "\"line\": \(bad),")
            try refused([p], "\(p): not a vclint lint report as this vclint writes it (violation 1 (\(rule)) has its line \(bad), and Fixtures/flows/leak-pop.log has lines 1 to \(lines))")
        }
        let unknown = try variant("rule.json", "\"rule\": \"\(rule)\"", "\"rule\": \"no_such_rule\"")
        try refused([unknown], "violation 1 names the rule no_such_rule, which vclint \(VCLintVersion.version) does not have")
        let elsewhere = try variant("path.json", "\"path\": \"Fixtures/flows/leak-pop.log\"", "\"path\": \"other.log\"")
        try refused([elsewhere], "violation 1 (\(rule)) names other.log, which is not one of its inputs")
        #expect(try cli.run(["merge", a]).status == 1)
    }

    /// What lint warned about while reading an input, merge says again (the JSON report records it).
    @Test func readingWarningsSurviveAMerge() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("big.ndjson").path
        func record(_ time: String, _ message: String, pad: Int = 0) -> String {
            (pad > 0 ? #"{"zpad":""# + String(repeating: "p", count: pad) + #"","# : "{")
                + #""timestamp":"2017-02-11 17:30:\#(time)+0000","eventMessage":"<navTest.FooViewController: 0x1> \#(message)"}"# + "\n"
        }
        try Data((record("20.100000", "viewDidLoad") + record("21.100000", "viewWillAppear", pad: 2_000_000)).utf8).write(to: URL(fileURLWithPath: capture))
        let shard = dir.appendingPathComponent("shard.json").path
        let lint = try cli.run(["lint", capture, "--quiet", "--reporter", "json:\(shard)"])
        #expect(lint.status == 0)
        let warning = "vclint: warning: \(capture): 1 line longer than 1 MiB read by its first 64 KiB only (the rest not linted)"
        #expect(lint.stderr == warning + "\n")
        let merged = try cli.run(["merge", shard, "--quiet"])
        #expect(merged.status == 0)
        #expect(merged.stderr == warning + "\n")
        let again = dir.appendingPathComponent("again.json").path
        #expect(try cli.run(["merge", shard, "--quiet", "--reporter", "json:\(again)"]).status == 0)
        #expect(try cli.run(["merge", again, "--quiet"]).stderr == warning + "\n")
    }

    @Test func mergeNeedsReports() throws {
        let r = try cli.run(["merge"])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: name the JSON reports to merge (vclint merge shard-1.json shard-2.json …) (see `vclint help`)\n")
    }

    /// `vclint leaks` over the shards' JSON leak reports gives the leak report of every capture.
    @Test func leaksOfEverythingIsTheMergeOfItsShards() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shards = Self.shards + ["Fixtures/dialects", "Fixtures/envelopes"]
        let reports = try shards.enumerated().map { i, shard in
            let path = dir.appendingPathComponent("leaks-\(i + 1).json").path
            let r = try cli.run(["leaks", shard, "--format", "json", "--output", path])
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            return path
        }
        for format in ["text", "json", "markdown", "html"] {
            let direct = try cli.run(["leaks"] + shards + ["--format", format])
            let merged = try cli.run(["leaks"] + reports + ["--format", format])
            #expect(merged.stdout == direct.stdout, "\(format)")
            #expect(merged.status == direct.status)
        }
        #expect(try cli.run(["leaks"] + reports).status == 1)
        let other = dir.appendingPathComponent("grace.json").path
        #expect(try cli.run(["leaks", "Fixtures/flows", "--leak-grace-seconds", "9", "--format", "json", "--output", other]).status != 2)
        let r = try cli.run(["leaks", reports[0], other])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: \(other): linted with another rule configuration: leak_grace_seconds is 9 here, 3 in \(reports[0]); lint every shard with the same .vclint.yml and flags\n")
        let lint = dir.appendingPathComponent("lint.json").path
        _ = try cli.run(["lint", "Fixtures/flows", "--reporter", "json:\(lint)"])
        let wrong = try cli.run(["leaks", lint])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("a lint report; vclint leaks reads the JSON of `vclint leaks --format json`"))
        let mixed = try cli.run(["leaks", reports[0], "Fixtures/flows/leak-pop.log"])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.split(separator: "\n").count == 1)
    }
}
