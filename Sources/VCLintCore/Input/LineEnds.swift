/// Classic Mac OS captures end lines with a lone CR; the scanner splits at LF (and strips the CR of
/// a CRLF), so such a file would be one line and its findings lost. This layer in front of the
/// scanner decides from the first bytes that hold a line end: CRs and no LF is a classic capture,
/// whose CRs then become LFs (a CRLF that follows later stays one line end). Anything else passes
/// through untouched, at no cost once decided.
public struct LineEndTranslator: Sendable {
    public enum Mode: Sendable { case undecided, plain, classic }
    public private(set) var mode: Mode = .undecided
    /// The last byte translated was a CR (its LF, if one follows in the next chunk, is dropped).
    private var afterCR = false
    private var scratch: [UInt8] = []

    public init() {}

    /// Decides from `bytes` when still undecided: a CR and no LF in them is classic.
    public mutating func decide(_ bytes: UnsafeRawBufferPointer) {
        guard mode == .undecided else { return }
        var cr = false
        for b in bytes {
            if b == 0x0A { mode = .plain; return }
            if b == 0x0D { cr = true }
        }
        if cr { mode = .classic }
    }

    /// Hands `bytes` to `out`, translated when the input is classic.
    public mutating func pass(_ bytes: UnsafeRawBufferPointer, to out: (UnsafeRawBufferPointer) -> Void) {
        decide(bytes)
        guard mode == .classic, !bytes.isEmpty else {
            out(bytes)
            return
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(bytes.count)
        for b in bytes {
            if b == 0x0A && afterCR { afterCR = false; continue }
            afterCR = b == 0x0D
            scratch.append(afterCR ? 0x0A : b)
        }
        scratch.withUnsafeBytes { out($0) }
    }
}
