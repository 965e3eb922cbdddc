import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation
#if canImport(Glibc)
import Glibc
#endif

/// Process memory from /proc/self/status (kB → bytes): the current and the peak resident set.
func residentBytes() -> (current: Int, peak: Int) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    var current = 0, peak = 0
    for line in text.split(separator: "\n") {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count >= 2, let kb = Int(parts[1]) else { continue }
        if parts[0] == "VmRSS:" { current = kb * 1024 }
        if parts[0] == "VmHWM:" { peak = kb * 1024 }
    }
    return (current, peak)
}

/// A scanner fed piece by piece, as a stream: what a test cannot hold in memory is generated.
struct StreamedLint {
    let scanner: InputPipeline
    let options: LintOptions

    init(chunkSize: Int = LintOptions.defaultChunkSize, options: LintOptions = LintOptions()) {
        var o = options
        o.chunkSize = chunkSize
        self.options = o
        scanner = InputPipeline(path: "stream.log", options: o)
    }

    func feed(_ text: String) { feed(Array(text.utf8)) }
    func feed(_ bytes: [UInt8]) { bytes.withUnsafeBytes { scanner.consume($0) } }

    func finish() -> FileResult {
        let (stats, summary) = scanner.finish()
        let findings = RuleEngine.findings(summary.observations, path: "stream.log", settings: options.rules, options: options.timeline)
        return FileResult(stats: stats, findings: findings)
    }
}

/// Hostile input never crashes, hangs or makes vclint cry wolf, and memory stays bounded
/// (docs/development.md#attacking-reliability).
@Suite struct HostileInputTests {
    static func nslog(_ clock: String, _ message: String, pid: Int = 1, process: String = "Shop") -> String {
        "2024-03-01 \(clock) \(process)[\(pid):7] \(message)\n"
    }

    /// A 1 GiB line, streamed through the scanner 1 MiB at a time: it is parsed by its head and
    /// counted, never buffered whole, and the lines after it keep their numbers.
    @Test func oneGigabyteLineIsTruncatedAndCountedNotBuffered() {
        let lint = StreamedLint()
        lint.feed(Self.nslog("10:00:00.000", "-[HomeViewController viewDidLoad]")
                  + Self.nslog("10:00:00.100", "-[HomeViewController viewWillAppear:]"))
        let before = residentBytes()
        // Line 3: an event at the start of the line, then 1 GiB without a newline.
        lint.feed(Self.nslog("10:00:00.150", "-[OtherViewController viewDidLoad] ").utf8.dropLast(1).map { $0 })
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        block.withUnsafeBytes { raw in
            for _ in 0..<1024 { lint.scanner.consume(raw) }
        }
        lint.feed("\n" + Self.nslog("10:00:00.200", "-[HomeViewController viewDidAppear:]")
                  + Self.nslog("10:00:01.000", "-[HomeViewController viewDidAppear:]"))
        let after = residentBytes()
        let r = lint.finish()
        #expect(r.summary == ["unbalanced_appearance@5"])
        #expect(r.stats.lines == 5)
        #expect(r.stats.overlongLines == 1)
        #expect(r.stats.events == 4, "the over-long line is noise (its head is no whole statement); the others are events")
        #expect(r.stats.bytes > 1 << 30)
        let grew = after.peak - before.peak
        print("1 GiB line: peak RSS grew by \(grew >> 20) MiB (buffer \(LintOptions.defaultChunkSize >> 20) MiB)")
        #expect(grew < 256 << 20, "the scanner buffered the line: peak RSS grew by \(grew >> 20) MiB")
    }

