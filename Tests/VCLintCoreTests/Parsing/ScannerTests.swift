import Foundation
import Testing
@testable import VCLintCore

/// Bad input is data: never crash, never lose a finding because a neighbouring line was garbage.
@Suite struct ScannerTests {
    static let flow = """
    2024-03-01 10:00:00.000 Shop[1:1] -[HomeViewController viewDidLoad]
    2024-03-01 10:00:00.100 Shop[1:1] -[HomeViewController viewWillAppear:]
    2024-03-01 10:00:00.200 Shop[1:1] -[HomeViewController viewDidAppear:]
    2024-03-01 10:00:01.000 Shop[1:1] -[HomeViewController viewDidAppear:]
    """  // line 4: did-callback without its will

    func lintBytes(_ bytes: [UInt8], chunk: Int = LintOptions.defaultChunkSize, feed: Int? = nil) -> FileResult {
        var o = LintOptions()
        o.chunkSize = chunk
        return Linter(options: o).lint(bytes: bytes, path: "t.log", feedSize: feed)
    }

    /// An input that fails part-way (a read error) drops its scanner without `finish`: the events
    /// thread still ends, and a later scanner works.
    @Test func abandonedPipelinedScannerStopsItsThread() {
        var cut = LintOptions()
        cut.chunkSize = 256
        cut.pipelined = true
        cut.pipeBatch = EventPipe.BatchSize(bytes: 64, records: 2)
        for _ in 0..<20 {
            let input = InputPipeline(path: "cut.log", options: cut)
            Array(Self.flow.utf8).withUnsafeBytes { input.consume($0) }
        }
        var whole = LintOptions()
        whole.pipelined = true
        let input = InputPipeline(path: "whole.log", options: whole)
        Array((Self.flow + "\n").utf8).withUnsafeBytes { input.consume($0) }
        let (stats, _) = input.finish()
        #expect(stats.lines == 4)
        #expect(stats.events == 4)
    }

    /// The context process `print` lines inherit: an ndjson event without a process leaves none,
    /// and the next enveloped line (noise) gives it again. The events thread must see that line too.
    @Test func contextProcessAfterAnEventWithoutProcess() {
        let text = [
            #"{"timestamp":"2024-03-01 10:00:00.000000+0000","process":"Shop","processID":10,"eventMessage":"app started"}"#,
            #"{"timestamp":"2024-03-01 10:00:01.000000+0000","processID":11,"eventMessage":"-[AViewController viewDidLoad]"}"#,
            #"{"timestamp":"2024-03-01 10:00:02.000000+0000","process":"Other","processID":12,"eventMessage":"network up"}"#,
            "-[BViewController viewDidLoad]",
        ].joined(separator: "\n") + "\n"
        for pipelined in [false, true] {
            var o = LintOptions()
            o.pipelined = pipelined
            let r = Linter(options: o).lint(text: text)
            #expect(r.stats.events == 2)
            #expect(r.stats.sessions == 2, "pipelined \(pipelined): the print line belongs to Other, not to the process-less event")
        }
    }

