import Foundation
import Testing
@testable import VCLintCore

/// `vclint lint --follow`: findings come out while the capture is still being written.
@Suite struct FollowTests {
    static let leakCapture = "Fixtures/seeds/navtest-missing-dealloc.log"

    static func lines(_ fixture: String) throws -> [String] {
        try String(contentsOf: packageRoot.appendingPathComponent(fixture), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The leak (dismissed at line 11, never deallocated) is decided by the first line that is more
    /// than the grace period later (line 25, 14.6 s on), not at the end of the input.
    @Test func leakIsDecidedWhenTheGracePeriodHasPassed() throws {
        let live = LiveLinter(path: "live.log")
        var decidedAt: [Int: [String]] = [:]
        for (i, line) in try Self.lines(Self.leakCapture).enumerated() {
            let found = Array((line + "\n").utf8).withUnsafeBytes { live.consume($0) }
            if !found.isEmpty { decidedAt[i + 1] = found.map { "\($0.rule)@\($0.line)" } }
        }
        #expect(decidedAt == [25: ["leaked_controller@15"]])
        let (late, result) = live.finish()
        #expect(late.isEmpty, "nothing is reported twice")
        #expect(result.findings.map { "\($0.rule)@\($0.line)" } == ["leaked_controller@15"])
        #expect(result.stats.lines == 28)
    }

    /// Bytes arrive in any split; an unfinished line waits for its newline.
    @Test func partialLinesWaitForTheirNewline() throws {
        let text = try Self.lines(Self.leakCapture).joined(separator: "\n") + "\n"
        let live = LiveLinter(path: "live.log")
        var found: [Finding] = []
        for chunk in Array(text.utf8).chunked(into: 5) { found += chunk.withUnsafeBytes { live.consume($0) } }
        #expect(found.map(\.line) == [15])
        #expect(live.finish().late.isEmpty)
    }

    /// What was printed live, less what was resolved, is the run's result, and that is the batch
    /// run's: `LiveEqualsBatchTests` checks it over every fixture and simulated captures.

    /// The acceptance test: a writer keeps the pipe open; the leak is printed before EOF.
    @Test func followPrintsTheLeakBeforeThePipeCloses() throws {
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = ["lint", "--follow", "-"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        let seen = LockedText()
        output.fileHandleForReading.readabilityHandler = { h in seen.append(h.availableData) }
        try p.run()
        for line in try Self.lines(Self.leakCapture) {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
        }
        let deadline = Date().addingTimeInterval(20)
        while !seen.text.contains("leaked_controller"), Date() < deadline { usleep(20_000) }
        #expect(p.isRunning, "the pipe is still open")
        #expect(seen.text.contains("<stdin>:15: error: Child1ViewController#1 was dismissed at line 11 but never deallocated"))
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 1)
        #expect(stderr.contains("1 error, 0 warnings in 1 file (28 lines"))
        #expect(seen.text.components(separatedBy: "leaked_controller").count == 2, "printed once")
    }

    /// A growing file is followed like `tail -f` until Ctrl-C, then the summary and exit code.
    @Test func followAGrowingFileUntilInterrupted() throws {
        let url = scratchRoot.appendingPathComponent("vclint-follow-\(getpid()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = try Self.lines(Self.leakCapture)
        try (lines[..<12].joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = ["lint", "--follow", url.path]
        let output = Pipe(), errors = Pipe()
        p.standardOutput = output
        p.standardError = errors
        let seen = LockedText()
        output.fileHandleForReading.readabilityHandler = { h in seen.append(h.availableData) }
        try p.run()
        usleep(300_000)
        let h = try FileHandle(forWritingTo: url)
        h.seekToEndOfFile()
        h.write(Data((lines[12...].joined(separator: "\n") + "\n").utf8))
        try h.close()
        let deadline = Date().addingTimeInterval(20)
        while !seen.text.contains("leaked_controller"), Date() < deadline { usleep(20_000) }
        #expect(p.isRunning, "a file is followed until interrupted")
        p.interrupt()
        p.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(seen.text.contains(":15: error: Child1ViewController#1 was dismissed"))
        #expect(p.terminationStatus == 1)
        #expect(stderr.contains("1 error, 0 warnings in 1 file (28 lines"))
    }

    @Test func followRejectsSeveralInputsAndBatchReportersOnStdout() throws {
        let cli = CLITests()
        let two = try cli.run(["lint", "--follow", Self.leakCapture, Self.leakCapture])
        #expect(two.status == 2 && two.stderr.contains("--follow reads one input"))
        let sarif = try cli.run(["lint", "--follow", "--reporter", "sarif", "-"])
        #expect(sarif.status == 2 && sarif.stderr.contains("xcode, json or github-actions"))
    }
}

final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ d: Data) { lock.lock(); data.append(d); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
}

extension Array {
    func chunked(into size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

/// Progress on stderr for long batch runs: on a terminal only, erased before the summary.
@Suite struct ProgressTests {
    @Test(.requires(.script, for: "the progress test, which needs a pseudo-terminal"))
    func progressOnlyOnATerminal() throws {
        let url = scratchRoot.appendingPathComponent("vclint-progress-\(getpid()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        // ~80 MB of a seed capture's noise, after one lifecycle line (a capture without any is not clean).
        let noise = "2017-02-11 17:30:45.209 navTest[933:17086] Reachability Flag Status: -R t------ networkStatusForFlags\n"
        let event = "2017-02-11 17:30:45.100 navTest[933:17086] mainViewCtrl invoke viewDidLoad\n"
        try (event + String(repeating: noise, count: 800_000)).write(to: url, atomically: true, encoding: .utf8)
        // `script` runs vclint on a pseudo-terminal: stderr is a TTY there.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qec", "'\(CLITests.binary.path)' lint --jobs 1 '\(url.path)'", "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["VCLINT_PROGRESS_AFTER"] = "0"  // draw at once: a debug build lints this in a fraction of a second
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let tty = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(tty.contains("\r\u{1B}[Kvclint: "), "a progress line is drawn")
        #expect(tty.contains(" MB of "), "with bytes done and the total")
        #expect(tty.contains("\r\u{1B}[K0 errors, 0 warnings in 1 file"), "erased before the summary")

        setenv("VCLINT_PROGRESS_AFTER", "0", 1)
        defer { unsetenv("VCLINT_PROGRESS_AFTER") }
        let piped = try CLITests().run(["lint", "--jobs", "1", url.path])
        #expect(!piped.stderr.contains("vclint: ") && !piped.stderr.contains("\u{1B}"), "silent when stderr is not a terminal")
        #expect(piped.stderr.contains("in 1 file"))
    }
}
