import Foundation
import Testing
@testable import VCLintCore

@Suite struct YAMLErrorTests {
    func error(_ yaml: String) -> String {
        do {
            _ = try Configuration.parse(yaml, path: "cfg.yml")
            return "no error"
        } catch {
            return error.description
        }
    }

    /// Each names the file, line and column, and says what is wrong in the writer's terms.
    @Test func errorsNameWhereAndWhatInPlainWords() {
        #expect(error("late_dealloc:\n  severity: error\n severity: info\n") == "cfg.yml:3:2: invalid YAML: this line is not indented like the keys above it (or the line above is not finished)")
        #expect(error("disabled_rules: [memory_warning\nopt_in_rules: []\n") == "cfg.yml:2:13: invalid YAML: a [ ] list is not closed, or its items are not separated by commas")
        #expect(error("a: b: c\n") == "cfg.yml:1:5: invalid YAML: a ':' where no mapping can start: quote a value that holds ': ', or check the indentation of the line above")
        #expect(error("dialects:\n\t- pattern: x\n") == "cfg.yml:2:1: invalid YAML: a character that cannot start a value here (a tab, `, @ or %): indent with spaces, and quote such a value")
        #expect(error("ignore_classes: [\"^\\[UI\"]\n").hasPrefix("cfg.yml:1:20: invalid YAML: an unknown \\ escape in a double-quoted string"))
        #expect(error("leak_grace_seconds: 3\nleak_grace_seconds: 4\n") == "cfg.yml:2:1: invalid YAML: the key 'leak_grace_seconds' appears twice in one mapping; keep one")
        #expect(error("leak_grace_seconds: \"x\n") == "cfg.yml:2:1: invalid YAML: a quoted string is not closed before the end of the file")
        #expect(error("opt_in_rules: []\n  - slow_transition\n").hasPrefix("cfg.yml:2:3: invalid YAML: "))
    }

    /// A key's problem points at the key's line.
    @Test func keyErrorsNameTheirLine() {
        #expect(error("leak_grace_seconds: 3\nunknown_key: 1\n").hasPrefix("cfg.yml:2:1: unknown_key: unknown key"))
        #expect(error("# c\nlate_dealloc:\n  severity: fatal\n") == "cfg.yml:3:3: late_dealloc.severity: expected error, warning or info")
        #expect(error("opt_in_rules: [nope]\n") == "cfg.yml:1:1: opt_in_rules: unknown rule 'nope' (`vclint rules` lists them)")
    }
}
