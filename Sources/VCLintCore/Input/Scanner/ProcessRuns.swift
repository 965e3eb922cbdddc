import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a timed line that name its process and pid: contiguous, the same on every line of one
/// run of one process, whatever varies from line to line (thread, type, activity, library), and
/// another pid after a relaunch. `Shop App[4000:` of `2024-03-01 22:13:20.039 Shop App[4000:51413] …`
/// (`nslog`, `nslog-tz`; `compact` after its type code); `4000   0    Shop:` of `log show`'s
/// `2024-03-01 22:13:20.039999+0800 0x1a2b3c   Default     0x0                  4000   0    Shop: …`
/// (`oslog`: the pid, TTL and process after the thread, type and activity columns); `[4000]` of
/// `Mar  1 22:13:20 iPhone Shop(UIKitCore)[4000] <Notice>: …` (`syslog`: the library before it may
/// change from line to line). Lines with the same key are of one run of one process; the last line
/// of each run is read for its time (docs/lifecycle.md#sessions).
enum RunKey {
    /// The key's place in the line (`p` at the envelope, of format `format`), or nil when the line
    /// has none. `EnvelopeTemplate` relies on it: it reads nothing past the key, and before the key
    /// in the `oslog` columns only where the spaces are.
    static func span(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat) -> Range<Int>? {
        if format == .syslog { return syslogSpan(p, n) }
        if format == .ndjson || format == .json { return processIDSpan(p, n) }
        guard n > 20, ByteCursor.isDigit(p[0]), let t = EnvelopeParser.classifyTimestamped(p, n) else { return nil }
        var start = t.column
        let limit = min(n, start + 256)
        switch t.format {
        case .nslog, .nslogTZ: break
        case .compact:
            // After the type code, which differs from line to line of one process.
            while start < n, p[start] != .space { start += 1 }
            while start < n, p[start] == .space { start += 1 }
        case .oslog:
            // After the thread, type and activity columns (three words), which differ from line to
            // line of one process; up to the process name's colon.
            var i = start
            for _ in 0..<3 {
                guard i < limit, p[i] != .space else { return nil }
                while i < limit, p[i] != .space { i += 1 }
                while i < limit, p[i] == .space { i += 1 }
            }
            guard i < limit, ByteCursor.isDigit(p[i]) else { return nil }
            let key = i
            while i < limit, p[i] != .colon { i += 1 }
            guard i < limit else { return nil }
            return key..<(i + 1)
        default: return nil
        }
        var i = start
        while i < limit, p[i] != .openBracket { i += 1 }
        i += 1
        let digits = i
        while i < limit, ByteCursor.isDigit(p[i]) { i += 1 }
        guard i > digits, i < limit, p[i] == .colon || p[i] == .closeBracket else { return nil }
        return start..<(i + 1)
    }

    /// `"processID":4000` (or `"processID" : 4000`) of an ndjson line, a top-level member anywhere in
    /// the object: `log show` writes it near the end, so the last bytes are searched first. A JSON
    /// string cannot hold an unescaped quote, so `"processID"` followed by a colon is a key.
    private static func processIDSpan(_ p: UnsafePointer<UInt8>, _ n: Int) -> Range<Int>? {
        let tail = max(0, n - 512)
        return processIDSpan(p, n, from: tail, to: n) ?? (tail > 0 ? processIDSpan(p, n, from: 0, to: tail + processIDKey.utf8CodeUnitCount) : nil)
    }

    private static let processIDKey: StaticString = "\"processID\""

    /// The first `"processID"` key that starts in `p[from..<to - key length]`, with its value.
    private static func processIDSpan(_ p: UnsafePointer<UInt8>, _ n: Int, from: Int, to: Int) -> Range<Int>? {
        let key = processIDKey.utf8Start, kn = processIDKey.utf8CodeUnitCount
        var i = from
        while to - i >= kn, let hit = memmem(p + i, to - i, key, kn) {
            let start = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - p
            var j = start + kn
            while j < n, p[j] == .space || p[j] == .tab { j += 1 }
            if j < n, p[j] == .colon {
                j += 1
                while j < n, p[j] == .space || p[j] == .tab { j += 1 }
                let digits = j
                while j < n, j - digits < 20, ByteCursor.isDigit(p[j]) { j += 1 }
                if j > digits { return start..<j }
            }
            i = start + 1
        }
        return nil
    }

    /// `[PID]`, the first after the syslog time.
    private static func syslogSpan(_ p: UnsafePointer<UInt8>, _ n: Int) -> Range<Int>? {
        let limit = min(n, 256)
        var i = 0
        while i < limit {
            if p[i] == .openBracket {
                var j = i + 1
                while j < limit, ByteCursor.isDigit(p[j]) { j += 1 }
                if j > i + 1, j < limit, p[j] == .closeBracket { return i..<(j + 1) }
            }
            i += 1
        }
        return nil
    }
}

