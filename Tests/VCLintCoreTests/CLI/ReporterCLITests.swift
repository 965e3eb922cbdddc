import Foundation
import Testing
@testable import VCLintCore

/// `--reporter NAME[:FILE]` as a CI job uses it: one report on the terminal, others in files, and
/// the exit-code contract unchanged (2 with one stderr line, nothing on stdout, no report file).
@Suite(.serialized) struct ReporterCLITests {
    let cli = CLITests()

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func entries(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func terminalAndFileInOneRun() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sarif = dir.appendingPathComponent("out.sarif")
        let junit = dir.appendingPathComponent("junit.xml")
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log",
                             "--reporter", "xcode", "--reporter", "sarif:\(sarif.path)", "--reporter", "junit:\(junit.path)"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("Fixtures/seeds/navtest-missing-dealloc.log:15: error: "))
        #expect(r.stdout.split(separator: "\n").count == 1)
        #expect(r.stderr.hasPrefix("1 error, 0 warnings in 1 file"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])
        #expect(doc["version"] as? String == "2.1.0")
        let results = (doc["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
        #expect(results?.first?["ruleId"] as? String == "leaked_controller")
        #expect(try XMLTree.parse(String(contentsOf: junit, encoding: .utf8)).all("failure").count == 1)
        #expect(try entries(dir) == ["junit.xml", "out.sarif"])  // no temporary file left behind
    }

    @Test func fileOnlyPrintsNothingOnStdout() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("report.xml")
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log", "--reporter", "checkstyle:\(out.path)"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("0 errors, 0 warnings in 1 file"))
        let tree = try XMLTree.parse(String(contentsOf: out, encoding: .utf8))
        #expect(tree.all("file").map { $0.attributes["name"] } == ["Fixtures/seeds/navtest-seed000.log"])
    }

    @Test func everyReporterPrintsAndKeepsTheExitCode() throws {
        for name in ReporterRegistry.names {
            let failing = try cli.run(["lint", "--reporter", name, "Fixtures/flows/leak-pop.log"])
            #expect(failing.status == 1, "\(name)")
            #expect(!failing.stdout.isEmpty, "\(name)")
            let warning = try cli.run(["lint", "--reporter", name, "Fixtures/flows/late-dealloc.log"])
            #expect(warning.status == 0, "\(name)")
            #expect(try cli.run(["lint", "--strict", "--reporter", name, "Fixtures/flows/late-dealloc.log"]).status == 1, "\(name)")
        }
    }

    @Test func dashIsStdout() throws {
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log", "--reporter", "github-actions:-"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("::error file=Fixtures/seeds/navtest-missing-dealloc.log,line=15,title=leaked_controller::"))
    }

    /// `NAME:/dev/stderr` writes to the stream (a pipe here) instead of replacing the device node.
    @Test func aStreamAsTheFile() throws {
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log", "--quiet", "--reporter", "xcode", "--reporter", "github-actions:/dev/stderr"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("Fixtures/seeds/navtest-missing-dealloc.log:15: error: "))
        #expect(r.stderr.hasPrefix("::error file=Fixtures/seeds/navtest-missing-dealloc.log,line=15,title=leaked_controller::"))
    }

    @Test func hostileFixtureThroughEveryReporter() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var args = ["lint", "Fixtures/reporters/hostile.log"]
        for name in ReporterRegistry.names { args += ["--reporter", "\(name):\(dir.appendingPathComponent(name).path)"] }
        let r = try cli.run(args)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(try entries(dir) == ReporterRegistry.names.sorted())
        for name in ["junit", "checkstyle"] {
            _ = try XMLTree.parse(String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8))
        }
        let commands = try String(contentsOf: dir.appendingPathComponent("github-actions"), encoding: .utf8)
        #expect(commands.split(separator: "\n").allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::notice ") })
        #expect(commands.split(separator: "\n").count == 5)
    }

    @Test func twoReportsOnStdoutExitTwo() throws {
        let r = try cli.run(["lint", "--reporter", "xcode", "--reporter", "json", "Fixtures/seeds/navtest-seed000.log"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("standard output"))
    }

    @Test func unknownReporterExitsTwo() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try cli.run(["lint", "--reporter", "sarif:\(dir.path)/a.sarif", "--reporter", "yaml:\(dir.path)/b.yml", "Fixtures/seeds/navtest-seed000.log"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("unknown reporter 'yaml'"))
        #expect(try entries(dir).isEmpty)
        let empty = try cli.run(["lint", "--reporter", "sarif:", "Fixtures/seeds/navtest-seed000.log"])
        #expect(empty.status == 2)
        #expect(empty.stderr.split(separator: "\n").count == 1)
    }

    @Test func unwritableOutputExitsTwoWithOneLine() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("missing/out.sarif").path
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log", "--reporter", "xcode", "--reporter", "sarif:\(out)"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "vclint: error: \(out): no such file or directory\n")
        let isDir = try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log", "--reporter", "junit:\(dir.path)"])
        #expect(isDir.status == 2)
        #expect(isDir.stderr == "vclint: error: \(dir.path): is a directory\n")
    }

    /// A run that fails (a missing input) leaves the previous report as it was, and no temporary file.
    @Test func failedRunKeepsTheOldReport() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.sarif")
        try Data("previous report\n".utf8).write(to: out)
        let fresh = dir.appendingPathComponent("fresh.xml")
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-seed000.log", "Fixtures/nope.log",
                             "--reporter", "sarif:\(out.path)", "--reporter", "junit:\(fresh.path)"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "vclint: error: Fixtures/nope.log: no such file or directory\n")
        #expect(try String(contentsOf: out, encoding: .utf8) == "previous report\n")
        #expect(try entries(dir) == ["out.sarif"])
    }

    /// A report written into the directory being linted is not linted itself on the next run
    /// (no log extension), and the temporary file never is.
    @Test func reportBesideTheLogs() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: fixtureURL("seeds/navtest-missing-dealloc.log"), to: dir.appendingPathComponent("a.log"))
        for _ in 0..<2 {
            let r = try cli.run(["lint", dir.path, "--reporter", "json", "--reporter", "sarif:\(dir.path)/report.sarif"])
            #expect(r.status == 1)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            #expect((doc["inputs"] as? [Any])?.count == 1)
        }
        #expect(try entries(dir) == ["a.log", "report.sarif"])
    }

    @Test func helpListsTheReporters() throws {
        let r = try cli.run(["lint", "--help"])
        #expect(r.status == 0)
        for name in ReporterRegistry.names { #expect(r.stdout.contains(name), "\(name)") }
        #expect(r.stdout.contains("NAME[:FILE]"))
    }
}
