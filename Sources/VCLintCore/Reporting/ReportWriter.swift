#if canImport(Glibc)
import Glibc
#endif

/// Where reports go, a piece at a time: a 64 KiB buffer written to a file descriptor when full
/// (a report of 661k findings never exists whole in memory), or collected in memory (tests,
/// `Reporter.report(_:)`). A failed write(2) is thrown, never dropped: a cut-off report must not
/// pass for a complete one.
public final class ReportWriter {
    public static let bufferSize = 64 * 1024

    /// nil: the bytes are collected in `collected`.
    private let descriptor: Int32?
    private let buffer: UnsafeMutableRawBufferPointer
    private var used = 0
    private var collected: [UInt8] = []

    /// Writes to `descriptor`, which the writer does not close.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 1)
    }

    /// Collects the report in memory (`text`).
    public init() {
        descriptor = nil
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 1)
    }

    deinit { buffer.deallocate() }

    public func write(_ s: String) throws(ReportWriteError) {
        var s = s
        let failure = s.withUTF8 { bytes -> ReportWriteError? in
            do throws(ReportWriteError) { try append(UnsafeRawBufferPointer(bytes)) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes out what the buffer holds.
    public func flush() throws(ReportWriteError) {
        guard used > 0 else { return }
        defer { used = 0 }
        try emit(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
    }

    /// What a memory writer collected, as text (after a flush).
    public var text: String {
        precondition(descriptor == nil, "a writer to a file descriptor keeps nothing")
        return String(decoding: collected + buffer[..<used], as: UTF8.self)
    }

    private func append(_ bytes: UnsafeRawBufferPointer) throws(ReportWriteError) {
        if bytes.count > buffer.count - used { try flush() }
        if bytes.count >= buffer.count {
            try emit(bytes)  // larger than the buffer: no point copying it through
            return
        }
        UnsafeMutableRawBufferPointer(rebasing: buffer[used...]).copyMemory(from: bytes)
        used += bytes.count
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws(ReportWriteError) {
        guard let fd = descriptor else {
            collected.append(contentsOf: bytes)
            return
        }
        var off = 0
        while off < bytes.count {
            let n = LibC.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {  // a non-blocking descriptor (a pipe a parent set up): wait for room
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, -1)
                    continue
                }
                throw ReportWriteError(code: errno)
            }
            if n == 0 { throw ReportWriteError(code: EIO) }
            off += n
        }
    }
}

/// A report as the writes that produce it, streamed into a file (`ReportTransaction`) or stdout.
/// A `ReportWriteError` it throws is the write that failed; anything else it throws fails the
/// report the same way. (Not typed `throws(ReportWriteError)`: Swift 6.3 crashes on a closure of
/// typed-throws type written inside another closure.)
public typealias ReportWriting = (ReportWriter) throws -> Void

/// A write(2) that failed, with its errno (EPIPE: the reader went away).
public struct ReportWriteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public init(code: Int32) { self.code = code }
    /// `no space left on device`, as the one stderr line words it.
    public var description: String { String(cString: strerror(code)).lowercased() }
}
