import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scanner's read buffer, as ripgrep's searcher has its `LineBuffer`: the bytes read and not
/// scanned yet, `bytes[0..<filled]`, which start at input offset `base`. The scanner scans its
/// complete lines in place and drops them (`drop`); the unfinished tail moves to the front. A line
/// longer than all of it is read by its head and the rest skipped (`skipOverlong`).
///
/// It starts small (a small capture costs a small buffer) and takes the whole chunk size once a
/// read fills it (one step: the small buffer is the only one given back).
struct LineBuffer {
    /// The most the buffer holds (the chunk size: a longer line is read by its head), and what it
    /// holds now.
    let capacity: Int
    private(set) var size: Int
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var filled = 0
    /// The input offset of `bytes[0]`.
    private(set) var base = 0
    /// Whether the rest of an overlong line is being skipped, up to its newline.
    private(set) var skipping = false
    /// The buffer's own storage while it lends `bytes` to a mapped piece of the input (`lend`).
    private var owned: UnsafeMutablePointer<UInt8>?
    private static var initialSize: Int { 64 * 1024 }
    /// Vector loads may read this far past the data (never past the allocation, nor past a mapped
    /// piece's window: `MappedInput.swift`).
    static var slack: Int { 128 }

    init(chunkSize: Int) {
        capacity = max(chunkSize, 256)
        size = min(capacity, Self.initialSize)
        bytes = .allocate(capacity: size + Self.slack)
        bytes.initialize(repeating: 0, count: size + Self.slack)
    }

    func deallocate() {
        (owned ?? bytes).deallocate()
    }

    /// Scans `count` bytes at `p` (whole lines of a mapped window, with `slack` readable bytes after
    /// them) in place of the buffer's own: they follow the input read so far, and the buffer holds
    /// nothing unscanned.
    mutating func lend(_ p: UnsafePointer<UInt8>, count: Int) {
        precondition(filled == 0 && !skipping && owned == nil)
        owned = bytes
        bytes = UnsafeMutablePointer(mutating: p)
        filled = count
    }

    /// The lent piece was scanned: the buffer takes its own storage back, after it.
    mutating func giveBack() {
        guard let own = owned else { return }
        base += filled
        filled = 0
        bytes = own
        owned = nil
    }

    /// Whether it has taken its whole capacity.
    var isGrown: Bool { size == capacity }
    var isFull: Bool { filled == size }
    /// Room left for reading.
    var free: Int { size - filled }

    /// Grows to `capacity`, keeping the bytes.
    mutating func grow() {
        let grown = capacity
        let b = UnsafeMutablePointer<UInt8>.allocate(capacity: grown + Self.slack)
        b.initialize(from: bytes, count: filled)
        (b + filled).initialize(repeating: 0, count: grown + Self.slack - filled)
        bytes.deallocate()
        bytes = b
        size = grown
    }

    /// read(2) into the free room, within `limit`: what was read (0 at the end; negative on an
    /// error, `errno` then says which).
    mutating func read(_ fd: Int32, limit: inout ReadLimit) -> Int {
        let n = limit.read(fd, bytes + filled, size - filled)
        if n > 0 { filled += n }
        return n
    }

    /// Copies as many of the `count` bytes at `p` as the free room takes; returns how many.
    mutating func append(_ p: UnsafePointer<UInt8>, count: Int) -> Int {
        let n = min(size - filled, count)
        (bytes + filled).update(from: p, count: n)
        filled += n
        return n
    }

    /// Where the complete lines end (after the last newline at or after `from`), nil if none does.
    func completeLinesEnd(searchingFrom from: Int) -> Int? {
        guard let last = vclint_memrchr(bytes + from, Int32(UInt8.newline), filled - from) else { return nil }
        return last.assumingMemoryBound(to: UInt8.self) - UnsafePointer(bytes) + 1
    }

    /// Drops the first `n` bytes (scanned): the rest moves to the front.
    mutating func drop(_ n: Int) {
        base += n
        let rest = filled - n
        if rest > 0 { memmove(bytes, bytes + n, rest) }
        filled = rest
    }

    /// The buffer holds the head of a line longer than itself, scanned: the rest of the line is
    /// skipped as it is read.
    mutating func skipOverlong() {
        base += filled
        filled = 0
        skipping = true
    }

    /// While skipping: drops what was read from `start` on up to the overlong line's newline.
    /// Returns whether the line ended (the bytes after its newline are kept, at the front).
    mutating func skipRest(from start: Int) -> Bool {
        guard let nl = memchr(bytes + start, Int32(UInt8.newline), filled - start) else {
            base += filled
            filled = 0
            return false
        }
        drop(nl.assumingMemoryBound(to: UInt8.self) - bytes + 1)
        skipping = false
        return true
    }

    /// The lines of `bytes[start..<end]` (whole lines, the last possibly unfinished), the last one
    /// first, each without its line break (nor a CR before it), until `body` returns false.
    @inline(__always)
    static func linesBackward(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, _ body: (_ start: Int, _ count: Int) -> Bool) {
        guard end > start else { return }
        var e = bytes[end - 1] == .newline ? end - 1 : end
        while true {
            let s = vclint_memrchr(bytes + start, Int32(UInt8.newline), e - start).map { $0.assumingMemoryBound(to: UInt8.self) - bytes + 1 } ?? start
            var n = e - s
            if n > 0, bytes[s + n - 1] == .carriageReturn { n -= 1 }
            guard body(s, n), s > start else { return }
            e = s - 1
        }
    }
}

/// The last few lines of an input (their first `headBytes`), newest first, in reused storage: the
/// scanner keeps the line before its buffer's first one (the previous chunk's last), which
/// `joinedWithCarrier` looks back at across a read boundary.
struct RecentLines {
    let capacity: Int
    private var lines: [[UInt8]]
    /// Index of the newest line in `lines`.
    private var newest = 0
    private(set) var count = 0
    static let headBytes = 4096

    init(capacity: Int) {
        self.capacity = capacity
        lines = Array(repeating: [], count: capacity)
    }

    mutating func push(_ p: UnsafePointer<UInt8>, _ n: Int) {
        newest = (newest + 1) % capacity
        lines[newest].removeAll(keepingCapacity: true)
        lines[newest].append(contentsOf: UnsafeBufferPointer(start: p, count: min(n, Self.headBytes)))
        count = min(count + 1, capacity)
    }

    /// Keeps the last lines of `bytes[start..<end]` (whole lines, the last possibly unfinished),
    /// after those of earlier chunks when this one holds fewer.
    mutating func keep(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        var found: [(Int, Int)] = []
        found.reserveCapacity(capacity)
        LineBuffer.linesBackward(bytes, from: start, to: end) { s, n in
            found.append((s, n))
            return found.count < capacity
        }
        for (s, n) in found.reversed() { push(bytes + s, n) }
    }

    /// Appends what a timed line's time sample needs to `kept`: its first `headBytes`, or, for a
    /// longer JSON object (whose members are in any order and which reads only whole), the members
    /// that tell its process, pid and time, as a short object of their own.
    static func keepHead(_ p: UnsafePointer<UInt8>, _ n: Int, in kept: inout [UInt8]) {
        if n > headBytes, p[0] == .openBrace, let object = NDJSONLine.parse(p, n) {
            kept.append(contentsOf: object.timeCarrier)
            return
        }
        kept.append(contentsOf: UnsafeBufferPointer(start: p, count: min(n, headBytes)))
    }

    /// The k-th newest line (0: the newest), borrowed for `body`.
    func withLine<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard k < count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return lines[(newest - k + capacity) % capacity].withUnsafeBufferPointer(body)
    }
}
