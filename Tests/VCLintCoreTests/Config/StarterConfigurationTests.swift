import Foundation
import Testing
@testable import VCLintCore

@Suite struct StarterConfigurationTests {
    /// The starter's commented-out settings: `#key: …` lines.
    static func settingLines() -> [Int] {
        Configuration.starter.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { i, line in
            line.range(of: #"^#[a-z_]+:"#, options: .regularExpression) != nil ? i : nil
        }
    }

    static func uncomment(_ chosen: [Int]) -> String {
        var lines = Configuration.starter.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for i in chosen { lines[i].removeFirst() }
        return lines.joined(separator: "\n")
    }

    @Test func theStarterIsAValidConfiguration() throws {
        let c = try Configuration.parse(Configuration.starter, path: ".vclint.yml")
        #expect(c.leakGraceSeconds == 3)
        #expect(c.ignoreClasses == ["^UI", "^_UI"])
        #expect(Self.settingLines().count >= 10)
    }

    /// Every combination of uncommented settings (each line loses its #) is a valid configuration:
    /// one line per setting, every key once.
    @Test func everyUncommentingIsValid() throws {
        let lines = Self.settingLines()
        #expect(lines.count <= 14, "too many combinations to try them all")
        var tried = 0
        for mask in 0..<(1 << lines.count) {
            let chosen = lines.indices.filter { mask & (1 << $0) != 0 }.map { lines[$0] }
            let yaml = Self.uncomment(chosen)
            do {
                _ = try Configuration.parse(yaml, path: ".vclint.yml")
            } catch {
                Issue.record("uncommenting lines \(chosen.map { $0 + 1 }) gives: \(error.description)")
                return
            }
            tried += 1
        }
        #expect(tried == 1 << lines.count)
        // All of them at once sets everything they name.
        let all = try Configuration.parse(Self.uncomment(lines), path: ".vclint.yml")
        #expect(all.disabledRules == ["memory_warning"] && all.optInRules == ["slow_transition"])
        #expect(all.dialects.count == 1 && all.included.count == 2 && all.excluded.count == 2)
        // A rule's section: each parameter once, with the rule it is chiefly for, at another severity.
        #expect(all.severities["leaked_controller"] == .warning && all.severities["slow_transition"] == .error)
    }
}
