import Foundation
import Testing
@testable import VCLintCore

/// What a SwiftLint or ripgrep user expects of a linter's configuration and command line.
@Suite struct PathGlobTests {
    func m(_ glob: String, _ path: String) -> Bool { PathGlob(glob).matches(path.split(separator: "/").map(String.init)) }

    @Test func starStaysWithinAName() {
        #expect(m("*.log", "a.log"))
        #expect(!m("*.log", "sub/a.log"))
        #expect(m("logs/*.log", "logs/a.log"))
        #expect(!m("logs/*.log", "logs/old/a.log"))
        #expect(m("logs/?.log", "logs/a.log"))
        #expect(m("logs/[ab].log", "logs/b.log") && !m("logs/[ab].log", "logs/c.log"))
    }

    @Test func doubleStarSpansFolders() {
        #expect(m("**/*.log", "a.log"))
        #expect(m("**/*.log", "x/y/a.log"))
        #expect(m("**/old/*.log", "old/a.log"))
        #expect(m("**/old/*.log", "logs/2024/old/a.log"))
        #expect(!m("**/old/*.log", "logs/old/deep/a.log") || m("**/old", "logs/old/deep/a.log"))
        #expect(m("logs/**", "logs/a/b/c.log"))
        #expect(m("logs/**/c.log", "logs/c.log"))
        #expect(!m("logs/**", "other/logs/a.log"))
    }

    @Test func aFolderCoversWhatIsBelowIt() {
        #expect(m("DerivedData", "DerivedData/Logs/x.log"))
        #expect(m("DerivedData/", "DerivedData/x.log"))
        #expect(m("./DerivedData/*", "DerivedData/Logs/x.log"))
        #expect(!m("Derived", "DerivedData/x.log"))
    }

    @Test func pathsRelativeToTheConfigurationsFolder() {
        #expect(PathGlob.relativeComponents("/repo/logs/a.log", to: "/repo") == ["logs", "a.log"])
        #expect(PathGlob.relativeComponents("/repo/logs/./x/../a.log", to: "/repo/") == ["logs", "a.log"])
        #expect(PathGlob.relativeComponents("/other/a.log", to: "/repo/sub") == ["..", "..", "other", "a.log"])
        let cwd = FileManager.default.currentDirectoryPath
        #expect(PathGlob.relativeComponents("logs/a.log", to: cwd) == ["logs", "a.log"])
    }

    @Test func ignoreFileLines() {
        let base = ["repo"]
        var rules = IgnoreRules()
        rules.add(IgnoreRules.parse("# comment\n\n*.tmp.log\n!keep.tmp.log\n/rootonly.log\nbuild/\ndocs/**/draft.log   \n\\#hash.log\n", base: base))
        func ignored(_ p: String, folder: Bool = false) -> Bool { rules.ignores(base + p.split(separator: "/").map(String.init), isFolder: folder) }
        #expect(ignored("a.tmp.log") && ignored("deep/b.tmp.log"))
        #expect(!ignored("keep.tmp.log"))
        #expect(ignored("rootonly.log") && !ignored("sub/rootonly.log"))
        #expect(ignored("build", folder: true) && ignored("x/build", folder: true) && !ignored("build"))
        #expect(ignored("docs/draft.log") && ignored("docs/a/b/draft.log") && !ignored("draft.log"))
        #expect(ignored("#hash.log"))
        #expect(!ignored("a.log"))
        #expect(!rules.ignores(["elsewhere", "a.tmp.log"], isFolder: false))  // outside the file's folder
    }
}

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
        #expect(all.severities["late_dealloc"] == .error)
    }
}

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

@Suite(.serialized) struct ConventionsCLITests {
    let cli = CLITests()

