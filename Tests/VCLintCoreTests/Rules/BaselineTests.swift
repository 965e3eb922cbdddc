import Foundation
import Testing
@testable import VCLintCore

@Suite(.serialized) struct BaselineTests {
    let cli = CLITests()

    func temp(_ name: String) -> String {
        scratchRoot.appendingPathComponent("vclint-\(UUID().uuidString)-\(name)").path
    }

    /// The missing-dealloc capture again, a day later, with other lines before it: same bug,
    /// other lines and times.
    func shiftedCapture() throws -> String {
        let text = try String(contentsOf: fixtureURL("seeds/navtest-missing-dealloc.log"), encoding: .utf8)
        let shifted = text.replacingOccurrences(of: "2017-02-11", with: "2017-02-12")
        let noise = (1...7).map { "2017-02-12 09:00:0\($0).000 navTest[1201:17086] [Sync] batch \($0)" }.joined(separator: "\n")
        let path = temp("tomorrow.log")
        try (noise + "\n" + shifted.replacingOccurrences(of: "[933:", with: "[1201:")).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func baselineSuppressesItsFindingsAgainAndInANewCapture() throws {
        let baseline = temp("baseline.json")
        let create = try cli.run(["baseline", "create", "Fixtures/seeds/navtest-missing-dealloc.log", "--output", baseline])
        #expect(create.status == 0)
        #expect(create.stderr.contains("recorded 1 finding"))

        let again = try cli.run(["lint", "--baseline", baseline, "Fixtures/seeds/navtest-missing-dealloc.log"])
        #expect(again.status == 0)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("1 finding suppressed by the baseline"))

        let tomorrow = try shiftedCapture()
        let plain = try cli.run(["lint", tomorrow])
        #expect(plain.status == 1, "the shifted capture has the leak at another line")
        #expect(plain.stdout.contains(":22: error:"))
        let suppressed = try cli.run(["lint", "--baseline", baseline, tomorrow])
        #expect(suppressed.status == 0)
        #expect(suppressed.stderr.contains("1 finding suppressed"))
    }

    @Test func aNewKindOfFindingStillFails() throws {
        let baseline = temp("baseline.json")
        _ = try cli.run(["baseline", "create", "Fixtures/seeds/navtest-missing-dealloc.log", "--output", baseline])
        let r = try cli.run(["lint", "--baseline", baseline, "Fixtures/seeds/navtest-dismiss-end-early.log"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("(completion_before_disappearance)"))
        #expect(r.stderr.contains("0 findings suppressed"))
        #expect(r.stderr.contains("baseline entry no longer occurs: leaked_controller Child1ViewController"))
    }

    @Test func badBaselineExitsTwo() throws {
        let missing = try cli.run(["lint", "--baseline", "nope.json", "Fixtures/seeds/navtest-seed000.log"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "vclint: error: nope.json: no such file or directory\n")
        let junk = temp("junk.json")
        try "{\"version\": 7}".write(toFile: junk, atomically: true, encoding: .utf8)
        let bad = try cli.run(["lint", "--baseline", junk, "Fixtures/seeds/navtest-seed000.log"])
        #expect(bad.status == 2)
        #expect(bad.stderr.split(separator: "\n").count == 1)
        #expect(bad.stderr.contains("unsupported baseline version"))
    }

    @Test func roundTrip() throws {
        let result = LintResult(files: [try lintFixture("Fixtures/seeds/navtest-missing-dealloc.log")])
        let b = Baseline(result: result)
        let parsed = try Baseline.parse(Data(b.serialized().utf8), path: "b.json")
        #expect(parsed == b)
        #expect(b.apply(to: result).suppressed == 1)
        #expect(b.apply(to: result).result.findings.isEmpty)
    }
}
