/// The layer in front of the scanner that decides, from the input's first bytes, how its lines are
/// to be read (every reader of an input goes through it: `InputPipeline`, live mode, line excerpts).
///
/// Classic Mac OS captures end lines with a lone CR; the scanner splits at LF (and strips the CR of
/// a CRLF), so such a file would be one line and its findings lost. The first chunk (64 KiB, or all
/// of a shorter input) decides: CRs and no LF make it classic, and its lone CRs then become LFs (a
/// CRLF that comes later stays one line end); an LF makes it plain, passed through untouched at no
/// cost once decided. Until the first LF (or the end of that chunk) bytes are held back, so the
/// decision never depends on where reads split the input; a stray CR in the first line of an LF
/// capture leaves it plain.
///
/// An input whose first non-blank bytes are `[`, `{` and a member (`"key" :`) is `log show --style
/// json`'s array: it is read through `JSONArrayReader`, one ndjson line per object (`json`). Bytes
/// are held back until that is decided too (a few bytes past the first LF).
public struct LineEndTranslator: Sendable {
    public enum Mode: Sendable { case undecided, plain, classic, json }
    public static let decisionWindow = 64 * 1024
    public private(set) var mode: Mode = .undecided
    /// Off: a JSON array is read as the lines it is (the HTML report's excerpts show the file's lines).
    public var readsJSON = true
    /// Classic: the last byte was a CR, not handed out yet (it is a line end unless an LF follows).
    private var heldCR = false
    /// Undecided: the bytes so far.
    private var pending: [UInt8] = []
    private var sawLF = false
    private var sniff = JSONArraySniff()
    private var json = JSONArrayReader()
    private var finished = false
    private var scratch: [UInt8] = []

    public init() {}

    /// Bytes read minus bytes handed on: what the reader of a JSON array took out (its members'
    /// blanks and nested values); zero for any other input, whose translation keeps every byte.
    public var bytesRemoved: Int { json.bytesIn - json.bytesOut }
    /// The storage held between reads (bounded: the undecided start, a JSON array's current object).
    var heldBytes: Int { pending.capacity + scratch.capacity + json.heldBytes }
    /// Objects of a JSON array skipped as larger than `JSONArrayReader.maxObjectBytes`.
    public var oversizedObjects: Int { json.oversized }

    /// Hands `bytes` to `out`, translated when the input is classic or a JSON array.
    public mutating func pass(_ bytes: UnsafeRawBufferPointer, to out: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        switch mode {
        case .plain:
            out(bytes)
        case .classic:
            translate(bytes, to: out)
        case .json:
            json.pass(bytes, to: out)
        case .undecided:
            let take = min(Self.decisionWindow - pending.count, bytes.count)
            let head = UnsafeRawBufferPointer(rebasing: bytes[..<take])
            if !sawLF, head.contains(UInt8.newline) { sawLF = true }
            if readsJSON { sniff.feed(head) }
            pending += head
            let verdict = readsJSON ? sniff.verdict : .other
            if verdict == .json {
                mode = .json
                flushPending(to: out)
            } else if verdict == .other && sawLF {
                mode = .plain
                flushPending(to: out)
            } else if pending.count >= Self.decisionWindow {
                decide(to: out)
            } else {
                return
            }
            if take < bytes.count { pass(UnsafeRawBufferPointer(rebasing: bytes[take...]), to: out) }
        }
    }

    /// The input ended: an undecided start is decided by what it held.
    public mutating func finish(to out: (UnsafeRawBufferPointer) -> Void) {
        guard !finished else { return }
        finished = true
        if mode == .undecided { decide(to: out) }
        if mode == .json { json.finish(to: out) }
        if heldCR {
            heldCR = false
            withUnsafeBytes(of: UInt8(UInt8.newline)) { out($0) }
        }
    }

    /// The first chunk is complete, or the input ended, undecided: a JSON array when it started as
    /// one; else classic when it holds a CR and no LF.
    private mutating func decide(to out: (UnsafeRawBufferPointer) -> Void) {
        if readsJSON && sniff.verdict == .json {
            mode = .json
        } else {
            mode = !sawLF && pending.contains(UInt8.carriageReturn) ? .classic : .plain
        }
        flushPending(to: out)
    }

    private mutating func flushPending(to out: (UnsafeRawBufferPointer) -> Void) {
        guard !pending.isEmpty else { return }
        let held = pending
        pending = []
        held.withUnsafeBytes {
            switch mode {
            case .classic: translate($0, to: out)
            case .json: json.pass($0, to: out)
            default: out($0)
            }
        }
    }

    /// A lone CR becomes an LF; a CR before an LF stays (the scanner takes CRLF as one line end), so
    /// the byte count does not change. A CR at the end of a chunk waits for the next byte.
    private mutating func translate(_ bytes: UnsafeRawBufferPointer, to out: (UnsafeRawBufferPointer) -> Void) {
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(bytes.count + 1)
        for b in bytes {
            if heldCR {
                heldCR = false
                scratch.append(b == .newline ? UInt8.carriageReturn : UInt8.newline)
            }
            if b == .carriageReturn { heldCR = true } else { scratch.append(b) }
        }
        scratch.withUnsafeBytes { out($0) }
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension LineEndTranslator {
    static let firstChunk = 64 * 1024

    /// Reads `fd` to its end into `scanner` through `ends`, `head` (bytes already read) first. The
    /// first bytes decide: a classic Mac input or a JSON array is read through the translator; any
    /// other goes on with the scanner's own read loop, as fast as before.
    static func scan(fd: Int32, head: [UInt8], limit: inout ReadLimit, into scanner: some ByteScanning,
                     through ends: inout LineEndTranslator) throws {
        head.withUnsafeBytes { ends.pass($0) { scanner.consume($0) } }
        var chunk = [UInt8](repeating: 0, count: firstChunk)
        // An LF decides most inputs (plain); a pipe need not fill the chunk before the scanner sees it.
        while ends.mode == .undecided {
            let n = chunk.withUnsafeMutableBytes { limit.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputReadError.io(errno)
            }
            if n == 0 {
                ends.finish { scanner.consume($0) }
                return
            }
            scanner.progress?.add(bytes: n)
            chunk.withUnsafeBytes { ends.pass(UnsafeRawBufferPointer(rebasing: $0[..<n])) { scanner.consume($0) } }
        }
        if ends.mode == .plain {
            // The scanner's own read loop from here, as fast as before.
            try scanner.scan(fd: fd, limit: &limit)
            return
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { limit.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputReadError.io(errno)
            }
            if n == 0 { break }
            scanner.progress?.add(bytes: n)
            chunk.withUnsafeBytes { ends.pass(UnsafeRawBufferPointer(rebasing: $0[..<n])) { scanner.consume($0) } }
        }
        ends.finish { scanner.consume($0) }
    }
}