    /// A scratch folder with captures in places a walk should and should not read.
    func tree(git: Bool) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vclint-walk-\(UUID().uuidString)")
        let leak = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-missing-dealloc.log"))
        let clean = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log"))
        for (path, data) in [("logs/a.log", clean), ("logs/old/b.log", leak), ("logs/.hidden/c.log", leak), (".build/d.log", leak),
                             ("logs/ignored/e.log", leak), ("logs/f.tmp.log", leak), ("logs/keep.tmp.log", clean), ("logs/sub/g.log", clean)] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try "ignored/\n*.tmp.log\n!keep.tmp.log\n".write(to: root.appendingPathComponent("logs/.gitignore"), atomically: true, encoding: .utf8)
        if git { try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true) }
        return root
    }

    func linted(_ r: CLITests.Run) -> [String] {
        r.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("{") ? nil : String(line)
        }
    }

    func inputs(_ args: [String], cwd: URL) throws -> [String] {
        let r = try run(args + ["--reporter", "json"], cwd: cwd)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (doc?["inputs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    func run(_ args: [String], cwd: URL, env: [String: String?] = [:]) throws -> CLITests.Run {
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = args
        p.currentDirectoryURL = cwd
        var e = ProcessInfo.processInfo.environment
        e["NO_COLOR"] = "1"
        for (k, v) in env { e[k] = v }
        p.environment = e
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), er = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLITests.Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: er, as: UTF8.self))
    }

    /// Hidden folders and what .gitignore ignores are skipped in a git repository, unless --no-ignore.
    @Test func walksSkipHiddenAndIgnoredFiles() throws {
        let root = try tree(git: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try inputs(["lint", "."], cwd: root) == ["./logs/a.log", "./logs/keep.tmp.log", "./logs/old/b.log", "./logs/sub/g.log"])
        #expect(try inputs(["lint", "logs"], cwd: root) == ["logs/a.log", "logs/keep.tmp.log", "logs/old/b.log", "logs/sub/g.log"])
        #expect(try inputs(["lint", ".", "--no-ignore"], cwd: root) == ["./.build/d.log", "./logs/.hidden/c.log", "./logs/a.log", "./logs/f.tmp.log",
                                                                       "./logs/ignored/e.log", "./logs/keep.tmp.log", "./logs/old/b.log", "./logs/sub/g.log"])
        // A file named on the command line is read, ignored or not; so is a hidden folder named.
        #expect(try inputs(["lint", "logs/f.tmp.log", ".build"], cwd: root) == ["logs/f.tmp.log", ".build/d.log"])
        // Nothing left: the message says why, and how to read them.
        let none = try run(["lint", "logs/ignored"], cwd: root)
        #expect(none.status == 0 || none.status == 1)  // named folder: its own contents are not ignored by its own name
        try "*.log\n".write(to: root.appendingPathComponent("logs/sub/.gitignore"), atomically: true, encoding: .utf8)
        let empty = try run(["lint", "logs/sub"], cwd: root)
        #expect(empty.status == 2)
        #expect(empty.stderr == "vclint: error: no capture files found under logs/sub (looked for *.log, *.txt, *.ndjson, *.jsonl and their .gz forms; 1 hidden or git-ignored entry was skipped, which --no-ignore reads)\n")
    }

    /// Outside a git repository, .gitignore files are not read (as by git and ripgrep); hidden
    /// folders are still skipped.
    @Test func gitignoreNeedsARepository() throws {
        let root = try tree(git: false)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try inputs(["lint", "logs"], cwd: root) == ["logs/a.log", "logs/f.tmp.log", "logs/ignored/e.log", "logs/keep.tmp.log", "logs/old/b.log", "logs/sub/g.log"])
    }

    /// `excluded`/`included` are relative to the configuration file's folder: the same files are
    /// linted whether the folder is named relatively, with ./ or absolutely, from any directory.
    @Test func configurationGlobsAreRelativeToItsFolder() throws {
        let root = try tree(git: false)
        defer { try? FileManager.default.removeItem(at: root) }
        try "excluded: ['logs/old', '**/*.tmp.log', 'logs/ignored/**']\n".write(to: root.appendingPathComponent(".vclint.yml"), atomically: true, encoding: .utf8)
        let want = ["a.log", "g.log"]
        for (args, cwd) in [(["lint", "logs"], root), (["lint", "./logs"], root), (["lint", root.appendingPathComponent("logs").path], root),
                            (["lint", "."], root.appendingPathComponent("logs")),
                            (["lint", "logs", "--config", root.appendingPathComponent(".vclint.yml").path], root)] {
            let got = try inputs(args, cwd: cwd).map { ($0 as NSString).lastPathComponent }
            #expect(got == want, "\(args) in \(cwd.lastPathComponent)")
        }
        // * does not cross a folder: `logs/*.log` includes logs/a.log only.
        try "included: ['logs/*.log']\n".write(to: root.appendingPathComponent(".vclint.yml"), atomically: true, encoding: .utf8)
        #expect(try inputs(["lint", "logs"], cwd: root) == ["logs/a.log", "logs/f.tmp.log", "logs/keep.tmp.log"])
    }

    @Test func rulesHonourTheConfiguration() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vclint-rules-\(UUID().uuidString)")
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
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vclint-init-\(UUID().uuidString)")
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
