/// Classic Mac OS captures end lines with a lone CR; the scanner splits at LF (and strips the CR of
/// a CRLF), so such a file would be one line and its findings lost. This layer in front of the
/// scanner decides by the input's first line end: a CR not followed by LF makes it classic, and its
/// CRs then become LFs (a CRLF that comes later stays one line end); an LF or a CRLF makes it plain,
/// passed through untouched at no cost once decided. The decision does not depend on where reads
/// split the input: a CR at the end of a chunk waits for the next byte.
public struct LineEndTranslator: Sendable {
    public enum Mode: Sendable { case undecided, plain, classic }
    public private(set) var mode: Mode = .undecided
    /// The last byte translated was a CR (its LF, if one follows in the next chunk, is dropped).
    private var afterCR = false
    /// Undecided, and the last chunk ended with a CR: held back until the next byte says what it is.
    private var heldCR = false
    private var scratch: [UInt8] = []

    public init() {}

    /// Decides from `bytes` (after a held CR, if any) when still undecided.
    mutating func decide(_ bytes: UnsafeRawBufferPointer) {
        guard mode == .undecided else { return }
        var cr = heldCR
        for b in bytes {
            if cr {
                mode = b == 0x0A ? .plain : .classic
                return
            }
            if b == 0x0A { mode = .plain; return }
            if b == 0x0D { cr = true }
        }
    }

    /// Hands `bytes` to `out`, translated when the input is classic.
    public mutating func pass(_ bytes: UnsafeRawBufferPointer, to out: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        decide(bytes)
        switch mode {
        case .plain:
            if heldCR {
                heldCR = false
                withUnsafeBytes(of: UInt8(0x0D)) { out($0) }
            }
            out(bytes)
        case .undecided:
            // No line end yet, or a CR only as the very last byte: that CR waits for the next byte.
            if bytes.last == 0x0D {
                out(UnsafeRawBufferPointer(rebasing: bytes.dropLast()))
                heldCR = true
            } else {
                out(bytes)
            }
        case .classic:
            scratch.removeAll(keepingCapacity: true)
            scratch.reserveCapacity(bytes.count + 1)
            if heldCR {
                heldCR = false
                scratch.append(0x0A)
                afterCR = true
            }
            for b in bytes {
                if b == 0x0A && afterCR { afterCR = false; continue }
                afterCR = b == 0x0D
                scratch.append(afterCR ? 0x0A : b)
            }
            scratch.withUnsafeBytes { out($0) }
        }
    }

    /// The input ended: a CR still held back was the first line end, a lone CR.
    public mutating func finish(to out: (UnsafeRawBufferPointer) -> Void) {
        guard heldCR else { return }
        heldCR = false
        mode = .classic
        withUnsafeBytes(of: UInt8(0x0A)) { out($0) }
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension LineEndTranslator {
    static let firstChunk = 64 * 1024

    /// Reads `fd` to its end into `scanner`, `head` (bytes already read) first. The first chunk decides:
    /// a classic Mac input is read through the translator; any other goes on with the scanner's own
    /// read loop, as fast as before.
    static func scan(fd: Int32, head: [UInt8], into scanner: LogScanner) throws {
        var first = head
        first.reserveCapacity(firstChunk)
        var chunk = [UInt8](repeating: 0, count: firstChunk)
        var ended = false
        while first.count < firstChunk {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, firstChunk - first.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LogScanner.ReadError.io(errno)
            }
            if n == 0 { ended = true; break }
            scanner.progress?.add(bytes: n)
            first += chunk[..<n]
            // A line end decides; a pipe need not fill the chunk before the scanner sees it.
            if chunk[..<n].contains(0x0A) || chunk[..<n].contains(0x0D) { break }
        }
        var ends = LineEndTranslator()
        first.withUnsafeBytes { ends.pass($0) { scanner.consume($0) } }
        if ends.mode == .plain || (ends.mode == .undecided && !ended && first.count >= firstChunk) {
            // Plain (or no line end in the whole first chunk): the scanner's own loop from here.
            ends.finish { scanner.consume($0) }
            if !ended { try scanner.scan(fd: fd) }
            return
        }
        while !ended {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LogScanner.ReadError.io(errno)
            }
            if n == 0 { break }
            scanner.progress?.add(bytes: n)
            chunk.withUnsafeBytes { ends.pass(UnsafeRawBufferPointer(rebasing: $0[..<n])) { scanner.consume($0) } }
        }
        ends.finish { scanner.consume($0) }
    }
}
