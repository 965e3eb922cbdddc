import Foundation
import Testing
@testable import VCLintCore

/// Whole-program behaviour: every log in Fixtures/ has its expected JSON report beside it
/// (`name.expected.json`). Regenerate after an intended change with
/// `VCLINT_UPDATE_GOLDENS=1 swift test --filter GoldenFixtureTests` and review the diff.
@Suite struct GoldenFixtureTests {
    static let fixtures = allFixtureLogs()

    static func goldenPath(_ fixture: String) -> URL {
        let url = packageRoot.appendingPathComponent(fixture)
        return url.deletingPathExtension().appendingPathExtension("expected.json")
    }

    static func report(_ fixture: String, chunkSize: Int = LintOptions.defaultChunkSize, feedSize: Int? = nil) throws -> String {
        var options = LintOptions()
        options.chunkSize = chunkSize
        let result = try lintFixture(fixture, options: options, feedSize: feedSize)
        return JSONReporter().report(LintResult(files: [result]))
    }

    @Test func thereAreFixtures() {
        #expect(Self.fixtures.count >= 25)
    }

    @Test(arguments: fixtures)
    func reportMatchesGolden(_ fixture: String) throws {
        let json = releaseVersion(try Self.report(fixture))
        let golden = Self.goldenPath(fixture)
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_GOLDENS"] == "1" {
            try json.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(json == expected, "\(fixture): report differs from \(golden.lastPathComponent)")
    }

    /// Chunk and read boundaries may fall anywhere: a tiny buffer and odd feed sizes give the same report.
    @Test(arguments: fixtures)
    func reportIsIndependentOfChunkBoundaries(_ fixture: String) throws {
        let normal = try Self.report(fixture)
        #expect(try Self.report(fixture, chunkSize: 4096, feedSize: 7) == normal)
        #expect(try Self.report(fixture, chunkSize: 1024, feedSize: 1) == normal)
    }
}

/// The fixtures' expectations were written down by hand in Fixtures/MANIFEST.md before the
/// goldens existed; the goldens must agree with them.
@Suite struct ManifestTests {
    struct Row { let file: String; let expected: [String] }

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: fixtureURL("MANIFEST.md"), encoding: .utf8)
        var rows: [Row] = []
        let entry = try Regex(#"`([a-z_]+)` \([a-z]+\) @ line (\d+)"#)
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            // A `\|` inside a cell is Markdown's escaped pipe, not a column.
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|")
                .map { $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let file = "Fixtures/" + cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let expected = cells[3].matches(of: entry).map { "\($0.output[1].substring!)@\($0.output[2].substring!)" }
            rows.append(Row(file: file, expected: expected.sorted()))
        }
        return rows
    }

    @Test func everyFixtureIsInTheManifest() throws {
        let listed = Set(try Self.rows().map(\.file))
        for f in allFixtureLogs() { #expect(listed.contains(f), "\(f) is not described in Fixtures/MANIFEST.md") }
    }

    @Test func findingsMatchTheManifest() throws {
        for row in try Self.rows() {
            let result = try lintFixture(row.file)
            #expect(result.summary.sorted() == row.expected, "\(row.file)")
        }
    }

    @Test func seed000CaptureLintsClean() throws {
        let result = try lintFixture("Fixtures/seeds/navtest-seed000.log")
        #expect(result.findings.isEmpty)
        #expect(result.stats.sessions == 1)
        #expect(result.stats.controllers == 3)
    }
}
