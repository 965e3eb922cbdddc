import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// bytes → lines: reads fixed-size chunks, finds the candidate lines (those that may carry a
/// lifecycle statement) in one pass over the buffer, and pushes lines to its sink (`LineSink`):
/// candidates, the context and time samples that give them meaning, the first line of each
/// envelope format. It builds no String and keeps no state about events: that is the sink's.
/// Memory is the buffer, whatever the input size.
///
/// It is split by job, as ripgrep's searcher is. This file reads the input into the `LineBuffer`,
/// walks its lines the portable way (memchr, and PCRE2 for the candidates: `CandidateSearch`) and
/// hands each to the sink. On x86-64 the vector pass walks them instead (`VectorPass.swift`): its
/// candidate search finds the newlines and the literals with Teddy (`CandidateLiterals`,
/// `VectorWindow`), and recent lines' shapes tell the envelopes (`EnvelopeTemplates.swift`). The
/// run of one process the input is in (`ProcessRuns.swift`) and the lines read for their time
/// (`TimeSamples.swift`) are files of their own.
final class LogScanner<Sink: LineSink>: ByteScanning {

    /// The candidate search of the portable path (and of an over-long line's head).
    private let finder: CandidateFinder
    /// Where the lines go; the scanner owns it.
    let sink: Sink
    /// `sink`, borrowed: the scanner owns it for its whole life, so handing it a line needs no
    /// reference counting (an atomic increment and decrement per candidate line otherwise).
    private let sinkRef: Unmanaged<Sink>
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) var stats = ScanStats()
    /// Counts the bytes read from file descriptors (the CLI's progress line).
    @exclusivity(unchecked) var progress: ProgressCounter?

    /// The bytes read and not scanned yet.
    @exclusivity(unchecked) var buffer: LineBuffer
    /// A copy of the head of the line before the buffer's first (the previous chunk's last): what
    /// `joinedWithCarrier` looks back at across a read boundary.
    @exclusivity(unchecked) private var recent = RecentLines(capacity: 1)
    @exclusivity(unchecked) var lineNumber = 0
    /// Lines per envelope format, by `EnvelopeFormat.index`.
    let formatCounts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) var lastEnvelope: EnvelopeFormat?
    /// Lines left after androidx's view-misuse exception (`LifecycleOwner`) in which a stack frame is a candidate
    /// too: the first app frame under the exception names its fragment (docs/lifecycle.md#android-statements), and a
    /// frame carries no literal of its own. While it runs, no line is only counted (`countsNoise`).
    @exclusivity(unchecked) var frameWindow = 0
    static var frameWindowLines: Int { 24 }

    /// Which lines are read for their session's time, besides the runs' last lines; the input's
    /// last timed lines (kept at the end of each chunk), read when it ends (`TimeSamples.swift`).
    @exclusivity(unchecked) var samples: SampleSchedule
    @exclusivity(unchecked) var endingLines = EndingLines(capacity: 64)
    /// The run of one process's timed lines the input is in (`RunKey`), and the latest timed line,
    /// however far back: a line without an envelope belongs to its run (`sendContext`).
    @exclusivity(unchecked) var run = RunTracker()
    @exclusivity(unchecked) var latest = KeptLine()

    /// Off: every line goes through the full parser (the unoptimised path the equivalence test
    /// compares against). The candidate search is only an optimisation: both must agree.
    private let prefilter: Bool
#if arch(x86_64)
    /// The vector path: built-in literals found with Teddy, custom dialects' patterns with PCRE2, and
    /// envelopes recognised by the shape of recent lines.
    let window = VectorWindow()
    let customFinder: CandidateFinder?
    @exclusivity(unchecked) var nextCustom = Int.max
    @exclusivity(unchecked) var templates = RecentTemplates()
