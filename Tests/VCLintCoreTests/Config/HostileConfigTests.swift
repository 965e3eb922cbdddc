import Foundation
import Testing
@testable import VCLintCore

/// A `.vclint.yml` is picked up from any parent directory, so a hostile repository chooses it: it must
/// cost a bounded time and memory and end in one stderr line, never a crash.
@Suite(.serialized) struct HostileConfigTests {
    func error(_ yaml: String) -> String? {
        do { _ = try Configuration.parse(yaml, path: ".vclint.yml"); return nil } catch { return error.description }
    }

    /// Nine nested anchors of nine aliases each: 9⁹ nodes from 342 bytes. Refused before Yams expands it.
    @Test func billionLaughsIsRefusedAtOnce() throws {
        let yaml = try String(contentsOf: fixtureURL("config/billion-laughs.yml"), encoding: .utf8)
        let start = Date()
        let e = error(yaml)
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(e?.hasPrefix(".vclint.yml: refused: YAML aliases expand to more than 100000 nodes") == true, "\(e ?? "accepted")")
    }

    /// Aliases within the budget are fine (a shared list of patterns, say).
    @Test func modestAliasesAreExpanded() throws {
        let c = try Configuration.parse("""
        ignore_classes: &system ["^UI", "^_UI"]
        persistent_classes: *system
        """, path: ".vclint.yml")
        #expect(c.persistentClasses == ["^UI", "^_UI"])
    }

    /// A key that is a list, a mapping, or an alias of one would trap in Yams' constructor.
    @Test func nonTextKeysAreRefused() {
        #expect(error("? [a]\n: x\n")?.contains("a mapping key is a list, not text (line 1)") == true)
        #expect(error("{ {a: b}: x }\n")?.contains("a mapping key is a mapping, not text") == true)
        #expect(error("k: &k [1]\n? *k\n: x\n")?.contains("a mapping key is an alias of a list or mapping, not text (line 2)") == true)
        // An alias of a scalar as a key is text: here an unknown key.
        #expect(error("x: &k disabled_rules\n*k : [memory_warning]\n")?.contains("x: unknown key") == true)
    }

    @Test func deepNestingIsRefused() {
        let deep = "a: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "\n"
        #expect(error(deep) == ".vclint.yml: refused: nested more than 64 levels deep")
        let ok = "a: " + String(repeating: "[", count: 10) + String(repeating: "]", count: 10) + "\n"
        #expect(error(ok)?.contains("unknown key") == true)
    }

    @Test func anUndefinedAliasIsYamlsSyntaxError() {
        #expect(error("disabled_rules: *nothing\n")?.hasPrefix(".vclint.yml:1:17: invalid YAML") == true)
    }