    /// A file read through `lint(fd:)` says on stderr how many lines were longer than the buffer
    /// (here 4 KiB, as small as a test can make it), read by their head only.
    @Test func overlongLinesOfAFileAreWarnedOf() throws {
        let path = scratchRoot.appendingPathComponent("vclint-long-\(UUID().uuidString).log").path
        defer { unlink(path) }
        let long = String(Self.nslog("10:00:00.150", "-[OtherViewController viewDidLoad] ").dropLast()) + String(repeating: "x", count: 10_000)
        let text = Self.nslog("10:00:00.000", "-[HomeViewController viewDidLoad]") + long + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var o = LintOptions()
        o.chunkSize = 4096
        let r = try Linter(options: o).lint(fd: fd, path: "long.log")
        #expect(r.stats.overlongLines == 1)
        #expect(r.warnings == ["vclint: warning: long.log: 1 line longer than 4 KiB read by its first 4 KiB only (the rest not linted)"])
        #expect(lseek(fd, 0, SEEK_SET) == 0)
        #expect(try Linter().lint(fd: fd, path: "long.log").warnings.isEmpty, "within the default 1 MiB buffer")
    }

    static let ndjsonHead = #"{"timestamp":"2024-03-01 10:00:00.000000+0800","processID":1,"threadID":5,"#
    static func ndjson(_ message: String, extra: String = "") -> String {
        ndjsonHead + extra + #""eventMessage":""# + message + #"","processImagePath":"/var/Shop.app/Shop"}"# + "\n"
    }

    /// Deep nesting is skipped without recursion, huge strings are read, malformed JSON is plain text.
    @Test func deeplyNestedAndHugeJSONInNDJSONLines() {
        let depth = 200_000
        let nested = #""nested":"# + String(repeating: #"[{"a":"#, count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2) + ","
        let huge = #""padding":""# + String(repeating: #"ab\"\\\u0000\n"#, count: 40_000) + #"","#
        var text = Self.ndjson("-[HomeViewController viewDidLoad]", extra: nested)
        text += Self.ndjson("-[HomeViewController viewWillAppear:]", extra: huge)
        text += #"{"eventMessage":"-[HomeViewController viewDidDisappear:]","x":"# + String(repeating: "[", count: 2_000_000) + "\n"
        text += Self.ndjson("-[HomeViewController viewDidAppear:]")
        text += Self.ndjson("-[HomeViewController viewDidAppear:]")
        for chunk in [LintOptions.defaultChunkSize, 4 << 20] {
            var o = LintOptions()
            o.chunkSize = chunk
            let r = Linter(options: o).lint(bytes: Array(text.utf8), path: "n.ndjson", feedSize: 65536)
            #expect(r.summary == ["unbalanced_appearance@5"], "chunk \(chunk)")
            #expect(r.stats.lines == 5)
            #expect(r.stats.events == 4, "the unclosed line is not an event; the others are")
        }
    }