#endif
    /// The size of the windows a regular file is mapped in (`MappedInput.swift`); 0: read(2) always.
    @exclusivity(unchecked) var mapWindow = LintOptions.defaultMapWindow
    /// Tests: called with each window's file offset once it is mapped, before it is read.
    @exclusivity(unchecked) var windowMapped: ((Int) -> Void)?
    /// Tests: the portable path (memchr and PCRE2) even where the vector path is built, and the
    /// numbers of the lines the candidate search let through.
    @exclusivity(unchecked) var portable = false
    @exclusivity(unchecked) var candidateLines: [Int]?

    /// `prefilter` off: every line goes to the sink as a candidate (the unoptimised path that the
    /// equivalence tests compare against); `customDialects`: their patterns' literals are candidates too.
    init(sink: Sink, chunkSize: Int = LintOptions.defaultChunkSize, customDialects: [CustomDialect] = [], prefilter: Bool = true,
         sampleInterval: Int = 64 * 1024) {
        self.sink = sink
        sinkRef = Unmanaged.passUnretained(sink)
        self.prefilter = prefilter
        samples = SampleSchedule(interval: sampleInterval)
        finder = CandidateFinder(CandidateSearch.patterns + customDialects.compactMap(\.candidatePattern))
        buffer = LineBuffer(chunkSize: chunkSize)
        formatCounts = .allocate(capacity: EnvelopeFormat.allCases.count)
        formatCounts.initialize(repeating: 0, count: EnvelopeFormat.allCases.count)
#if arch(x86_64)
        let custom = customDialects.compactMap(\.candidatePattern)
        customFinder = custom.isEmpty ? nil : CandidateFinder(custom)
#endif
    }

    deinit {
        // A read error ends the input early: the sink still finishes (the pipe's thread stops).
        if !finished { sink.finish() }
        buffer.deallocate()
        formatCounts.deallocate()
#if arch(x86_64)
        templates.deallocate()
        window.deallocate()
#endif
    }

    /// The sink, borrowed for one call.
    @inline(__always)
    func withSink<R>(_ body: (Sink) -> R) -> R {
        sinkRef._withUnsafeGuaranteedRef(body)
    }

    // MARK: - Reading

    /// Room for more: the buffer grows to its capacity; a line that fills all of it is read by its
    /// head (`overlong`).
    @inline(__always)
    private func makeRoom() {
        guard buffer.isFull else { return }
        if !buffer.isGrown { buffer.grow() } else { overlong() }
    }

    /// Reads a file descriptor to its end.
    func scan(fd: Int32) throws {
        var limit = ReadLimit.none
        try scan(fd: fd, limit: &limit)
    }

    /// Reads a file descriptor to its end, or to `limit`: a regular file through mapped windows
    /// (`MappedInput.swift`), anything else (or a file that cannot be mapped) with read(2).
    func scan(fd: Int32, limit: inout ReadLimit) throws {
        if try scanMapped(fd: fd, limit: &limit) { return }
        while true {
            makeRoom()
            let wanted = buffer.free, start = buffer.filled
            let n = buffer.read(fd, limit: &limit)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputReadError.io(errno)
            }
            if n == 0 { break }
            progress?.add(bytes: n)
            appended(from: start, count: n)
            // The read filled what was free: the input is large.
            if n == wanted, !buffer.isGrown { buffer.grow() }
        }
    }

    /// Feeds bytes (tests, decompressed streams); chunk boundaries may fall anywhere.
    func consume(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            makeRoom()
            while !buffer.isGrown, bytes.count - offset > buffer.free { buffer.grow() }
            let start = buffer.filled
            let n = buffer.append(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: bytes.count - offset)
            offset += n
            appended(from: start, count: n)
        }
    }

    /// Ends the input (the last line may lack its newline) and finishes the sink.
    func finish() -> ScanStats {
        if !finished {
            finished = true
            if !buffer.skipping && buffer.filled > 0 {
                process(0, buffer.filled)
                buffer.drop(buffer.filled)
            }
            // Where the input ends tells how far its sessions went: their last timed lines, not
            // the blank or runner's lines after them.
            sendEnding()
            withSink { $0.finish() }
            stats.lines = lineNumber
            for f in EnvelopeFormat.allCases where formatCounts[f.index] > 0 { stats.formats[f] = formatCounts[f.index] }
        }
        return stats
    }

    /// `n` bytes were read into the buffer at `start`.
    func appended(from start: Int, count n: Int) {
        stats.bytes += n
        if buffer.skipping {
            guard buffer.skipRest(from: start), buffer.filled > 0 else { return }
            processComplete(searchFrom: 0)
            return
        }
        processComplete(searchFrom: start)
    }

    /// Processes every complete line in the buffer and keeps the unfinished tail.
    private func processComplete(searchFrom: Int) {
        guard let end = buffer.completeLinesEnd(searchingFrom: searchFrom) else { return }
        process(0, end)
        buffer.drop(end)
    }

    /// A line longer than the buffer: parse its head, skip the rest until its newline.
    private func overlong() {
        stats.overlongLines += 1
        let bytes = buffer.bytes
        let head = min(buffer.filled, CandidateSearch.overlongHead)
        finder.reset()
        let cand = !prefilter || finder.next(bytes, from: 0, end: head) < head
        let (format, skip) = EnvelopeParser.locate(bytes, head)
        if let format, EnvelopeFormat.isTimed(format) { timedLine(0, head, skip: skip, format: format, number: lineNumber + 1) }
        line(bytes, head, format: format, skip: skip, candidate: cand, lineStart: 0)
        run.keep(bytes)
        latest.keep(bytes)
        recent.push(bytes, head)
        if EnvelopeFormat.isTimed(format) { endingLines.push(bytes, head, line: lineNumber) }
        buffer.skipOverlong()
    }

    // MARK: - Lines

    /// The lines of `buffer.bytes[start..<end]`, the last possibly unfinished: the vector pass where
    /// the CPU has it, else memchr for the line ends and PCRE2 for the candidates.
    func process(_ start: Int, _ end: Int) {
#if arch(x86_64)
        if prefilter, !portable, VectorLevel.v2 { return processVectors(start, end) }
#endif
        var pos = start
        finder.reset()
        var next = finder.next(buffer.bytes, from: start, end: end)
        while pos < end {
            let le: Int
            if let nl = memchr(buffer.bytes + pos, Int32(UInt8.newline), end - pos) {
                le = nl.assumingMemoryBound(to: UInt8.self) - buffer.bytes
            } else {
                le = end
            }
            var n = le - pos
            if n > 0, buffer.bytes[pos + n - 1] == .carriageReturn { n -= 1 }
            let cand = next < le || !prefilter
            let (format, skip) = EnvelopeParser.locate(buffer.bytes + pos, n)
            if let format, EnvelopeFormat.isTimed(format) { timedLine(pos, n, skip: skip, format: format, number: lineNumber + 1) }
            line(buffer.bytes + pos, n, format: format, skip: skip, candidate: cand, lineStart: pos)
            if cand { next = finder.next(buffer.bytes, from: le + 1, end: end) }
            sampleIfDue(buffer.bytes + pos, n, at: pos)
            pos = le + 1
        }
        keepRecent(start, end)
    }

    /// The buffer is about to move, its lines `start..<end` scanned: what the scanner still needs of
    /// them is copied (the run's last line, the latest timed line, the input's last timed lines so
    /// far, and its last line, after those of earlier chunks when this one holds fewer).
    func keepRecent(_ start: Int, _ end: Int) {
        let bytes = buffer.bytes
        // The input's last timed lines so far end with the latest one: none in these lines when it
        // is not among them (a capture of logcat or of `print` lines has none to walk back through).
        if latest.position >= start {
            var e = latest.position + latest.length
            while e < end, bytes[e] != .newline { e += 1 }
            endingLines.keep(bytes, from: start, to: e, last: latest.number)
        }
        run.keep(bytes)
        latest.keep(bytes)
        recent.keep(bytes, from: start, to: end)
    }

    /// Whether the sink has a process for unenveloped lines.
    @inline(__always)
    var contextKnown: Bool { withSink { $0.contextKnown } }

    /// One line: `format` is its envelope, which starts `skip` bytes in (after what a console or a web
    /// page put before it); `lineStart` is where the line starts in the buffer.
    @inline(__always)
    func line(_ line: UnsafePointer<UInt8>, _ length: Int, format: EnvelopeFormat?, skip: Int, candidate: Bool, lineStart: Int) {
        let p = line + skip, n = length - skip
        lineNumber += 1
        let hadEnvelope = lastEnvelope != nil
        let scanned = ScannedLine(p, count: n, number: lineNumber, format: format)
        if let format {
            if formatCounts[format.index] == 0 { withSink { $0.envelope(scanned) } }
            formatCounts[format.index] += 1
            lastEnvelope = format
            // `print` lines get the process of the enveloped lines around them: learn it from the
            // first enveloped line, event or not.
            if format != .bare, !contextKnown { withSink { $0.learn(scanned) } }
        } else {
            formatCounts[(lastEnvelope ?? .bare).index] += 1
        }
        var candidate = candidate
        if frameWindow > 0 {
            frameWindow -= 1
            if !candidate, Self.isStackFrame(p, n) { candidate = true }
        } else if candidate, format == .logcat || lastEnvelope == .logcat, Self.mentionsLifecycleOwner(p, n) {
            frameWindow = Self.frameWindowLines
        }
        if candidate {
            candidateLines?.append(lineNumber)
            // A message that its envelope left empty is on this line (Xamarin prints
            // `…App[1315:14103] ` and the message on a line of its own): read it in that envelope.
            if format == nil || format == .bare, hadEnvelope, let (carrier, joined) = joinedWithCarrier(lineStart, p, n) {
                joined.withUnsafeBufferPointer { j in
                    let line = ScannedLine(j.baseAddress!, count: j.count, number: scanned.number, format: carrier)
                    withSink { $0.candidate(line, afterEnvelope: true) }
                }
                return
            }
            // An indented line without an envelope after enveloped ones continues the previous
            // message (the stage drops it): not worth a trip to the sink.
            // (Under logcat it may be androidx's exception in a crash's multi-line copy: `LineParser.logcatContinuation`.)
            if format == nil || format == .bare, hadEnvelope, n > 0, p[0] == .space || p[0] == .tab, lastEnvelope != .logcat { return }
            if format == nil || format == .bare, hadEnvelope { sendContext() }
            withSink { $0.candidate(scanned, afterEnvelope: hadEnvelope) }
        }
    }

    /// Whether a line holds `LifecycleOwner`, found by its `O` (rare in a logcat line: `memchr` is a tenth of `memmem`'s
    /// cost on a candidate line).
    @inline(__always)
    static func mentionsLifecycleOwner(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let word: StaticString = "LifecycleOwner"
        var i = 9
        while i + 5 <= n, let o = memchr(p + i, Int32(UInt8(ascii: "O")), n - i - 4) {
            let k = UnsafePointer<UInt8>(o.assumingMemoryBound(to: UInt8.self)) - p
            if memcmp(p + k - 9, word.utf8Start, 14) == 0 { return true }
            i = k + 1
        }
        return false
    }

    /// Whether a line holds a stack frame (`at com.example.FeedFragment.onCreateDialog(FeedFragment.kt:148)`) after
    /// white space, whatever envelope is before it.
    static func isStackFrame(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 1
        while i + 3 < n {
            if p[i] == UInt8(ascii: "a"), p[i + 1] == UInt8(ascii: "t"), p[i + 2] == .space, p[i - 1] == .space || p[i - 1] == .tab {
                return memchr(p + i, Int32(UInt8.openParen), n - i) != nil
            }
            i += 1
        }
        return false
    }

    /// The line before the one starting at `lineStart` in the buffer (or the last line of the
    /// previous chunk), when it is an envelope whose message is empty: its format, and its envelope
    /// followed by this line, to be read as one line.
    private func joinedWithCarrier(_ lineStart: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> (EnvelopeFormat, [UInt8])? {
        if lineStart > 0 {
            let bytes = buffer.bytes
            // An envelope whose message is empty ends in `]` (NSLog) or `:` (os_log, syslog).
            var k = lineStart - 1
            while k > 0, bytes[k - 1] == .space || bytes[k - 1] == .tab || bytes[k - 1] == .carriageReturn { k -= 1 }
            guard k > 0, bytes[k - 1] == .closeBracket || bytes[k - 1] == .colon else { return nil }
            var e = lineStart - 1
            if e > 0, bytes[e - 1] == .carriageReturn { e -= 1 }
            let s = e > 0 ? (vclint_memrchr(bytes, Int32(UInt8.newline), e).map { $0.assumingMemoryBound(to: UInt8.self) - UnsafePointer(bytes) + 1 } ?? 0) : 0
            return Self.joined(UnsafeBufferPointer(start: bytes + s, count: e - s), p, n)
        }
        guard recent.count > 0 else { return nil }
        return recent.withLine(0) { Self.joined($0, p, n) }
    }

    /// `prev`'s envelope followed by the line `p`, when `prev` is an envelope with an empty message.
    private static func joined(_ prev: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ n: Int) -> (EnvelopeFormat, [UInt8])? {
        // An envelope whose message is empty ends in `]` (NSLog) or `:` (os_log, syslog).
        var last = prev.count
        while last > 0, prev[last - 1] == .space || prev[last - 1] == .tab { last -= 1 }
        guard last > 0, prev[last - 1] == .closeBracket || prev[last - 1] == .colon, let base = prev.baseAddress else { return nil }
        let (format, skip) = EnvelopeParser.locate(base, prev.count)
        guard let format, format != .bare, format != .ndjson else { return nil }
        // logcat's `long` format prints its header (`[ 01-05 09:00:00.100  4242: 4242 D/Tag ]`) and the message below it.
        let envelope = format == .logcat ? LogcatEnvelope.parse(base + skip, prev.count - skip) : EnvelopeParser.parse(base + skip, prev.count - skip, format: format)
        guard let info = envelope, !info.isMetadata,
              TextScalars.trimmed(base + skip, info.message).isEmpty else { return nil }
        var joined = [UInt8](UnsafeBufferPointer(start: base + skip, count: info.message.lowerBound))
        if joined.last != .space { joined.append(UInt8.space) }
        joined.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        return (format, joined)
    }
}

