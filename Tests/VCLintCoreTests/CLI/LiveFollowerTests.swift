import Foundation
import Testing
@testable import VCLintCore

/// `--follow` on a file that is rotated, truncated or compressed, driven through `LiveFollower` with
/// a poll hook that changes the file between looks (no sleeping), and checked against the batch
/// result of the same bytes.
@Suite(.serialized) struct LiveFollowerTests {
    static let leak = "Fixtures/seeds/navtest-missing-dealloc.log"            // leaked_controller@15
    static let didDisappear = "Fixtures/seeds/navtest-missing-did-disappear.log"  // missing_did_disappear@19

    static func bytes(_ fixture: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture))) }

    /// A run's findings, live or batch (they are the same: `LiveEqualsBatchTests`).
    static func key(_ f: Finding) -> String { "\(f.rule)@\(f.line)" }
    static func batch(_ bytes: [UInt8]) -> [String] { Linter().lint(bytes: bytes, path: "x").findings.map(key).sorted() }

    func tempPath(_ ext: String = "log") -> String {
        scratchRoot.appendingPathComponent("vclint-live-\(UUID().uuidString).\(ext)").path
    }

    /// Runs a follower over `path`; `steps[i]` runs at the i-th end of file, and following stops after the last.
    /// `events`: what the follower handed out, in order (`input PATH`, `rule@line`, `notice`).
    func follow(_ path: String, _ steps: [() throws -> Void]) throws
        -> (results: [FileResult], printed: [Finding], notices: [String], events: [String]) {
        var printed: [Finding] = []
        var notices: [String] = []
        var events: [String] = []
        var step = 0
        let follower = LiveFollower(
            source: .file(path),
            poll: {
                guard step < steps.count else { return false }
                try? steps[step]()
                step += 1
                return true
            },
            input: { events.append("input \($0)") },
            output: { printed += $0; events += $0.map { "\($0.rule)@\($0.line)" } },
            notice: { notices.append($0); events.append("notice") })
        let results = try follower.run()
        return (results, printed, notices, events)
    }

    func write(_ bytes: [UInt8], to path: String, append: Bool = false) throws {
        if append, let h = FileHandle(forWritingAtPath: path) {
            h.seekToEndOfFile()
            h.write(Data(bytes))
            try h.close()
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    /// `mv capture.log capture.log.1` and a new capture.log: the rest of the old file is read, then the
    /// new one from its first line, with line numbers from 1 and one stderr line saying so.
    @Test func rotationByRenameIsFollowedLikeTailF() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".1") }
        let first = try Self.bytes(Self.leak), second = try Self.bytes(Self.didDisappear)
        let cut = first.count / 2
        try write(Array(first[..<cut]), to: path)
        let (results, printed, notices, _) = try follow(path, [
            { try self.write(Array(first[cut...]), to: path, append: true)
              try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
              try self.write(Array(second[..<10]), to: path) },
            { try self.write(Array(second[10...]), to: path, append: true) },
            {},
        ])
        #expect(results.count == 2)
        #expect(results[0].findings.map(Self.key).sorted() == Self.batch(first))
        #expect(results[1].findings.map(Self.key).sorted() == Self.batch(second))
        #expect(results[1].stats.lines == second.filter { $0 == 0x0A }.count, "line numbers restart")
        #expect(printed.map(Self.key).sorted() == (Self.batch(first) + Self.batch(second)).sorted())
        #expect(notices == ["vclint: \(path) was replaced by a new file (rotated); reading it from the start, line numbers restart at 1"])
    }

    /// Each generation of the file is an input of its own: `input` comes first, then its findings,
    /// and a rotation's late findings and notice come before the next `input`.
    @Test func eachGenerationStartsAnInputBeforeItsFindings() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".1") }
        let first = try Self.bytes(Self.leak), second = try Self.bytes(Self.didDisappear)
        try write(first, to: path)
        let events = try follow(path, [
            { try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
              try self.write(second, to: path) },
            {},
        ]).events
        #expect(events == ["input \(path)", "leaked_controller@15", "notice", "input \(path)", "missing_did_disappear@19"])
    }

    /// copytruncate: the file is emptied and rewritten, within one poll, past the old offset. Its size
    /// alone does not show it; its first bytes do.
    @Test func copytruncateRewrittenPastTheOldOffsetIsDetected() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Self.bytes(Self.leak), second = try Self.bytes(Self.didDisappear)
        // Past the bytes the two captures share (their first 1,371): the old offset's neighbourhood differs.
        let old = Array(first[..<(first.count * 2 / 3)])
        let rewritten = Array(second) + Array(second)  // longer than what was read
        #expect(rewritten.count > old.count)
        try write(old, to: path)
        let (results, _, notices, _) = try follow(path, [
            { try self.write(rewritten, to: path) },  // open(O_TRUNC) + write: same inode
            {},
        ])
        #expect(results.count == 2)
        #expect(results[0].findings.map(Self.key).sorted() == Self.batch(old))
        #expect(results[1].findings.map(Self.key).sorted() == Self.batch(rewritten))
        #expect(results[1].stats.lines == rewritten.filter { $0 == 0x0A }.count)
        #expect(notices == ["vclint: \(path) was truncated or rewritten; reading it from the start, line numbers restart at 1"])
    }

    /// A plain truncation to fewer bytes than were read.
    @Test func truncationRestartsLineNumbers() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Self.bytes(Self.leak), second = try Self.bytes(Self.didDisappear)
        try write(first, to: path)
        let short = Array(second[...second[..<(second.count / 2)].lastIndex(of: 0x0A)!])
        let (results, _, notices, _) = try follow(path, [
            { try self.write([], to: path) },
            { try self.write(short, to: path, append: true) },
            {},
        ])
        #expect(results.map(\.stats.lines) == [first.filter { $0 == 0x0A }.count, short.filter { $0 == 0x0A }.count])
        #expect(results[0].findings.map(Self.key).sorted() == Self.batch(first))
        #expect(notices.count == 1)
    }

    /// A growing file that is only appended to stays one input.
    @Test func appendsAreNotMistakenForARewrite() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Self.bytes(Self.leak)
        try write(Array(first[..<5]), to: path)  // less than the head that is compared
        var steps: [() throws -> Void] = []
        for i in stride(from: 5, to: first.count, by: 97) {
            steps.append({ try self.write(Array(first[i..<min(i + 97, first.count)]), to: path, append: true) })
        }
        steps.append({})
        let (results, printed, notices, _) = try follow(path, steps)
        #expect(results.count == 1)
        #expect(notices.isEmpty)
        #expect(printed.map(Self.key).sorted() == Self.batch(first))
    }

    /// A `.gz` capture is inflated while it is followed, like a batch run of the same file.
    @Test func aGzipFileIsInflated() throws {
        let path = tempPath("log.gz")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try Self.bytes(Self.leak)
        let gz = try gzip(plain)
        try write(Array(gz[..<(gz.count / 2)]), to: path)
        let (results, printed, notices, _) = try follow(path, [{ try self.write(Array(gz[(gz.count / 2)...]), to: path, append: true) }, {}])
        #expect(results.count == 1)
        #expect(notices.isEmpty)
        #expect(printed.map(Self.key).sorted() == Self.batch(plain))
        #expect(results[0].stats.lines == plain.filter { $0 == 0x0A }.count)
        let batch = try Linter().lint([.file(path)]).files[0]
        #expect(batch.findings.map(Self.key).sorted() == Self.batch(plain))
    }

    /// gzip on a pipe (`… | gzip | vclint lint --follow -`), through the CLI: the same findings as
    /// the batch run of the same bytes, two members and trailing bytes included.
    @Test func gzipOnStandardInputIsInflated() throws {
        let plain = try Self.bytes(Self.leak)
        let half = plain.firstIndex(of: 0x0A)! + 1
        let gz = try gzip(Array(plain[..<half])) + (try gzip(Array(plain[half...]))) + Array("junk".utf8)
        let cli = CLITests()
        let live = try cli.run(["lint", "--follow", "-"], stdin: Data(gz))
        let batch = try cli.run(["lint", "-"], stdin: Data(gz))
        #expect(live.status == 1 && batch.status == 1)
        // The same finding; live mode decides the leak when the grace period has passed, so its
        // message gives the session's length at that point (14.6 s), batch mode the whole (31.9 s).
        #expect(live.stdout.hasPrefix("<stdin>:15: error: Child1ViewController#1 was dismissed at line 11 but never deallocated"))
        #expect(batch.stdout.hasPrefix("<stdin>:15: error: Child1ViewController#1 was dismissed at line 11 but never deallocated"))
        #expect(live.stdout.split(separator: "\n").count == 1 && batch.stdout.split(separator: "\n").count == 1)
        #expect(live.stderr.contains("vclint: warning: <stdin>: 4 bytes after the last gzip member ignored"))
        #expect(live.stderr.contains("1 error, 0 warnings in 1 file (28 lines"))
    }

    /// A classic Mac capture (CR line ends) followed live gives the batch findings of its LF form.
    @Test func classicMacLineEndsWhenFollowing() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try Self.bytes(Self.leak)
        try write(plain.map { $0 == 0x0A ? 0x0D : $0 }, to: path)
        let (results, _, _, _) = try follow(path, [{}])
        #expect(results[0].findings.map(Self.key).sorted() == Self.batch(plain))
        #expect(results[0].stats.lines == 28)
    }
}

/// gzip(1)'s output for `bytes`.
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/gzip")
    p.arguments = ["-c", "-n"]
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return [UInt8](data)
}
