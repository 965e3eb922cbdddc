import Foundation
import Testing
@testable import VCLintCore

/// A mistyped rule id, reporter or `.vclint.yml` key is a usage error that names what was likely meant.
@Suite(.serialized) struct DidYouMeanTests {
    let cli = CLITests()
    static let capture = "Fixtures/flows/leak-pop.log"

    func fails(_ args: [String], saying expected: String) throws {
        let r = try cli.run(args)
        #expect(r.status == 2, "\(args): exit \(r.status)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(expected), "\(r.stderr) does not say \(expected)")
    }

    @Test func ruleIds() throws {
        try fails(["lint", "--disable", "leaked_controler", Self.capture], saying: "unknown rule 'leaked_controler'; did you mean 'leaked_controller'?")
        try fails(["explain", "late_deallok"], saying: "unknown rule 'late_deallok'; did you mean 'late_dealloc'?")
        // Nothing close: the list, without a guess.
        try fails(["lint", "--enable", "no_such_rule", Self.capture], saying: "unknown rule 'no_such_rule'; `vclint rules` lists them")
        let far = try cli.run(["lint", "--enable", "no_such_rule", Self.capture])
        #expect(!far.stderr.contains("did you mean"))
    }

    @Test func reporters() throws {
        try fails(["lint", "--reporter", "sarf", Self.capture], saying: "unknown reporter 'sarf'; did you mean 'sarif'?")
        try fails(["lint", "--reporter", "codeclimat:out.json", Self.capture], saying: "did you mean 'codeclimate'?")
    }

    @Test func configurationKeys() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-dym-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func config(_ text: String) throws -> String {
            let p = dir.appendingPathComponent("c\(text.count).yml").path
            try text.write(toFile: p, atomically: true, encoding: .utf8)
            return p
        }
        try fails(["lint", "--config", try config("leak_grace_second: 5\n"), Self.capture], saying: "unknown key; did you mean 'leak_grace_seconds'?")
        try fails(["lint", "--config", try config("leaked_controler:\n  severity: warning\n"), Self.capture], saying: "did you mean 'leaked_controller'?")
        try fails(["lint", "--config", try config("leaked_controller:\n  severty: warning\n"), Self.capture], saying: "unknown parameter for leaked_controller; did you mean 'severity'?")
        try fails(["lint", "--config", try config("disabled_rules: [late_deallok]\n"), Self.capture], saying: "unknown rule 'late_deallok'; did you mean 'late_dealloc'?")
    }

    @Test func suggestionsAreTyposOnly() {
        #expect(EditDistance.suggestion(for: "JSON", among: ReporterRegistry.names) == "json")  // names are lower case
        #expect(EditDistance.suggestion(for: "json", among: ReporterRegistry.names) == nil)  // itself
        #expect(EditDistance.suggestion(for: "xcod", among: ReporterRegistry.names) == "xcode")
        #expect(EditDistance.suggestion(for: "markdown-table", among: ReporterRegistry.names) == nil)
    }
}
