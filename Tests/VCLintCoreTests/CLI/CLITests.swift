import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The command line as a CI job runs it: exit codes, stdout, one stderr line on failure.
@Suite(.serialized) struct CLITests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        /// The run was still going at its deadline and was killed (`status` is then SIGKILL's).
        var timedOut = false
        /// From start to exit.
        var seconds: Double = 0
    }

    /// How long `run` waits by default before it kills the binary: no test can hang the suite.
    static let defaultTimeout: Double = 300

    static var binary: URL {
        let here = Bundle.main.executableURL?.deletingLastPathComponent()
        let candidates = [
            here?.appendingPathComponent("vclint"),
            here?.deletingLastPathComponent().appendingPathComponent("vclint"),
            packageRoot.appendingPathComponent(".build/debug/vclint"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    /// Runs the built binary in `cwd` (the package root) with NO_COLOR set; `env` adds or (nil)
    /// removes variables. A run still going after `timeout` seconds is killed and says so
    /// (`timedOut`), so a test of something that used to block ends anyway.
    func run(_ args: [String], stdin: Data? = nil, cwd: URL = packageRoot, env extra: [String: String?] = [:],
             timeout: Double = CLITests.defaultTimeout) throws -> Run {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args
        p.currentDirectoryURL = cwd
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        let start = Date()
        try p.run()
        // The pipes are drained on their own threads while this one keeps the deadline.
        nonisolated(unsafe) var o = Data(), e = Data()
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) { o = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: drained) { e = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { inp.fileHandleForWriting.write(stdin) }
        try inp.fileHandleForWriting.close()
        var timedOut = false
        if drained.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            drained.wait()
        }
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
                   timedOut: timedOut, seconds: Date().timeIntervalSince(start))
    }

    func tempFile(_ bytes: [UInt8], ext: String = "log") throws -> String {
        let url = scratchRoot.appendingPathComponent("vclint-\(UUID().uuidString).\(ext)")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func cleanCaptureExitsZero() throws {
        let r = try run(["lint", "Fixtures/seeds/navtest-seed000.log"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("0 errors, 0 warnings in 1 file (29 lines, "))
    }

    @Test func findingExitsOneWithAnXcodeLine() throws {
        let r = try run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("Fixtures/seeds/navtest-missing-dealloc.log:15: error: Child1ViewController#1 was dismissed at line 11 but never deallocated"))
        #expect(r.stdout.hasSuffix("(leaked_controller)\n"))
    }

    @Test func warningsFailOnlyWithStrict() throws {
        #expect(try run(["lint", "Fixtures/flows/late-dealloc.log"]).status == 0)
        #expect(try run(["lint", "--strict", "Fixtures/flows/late-dealloc.log"]).status == 1)
    }

    @Test func maxWarnings() throws {
        #expect(try run(["lint", "--max-warnings", "1", "Fixtures/flows/late-dealloc.log"]).status == 0)
        #expect(try run(["lint", "--max-warnings", "0", "Fixtures/flows/late-dealloc.log"]).status == 1)
        let bad = try run(["lint", "--max-warnings", "many", "Fixtures/flows/late-dealloc.log"])
        #expect(bad.status == 2)
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func jsonReporter() throws {
        let r = try run(["lint", "--reporter", "json", "Fixtures/seeds/navtest-dismiss-end-early.log"])
        #expect(r.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(doc["version"] as? Int == 1)
        let v = try #require((doc["violations"] as? [[String: Any]])?.first)
        #expect(v["rule"] as? String == "completion_before_disappearance")
        #expect(v["line"] as? Int == 15)
        #expect(v["time"] as? String == "2017-02-11T17:30:30.641")
    }

    @Test func missingPathExitsTwoWithOneLine() throws {
        let r = try run(["lint", "Fixtures/nope.log"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "vclint: error: Fixtures/nope.log: no such file or directory\n")
    }

    @Test func badArgumentsExitTwo() throws {
        let r = try run(["lint", "--reporter", "yaml", "Fixtures/seeds/navtest-seed000.log"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("yaml"))
        let unknown = try run(["lint", "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.split(separator: "\n").count == 1)
    }

    @Test func standardInput() throws {
        let data = try Data(contentsOf: fixtureURL("seeds/navtest-missing-dealloc.log"))
        let dash = try run(["lint", "-"], stdin: data)
        #expect(dash.status == 1)
        #expect(dash.stdout.hasPrefix("<stdin>:15: error:"))
        let none = try run(["lint"], stdin: data)
        #expect(none.stdout == dash.stdout)
        let bare = try run([], stdin: data)
        #expect(bare.stdout == dash.stdout)
    }

    @Test func directoryIsSearchedInOrder() throws {
        let r = try run(["lint", "--reporter", "json", "Fixtures/seeds"])
        #expect(r.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let paths = (doc["inputs"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(paths.count == 9)
        #expect(paths == paths.sorted())
    }

    @Test func emptyBinaryAndHugeInputs() throws {
        // Unread is never clean: an empty, binary or junk input fails the gate, without a crash.
        let empty = try run(["lint", try tempFile([])])
        #expect(empty.status == 1)
        #expect(empty.stdout.contains("no_lifecycle_events"))
        #expect(empty.stderr.contains("(0 lines,"))
        var rng = SystemRandomNumberGenerator()
        let binary = try run(["lint", try tempFile((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &rng) }, ext: "bin")])
        #expect(binary.status == 1)
        let invalid = try run(["lint", try tempFile([0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0x0A, 0xF0, 0x28, 0x8C, 0xBC])])
        #expect(invalid.status == 1)
        let line = try run(["lint", try tempFile(Array(repeating: UInt8(ascii: "a"), count: 50_000_000))])
        #expect(line.status == 1)
        #expect(line.stderr.contains("(1 line,"))
    }

    @Test func rulesAndExplain() throws {
        let rules = try run(["rules"])
        #expect(rules.status == 0)
        #expect(rules.stdout.split(separator: "\n").count == 32)  // a header row and 31 rules
        #expect(rules.stdout.contains("slow_transition"))
        #expect(rules.stdout.contains("lifetime_limit                    error     on    More instances of a class"))
        #expect(rules.stdout.contains("fragment_view_after_destroy_view  error     on    A Fragment's view was used"))
        #expect(rules.stdout.contains("[lifetimes: none]"))
        let explain = try run(["explain", "leaked_controller"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("Triggering"))
        let android = try run(["explain", "missing_on_stop"])
        #expect(android.status == 0)
        #expect(android.stdout.contains("D/MainActivity: onDestroy() called"))
        let unknown = try run(["explain", "no_such_rule"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "vclint: error: unknown rule 'no_such_rule'; `vclint rules` lists them\n")
    }

    @Test func helpIsClear() throws {
        let r = try run(["lint", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--reporter"))
        #expect(r.stdout.contains("Exit codes"))
    }
}
