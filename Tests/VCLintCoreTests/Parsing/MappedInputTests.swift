import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// A regular file is read through mapped windows (`MappedInput.swift`): the reports are read(2)'s,
/// byte for byte, wherever the windows and chunks fall, and a file truncated under a window is an
/// error of its input, not a SIGBUS that kills the run.
@Suite struct MappedInputTests {
    static func json(_ file: FileResult) -> String { JSONReporter().report(LintResult(files: [file])) }

    /// The file at `url` linted from its descriptor, with windows of `window` bytes (0: read(2)).
    static func lint(_ url: URL, window: Int, chunk: Int = LintOptions.defaultChunkSize, pipelined: Bool = false,
                     windowMapped: (@Sendable (Int) -> Void)? = nil) throws -> FileResult {
        var o = LintOptions()
        o.chunkSize = chunk
        o.mapWindow = window
        o.pipelined = pipelined
        o.windowMapped = windowMapped
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw InputReadError.io(errno) }
        defer { close(fd) }
        return try Linter(options: o).lint(fd: fd, path: "capture.log")
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-mapped-\(UUID().uuidString).log")
        try Data(bytes).write(to: url)
        return url
    }

    /// A capture of about `size` bytes: runs of the simulator one after the other, as vclint-loggen
    /// writes them.
    static func capture(seed: UInt64, envelope: EnvelopeFormat, dialect: NavigationSimulator.Dialect, size: Int) -> [UInt8] {
        var o = NavigationSimulator.Options(seed: seed)
        o.envelope = envelope
        o.dialect = dialect
        o.noise = 8
        o.mentionRate = 0.05
        o.objects = true
        o.fault = .leak
        var bytes: [UInt8] = []
        repeat {
            let out = NavigationSimulator.generate(o)
            bytes += Array(out.text.utf8)
            o.seed &+= 1
            o.startTime = out.endTime + 60
            o.firstPID = out.nextPID
            o.fault = nil
        } while bytes.count < size && envelope != .bare
        return bytes
    }

    /// The shapes that meet a window's edge: CRLF ends, a line longer than the chunk (read by its
    /// head), one longer than a window, a last line without its newline, an empty last window.
    static func variants(_ bytes: [UInt8], chunk: Int) -> [(String, [UInt8])] {
        let crlf = bytes.split(separator: UInt8.newline, omittingEmptySubsequences: false).map { Array($0) }
            .joined(separator: [UInt8.carriageReturn, UInt8.newline]).map { $0 }
        let middle = bytes.count / 2
        let cut = bytes[..<middle].lastIndex(of: UInt8.newline).map { $0 + 1 } ?? 0
        var overlong = Array(bytes[..<cut])
        overlong += Array("2024-03-01 10:00:00.100 Shop[1:1] viewDidLoad ".utf8) + Array(repeating: UInt8(ascii: "x"), count: chunk + 5) + [UInt8.newline]
        overlong += Array(repeating: UInt8(ascii: "y"), count: 300_000) + [UInt8.newline]
        overlong += Array(repeating: UInt8(ascii: "z"), count: chunk - 1) + [UInt8.newline]
        overlong += Array(repeating: UInt8(ascii: "w"), count: chunk) + [UInt8.newline]
        overlong += bytes[cut...]
        return [("plain", bytes), ("crlf", crlf), ("overlong", overlong), ("unterminated", bytes + Array("tail without newline".utf8))]
    }

    @Test(arguments: [(EnvelopeFormat.nslogTZ, NavigationSimulator.Dialect.objc), (.oslog, .swift), (.syslog, .described),
                      (.ndjson, .methodClass), (.compact, .named), (.nslog, .freeForm)])
    func mappedWindowsReadWhatReadGives(envelope: EnvelopeFormat, dialect: NavigationSimulator.Dialect) throws {
        let bytes = Self.capture(seed: UInt64(envelope.index + 3), envelope: envelope, dialect: dialect, size: 700_000)
        for chunk in [4096, 65536] {
            for (name, variant) in Self.variants(bytes, chunk: chunk) {
                let url = try Self.temporaryFile(variant)
                defer { try? FileManager.default.removeItem(at: url) }
                let read = Self.json(try Self.lint(url, window: 0, chunk: chunk))
                for window in [1, 100_000, 262_144, LintOptions.defaultMapWindow] {
                    let mapped = try Self.lint(url, window: window, chunk: chunk, pipelined: window == 100_000)
                    #expect(Self.json(mapped) == read, "\(envelope) \(dialect) \(name), chunk \(chunk), window \(window)")
                    #expect(mapped.stats.bytes == variant.count)
                }
            }
        }
    }

    @Test func fixturesReadMappedAsRead() throws {
        for fixture in allFixtureLogs() {
            let url = packageRoot.appendingPathComponent(fixture)
            #expect(try Self.json(Self.lint(url, window: 1, chunk: 4096)) == Self.json(Self.lint(url, window: 0, chunk: 4096)), "\(fixture)")
        }
    }

    /// The file truncated while a piece of its window is scanned (by the sink, at a line in the
    /// middle of the piece): the piece's later pages are gone and their reads fault, which the guard
    /// turns into an error of the input; without the guard the test process dies of SIGBUS.
    @Test func aFileTruncatedWhileItsLinesAreScannedIsAnErrorNotACrash() throws {
        final class Truncating: LineSink {
            let path: String
            var cut = false
            init(path: String) { self.path = path }
            func candidate(_ line: ScannedLine, afterEnvelope: Bool) {
                if !cut, line.number > 3000 {
                    cut = true
                    _ = truncate(path, 100_000)
                }
            }
        }
        let bytes = Self.capture(seed: 9, envelope: .nslogTZ, dialect: .objc, size: 2_000_000)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let sink = Truncating(path: url.path)
        let scanner = LogScanner(sink: sink, chunkSize: 65536)
        scanner.mapWindow = 1 << 20
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect {
            try scanner.scan(fd: fd)
        } throws: { error in
            if case InputReadError.truncated = error { return true }
            return false
        }
        #expect(sink.cut)
    }

    /// A file cut short just after its window was mapped: the pieces it no longer holds are read with
    /// read(2), which ends where the file ends now, as a read from the start would have.
    @Test func aFileCutShortUnderItsWindowReadsAsReadWould() throws {
        let bytes = Self.capture(seed: 9, envelope: .nslogTZ, dialect: .objc, size: 3_000_000)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let path = url.path
        /// Where the file was cut: 4 KiB and a bit into the first window mapped past 1 MiB.
        final class Cut: @unchecked Sendable {
            let lock = NSLock()
            var at: Int?
        }
        let cut = Cut()
        let mapped = try Self.lint(url, window: 1 << 20, chunk: 65536) { offset in
            cut.lock.withLock {
                guard cut.at == nil, offset >= 1 << 20 else { return }
                cut.at = offset + 4096 + 77
                _ = truncate(path, off_t(offset + 4096 + 77))
            }
        }
        let kept = try #require(cut.lock.withLock { cut.at })
        let prefix = try Self.temporaryFile(Array(bytes[..<kept]))
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(Self.json(mapped) == Self.json(try Self.lint(prefix, window: 0, chunk: 65536)))
        #expect(mapped.stats.bytes == kept)
    }

    /// A file that shrank between two windows ends where it ends now, as with read(2).
    @Test func aFileThatShrankBetweenWindowsEndsThere() throws {
        let bytes = Self.capture(seed: 10, envelope: .nslogTZ, dialect: .swift, size: 3_000_000)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let path = url.path, kept = 2_500_000
        let mapped = try Self.lint(url, window: 1 << 20, chunk: 65536) { offset in
            if offset < 1 << 20 { _ = truncate(path, off_t(kept)) }
        }
        let prefix = try Self.temporaryFile(Array(bytes[..<kept]))
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(Self.json(mapped) == Self.json(try Self.lint(prefix, window: 0, chunk: 65536)))
        #expect(mapped.stats.bytes == kept)
    }
}
