import Foundation
import Testing
@testable import VCLintCore

@Suite(.serialized) struct ConfigurationTests {
    func parse(_ yaml: String) throws -> Configuration { try Configuration.parse(yaml, path: ".vclint.yml") }

    func error(_ yaml: String) -> String? {
        do { _ = try Configuration.parse(yaml, path: ".vclint.yml"); return nil } catch { return error.description }
    }

    func lint(_ fixture: String, _ yaml: String) throws -> FileResult {
        var options = LintOptions()
        try parse(yaml).apply(to: &options)
        return try lintFixture(fixture, options: options)
    }

    @Test func everyKeyParses() throws {
        let c = try parse("""
        disabled_rules: [memory_warning]
        opt_in_rules:
          - slow_transition
        leak_grace_seconds: 5
        slow_transition_ms: 800
        ignore_classes: ["^UI", "^_UI"]
        persistent_classes: ^MainTabBarController$
        included: ["Logs/*"]
        excluded: ["Logs/old/*"]
        late_dealloc:
          severity: error
          leak_grace_seconds: 4.5
        """)
        #expect(c.disabledRules == ["memory_warning"])
        #expect(c.optInRules == ["slow_transition"])
        #expect(c.leakGraceSeconds == 4.5 || c.leakGraceSeconds == 5)
        #expect(c.slowTransitionMilliseconds == 800)
        #expect(c.ignoreClasses == ["^UI", "^_UI"])
        #expect(c.persistentClasses == ["^MainTabBarController$"])
        #expect(c.severities["late_dealloc"] == .error)
        #expect(try parse("").disabledRules.isEmpty)
    }

    @Test func badConfigurationsNameTheKey() {
        #expect(error("disabled_rulez: []")?.hasPrefix(".vclint.yml:1:1: disabled_rulez: unknown key") == true)
        #expect(error("disabled_rules: [no_such_rule]") == ".vclint.yml:1:1: disabled_rules: unknown rule 'no_such_rule' (`vclint rules` lists them)")
        #expect(error("leak_grace_seconds: soon") == ".vclint.yml:1:1: leak_grace_seconds: expected a number from 0 to 86400")
        #expect(error("leak_grace_seconds: -1") == ".vclint.yml:1:1: leak_grace_seconds: expected a number from 0 to 86400")
        #expect(error("opt_in_rules: {a: 1}") == ".vclint.yml:1:1: opt_in_rules: expected a list of strings")
        #expect(error("late_dealloc:\n  severity: fatal") == ".vclint.yml:2:3: late_dealloc.severity: expected error, warning or info")
        #expect(error("late_dealloc:\n  slow_transition_ms: 3") == ".vclint.yml:2:3: late_dealloc.slow_transition_ms: unknown parameter for late_dealloc")
        #expect(error("ignore_classes: ['(unclosed']")?.hasPrefix(".vclint.yml:1:1: ignore_classes: invalid pattern '(unclosed'") == true)
        #expect(error("- just\n- a list")?.contains("expected a mapping") == true)
        #expect(error("key: [unclosed")?.contains("invalid YAML") == true)
    }

    @Test func disablingARuleRemovesItsFindings() throws {
        #expect(try lint("Fixtures/flows/leak-pop.log", "").summary == ["leaked_controller@26"])
        #expect(try lint("Fixtures/flows/leak-pop.log", "disabled_rules: [leaked_controller]").summary.isEmpty)
    }

    @Test func severityAndParametersChangeTheResult() throws {
        let plain = try lint("Fixtures/flows/late-dealloc.log", "")
        #expect(plain.findings.first?.severity == .warning)
        let error = try lint("Fixtures/flows/late-dealloc.log", "late_dealloc:\n  severity: error")
        #expect(error.findings.first?.severity == .error)
        #expect(try lint("Fixtures/flows/late-dealloc.log", "leak_grace_seconds: 10").summary.isEmpty)
    }

    @Test func ignoredAndPersistentClasses() throws {
        #expect(try lint("Fixtures/flows/leak-pop.log", "ignore_classes: ['^ProductDetail']").summary.isEmpty)
        let persistent = try lint("Fixtures/flows/leak-pop.log", "persistent_classes: ['^ProductDetail']")
        #expect(persistent.summary.isEmpty)
        #expect(persistent.stats.controllers == 3, "persistent classes are still linted, only never leaks")
        let catastrophic = try lint("Fixtures/flows/leak-pop.log", "ignore_classes: ['^(a+)+$']")
        #expect(catastrophic.summary == ["leaked_controller@26"], "a pattern that hits PCRE2's limits matches nothing, and does not hang")
    }