    /// (NUL bytes inside and around lines: ScannerTests.)
    @Test func invalidUTF8InClassNamesReachesTheReportsSafely() throws {
        var bytes: [UInt8] = []
        let name: [UInt8] = Array("Bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("ViewController".utf8)
        for (clock, call) in [("10:00:00.000", "viewWillAppear:"), ("10:00:00.100", "viewDidAppear:"), ("10:00:00.200", "viewDidAppear:")] {
            bytes += Array("2024-03-01 \(clock) Shop[1:7] -[".utf8) + name + Array(" \(call)]\n".utf8)
        }
        let r = Linter().lint(bytes: bytes, path: "bad.log")
        #expect(r.summary == ["unbalanced_appearance@3"])
        let className = try #require(r.findings.first?.controller.className)
        #expect(className.contains("\u{FFFD}"))
        let result = LintResult(files: [r])
        let json = JSONReporter().report(result)
        #expect(json.hasSuffix("\n"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let v = try #require((doc["violations"] as? [[String: Any]])?.first)
        #expect((v["controller"] as? [String: Any])?["class"] as? String == className)
        let xcode = XcodeReporter().report(result)
        #expect(xcode.split(separator: "\n", omittingEmptySubsequences: false).count == 2, "one line per finding")
    }

    /// Clocks jump back (NTP, a device's time zone change, concatenated captures): no false alarm,
    /// no negative delay, and a real leak is still found on its line.
    @Test func timestampsThatGoBackwards() {
        func flow(leak: Bool) -> String {
            var t = ""
            t += Self.nslog("10:00:05.000", "-[HomeViewController viewDidLoad]")
            t += Self.nslog("10:00:05.100", "-[HomeViewController viewWillAppear:]")
            t += Self.nslog("10:00:05.200", "-[HomeViewController viewDidAppear:]")
            t += Self.nslog("09:59:00.000", "-[DetailViewController viewDidLoad]")          // back 65 s
            t += Self.nslog("09:59:00.100", "-[HomeViewController viewWillDisappear:]")
            t += Self.nslog("09:59:00.050", "-[DetailViewController viewWillAppear:]")      // back 50 ms
            t += Self.nslog("09:59:00.400", "-[HomeViewController viewDidDisappear:]")
            t += Self.nslog("09:58:00.000", "-[DetailViewController viewDidAppear:]")       // back a minute
            t += Self.nslog("09:58:01.000", "-[DetailViewController viewWillDisappear:]")
            t += Self.nslog("09:58:01.100", "-[HomeViewController viewWillAppear:]")
            t += Self.nslog("09:58:01.500", "-[DetailViewController viewDidDisappear:]")   // line 11
            t += Self.nslog("09:58:01.600", "-[HomeViewController viewDidAppear:]")
            // Back an hour. (The leak variant deallocates another class, so the dialect logs dealloc.)
            t += Self.nslog("09:00:00.000", leak ? "-[SettingsViewController dealloc]" : "-[DetailViewController dealloc]")
            t += Self.nslog("09:00:10.000", "Reachability: network changed")
            t += Self.nslog("10:30:00.000", "Reachability: network changed")
            return t
        }
        var all = RuleSettings.all
        all.enabled.remove("memory_warning")
        let legal = lint(flow(leak: false), rules: all)
        #expect(legal.findings.isEmpty, "\(legal.findings.map { "\($0.rule)@\($0.line) \($0.message)" })")
        let leaked = lint(flow(leak: true), rules: all)
        #expect(leaked.summary == ["leaked_controller@11"])
        for f in Array(legal.findings) + Array(leaked.findings) { #expect(f.message.firstMatch(of: /-\d/) == nil, "negative delay: \(f.message)") }
    }

    /// A pid seen again belongs to a new run (the old process died), and two processes may share a
    /// pid number in one capture (a device and a simulator): neither merges controllers.
    @Test func pidReuse() {
        var t = ""
        t += Self.nslog("10:00:00.000", "-[HomeViewController viewDidLoad]", pid: 100)
        t += Self.nslog("10:00:00.100", "-[HomeViewController viewWillAppear:]", pid: 100)
        t += Self.nslog("10:00:00.200", "-[HomeViewController viewDidAppear:]", pid: 100)
        t += Self.nslog("10:01:00.000", "-[HomeViewController viewDidLoad]", pid: 200)
        t += Self.nslog("10:01:00.100", "-[HomeViewController viewWillAppear:]", pid: 200)
        t += Self.nslog("10:01:00.150", "-[HomeViewController viewDidLoad]", pid: 200, process: "Widget")
        t += Self.nslog("10:01:00.200", "-[HomeViewController viewDidAppear:]", pid: 200)
        t += Self.nslog("10:01:00.250", "-[HomeViewController viewWillAppear:]", pid: 200, process: "Widget")
        t += Self.nslog("10:01:00.300", "-[HomeViewController viewDidAppear:]", pid: 200, process: "Widget")
        // pid 100 again: a third run of Shop, which loads its first screen anew.
        t += Self.nslog("10:02:00.000", "-[HomeViewController viewDidLoad]", pid: 100)
        t += Self.nslog("10:02:00.100", "-[HomeViewController viewWillAppear:]", pid: 100)
        t += Self.nslog("10:02:00.200", "-[HomeViewController viewDidAppear:]", pid: 100)
        t += Self.nslog("10:02:00.300", "-[HomeViewController viewDidAppear:]", pid: 100)  // line 13: a real bug
        let r = lint(t)
        #expect(r.summary == ["unbalanced_appearance@13"], "\(r.findings.map(\.message))")
        #expect(r.stats.sessions == 4)
        #expect(r.stats.controllers == 4)
    }

    /// A million distinct controllers, streamed (the time limit is a guard against a hang, not a
    /// benchmark: a debug pass takes about 11 s alone, and over two minutes beside the suite's other heavy
    /// tests on two cores). Memory follows the live controllers: a million
    /// that come and go costs what a few do; a million alive at once is linear, and reported.
    @Test(.timeLimit(.minutes(8))) func aMillionDistinctControllers() {
        // Debug builds run a tenth (2–5 s per pass); VCLINT_MILLION=1000000 runs the full million (debug:
        // ~45 s and ~22 s, peak RSS +6 MiB when each is deallocated, ~800 bytes per controller kept alive).
        #if DEBUG
        let defaultCount = 100_000
        #else
        let defaultCount = 1_000_000
        #endif
        let count = Int(ProcessInfo.processInfo.environment["VCLINT_MILLION"] ?? "") ?? defaultCount
        for alive in [false, true] {
            let lint = StreamedLint()
            let before = residentBytes()
            let start = ContinuousClock.now
            var text = ""
            text.reserveCapacity(1 << 20)
            lint.feed(Self.nslog("10:00:00.000", "<RootViewController: 0x7f0000000010> viewDidLoad"))
            for k in 0..<count {
                let address = "0x" + String(0x7f10_0000_0000 + k * 0x40, radix: 16)
                let className = "Screen\(k % 1000)ViewController"
                let time = 1_700_000_000 + Double(k) / 1000
                text += NavigationSimulator.envelope("<\(className): \(address)> viewDidLoad", time: time, pid: 1, format: .nslog) + "\n"
                if !alive { text += NavigationSimulator.envelope("<\(className): \(address)> dealloc", time: time, pid: 1, format: .nslog) + "\n" }
                if text.utf8.count > 1 << 20 {
                    lint.feed(text)
                    text.removeAll(keepingCapacity: true)
                }
            }
            lint.feed(text)
            let r = lint.finish()
            let elapsed = (ContinuousClock.now - start).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            let after = residentBytes()
            let grew = max(0, after.peak - before.peak)
            print("\(count) distinct controllers (\(alive ? "all alive" : "each deallocated")): \(String(format: "%.1f", seconds)) s, \(r.stats.lines) lines, peak RSS +\(grew >> 20) MiB (\(grew / count) bytes/controller)")
            #expect(r.stats.controllers == count + 1)
            #expect(r.findings.isEmpty, "\(r.findings.prefix(3).map(\.message))")
            if alive {
                #expect(grew < 2 << 30, "a live controller should cost well under 2 KiB")
            } else {
                #expect(grew < 200 << 20, "controllers that are gone must not be kept: +\(grew >> 20) MiB")
            }
        }
    }
}

/// Captures still being written, rotated or cut short while vclint reads them.
@Suite struct ChangingFileTests {
    /// Blocks of a balanced flow with one bug each: the repeated viewDidAppear, on thread 3.
    static func blocks(_ count: Int, from first: Int = 0) -> [UInt8] {
        var t = ""
        for b in first..<(first + count) {
            // From a UTC midnight: the envelope prints a fixed date before the time of day, so a
            // block past the next midnight would read as a day earlier, a clock gone backwards.
            let base = 1_699_920_000 + Double(b)
            func line(_ dt: Double, _ msg: String, thread: Int = 7) -> String {
                NavigationSimulator.envelope(msg, time: base + dt, pid: 1, format: .nslog)
                    .replacingOccurrences(of: ":51413]", with: ":\(thread)]") + "\n"
            }
            t += line(0.0, "-[HomeViewController viewWillAppear:]")
            t += line(0.1, "-[HomeViewController viewDidAppear:]")
            t += line(0.2, "-[HomeViewController viewDidAppear:]", thread: 3)
            t += line(0.3, "[Network] GET https://api.example.com/v2/feed -> 200 (231 ms)")
            t += line(0.4, "-[HomeViewController viewWillDisappear:]")
            t += line(0.5, "-[HomeViewController viewDidDisappear:]")
        }
        return Array(t.utf8)
    }

    /// What was read is `content[0..<bytes]`: the line count and every finding must agree with it.
    static func checkConsistent(_ r: FileResult, content: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.stats.bytes <= content.count, sourceLocation: sourceLocation)
        let read = content.prefix(r.stats.bytes)
        let lines = read.split(separator: 0x0A, omittingEmptySubsequences: false)
        let physical = read.filter { $0 == 0x0A }.count + (read.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
        #expect(r.stats.lines == physical, sourceLocation: sourceLocation)
        var bugLines = 0
        for (i, l) in lines.enumerated() where i < physical {
            let complete = i < physical - 1 || read.last == 0x0A
            if complete, String(decoding: l, as: UTF8.self).contains("Shop[1:3]") { bugLines += 1 }
        }
        for f in r.findings {
            #expect(f.rule == "unbalanced_appearance", "\(f.rule)@\(f.line)", sourceLocation: sourceLocation)
            let text = f.line <= lines.count ? String(decoding: lines[f.line - 1], as: UTF8.self) : ""
            #expect(text.contains("Shop[1:3]"), "line \(f.line) is not a bug line: \(text)", sourceLocation: sourceLocation)
        }
        #expect(r.findings.count == bugLines || r.findings.count == bugLines + 1, "\(r.findings.count) findings, \(bugLines) bug lines", sourceLocation: sourceLocation)
    }

    static func tempPath() -> String {
        scratchRoot.appendingPathComponent("vclint-grow-\(UUID().uuidString).log").path
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n <= 0 { return }
                off += n
            }
        }
    }

