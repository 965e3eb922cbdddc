import Foundation
import Testing
@testable import VCLintCore

/// Every input that once broke the fuzz target (Tests/Fuzz/run.sh), kept in Fixtures/fuzz/, replayed
/// against the target's oracles: no crash, physical line numbers, findings that do not depend on how
/// reads split the input, and reports that stay well-formed. (Their exact findings: MANIFEST.md.)
@Suite struct FuzzRegressionTests {
    static let crashers = allFixtureLogs().filter { $0.hasPrefix("Fixtures/fuzz/") }

    @Test func thereAreCrashers() {
        #expect(!Self.crashers.isEmpty)
    }

    @Test(arguments: crashers)
    func replay(_ fixture: String) throws {
        let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
        let physicalLines = bytes.filter { $0 == 0x0A }.count + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
        var options = LintOptions()
        options.rules = .all
        for chunk in [256, 1024, LintOptions.defaultChunkSize] {
            options.chunkSize = chunk
            let linter = Linter(options: options)
            let whole = linter.lint(bytes: bytes, path: fixture)
            let expected = whole.summary
            #expect(whole.stats.lines == physicalLines)
            for f in whole.findings {
                #expect((1...physicalLines).contains(f.line), "\(f.rule) at line \(f.line)")
                for r in f.related { #expect((1...physicalLines).contains(r.line)) }
            }
            // Every read size up to 64 bytes, then a few larger ones: each puts the boundaries elsewhere.
            for feed in Array(1...64) + [97, 255, 1000, 4096] {
                let r = linter.lint(bytes: bytes, path: fixture, feedSize: feed)
                #expect(r.summary == expected, "chunk \(chunk), reads of \(feed) bytes")
                #expect(r.stats.lines == whole.stats.lines && r.stats.events == whole.stats.events)
            }
            let result = LintResult(files: [whole])
            for name in ReporterRegistry.names {
                let text = ReporterRegistry.reporter(named: name, rules: options.rules)!.report(result)
                #expect(text.isEmpty || text.hasSuffix("\n"), "\(name)")
                if name == JSONReporter.identifier || name == SARIFReporter.identifier {
                    #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(name) is not JSON")
                }
            }
        }
    }
}