    /// Size is checked before anything is read past the cap: /dev/zero is refused at once.
    @Test func oversizedConfigurationIsRefusedUnread() throws {
        let cli = CLITests()
        let zero = try cli.run(["lint", "--config", "/dev/zero", "Fixtures/seeds/navtest-seed000.log"])
        #expect(zero.status == 2)
        #expect(zero.stderr == "vclint: error: /dev/zero: the configuration is larger than 1 MiB; a configuration file is a few KiB\n")
        let big = scratchRoot.appendingPathComponent("vclint-big-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: big) }
        try Data(repeating: 0x23, count: (1 << 20) + 1).write(to: big)  // a comment of 1 MiB + 1 byte
        let r = try cli.run(["lint", "--config", big.path, "Fixtures/seeds/navtest-seed000.log"])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: \(big.path): the configuration is 1048577 bytes, more than the 1 MiB a configuration may have\n")
    }

    /// The whole program, with the file found in a parent directory as a CI job would.
    @Test func discoveredBillionLaughsIsExitTwoWithOneLine() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-bl-\(UUID().uuidString)")
        let sub = dir.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: fixtureURL("config/billion-laughs.yml"), to: dir.appendingPathComponent(".vclint.yml"))
        let log = sub.appendingPathComponent("capture.log")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log"), to: log)
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = ["lint", "capture.log"]
        p.currentDirectoryURL = sub
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        let start = Date()
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(p.terminationStatus == 2)
        #expect(text.split(separator: "\n").count == 1)
        #expect(text.contains(".vclint.yml: refused: YAML aliases expand to more than 100000 nodes"))
    }

    /// `(?:ab|cd){3000}` is 15 bytes that compile to 51 KB of PCRE2 code: 39,000 of them in 1 MiB took
    /// 38 s and 2 GB. The compiled bytes are counted as each pattern is compiled, and the file is
    /// refused as soon as they pass the budget, naming the key and the entry.
    @Test func patternsThatCompileToMoreThanTheBudgetAreRefused() {
        var classes = "ignore_classes:\n"
        for i in 0..<2_000 { classes += "  - '(?:ab|cd){3000}N\(i)'\n" }
        let start = Date()
        let e = error(classes)
        #expect(Date().timeIntervalSince(start) < 10)
        // 16 MiB / 51 KB: about the 330th pattern.
        #expect(e?.hasPrefix(".vclint.yml:1:1: ignore_classes[") == true, "\(e ?? "accepted")")
        #expect(e?.hasSuffix("]: the configuration's patterns compile to more than 16 MiB; a configuration's patterns compile to a few KiB, so this file is refused") == true, "\(e ?? "accepted")")
        let entry = e.flatMap { $0.split(separator: "[").dropFirst().first?.split(separator: "]").first }.flatMap { Int($0) }
        #expect((250...400).contains(entry ?? 0), "\(e ?? "accepted")")

        // The dialects and the class lists share one budget: 200 dialects (10 MB) fit, and the
        // classes read after them pass it.
        var shared = "dialects:\n"
        for i in 0..<200 { shared += "  - {pattern: '^(?<class>\\w+) (?<event>shown)(?:ab|cd){3000}\(i)', events: {shown: viewDidAppear}}\n" }
        #expect(error(shared) == nil)
        shared += "ignore_classes:\n"
        for i in 0..<200 { shared += "  - '(?:ab|cd){3000}N\(i)'\n" }
        let d = error(shared)
        #expect(d?.hasPrefix(".vclint.yml:202:1: ignore_classes[") == true, "\(d ?? "accepted")")
        #expect(d?.contains("]: the configuration's patterns compile to more than 16 MiB") == true, "\(d ?? "accepted")")
        var dialects = "dialects:\n"
        for i in 0..<400 { dialects += "  - {pattern: '^(?<class>\\w+) (?<event>shown)(?:ab|cd){3000}\(i)', events: {shown: viewDidAppear}}\n" }
        #expect(error(dialects)?.hasPrefix(".vclint.yml:1:1: dialects[") == true)
    }

    /// What is charged: each pattern's code and machine code, once per distinct text; the pattern
    /// that passes the budget is not kept.
    @Test func theBudgetCountsCompiledBytesOnce() throws {
        let cache = PatternCache(budget: 200_000)
        var compiled: [PCRE2Pattern] = []
        let outcome: Error? = PatternCache.$current.withValue(cache) {
            do {
                for i in 0..<10 {
                    let p = try PatternCache.pattern("(?:ab|cd){3000}N\(i)", matchLimit: 10)
                    #expect(try PatternCache.pattern("(?:ab|cd){3000}N\(i)", matchLimit: 10) === p, "an alias costs nothing")
                    compiled.append(p)
                }
                return nil
            } catch { return error }
        }
        #expect(outcome is PatternCache.OverBudget)
        #expect(compiled.count == 3, "51 KB each: the fourth passes 200,000 bytes")
        #expect(cache.compilations == 3)
        #expect(cache.spent > 200_000)
        #expect(compiled.allSatisfy { $0.compiledSize > 50_000 })
        #expect(compiled.reduce(0) { $0 + $1.compiledSize } <= 200_000)
        // A real configuration is far below the budget.
        let real = PatternCache()
        try PatternCache.$current.withValue(real) {
            _ = try Configuration.parse("""
            ignore_classes: ['^UI', '^_UI', '^SwiftUI\\.', 'Debug\\w*Controller$']
            persistent_classes: ["^MainTabBarController$"]
            dialects:
              - pattern: '^\\[Screen\\] (?<class>\\w+)(?: (?<address>0x[0-9a-f]+))? (?<event>loaded|shown|hidden|freed)$'
                events: {loaded: viewDidLoad, shown: viewDidAppear, hidden: viewDidDisappear, freed: dealloc}
            """, path: ".vclint.yml")
        }
        #expect(real.spent < 16 << 10, "\(real.spent) bytes")
    }

    /// The whole program: exit 2 and one line, for `lint` and for `vclint rules`, which reads the file too.
    @Test func anOverBudgetConfigurationIsExitTwoWithOneLine() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var yaml = "ignore_classes:\n"
        for i in 0..<1_000 { yaml += "  - '(?:ab|cd){3000}N\(i)'\n" }
        try Data(yaml.utf8).write(to: dir.appendingPathComponent(".vclint.yml"))
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log"),
                                         to: dir.appendingPathComponent("capture.log"))
        for args in [["lint", "capture.log"], ["rules"]] {
            let r = try runVCLint(args, cwd: dir)
            #expect(r.status == 2)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("vclint: error: "), "\(r.stderr)")
            #expect(r.stderr.contains(".vclint.yml:1:1: ignore_classes["), "\(r.stderr)")
            #expect(r.stderr.contains("the configuration's patterns compile to more than 16 MiB"), "\(r.stderr)")
        }
    }
}