    @Test func discoveryWalksUpToTheNearestFile() throws {
        let root = scratchRoot.appendingPathComponent("vclint-cfg-\(UUID().uuidString)")
        let deep = root.appendingPathComponent("a/b/c")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try "disabled_rules: [memory_warning]\n".write(to: root.appendingPathComponent("a/.vclint.yml"), atomically: true, encoding: .utf8)
        #expect(Configuration.discover(from: deep.path) == root.appendingPathComponent("a/.vclint.yml").standardizedFileURL.path)
    }

    @Test func includedAndExcludedGlobs() throws {
        var c = try parse("included: ['Logs/*']\nexcluded: ['Logs/old/*']")
        #expect(c.admits("Logs/run1.log"))
        #expect(!c.admits("Logs/old/run0.log"))
        #expect(!c.admits("Other/run.log"))
        c = try parse("excluded: ['*/flows/*']")
        let inputs = try InputResolver.resolve([packageRoot.appendingPathComponent("Fixtures").path], admit: c.admits)
        #expect(!inputs.contains { $0.displayPath.contains("/flows/") })
        #expect(inputs.contains { $0.displayPath.contains("/seeds/") })
    }

    @Test func starterConfigurationIsValid() throws {
        let c = try parse(Configuration.starter)
        #expect(c.ignoreClasses == ["^UI", "^_UI"])
    }