    @Test func fileThatGrowsWhileRead() throws {
        let path = Self.tempPath()
        defer { unlink(path) }
        let first = Self.blocks(500)
        let more = Self.blocks(8000, from: 500)
        let wfd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        try #require(wfd >= 0)
        Self.writeAll(wfd, first)
        let rfd = open(path, O_RDONLY)
        try #require(rfd >= 0)
        defer { close(rfd) }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Appends in odd-sized pieces, so lines are often half written when read.
            var off = 0
            while off < more.count {
                let n = min(777, more.count - off)
                Self.writeAll(wfd, Array(more[off..<(off + n)]))
                off += n
            }
            close(wfd)
            done.signal()
        }
        var o = LintOptions()
        o.chunkSize = 4096
        let r = try Linter(options: o).lint(fd: rfd, path: path)
        done.wait()
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(content.count == first.count + more.count)
        #expect(r.stats.bytes >= first.count)
        Self.checkConsistent(r, content: content)
    }

    /// A batch run reads a regular file up to the size it had when it was opened (`ReadLimit`): what
    /// is appended after is not read, so a writer faster than the reader cannot keep the run going
    /// without end (`--follow` is what follows growth). For gzip the limit is on the compressed bytes:
    /// a member appended after is not inflated. A file empty when opened (as a `/proc` file says it
    /// is) is read to its end.
    @Test func aBatchRunReadsARegularFileToItsSizeWhenOpened() throws {
        let first = Self.blocks(300)
        let more = Self.blocks(300, from: 300)
        for compressed in [false, true] {
            let path = Self.tempPath() + (compressed ? ".gz" : "")
            defer { unlink(path) }
            let written = compressed ? try gzip(first) : first
            try Data(written).write(to: URL(fileURLWithPath: path))
            let rfd = open(path, O_RDONLY)
            try #require(rfd >= 0)
            defer { close(rfd) }
            let limit = ReadLimit(fd: rfd)
            #expect(limit.remaining == written.count)
            let wfd = open(path, O_WRONLY | O_APPEND)
            try #require(wfd >= 0)
            Self.writeAll(wfd, compressed ? try gzip(more) : more)
            close(wfd)
            var o = LintOptions()
            o.chunkSize = 4096
            let r = try Linter(options: o).lint(fd: rfd, path: path, limit: limit)
            #expect(r.stats.bytes == first.count, "compressed: \(compressed)")
            #expect(r.stats.lines == 300 * 6)
            #expect(r.warnings.isEmpty, "\(r.warnings)")
            Self.checkConsistent(r, content: first)
        }
        let path = Self.tempPath()
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let rfd = open(path, O_RDONLY)
        try #require(rfd >= 0)
        defer { close(rfd) }
        let limit = ReadLimit(fd: rfd)
        #expect(limit.remaining == nil)
        let wfd = open(path, O_WRONLY | O_APPEND)
        try #require(wfd >= 0)
        Self.writeAll(wfd, first)
        close(wfd)
        let r = try Linter().lint(fd: rfd, path: path, limit: limit)
        #expect(r.stats.bytes == first.count)
    }

    @Test func fileTruncatedWhileRead() throws {
        let content = Self.blocks(6000)  // ~2.6 MB
        for cut in [content.count / 4, content.count * 3 / 4] {
            // Read the first half, then the file is cut behind or ahead of the reader.
            let path = Self.tempPath()
            defer { unlink(path) }
            try Data(content).write(to: URL(fileURLWithPath: path))
            let rfd = open(path, O_RDONLY)
            try #require(rfd >= 0)
            defer { close(rfd) }
            var options = LintOptions()
            options.chunkSize = 4096
            let scanner = InputPipeline(path: path, options: options)
            var buf = [UInt8](repeating: 0, count: content.count / 2)
            let n = buf.withUnsafeMutableBytes { read(rfd, $0.baseAddress!, $0.count) }
            #expect(n == content.count / 2)
            buf.withUnsafeBytes { scanner.consume($0) }
            #expect(truncate(path, off_t(cut)) == 0)
            try scanner.scan(fd: rfd)
            let (stats, summary) = scanner.finish()
            let r = FileResult(stats: stats, findings: RuleEngine.findings(summary.observations, path: path, settings: .default, options: TimelineOptions()))
            #expect(r.stats.bytes == max(cut, content.count / 2))
            Self.checkConsistent(r, content: content)
        }
    }

    /// logrotate's copytruncate: the file is emptied and written anew while the reader is deep in it.
    @Test func fileTruncatedAndRewrittenWhileRead() throws {
        let path = Self.tempPath()
        defer { unlink(path) }
        let old = Self.blocks(3000)
        let new = Self.blocks(6000, from: 100_000)
        try Data(old).write(to: URL(fileURLWithPath: path))
        let rfd = open(path, O_RDONLY)
        try #require(rfd >= 0)
        defer { close(rfd) }
        var options = LintOptions()
        options.chunkSize = 4096
        let scanner = InputPipeline(path: path, options: options)
        var buf = [UInt8](repeating: 0, count: old.count / 2)
        _ = buf.withUnsafeMutableBytes { read(rfd, $0.baseAddress!, $0.count) }
        buf.withUnsafeBytes { scanner.consume($0) }
        let wfd = open(path, O_WRONLY | O_TRUNC | O_APPEND)
        try #require(wfd >= 0)
        Self.writeAll(wfd, new)
        close(wfd)
        try scanner.scan(fd: rfd)
        let (stats, _) = scanner.finish()
        // What was read: the old file's first half, then the new file from the same offset on.
        let seen = Array(old.prefix(old.count / 2)) + Array(new.dropFirst(old.count / 2))
        #expect(stats.bytes == seen.count)
        #expect(stats.lines == seen.filter { $0 == 0x0A }.count + (seen.last == 0x0A ? 0 : 1))
    }

    /// A concurrent truncation at a random moment: whatever the timing, what was read is consistent.
    @Test func fileTruncatedConcurrently() throws {
        let content = Self.blocks(6000)
        for attempt in 0..<3 {
            let path = Self.tempPath()
            defer { unlink(path) }
            try Data(content).write(to: URL(fileURLWithPath: path))
            let rfd = open(path, O_RDONLY)
            try #require(rfd >= 0)
            defer { close(rfd) }
            let cut = content.count / (2 + attempt)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                usleep(UInt32(500 * attempt))
                _ = truncate(path, off_t(cut))
                done.signal()
            }
            var o = LintOptions()
            o.chunkSize = 4096
            // A regular file is mapped (MappedInput.swift): truncated while a piece of it is scanned,
            // it is an error of its own, never a crash nor findings from lost bytes; otherwise it reads
            // as read(2) would.
            let r: FileResult
            do {
                r = try Linter(options: o).lint(fd: rfd, path: path)
            } catch InputReadError.truncated {
                done.wait()
                continue
            }
            done.wait()
            Self.checkConsistent(r, content: content)
        }
    }
}
