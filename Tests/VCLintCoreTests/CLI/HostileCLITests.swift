import Foundation
import Testing
@testable import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// Hostile input (docs/development.md#attacking-reliability) through the command line: an unreadable input
/// among readable ones, a catastrophic user pattern, and reports that are complete or absent.
@Suite(.serialized) struct HostileCLITests {
    let cli = CLITests()

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Inputs that cannot be read, each reported on one stderr line while the others are linted:
    /// a missing path, a dangling symbolic link, and a file whose read(2) fails (EIO).
    @Test func unreadableInputAmongReadableOnesIsReportedAndTheOthersAreLinted() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dangling = dir.appendingPathComponent("gone.log").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.appendingPathComponent("nowhere").path)
        var unreadable = ["Fixtures/nope.log", dangling, "/proc/self/mem"]
        var reasons = ["no such file or directory", "no such file or directory", "input/output error"]
        if geteuid() != 0 {  // root reads a mode-000 file anyway
            let locked = dir.appendingPathComponent("locked.log").path
            try Data("x\n".utf8).write(to: URL(fileURLWithPath: locked))
            chmod(locked, 0)
            unreadable.append(locked)
            reasons.append("permission denied")
        }
        let args = ["lint", "Fixtures/seeds/navtest-missing-dealloc.log", unreadable[0], "Fixtures/seeds/navtest-dismiss-end-early.log"]
            + unreadable.dropFirst()
        let r = try cli.run(args)
        #expect(r.status == 2)
        let out = r.stdout.split(separator: "\n")
        #expect(out.count == 2, "the findings of both readable files: \(r.stdout)")
        #expect(out.first?.hasPrefix("Fixtures/seeds/navtest-missing-dealloc.log:15: error:") == true)
        #expect(out.last?.hasPrefix("Fixtures/seeds/navtest-dismiss-end-early.log:15: error:") == true)
        #expect(r.stdout.hasSuffix("\n"))
        let expectedErr = zip(unreadable, reasons).map { "vclint: error: \($0): \($1)\n" }.joined()
        #expect(r.stderr == expectedErr)

        // A clean readable file and a missing one: still exit 2, nothing that reads as a pass.
        let clean = try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log", "Fixtures/nope.log"])
        #expect(clean.status == 2)
        #expect(clean.stdout.isEmpty)
        #expect(clean.stderr == "vclint: error: Fixtures/nope.log: no such file or directory\n")
    }

    /// What a CI step may read after a failed run: a document on stdout or in a report file would
    /// look complete without the unreadable input, so there is none, and an old report file stays.
    @Test func failedRunWritesNoDocumentAndKeepsTheOldReport() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = dir.appendingPathComponent("vclint.sarif")
        try Data("previous report\n".utf8).write(to: old)
        for name in ReporterRegistry.names {
            let fresh = dir.appendingPathComponent("fresh-\(name).out")
            let r = try cli.run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log", "/proc/self/mem",
                                 "--reporter", name, "--reporter", "sarif:\(old.path)", "--reporter", "junit:\(fresh.path)"])
            #expect(r.status == 2, "\(name)")
            #expect(r.stderr == "vclint: error: /proc/self/mem: input/output error\n", "\(name)")
            if LintCommandReporters.findingPerLine.contains(name) {
                #expect(r.stdout.split(separator: "\n").count == 1 && r.stdout.hasSuffix("\n"), "\(name): \(r.stdout)")
            } else {
                #expect(r.stdout.isEmpty, "\(name) printed a document for a failed run")
            }
            #expect(try String(contentsOf: old, encoding: .utf8) == "previous report\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["vclint.sarif"])
        }
        // `baseline create` does not record a baseline that misses an input's findings.
        let baseline = dir.appendingPathComponent("base.json")
        let b = try cli.run(["baseline", "create", "Fixtures/seeds/navtest-missing-dealloc.log", "Fixtures/nope.log", "--output", baseline.path])
        #expect(b.status == 2)
        #expect(b.stderr == "vclint: error: Fixtures/nope.log: no such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: baseline.path))
    }

    /// Every reporter's stdout ends with a newline (or is empty), with findings and without.
    @Test func stdoutReportsEndWithANewline() throws {
        for name in ReporterRegistry.names {
            for fixture in ["Fixtures/seeds/navtest-seed000.log", "Fixtures/reporters/hostile.log"] {
                let r = try cli.run(["lint", "--reporter", name, fixture])
                #expect(r.status == 0 || r.status == 1)
                #expect(r.stdout.isEmpty || r.stdout.hasSuffix("\n"), "\(name) \(fixture)")
            }
        }
    }

    /// An ndjson record longer than the 1 MiB read buffer is parsed by its head: one whose
    /// `eventMessage` comes after that was dropped without a word (events 1, unread 0, exit 0). Now
    /// stderr says how many lines of the input were read by their head only, as it does for a JSON
    /// array's objects too large to read; a record within the buffer is read whole, without a note.
    @Test func linesLongerThanTheBufferAreNamedOnStderr() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        func record(_ time: String, _ message: String, pad: Int = 0) -> String {
            (pad > 0 ? #"{"zpad":""# + String(repeating: "p", count: pad) + #"","# : "{")
                + #""timestamp":"2017-02-11 17:30:\#(time)+0000","eventMessage":"<navTest.FooViewController: 0x1> \#(message)"}"# + "\n"
        }
        for (name, pad) in [("small.ndjson", 500_000), ("big.ndjson", 2_000_000)] {
            let path = dir.appendingPathComponent(name).path
            let text = record("20.100000", "viewDidLoad") + record("21.100000", "viewWillAppear", pad: pad)
                + record("22.100000", "viewDidAppear", pad: pad)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let r = try cli.run(["lint", path, "--quiet", "--reporter", "json"])
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let events = ((doc["inputs"] as? [[String: Any]])?.first?["events"] as? Int)
            if pad < 1 << 20 {
                #expect(events == 3)
                #expect(r.stderr == "")
            } else {
                #expect(events == 1)
                let warning = "vclint: warning: \(path): 2 lines longer than 1 MiB read by their first 64 KiB only (the rest not linted)"
                #expect(r.stderr == warning + "\n")
                // Every command that reads captures says so, not only lint.
                for command in [["timeline"], ["leaks"], ["inspect"], ["report", "--output", dir.appendingPathComponent("r.html").path]] {
                    let v = try cli.run([command[0], path] + command.dropFirst())
                    #expect(v.stderr.split(separator: "\n").contains { $0 == warning }, "\(command[0]): \(v.stderr)")
                }
            }
        }
    }

    /// A catastrophic user pattern (nested quantifiers) in a custom dialect and in ignore_classes:
    /// the run finishes at once, says how many lines hit PCRE2's limits, and findings still come.
    @Test func catastrophicUserPatternGivesADiagnosticNotAHang() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("vclint.yml")
        try Data("""
        ignore_classes: ['^(\\w+\\s?)*!$']
        dialects:
          - pattern: '^(?<class>(a|aa)+)+ (?<event>shown)$'
            events: {shown: viewDidAppear}
        """.utf8).write(to: config)
        let log = dir.appendingPathComponent("capture.log")
        let evil = String(repeating: "a", count: 64) + "! shown"
        var text = ""
        for i in 0..<200 { text += "2024-03-01 10:00:\(10 + i / 10).\(100 + i % 10) Shop[1:7] \(evil)\n" }
        // A long class name: the ignore pattern backtracks 2^36 ways on it without PCRE2's limits.
        text += "2024-03-01 10:00:59.000 Shop[1:7] -[HomeViewControllerWithAVeryLongName viewWillAppear:]\n"
        text += "2024-03-01 10:01:00.000 Shop[1:7] -[HomeViewControllerWithAVeryLongName viewDidAppear:]\n"
        text += "2024-03-01 10:01:01.000 Shop[1:7] -[HomeViewControllerWithAVeryLongName viewDidAppear:]\n"
        try Data(text.utf8).write(to: log)
        let start = Date()
        let r = try cli.run(["lint", "--config", config.path, log.path])
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("\(log.path):203: error:"), "\(r.stdout)")
        #expect(r.stderr.contains("vclint: warning: \(log.path): 200 lines hit a custom dialect's PCRE2 match limits and were not parsed by it\n"))
    }
}

/// The reporters whose stdout is one line per finding (LintCommand prints them for a failed run).
enum LintCommandReporters {
    static let findingPerLine: Set<String> = ["xcode", "github-actions"]
}
