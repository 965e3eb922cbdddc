import Foundation
import Testing
@testable import VCLintCore

/// `rules`, `init`, --strict, --max-warnings, --color and usage errors, as SwiftLint and ripgrep users expect them.
@Suite(.serialized) struct CommandOptionsCLITests {
    let cli = CLITests()

    func run(_ args: [String], cwd: URL) throws -> CLITests.Run { try runVCLint(args, cwd: cwd) }

    @Test func rulesHonourTheConfiguration() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try run(["rules"], cwd: dir)
        #expect(plain.status == 0)
        #expect(plain.stdout.hasPrefix("rule "))
        #expect(plain.stdout.split(separator: "\n")[0].split(separator: " ", omittingEmptySubsequences: true) == ["rule", "severity", "on", "summary"])
        #expect(!plain.stdout.contains("*"))
        try "disabled_rules: [memory_warning]\nopt_in_rules: [slow_transition]\nlate_dealloc: {severity: error}\n".write(
            to: dir.appendingPathComponent(".vclint.yml"), atomically: true, encoding: .utf8)
        let configured = try run(["rules"], cwd: dir).stdout
        func row(_ id: String, _ text: String) -> [Substring] {
            Array(text.split(separator: "\n").first { $0.hasPrefix(id + " ") }!.split(separator: " ", omittingEmptySubsequences: true).prefix(3))
        }
        #expect(row("late_dealloc", configured) == ["late_dealloc", "error*", "on"])
        #expect(row("memory_warning", configured) == ["memory_warning", "info", "off*"])
        #expect(row("slow_transition", configured) == ["slow_transition", "warning", "on*"])
        #expect(configured.hasSuffix("* set by \(dir.appendingPathComponent(".vclint.yml").path)\n") || configured.contains("* set by "))
        // --config wins over the discovered file.
        let other = dir.appendingPathComponent("other.yml")
        try "leaked_controller: {severity: warning}\n".write(to: other, atomically: true, encoding: .utf8)
        #expect(row("leaked_controller", try run(["rules", "--config", other.path], cwd: dir).stdout) == ["leaked_controller", "warning*", "on"])
        #expect(row("memory_warning", try run(["rules", "--config", other.path], cwd: dir).stdout) == ["memory_warning", "info", "on"])
        let markdown = try run(["rules", "--markdown", "--config", other.path], cwd: dir).stdout
        #expect(markdown.contains("| `leaked_controller` | warning | yes |"))
        let bad = try run(["rules", "--config", dir.appendingPathComponent("missing.yml").path], cwd: dir)
        #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1)
    }

    /// `vclint init` writes the starter, which lints as a configuration.
    @Test func initWritesTheStarter() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-init-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try run(["init"], cwd: dir).status == 0)
        #expect(try String(contentsOf: dir.appendingPathComponent(".vclint.yml"), encoding: .utf8) == Configuration.starter)
        #expect(try run(["rules"], cwd: dir).status == 0)
    }

    /// --strict reports warnings as errors in every format; --max-warnings says why it failed.
    @Test func strictAndMaxWarnings() throws {
        let plain = try cli.run(["lint", "Fixtures/flows/late-dealloc.log"])
        #expect(plain.status == 0 && plain.stdout.contains(": warning: "))
        let strict = try cli.run(["lint", "Fixtures/flows/late-dealloc.log", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("Fixtures/flows/late-dealloc.log:18: error: ") && !strict.stdout.contains("warning"))
        #expect(strict.stderr.hasPrefix("1 error, 0 warnings"))
        for (reporter, needle) in [("sarif", "\"level\": \"error\""), ("json", "\"severity\": \"error\""), ("github-actions", "::error "),
                                   ("checkstyle", "severity=\"error\""), ("junit", "failures=\"1\"")] {
            let r = try cli.run(["lint", "Fixtures/flows/late-dealloc.log", "--strict", "--reporter", reporter])
            #expect(r.stdout.contains(needle), "\(reporter)")
        }
        let max = try cli.run(["lint", "Fixtures/flows/late-dealloc.log", "--max-warnings", "0"])
        #expect(max.status == 1)
        #expect(max.stderr.hasSuffix("vclint: 1 warning, more than --max-warnings 0 allows\n"))
        #expect(try cli.run(["lint", "Fixtures/flows/late-dealloc.log", "--max-warnings", "1"]).stderr.contains("--max-warnings") == false)
    }

    /// --color always colors (a CI log shows them), even with NO_COLOR; never and NO_COLOR do not;
    /// auto does not when stdout is not a terminal.
    @Test func colorChoices() throws {
        let args = ["lint", "Fixtures/seeds/navtest-missing-dealloc.log"]
        let always = try cli.run(args + ["--color", "always"])
        #expect(always.stdout.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        #expect(always.stderr.contains("\u{1B}["))
        #expect(always.status == 1)
        #expect(!(try cli.run(args + ["--color", "never"], env: ["NO_COLOR": nil])).stdout.contains("\u{1B}"))
        #expect(!(try cli.run(args, env: ["NO_COLOR": nil])).stdout.contains("\u{1B}"))  // auto, stdout a pipe
        #expect(!(try cli.run(args + ["--color", "auto"])).stdout.contains("\u{1B}"))
        let timeline = try cli.run(["timeline", "Fixtures/seeds/navtest-seed000.log", "--color", "always"])
        #expect(timeline.stdout.contains("\u{1B}["))
        let bad = try cli.run(args + ["--color", "sometimes"])
        #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1)
    }

    /// A mistyped command or a reversed range is a usage error: exit 2, one line, a suggestion.
    @Test func usageErrorsSuggest() throws {
        for (args, line) in [
            (["lnt", "Fixtures/seeds/navtest-seed000.log"], "vclint: error: 'lnt' is neither a command nor a file; did you mean `vclint lint`?"),
            (["mrege", "a.json"], "vclint: error: 'mrege' is neither a command nor a file; did you mean `vclint merge`?"),
            (["baseline", "craete"], "vclint: error: 'craete' is not a command of vclint baseline; did you mean `vclint baseline create`?"),
            (["help", "lnt"], "vclint: error: 'lnt' is not a command; did you mean `vclint help lint`?"),
            (["help", "lint", "bogus"], "vclint: error: 'bogus' is not a command: vclint lint has no subcommands (`vclint help lint` says what it takes)"),
            (["timeline", "Fixtures/seeds/navtest-seed000.log", "--from", "900", "--to", "100"],
             "vclint: error: --from 900 comes after --to 100, which shows nothing; did you mean --from 100 --to 900? (see `vclint help`)"),
            (["timeline", "Fixtures/seeds/navtest-seed000.log", "--from", "17:31", "--to", "17:25:30"],
             "vclint: error: --from 17:31 comes after --to 17:25:30, which shows nothing; did you mean --from 17:25:30 --to 17:31? (see `vclint help`)"),
        ] {
            let r = try cli.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == line + "\n", "\(args)")
        }
        let unknown = try cli.run(["frobnicate"])
        #expect(unknown.stderr.hasPrefix("vclint: error: 'frobnicate' is neither a command nor a file; the commands are lint, merge, inspect"))
        // Paths stay paths: a missing file is still reported as such.
        #expect(try cli.run(["nope.log"]).stderr == "vclint: error: nope.log: no such file or directory\n")
        #expect(try cli.run(["timeline", "Fixtures/seeds/navtest-seed000.log", "--from", "3", "--to", "9"]).status == 0)
    }
}
