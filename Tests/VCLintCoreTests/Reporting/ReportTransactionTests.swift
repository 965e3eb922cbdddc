import Foundation
import Testing
@testable import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// The report files of one run are committed together or not at all (temporaries first, renames
/// at the end, the replaced ones restored when a rename fails), and never over an input.
@Suite(.serialized) struct ReportTransactionTests {
    let cli = CLITests()

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-tx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func entries(_ dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }
    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Runs `executable` (vclint by default) in the package root with the given stdin and stdout
    /// (a pipe when nil); returns its exit status and stderr.
    func run(_ args: [String], executable: URL = CLITests.binary, stdin: FileHandle? = nil, stdout: FileHandle? = nil) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = packageRoot
        if let stdin { p.standardInput = stdin }
        p.standardOutput = stdout ?? Pipe()
        let err = Pipe()
        p.standardError = err
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, stderr)
    }

    @Test func everyFileIsReplacedWhenAllSucceed() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.xml")
        try Data("old a".utf8).write(to: a)
        try ReportTransaction([try PendingReportFile(path: a.path), try PendingReportFile(path: b.path)]).commit(["new a", "new b"])
        #expect(try text(a) == "new a")
        #expect(try text(b) == "new b")
        #expect(try entries(dir) == ["a.json", "b.xml"], "no temporary or backup left")
    }

    /// The third rename fails: the first two targets get their old contents back (the second had
    /// none: it is removed again), the third is untouched, and nothing else is left in the directory.
    @Test func aRenameThatFailsMidwayRestoresTheReplacedOnes() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.sarif"), c = dir.appendingPathComponent("c.xml")
        try Data("old a".utf8).write(to: a)
        try Data("old c".utf8).write(to: c)
        let tx = ReportTransaction([try PendingReportFile(path: a.path), try PendingReportFile(path: b.path), try PendingReportFile(path: c.path)])
        var calls = 0
        tx.rename = { from, to in
            calls += 1
            if calls == 3 { errno = EIO; return -1 }
            return rename(from, to)
        }
        let e = #expect(throws: ReportFileError.self) { try tx.commit(["new a", "new b", "new c"]) }
        #expect(e?.description == "\(c.path): input/output error")
        #expect(try text(a) == "old a")
        #expect(try text(c) == "old c")
        #expect(try entries(dir) == ["a.json", "c.xml"])
    }

    /// A real failure, not an injected one: the second target became a directory after the run
    /// started (rename(2) over a directory fails); the first keeps its old report.
    @Test func aDirectoryWhereAFileIsExpectedKeepsEveryOldReport() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.sarif")
        try Data("old a".utf8).write(to: a)
        let tx = ReportTransaction([try PendingReportFile(path: a.path), try PendingReportFile(path: b.path)])
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: false)
        let e = #expect(throws: ReportFileError.self) { try tx.commit(["new a", "new b"]) }
        #expect(e?.description == "\(b.path): is a directory")
        #expect(try text(a) == "old a")
        #expect(try entries(dir) == ["a.json", "b.sarif"])
    }

    /// A report that fails while it is streamed (after part of it reached its temporary file, and
    /// after an earlier report was fully written): every old report stays, no temporary is left.
    @Test func aReportThatFailsWhileStreamingKeepsEveryOldReport() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.sarif"), c = dir.appendingPathComponent("c.xml")
        try Data("old a".utf8).write(to: a)
        try Data("old b".utf8).write(to: b)
        let files = [try PendingReportFile(path: a.path), try PendingReportFile(path: b.path), try PendingReportFile(path: c.path)]
        let chunk = String(repeating: "x", count: ReportWriter.bufferSize)
        var streamedBeforeFailing: Int64 = 0
        var cWritten = false
        let e = #expect(throws: ReportFileError.self) {
            try ReportTransaction(files).commit([
                { out in for _ in 0..<3 { try out.write(chunk) } },
                { out in
                    try out.write(chunk + chunk)
                    streamedBeforeFailing = (try? FileManager.default.attributesOfItem(atPath: files[1].temporaryPath!)[.size] as? Int64) ?? -1
                    throw ReportWriteError(code: EIO)
                },
                { out in cWritten = true; try out.write("new c") },
            ])
        }
        #expect(e?.description == "\(b.path): input/output error")
        #expect(streamedBeforeFailing >= Int64(ReportWriter.bufferSize), "the report went to its file as it was written")
        #expect(!cWritten, "nothing more is written once a report failed")
        #expect(try text(a) == "old a")
        #expect(try text(b) == "old b")
        #expect(try entries(dir) == ["a.json", "b.sarif"])
    }

    /// A device that fills up in the middle of a report larger than the buffer: the file reports
    /// were already staged, and keep their old contents.
    @Test func aDeviceThatFailsMidReportKeepsTheFileReportsOld() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json")
        try Data("old a".utf8).write(to: a)
        // A device path other than /dev/null or standard output/error is refused; standard output can
        // still be a full device (`> /dev/full`), so the transaction is given one directly.
        func full() -> PendingReportFile { PendingReportFile(path: "/dev/full", device: open("/dev/full", O_WRONLY | O_CLOEXEC)) }
        let tx = ReportTransaction([full(), try PendingReportFile(path: a.path)])
        var pieces = 0
        let e = #expect(throws: ReportFileError.self) {
            try tx.commit([
                { out in for _ in 0..<4 { try out.write(String(repeating: "d", count: 50_000)); pieces += 1 } },
                { out in try out.write("new a") },
            ])
        }
        #expect(e?.description == "/dev/full: no space left on device")
        #expect(pieces == 1, "the write that overflowed the buffer failed, and the report stopped there")
        #expect(try text(a) == "old a")
        #expect(try entries(dir) == ["a.json"])
        // A report of one device, streamed: the same error.
        let alone = #expect(throws: ReportFileError.self) { try full().commit { out in try out.write(String(repeating: "d", count: 100_000)) } }
        #expect(alone?.description == "/dev/full: no space left on device")
    }

    /// A device that fails to take its report (`/dev/stdout` on `/dev/full`) is written before any
    /// rename, so the file reports of the same run keep their old contents.
    @Test func aFailingDeviceKeepsTheFileReportsOld() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json")
        try Data("old a".utf8).write(to: a)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log", "--reporter", "json:\(a.path)", "--reporter", "sarif:/dev/stdout"], stdout: full)
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: /dev/stdout: no space left on device\n")
        #expect(try text(a) == "old a")
        #expect(try entries(dir) == ["a.json"])
    }

    /// A valid report path and then one whose directory is missing: refused before the lint, the
    /// first report stays as it was.
    @Test func anUnwritableSecondReportKeepsTheFirst() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json")
        try Data("old a".utf8).write(to: a)
        let bad = dir.appendingPathComponent("gone/b.sarif").path
        let r = try cli.run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log", "--reporter", "json:\(a.path)", "--reporter", "sarif:\(bad)"])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: \(bad): no such file or directory\n")
        #expect(try text(a) == "old a")
        #expect(try entries(dir) == ["a.json"])
    }

    @Test func aReportOverAnInputIsRefused() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("capture.log")
        try FileManager.default.copyItem(at: fixtureURL("seeds/navtest-missing-dealloc.log"), to: log)
        let before = try Data(contentsOf: log)
        let same = try cli.run(["lint", log.path, "--reporter", "json:\(log.path)"])
        #expect(same.status == 2)
        #expect(same.stdout.isEmpty)
        #expect(same.stderr == "vclint: error: \(log.path): is one of the inputs; a report would overwrite it\n")
        // Another name for the same file: a symbolic link, and the file found in a directory.
        let link = dir.appendingPathComponent("report.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "capture.log")
        let viaLink = try cli.run(["lint", dir.path, "--reporter", "sarif:\(link.path)"])
        #expect(viaLink.status == 2)
        #expect(viaLink.stderr == "vclint: error: \(link.path): is one of the inputs (\(log.path)); a report would overwrite it\n")
        // Standard input redirected from the file.
        let viaStdin = try run(["lint", "--reporter", "json:\(log.path)"], stdin: try FileHandle(forReadingFrom: log))
        #expect(viaStdin.status == 2)
        #expect(viaStdin.stderr == "vclint: error: \(log.path): is one of the inputs (standard input); a report would overwrite it\n")
        // timeline/leaks/report --output and baseline create --output too.
        let timeline = try cli.run(["timeline", log.path, "--output", log.path])
        #expect(timeline.status == 2 && timeline.stderr.contains("is one of the inputs"))
        let baseline = try cli.run(["baseline", "create", log.path, "--output", log.path])
        #expect(baseline.status == 2 && baseline.stderr.contains("is one of the inputs"))
        #expect(try Data(contentsOf: log) == before)
        #expect(try entries(dir) == ["capture.log", "report.json"])
    }

    /// A report path that does not exist yet is compared by its standardized path.
    @Test func aMissingInputNamedAsAReportIsRefusedByPath() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("later.log").path
        let r = try cli.run(["lint", missing, "--reporter", "json:\(dir.path)/./later.log"])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: \(dir.path)/./later.log: is one of the inputs; a report would overwrite it\n")
    }

    /// Among many inputs and several reports, the first report that would overwrite one is named,
    /// with the input it would overwrite (a hard link is the same file).
    @Test func theFirstReportThatWouldOverwriteAnInputIsNamed() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let seed = try Data(contentsOf: URL(fileURLWithPath: "Fixtures/seeds/navtest-missing-dealloc.log"))
        for k in 0..<40 { try seed.write(to: dir.appendingPathComponent("capture-\(k).log")) }
        let out = try tempDir()
        defer { try? FileManager.default.removeItem(at: out) }
        let link = out.appendingPathComponent("linked.json").path
        try FileManager.default.linkItem(atPath: dir.appendingPathComponent("capture-17.log").path, toPath: link)
        let r = try cli.run(["lint", dir.path, "--reporter", "json:\(out.path)/fine.json", "--reporter", "sarif:\(link)",
                             "--reporter", "junit:\(dir.path)/capture-3.log"])
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: \(link): is one of the inputs (\(dir.path)/capture-17.log); a report would overwrite it\n")
        #expect(try entries(out) == ["linked.json"])
    }

    @Test func aWriteErrorOnStdoutIsExitTwo() throws {
        let r = try run(["lint", "Fixtures/seeds/navtest-missing-dealloc.log"], stdout: try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full")))
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: standard output: no space left on device\n")
    }

    /// The stdout report is streamed: a device that fills up at the first buffer of a long report
    /// fails the run the same way (exit 2, one line), and the report file of the run is complete.
    @Test func aWriteErrorInTheMiddleOfTheStdoutReportIsExitTwo() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("many.log"), json = dir.appendingPathComponent("r.json")
        try Data(manyFindingsCapture(2000).utf8).write(to: log)
        let r = try run(["lint", log.path, "--reporter", "xcode", "--reporter", "json:\(json.path)"],
                        stdout: try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full")))
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: standard output: no space left on device\n")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect((doc["violations"] as? [Any])?.count == 2000)
        #expect(try entries(dir) == ["many.log", "r.json"])
    }

    /// A reader that goes away (`| head -c 100`) with SIGPIPE ignored: the report stops quietly,
    /// the run ends with its own exit code and summary, no error line.
    @Test func aClosedPipeStopsTheStdoutReportQuietly() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("many.log")
        try Data(manyFindingsCapture(5000).utf8).write(to: log)
        let r = try run(["-c", #"trap '' PIPE; "$0" lint "$1" | head -c 100 >/dev/null; exit "${PIPESTATUS[0]}""#, CLITests.binary.path, log.path],
                        executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("5,000 errors, 0 warnings in 1 file"), "\(r.stderr)")
        #expect(!r.stderr.contains("vclint: error"))
    }

    /// SIGINT or SIGTERM while the input is read: the process dies of the signal and the temporary
    /// files beside the reports are gone; the old report is untouched.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalRemovesTheTemporaries(signal: Int32) throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.xml")
        try Data("old a".utf8).write(to: a)
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = ["lint", "-", "--reporter", "json:\(a.path)", "--reporter", "junit:\(b.path)"]
        let input = Pipe()
        p.standardInput = input
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        input.fileHandleForWriting.write(Data("2017-02-11 17:25:16.964 navTest[933:17086] mainViewCtrl invoke viewDidLoad\n".utf8))
        let deadline = Date().addingTimeInterval(10)
        while try entries(dir).count < 3, Date() < deadline { usleep(10_000) }  // a.json and two temporaries
        #expect(try entries(dir).count == 3)
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        #expect(p.terminationStatus == signal)
        #expect(try entries(dir) == ["a.json"])
        #expect(try text(a) == "old a")
    }
}