/// A timed line the scanner may still hand to its sink after its buffer moved on (a run's last line,
/// the latest timed line): where it starts in the buffer and how long it is, or (`position` -1) a
/// copy of its head once the buffer moved.
struct KeptLine {
    private(set) var number = 0
    private(set) var position = -1
    private(set) var length = 0
    private var head: [UInt8] = []

    /// The line numbered `number`, `length` bytes at `position` in the buffer.
    @inline(__always)
    mutating func set(position: Int, length: Int, number: Int) {
        self.position = position
        self.length = length
        self.number = number
    }

    /// The buffer at `bytes` is about to move: the line is copied.
    mutating func keep(_ bytes: UnsafePointer<UInt8>) {
        guard position >= 0 else { return }
        head.removeAll(keepingCapacity: true)
        RecentLines.keepHead(bytes + position, length, in: &head)
        position = -1
    }

    /// The line (without a CR at its end while it is in the buffer at `bytes`), borrowed for
    /// `body`; nothing when none was set (or its copy is empty).
    func withLine(in bytes: UnsafePointer<UInt8>, _ body: (ScannedLine) -> Void) {
        if position >= 0 {
            var n = length
            if n > 0, bytes[position + n - 1] == .carriageReturn { n -= 1 }
            body(ScannedLine(bytes + position, count: n, number: number))
        } else if !head.isEmpty {
            head.withUnsafeBufferPointer { body(ScannedLine($0.baseAddress!, count: $0.count, number: number)) }
        }
    }
}

/// The run of timed lines the scanner is in: their key (`RunKey`) and the latest of them, which is
/// read as a sample when a line of another key comes (the run's last line tells how far its
/// session went, whatever noise it logged after its last event).
struct RunTracker {
    private var key: [UInt8] = []
    /// Whether a run began (lines of the latest template may set `last` before one does).
    private(set) var active = false
    /// The run's latest line.
    var last = KeptLine()
    /// Whether `key` is the key of the scanner's latest envelope template (vector path).
    var isTemplate = false

    /// Whether a timed line whose key is the `count` bytes at `k` is of this run.
    @inline(__always)
    func isOf(key k: UnsafePointer<UInt8>, count: Int) -> Bool {
        active && key.count == count && key.withUnsafeBufferPointer { bytesEqual($0.baseAddress!, k, count) }
    }

    /// A run of the key at `k` begins (its line is set next).
    mutating func begin(key k: UnsafePointer<UInt8>, count: Int) {
        key.removeAll(keepingCapacity: true)
        key.append(contentsOf: UnsafeBufferPointer(start: k, count: count))
        active = true
        isTemplate = false
    }

    /// The buffer at `bytes` is about to move: the run's latest line is copied.
    mutating func keep(_ bytes: UnsafePointer<UInt8>) {
        guard active else { return }
        last.keep(bytes)
    }
}

extension LogScanner {
    /// A timed line numbered `number`, starting at `start` in the buffer (its envelope `skip` bytes
    /// in): when its key differs from the run's, the run's last line is read first (a sample, in
    /// line order: nothing of this line has reached the sink yet).
    @inline(__always)
    func timedLine(_ start: Int, _ n: Int, skip: Int, format: EnvelopeFormat, number: Int) {
        latest.set(position: start, length: n, number: number)
        let p = buffer.bytes + start + skip
        guard let span = RunKey.span(p, n - skip, format: format) else { return }
        let k = p + span.lowerBound, kn = span.count
        if !run.isOf(key: k, count: kn) {
            endRun()
            run.begin(key: k, count: kn)
        }
        run.last.set(position: start, length: n, number: number)
    }

    /// The run's last line, read for its session's time (a new run begins).
    func endRun() {
        guard run.active else { return }
        run.last.withLine(in: buffer.bytes) { sample($0) }
    }

#if arch(x86_64)
    /// Lines that have the latest template's shape, which covers their process and pid: the last of
    /// them (numbered `number`) starts at `start`. (The key is compared only when the run may have
    /// changed since the template last spoke for it.)
    @inline(__always)
    func templateRun(at start: Int, lineEnd: Int, number: Int) {
        if !run.isTemplate {
            let p = buffer.bytes + start
            var n = lineEnd - start
            if n > 0, p[n - 1] == .carriageReturn { n -= 1 }
            timedLine(start, n, skip: 0, format: templates.latest.pointee.format, number: number)
            run.isTemplate = true
            return
        }
        run.last.set(position: start, length: lineEnd - start, number: number)
        latest.set(position: start, length: lineEnd - start, number: number)
    }
#endif

    /// A `print` line belongs to the run of the timed line before it, however many untimed lines
    /// (blank, continuation, runner's, other prints) come between: when the app printed its lifecycle
    /// and only other lines show a relaunch (a new pid), that line ends the old session before the
    /// print is read, and it tells how far the session went. The latest timed line goes to the sink,
    /// which reads it only if the candidate is an event (so that the report does not depend on which
    /// lines the candidate search let through).
    func sendContext() {
        latest.withLine(in: buffer.bytes) { line in withSink { $0.context(line) } }
    }
}
