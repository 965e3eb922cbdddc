import Foundation
import Testing
@testable import VCLintCore

/// `--source-root` reports: what the suppression comments of `Fixtures/suppressions/src` silence and
/// report (JSON golden with `suppressed`), and `--location source` in the xcode and JSON reports (goldens),
/// read by the problem matcher of docs/ci.md (`.github/vclint-matcher.json`).
@Suite struct SourceLocationTests {
    static let capture = "Fixtures/suppressions/session.capture"
    static let sources = packageRoot.path + "/Fixtures/suppressions/src"

    /// The fixture capture (leaks of SessionViewController, ProfileViewController and CartViewController)
    /// with the fixture sources; `location`: `--location source`.
    static func result(location: FindingLocation = .log) throws -> LintResult {
        var result = LintResult(files: [try lintFixture(capture)])
        result.attachDeclarations(under: sources)
        if location == .source { result.locateAtDeclarations() }
        return result
    }

    /// The report with the package root taken out of its paths, compared with (or, with
    /// VCLINT_UPDATE_GOLDENS=1, written to) `Fixtures/suppressions/NAME`.
    static func expectGolden(_ report: String, _ name: String) throws {
        let text = releaseVersion(report.replacingOccurrences(of: packageRoot.path + "/", with: ""))
        let url = fixtureURL("suppressions/" + name)
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_GOLDENS"] == "1" {
            try Data(text.utf8).write(to: url, options: .atomic)
        }
        #expect(text == String(decoding: try Data(contentsOf: url), as: UTF8.self), "differs from \(name)")
    }

    @Test func theFixtureFindings() throws {
        let plain = LintResult(files: [try lintFixture(Self.capture)])
        #expect(Set(plain.findings.map { $0.controller.className }) == ["SessionViewController", "ProfileViewController", "CartViewController"])
        let result = try Self.result()
        // Session's leak is silenced; Profile's comment has no reason and Cart's names an unknown rule.
        #expect(result.suppressed.map(\.finding.controller.className) == ["SessionViewController"])
        #expect(result.findings.map(\.rule).sorted() == ["invalid_suppression", "invalid_suppression", "leaked_controller", "leaked_controller", "unused_suppression"])
        let unused = try #require(result.findings.first { $0.rule == "unused_suppression" })
        #expect(unused.path.hasSuffix("Screens/SessionViewController.swift") && unused.line == 6, "the late_dealloc comment silenced nothing")
    }

    @Test func jsonReportListsWhatWasSuppressed() throws {
        try Self.expectGolden(JSONReporter().report(try Self.result()), "suppressions.expected.json")
    }

    @Test func locationSourceInXcodeAndJSON() throws {
        let result = try Self.result(location: .source)
        let xcode = XcodeReporter().report(result)
        try Self.expectGolden(xcode, "location-source.expected.xcode")
        try Self.expectGolden(JSONReporter().report(result), "location-source.expected.json")
        let leak = try #require(result.findings.first { $0.rule == "leaked_controller" && $0.controller.className == "ProfileViewController" })
        #expect(leak.path == Self.sources + "/App/Screens/ProfileViewController.swift" && leak.line == 4)
        #expect(leak.related.first?.path == Self.capture && leak.related.first?.note == "log line of the finding")
        #expect(xcode.contains("\(Self.sources)/App/Screens/ProfileViewController.swift:4: error: "))
        #expect(xcode.contains("\(Self.capture):\(leak.logLine!.line): note: logged here (leaked_controller)\n"))
        // SARIF names the log line once, among the related locations.
        let sarif = SARIFReporter().report(result)
        #expect(sarif.components(separatedBy: "log line of the finding").count - 1 == result.findings.filter { $0.declaration != nil }.count)
        #expect(GitHubActionsReporter().report(result).contains("::\(Self.capture):\(leak.logLine!.line): "))
    }

    /// The command line: `--source-root` and `--location source` give the golden's lines (with the
    /// paths as given), and the run fails on the two leaks left.
    @Test func theCommandLineLocatesAtTheSource() throws {
        let r = try CLITests().run(["lint", Self.capture, "--source-root", "Fixtures/suppressions/src", "--location", "source", "--quiet"], cwd: packageRoot)
        #expect(r.status == 1)
        #expect(r.stdout == String(decoding: try Data(contentsOf: fixtureURL("suppressions/location-source.expected.xcode")), as: UTF8.self))
    }

    /// Without `--source-root` there is no source to point at: the findings keep their log lines, and
    /// one note says why (a `.vclint.yml` may ask for `location: source` in runs without sources).
    @Test func locationSourceWithoutSourcesSaysSo() throws {
        let r = try CLITests().run(["lint", Self.capture, "--location", "source", "--quiet"], cwd: packageRoot)
        let plain = try CLITests().run(["lint", Self.capture, "--quiet"], cwd: packageRoot)
        #expect(r.status == plain.status)
        #expect(r.stdout == plain.stdout)
        #expect(r.stderr.contains("vclint: note: location: source needs --source-root"))
        #expect(!plain.stderr.contains("--source-root"))
    }

    /// The matcher of docs/ci.md reads every error and warning line of the xcode report, with and
    /// without `--location source`, as file, line, severity, message and rule; notes are left alone.
    @Test(arguments: [FindingLocation.log, .source])
    func problemMatcherReadsTheXcodeLines(_ location: FindingLocation) throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent(".github/vclint-matcher.json"))
        let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pattern = try #require(((doc["problemMatcher"] as? [[String: Any]])?.first?["pattern"] as? [[String: Any]])?.first)
        let regex = try NSRegularExpression(pattern: try #require(pattern["regexp"] as? String))
        #expect(pattern["file"] as? Int == 1 && pattern["line"] as? Int == 2 && pattern["severity"] as? Int == 3 && pattern["code"] as? Int == 5)
        let result = try Self.result(location: location)
        let lines = XcodeReporter().report(result).split(separator: "\n").map(String.init)
        var matched = 0
        for (line, finding) in zip(lines.filter { !$0.contains(": note: ") }, result.findings) {
            let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line))
            if finding.severity == .info {
                #expect(match == nil, "an info line is no problem: \(line)")
                continue
            }
            let m = try #require(match, "\(line)")
            func group(_ i: Int) -> String { String(line[Range(m.range(at: i), in: line)!]) }
            #expect(group(1) == finding.path && Int(group(2)) == finding.line && group(3) == finding.severity.rawValue && group(5) == finding.rule)
            matched += 1
        }
        #expect(matched == result.findings.filter { $0.severity != .info }.count && matched > 0)
        for note in lines where note.contains(": note: ") {
            #expect(regex.firstMatch(in: note, range: NSRange(note.startIndex..., in: note)) == nil)
        }
        if location == .source { #expect(lines.contains { $0.hasPrefix(Self.sources + "/App/Screens/ProfileViewController.swift:4: error: ") }) }
    }

    /// `location` is a setting with a flag: the file and `--location` take log or source, and the
    /// report does not record it (reports that differ only in it merge).
    @Test func locationIsADisplaySetting() throws {
        let s = try #require(Setting.named("location"))
        #expect(s.flag == "location" && !s.isRecorded && s.defaultValue == .string("log"))
        var options = LintOptions()
        try s.apply(argument: "source", to: &options)
        #expect(options.location == .source)
        #expect(throws: Setting.ArgumentError.self) { try s.apply(argument: "file", to: &options) }
        #expect(!RunConfiguration(options: options).json.serialized(pretty: false).contains("location"))
    }
}