/// What the scanner counted of one input's bytes and lines, whatever its sink: the sinks keep their own
/// counts (`EventStage.events`, `patternLimitHits`), which `InputPipeline.finish` adds up with these.
struct ScanStats {
    var lines = 0
    var bytes = 0
    var formats: [EnvelopeFormat: Int] = [:]
    /// Lines longer than the read buffer: parsed by their head.
    var overlongLines = 0
}

/// The scanner as a reader of bytes drives it, whichever sink it feeds (`LineEndTranslator`).
protocol ByteScanning: AnyObject {
    /// Feeds bytes; chunk boundaries may fall anywhere.
    func consume(_ bytes: UnsafeRawBufferPointer)
    /// Reads a file descriptor to its end, or to `limit`.
    func scan(fd: Int32, limit: inout ReadLimit) throws
    /// Ends the input (the last line may lack its newline) and finishes the sink.
    func finish() -> ScanStats
    /// Counts the bytes read from file descriptors (the CLI's progress line).
    var progress: ProgressCounter? { get set }
}

/// An input that could not be read to its end.
public enum InputReadError: Error {
    case io(Int32)
    /// A compressed input that cannot be inflated; the text says why.
    case compressed(String)
    /// A file that was truncated while it was mapped: a read of its lost bytes faulted.
    case truncated
}

extension EnvelopeFormat {
    /// The format's place in the scanner's counts.
    var index: Int {
        switch self {
        case .nslog: return 0
        case .nslogTZ: return 1
        case .oslog: return 2
        case .compact: return 3
        case .syslog: return 4
        case .ndjson: return 5
        case .bare: return 6
        case .logcat: return 7
        case .json: return 8
        }
    }
}