    @Test func cliUsesTheConfigurationAndRejectsABadOne() throws {
        let cli = CLITests()
        let dir = scratchRoot.appendingPathComponent("vclint-cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let good = dir.appendingPathComponent("good.yml").path
        try "disabled_rules: [leaked_controller]\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try cli.run(["lint", "Fixtures/flows/leak-pop.log"]).status == 1)
        #expect(try cli.run(["lint", "--config", good, "Fixtures/flows/leak-pop.log"]).status == 0)
        let bad = dir.appendingPathComponent("bad.yml").path
        try "leak_grace_seconds: [1]\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try cli.run(["lint", "--config", bad, "Fixtures/flows/leak-pop.log"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "vclint: error: \(bad):1:1: leak_grace_seconds: expected a number from 0 to 86400\n")
    }

    @Test func theConfigurationReferenceDocumentsEveryKey() throws {
        let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        for k in Configuration.keys { #expect(reference.contains("| `\(k.key)` |"), "docs/configuration.md lacks \(k.key)") }
    }

    // MARK: - Custom dialects

    static let screenDialect = """
    dialects:
      - pattern: '^\\[Screen\\] (?<class>\\w+)(?: (?<address>0x[0-9a-f]+))? (?<event>loaded|shown|hidden|freed)$'
        events: {loaded: viewDidLoad, shown: viewDidAppear, hidden: viewDidDisappear, freed: dealloc}
    """

    @Test func customDialectAddsEvents() throws {
        var options = LintOptions()
        try parse(Self.screenDialect).apply(to: &options)
        let text = """
        2024-03-01 10:00:00.000 Shop[1:1] [Screen] Detail 0x7f01 loaded
        2024-03-01 10:00:00.100 Shop[1:1] [Screen] Detail 0x7f01 shown
        2024-03-01 10:00:02.000 Shop[1:1] -[HomeViewController viewDidLoad]
        2024-03-01 10:00:02.100 Shop[1:1] [Screen] Detail 0x7f01 freed
        2024-03-01 10:00:02.200 Shop[1:1] [Screen] Detail 0x7f01 hidden
        2024-03-01 10:00:02.300 Shop[1:1] [Screen] Detail 0x7f01 waved
        """
        let with = Linter(options: options).lint(text: text)
        #expect(with.summary == ["dealloc_while_visible@4", "event_after_dealloc@5"])
        #expect(with.stats.events == 5)
        #expect(with.findings.first?.controller.address == 0x7f01)
        let without = Linter().lint(text: text)
        #expect(without.stats.events == 1, "the built-in dialects are unchanged")
    }

    @Test func customDialectDefinitionErrors() {
        #expect(error("dialects: {a: 1}") == ".vclint.yml:1:1: dialects: expected a list of {pattern, events}")
        #expect(error("dialects:\n  - pattern: '(?<class>\\w+) (?<event>up)'\n    events: {up: viewDidSpin}")?.contains("dialects[1]: 'up' maps to unknown event 'viewDidSpin'") == true)
        // A process's death is the system's line, not an event a dialect may name; Android's callbacks are.
        #expect(error("dialects:\n  - pattern: '(?<class>\\w+) (?<event>gone)'\n    events: {gone: processDied}")?.contains("maps to unknown event 'processDied'") == true)
        #expect(error("dialects:\n  - pattern: '(?<class>\\w+) (?<event>made)'\n    events: {made: onCreate}") == nil)
        #expect(error("dialects:\n  - pattern: '(?<event>up)'\n    events: {up: viewDidAppear}") == ".vclint.yml:1:1: dialects[1]: the pattern has no named group (?<class>…)")
        #expect(error("dialects:\n  - pattern: '(?<class>'\n    events: {up: viewDidAppear}")?.hasPrefix(".vclint.yml:1:1: dialects[1]: invalid pattern") == true)
        #expect(error("dialects:\n  - pattern: '(?<class>\\w+) (?<event>up)'\n    events: {up: viewDidAppear}\n    colour: red") == ".vclint.yml:4:5: dialects[1].colour: unknown key (expected pattern, events)")
    }

    @Test func catastrophicPatternIsCountedNotHung() throws {
        var options = LintOptions()
        try parse("""
        dialects:
          - pattern: '^(?<class>(a|aa)+)+ (?<event>shown)$'
            events: {shown: viewDidAppear}
        """).apply(to: &options)
        let line = String(repeating: "a", count: 64) + "! shown"
        let start = ContinuousClock.now
        let r = Linter(options: options).lint(text: line + "\n" + line + "\n")
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(r.stats.patternLimitHits == 2)
        #expect(r.stats.events == 0)
    }

    /// The limits follow the line: a sane pattern that scans a line lazily (about 2 steps a byte)
    /// still reads a line of 200 KB, and a class pattern a class name of 100 KB.
    @Test func userPatternsStillMatchLongLines() throws {
        var options = LintOptions()
        try parse("""
        dialects:
          - pattern: '^.*?(?<class>\\w+) (?<event>shown)$'
            events: {shown: viewDidAppear}
        """).apply(to: &options)
        var line = "2024-03-01 10:00:00.000 Shop[1:7] "
        while line.utf8.count < 200_000 { line += "word\(line.utf8.count % 97) " }
        line += "DetailViewController shown"
        let r = Linter(options: options).lint(text: line + "\n")
        #expect(r.stats.patternLimitHits == 0)
        #expect(r.stats.events == 1)
        let classes = ClassMatcher([try PCRE2Pattern("^.*?Debug$", matchLimit: UserPatternLimits.match,
                                                     matchLimitPerByte: UserPatternLimits.matchPerByte, depthLimit: UserPatternLimits.depth)])
        #expect(classes.matches(String(repeating: "x", count: 100_000) + "Debug"))
        #expect(classes.limitHits == 0)
    }

    /// An `ignore_classes` or `persistent_classes` pattern that gives up on a class name is counted
    /// once per name (its verdict is cached), as a dialect's lines are.
    @Test func classPatternLimitHitsAreCounted() throws {
        var options = LintOptions()
        try parse("ignore_classes: ['^(a|aa)+$']\npersistent_classes: ['^(b|bb)+$']").apply(to: &options)
        var text = ""
        for name in ["AAAA", "AAAB", "AAAC"] {
            for callback in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:"] {
                text += "2024-03-01 10:00:00.000 Shop[1:7] -[\(String(repeating: "a", count: 40))\(name)Controller \(callback)]\n"
            }
        }
        text += "2024-03-01 10:00:01.000 Shop[1:7] -[aaaaController viewDidLoad]\n"
        let start = ContinuousClock.now
        let r = Linter(options: options).lint(text: text)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(r.stats.classPatternLimitHits == 3, "three long names; the short one fails without backtracking")
        #expect(r.stats.patternLimitHits == 0)
    }
}