    @Test func crlfLineEndings() {
        let r = lintBytes(Array(Self.flow.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        #expect(r.summary == ["unbalanced_appearance@4"])
        #expect(r.stats.lines == 4)
    }

    @Test func lastLineWithoutNewlineCounts() {
        let r = lintBytes(Array(Self.flow.utf8))
        #expect(r.summary == ["unbalanced_appearance@4"])
        #expect(r.stats.lines == 4)
        let withNewline = lintBytes(Array((Self.flow + "\n").utf8))
        #expect(withNewline.stats.lines == 4)
    }

    /// An empty input is never clean (docs/rules.md#no_lifecycle_events).
    @Test func emptyInput() {
        let r = lintBytes([])
        #expect(r.summary == ["no_lifecycle_events@1"])
        #expect(r.stats.lines == 0)
        #expect(r.stats.sessions == 0)
    }

    @Test func garbageNeighboursDoNotHideFindings() {
        var bytes: [UInt8] = []
        var rng = SystemRandomNumberGenerator()
        let lines = Self.flow.split(separator: "\n")
        for (i, line) in lines.enumerated() {
            bytes += Array(line.utf8) + [0x0A]
            if i < lines.count - 1 {
                // NUL bytes, invalid UTF-8 and random bytes (newline-free) between the events
                var junk: [UInt8] = [0x00, 0xFF, 0xFE, 0xC3, 0x28, 0x00]
                for _ in 0..<200 { var b = UInt8.random(in: 0...255, using: &rng); if b == 0x0A { b = 0x20 }; junk.append(b) }
                bytes += junk + [0x0A]
            }
        }
        let r = lintBytes(bytes)
        #expect(r.summary == ["unbalanced_appearance@7"])
        #expect(r.stats.lines == 7)
    }

    @Test func nulBytesAndInvalidUTF8InsideEvents() {
        let text = "2024-03-01 10:00:00.000 Shop[1:1] -[Caf\u{E9}ViewController viewDidLoad]\n"
        var bytes = Array(text.utf8)
        bytes += Array("2024-03-01 10:00:00.100 Shop[1:1] -[Bad".utf8) + [0xFF, 0xFE] + Array("VC viewDidAppear:]\n".utf8)
        bytes += Array("2024-03-01 10:00:00.200 Shop[1:1] noise".utf8) + [0, 0, 0] + Array(" dealloc\n".utf8)
        let r = lintBytes(bytes)
        #expect(r.stats.lines == 3)
        #expect(r.stats.events == 2)
        #expect(r.findings.isEmpty)
        let names = lint("-[Caf\u{E9}ViewController viewWillAppear:]\n-[Caf\u{E9}ViewController viewDidAppear:]\n-[Caf\u{E9}ViewController viewDidAppear:]\n")
        #expect(names.findings.first?.controller.className == "Caf\u{E9}ViewController")
    }

    @Test func multiMegabyteLineIsTruncatedNotBuffered() {
        var bytes = Array(Self.flow.split(separator: "\n")[0...1].joined(separator: "\n").utf8) + [0x0A]
        bytes += Array(repeating: UInt8(ascii: "x"), count: 5_000_000) + [0x0A]
        bytes += Array(Self.flow.split(separator: "\n")[2...3].joined(separator: "\n").utf8) + [0x0A]
        for chunk in [4096, LintOptions.defaultChunkSize] {
            let r = lintBytes(bytes, chunk: chunk, feed: 65536)
            #expect(r.summary == ["unbalanced_appearance@5"], "chunk \(chunk)")
            #expect(r.stats.lines == 5)
            #expect(r.stats.overlongLines == 1)
            #expect(r.stats.bytes == bytes.count)
        }
    }

    /// The buffer starts small and grows: a line longer than its first size but shorter than the
    /// chunk is read whole (not as an overlong line), fed in any pieces, from memory or a file.
    @Test func aLineLongerThanTheFirstBufferIsReadWhole() throws {
        var bytes = Array(Self.flow.split(separator: "\n")[0...1].joined(separator: "\n").utf8) + [0x0A]
        bytes += Array("2024-03-01 10:00:00.100 Shop[1:1] ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 300_000) + [0x0A]
        bytes += Array(Self.flow.split(separator: "\n")[2...3].joined(separator: "\n").utf8) + [0x0A]
        for feed in [nil, 1000, 65536, 200_000] as [Int?] {
            let r = lintBytes(bytes, feed: feed)
            #expect(r.summary == ["unbalanced_appearance@5"], "fed \(feed ?? 0)")
            #expect(r.stats.overlongLines == 0, "fed \(feed ?? 0)")
            #expect(r.stats.bytes == bytes.count)
        }
        let url = scratchRoot.appendingPathComponent("long-line-\(getpid()).log")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        let r = try Linter().lint(fd: fd, path: url.path)
        #expect(r.stats.overlongLines == 0 && r.stats.bytes == bytes.count)
        #expect(r.findings.map { "\($0.rule)@\($0.line)" } == ["unbalanced_appearance@5"])
    }

    @Test func overlongLineAtTheEndWithoutNewline() {
        var bytes = Array((Self.flow + "\n").utf8)
        bytes += Array(repeating: UInt8(ascii: "y"), count: 300_000)
        let r = lintBytes(bytes, chunk: 4096, feed: 1000)
        #expect(r.summary == ["unbalanced_appearance@4"])
        #expect(r.stats.lines == 5)
    }

    @Test func randomBytesNeverCrash() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let n = Int.random(in: 0..<20_000, using: &rng)
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let r = lintBytes(bytes, chunk: 1024, feed: Int.random(in: 1...5000, using: &rng))
            #expect(r.stats.bytes == n)
        }
    }

    @Test func binaryLookingFileWithKeywords() {
        var bytes: [UInt8] = []
        for i in 0..<5000 { bytes.append(UInt8(truncatingIfNeeded: i &* 31)) }
        bytes += Array("viewDidLoad dealloc init present dismiss Attempt to ".utf8)
        bytes += [0, 0, 0x0A, 0x0D, 0x0A]
        let r = lintBytes(bytes)
        // Callback names in it, none read: unread, so not clean; and nothing else.
        #expect(r.stats.events == 0)
        #expect(r.summary == ["no_lifecycle_events@\(r.stats.firstUnrecognized ?? 0)"])
        #expect(r.stats.unrecognized == 1)
    }

    @Test func continuationLinesBelongToTheirMessage() {
        let r = lint("""
        2017-02-11 17:25:16.964 navTest[933:17086] state: {
            "-[HomeViewController viewDidAppear:]" = 1;
            HomeViewController viewDidAppear(_:)
        }
        2017-02-11 17:25:16.970 navTest[933:17086] -[HomeViewController viewDidLoad]
        """)
        #expect(r.stats.events == 1)
        #expect(r.stats.formats == [.nslog: 5])
    }

    @Test func printMixedIntoAnNSLogConsoleIsAnEvent() {
        let r = lint("""
        2017-02-11 17:25:16.964 navTest[933:17086] -[HomeViewController viewDidLoad]
        HomeViewController viewWillAppear(_:)
        2017-02-11 17:25:16.970 navTest[933:17086] -[HomeViewController viewDidAppear:]
        """)
        #expect(r.stats.events == 3)
        #expect(r.stats.sessions == 1)
        #expect(r.findings.isEmpty)
    }

    @Test func printBeforeTheFirstNSLogEventBelongsToTheSameProcess() {
        let r = lint("""
        2017-02-11 17:25:16.900 navTest[933:17086] App launched
        HomeViewController viewDidLoad()
        HomeViewController viewWillAppear(_:)
        2017-02-11 17:25:16.970 navTest[933:17086] -[HomeViewController viewDidAppear:]
        """)
        #expect(r.stats.sessions == 1)
        #expect(r.stats.controllers == 1)
        #expect(r.findings.isEmpty)
    }

    @Test func mixedEnvelopesInOneFile() throws {
        var text = ""
        for name in ["nslog.log", "oslog.log", "syslog.log"] {
            text += try String(contentsOf: fixtureURL("envelopes/" + name), encoding: .utf8)
        }
        let r = lint(text)
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(Set(r.stats.formats.keys).isSuperset(of: [.nslog, .oslog, .syslog]))
    }

    /// A sink implements what it needs (`LineSink`'s other calls do nothing by default): this one
    /// takes the candidates alone, each a `ScannedLine` with its number, its envelope and its bytes
    /// from the envelope on, the same on the vector path and the portable one, whatever the reads.
    @Test func aSinkTakesOnlyWhatItNeeds() {
        final class Candidates: LineSink {
            var lines: [String] = []
            func candidate(_ line: ScannedLine, afterEnvelope: Bool) {
                lines.append("\(line.number) \(line.format?.rawValue ?? "-") \(afterEnvelope) \(String(decoding: line.bytes, as: UTF8.self))")
            }
        }
        let text = """
        2024-03-01 10:00:00.000 Shop[1:1] -[HomeViewController viewDidLoad]
        2024-03-01 10:00:00.050 Shop[1:1] network up
        2024-03-01 10:00:00.100 Shop[1:1] -[HomeViewController viewWillAppear:]\r
        \u{2022} 2024-03-01 10:00:00.200 Shop[1:1] -[HomeViewController viewDidAppear:]
        HomeViewController viewWillDisappear(_:)
            a continuation that mentions dealloc

        """
        let expected = [
            "1 nslog false 2024-03-01 10:00:00.000 Shop[1:1] -[HomeViewController viewDidLoad]",
            "3 nslog true 2024-03-01 10:00:00.100 Shop[1:1] -[HomeViewController viewWillAppear:]",
            "4 nslog true 2024-03-01 10:00:00.200 Shop[1:1] -[HomeViewController viewDidAppear:]",
            "5 - true HomeViewController viewWillDisappear(_:)",
        ]
        let bytes = Array(text.utf8)
        for portable in [false, true] {
            for feed in [1, 13, bytes.count] {
                let sink = Candidates()
                let scanner = LogScanner(sink: sink, chunkSize: 256)
                scanner.portable = portable
                var i = 0
                while i < bytes.count {
                    let n = min(feed, bytes.count - i)
                    bytes[i..<(i + n)].withUnsafeBytes { scanner.consume($0) }
                    i += n
                }
                let stats = scanner.finish()
                #expect(stats.lines == 6)
                #expect(sink.lines == expected, "portable \(portable), reads of \(feed)")
            }
        }
    }
}
