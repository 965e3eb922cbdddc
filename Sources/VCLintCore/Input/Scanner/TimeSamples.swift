// Time samples: besides its events, a session's time is followed by lines the scanner hands to its
// sink to be read for their time alone (`LineSink.sample`, `LineSink.ending`): a line every
// `interval` of input (`SampleSchedule`), the last line of each run of one process
// (`ProcessRuns.swift`), and the input's last timed lines when it ends (`EndingLines`).

/// Which lines are sampled for their session's time, event or noise: the first line that starts at
/// or after each multiple of `interval` in the input, at offsets that do not depend on how the input
/// was chunked, so that reports are the same for any reads. In live mode the interval is 1: every
/// line's time counts (a leak is due when the grace period has passed).
struct SampleSchedule {
    let interval: Int
    /// The next input offset at which a line is sampled.
    private(set) var next = 0

    init(interval: Int) {
        self.interval = interval
    }

    @inline(__always)
    func isDue(_ offset: Int) -> Bool { offset >= next }

    /// The line at input offset `offset` was sampled.
    @inline(__always)
    mutating func sampled(at offset: Int) {
        next = offset - offset % interval + interval
    }
}

extension EnvelopeFormat {
    /// Whether a line with this envelope can carry its session's time (a `bare` or `logcat` line
    /// names no run of a process).
    @inline(__always)
    static func isTimed(_ format: EnvelopeFormat?) -> Bool {
        guard let format else { return false }
        return format != .bare && format != .logcat
    }
}

/// The last enveloped lines of an input, each with its number (a ring of their heads): a session
/// ends at its last timed line, whatever untimed lines (blank, continuation, a test runner's) follow
/// it, so they are read when the input ends.
struct EndingLines {
    let capacity: Int
    private var lines: [(line: Int, bytes: [UInt8])]
    private var newest = -1
    private var count = 0
    /// `keep`'s lines, reused.
    private var found: [(Int, Int, Int)] = []

    init(capacity: Int) {
        self.capacity = capacity
        lines = Array(repeating: (0, []), count: capacity)
    }

    mutating func push(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) {
        newest = (newest + 1) % capacity
        lines[newest].line = line
        lines[newest].bytes.removeAll(keepingCapacity: true)
        RecentLines.keepHead(p, n, in: &lines[newest].bytes)
        count = min(count + 1, capacity)
    }

    /// Keeps the last enveloped lines of `bytes[start..<end]` (numbered up to `last`), after those
    /// of earlier chunks: walking back from the end, at most as many as it holds, so the lines kept
    /// are the input's last ones however it was read.
    mutating func keep(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, last: Int) {
        found.removeAll(keepingCapacity: true)
        var number = last
        LineBuffer.linesBackward(bytes, from: start, to: end) { s, n in
            if EnvelopeFormat.isTimed(EnvelopeParser.locate(bytes + s, n).0) { found.append((s, n, number)) }
            number -= 1
            return found.count < capacity
        }
        for (s, n, line) in found.reversed() { push(bytes + s, n, line: line) }
    }

    /// Oldest first.
    func forEach(_ body: (ScannedLine) -> Void) {
        for k in stride(from: count - 1, through: 0, by: -1) {
            let entry = lines[(newest - k + capacity) % capacity]
            // An empty line is never kept (it has no envelope): the pointer is not nil.
            entry.bytes.withUnsafeBufferPointer { body(ScannedLine($0.baseAddress!, count: $0.count, number: entry.line)) }
        }
    }
}

extension LogScanner {
    /// Samples the line at `start` in the buffer (`n` bytes at `p`, numbered `lineNumber`) when it is
    /// due.
    @inline(__always)
    func sampleIfDue(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int) {
        let offset = buffer.base + start
        guard samples.isDue(offset) else { return }
        sample(ScannedLine(p, count: n, number: lineNumber))
        samples.sampled(at: offset)
    }

    /// A line that tells how far in time its session went (the sink keeps the lines' time).
    func sample(_ line: ScannedLine) {
        withSink { $0.sample(line) }
    }

    /// The input's last enveloped lines, read when it ends (after its last line).
    func sendEnding() {
        endingLines.forEach { line in withSink { $0.ending(line) } }
    }
}
