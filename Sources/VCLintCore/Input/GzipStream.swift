import CZlib

/// A gzip stream inflated as its bytes arrive, synchronously: for live mode, where the input is fed
/// as it grows and every decompressed byte should reach the scanner at once (the batch `Inflater`
/// hands over 1 MiB blocks from a thread of its own). Concatenated members are inflated one after
/// the other, as `gzip -d` does; bytes after the last member that are not another member are
/// counted (`trailingBytes`), not inflated.
final class GzipStream {
    enum Failure: Error, Equatable {
        case corrupt(String)
        case truncated
    }

    private var stream = z_stream()
    private var started = false
    private var memberOpen = false
    private var output = [UInt8](repeating: 0, count: 256 * 1024)
    /// Bytes after the last complete member that do not start another one.
    private(set) var trailingBytes = 0
    /// One byte of a possible next member's magic seen at the end of a feed.
    private var pendingMagic: [UInt8] = []

    init() throws(Failure) {
        guard vclint_inflate_init(&stream) == Z_OK else { throw .corrupt("zlib could not start") }
        started = true
        memberOpen = true
    }

    deinit { if started { inflateEnd(&stream) } }

    /// Inflates `input`, handing every decompressed piece to `out`.
    func feed(_ input: UnsafeRawBufferPointer, _ out: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        guard !input.isEmpty else { return }
        if trailingBytes > 0 {  // garbage stays garbage
            trailingBytes += input.count
            return
        }
        var bytes = Array(input)
        if !pendingMagic.isEmpty {
            bytes = pendingMagic + bytes
            pendingMagic = []
        }
        try bytes.withUnsafeMutableBufferPointer { (buf) throws(Failure) in
            var next = 0
            var drain = false  // the output buffer filled up: zlib may hold more for it
            while next < buf.count || drain {
                if !memberOpen {
                    if next >= buf.count { return }
                    // Another member, or trailing bytes (padding, garbage).
                    if buf.count - next == 1 && buf[next] == 0x1F { pendingMagic = [0x1F]; return }
                    guard buf[next] == 0x1F && buf[next + 1] == 0x8B else {
                        trailingBytes = buf.count - next
                        return
                    }
                    inflateReset(&stream)
                    memberOpen = true
                }
                stream.next_in = buf.baseAddress! + next
                stream.avail_in = UInt32(buf.count - next)
                let status: Int32 = output.withUnsafeMutableBufferPointer { o in
                    stream.next_out = o.baseAddress
                    stream.avail_out = UInt32(o.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = output.count - Int(stream.avail_out)
                next = buf.count - Int(stream.avail_in)
                if produced > 0 { output.withUnsafeBytes { out(UnsafeRawBufferPointer(rebasing: $0[..<produced])) } }
                switch status {
                case Z_OK, Z_BUF_ERROR: break
                case Z_STREAM_END: memberOpen = false
                default:
                    throw .corrupt(stream.msg.map { String(cString: $0) } ?? "error \(status)")
                }
                drain = produced == output.count
                if status == Z_BUF_ERROR && produced == 0 { break }
            }
        }
    }

    /// The input ended: a member cut short is an error; trailing bytes are reported by the caller.
    func finish() throws(Failure) {
        if !pendingMagic.isEmpty { trailingBytes += pendingMagic.count; pendingMagic = [] }
        if memberOpen { throw .truncated }
    }
}

extension Inflater {
    /// The stderr line for bytes after the last gzip member (`gzip -d` says "trailing garbage ignored").
    static func trailingWarning(_ count: Int, path: String) -> String {
        "vclint: warning: \(path): \(count) byte\(count == 1 ? "" : "s") after the last gzip member ignored"
    }
}
