import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Streams a gzip (or zlib) input into a consumer. Decompression runs on its own thread, a few
/// blocks ahead of the scanner, so the two overlap the way `zcat capture.gz | vclint lint -` does;
/// memory is the blocks in flight plus zlib's window, whatever the input size.
final class Inflater: @unchecked Sendable {
    static let blockSize = 1 << 20
    static let blocksInFlight = 4

    /// A gzip member starts with these two bytes (RFC 1952).
    static func isGzip(_ head: UnsafeRawBufferPointer) -> Bool {
        head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B
    }

    enum Failure: Error, Equatable {
        case read(Int32)
        case corrupt(String)
        case truncated
    }

    private let fd: Int32
    private let prefix: [UInt8]
    private let blocks: [UnsafeMutablePointer<UInt8>]
    /// Bytes in each block; written by the producer before `full.signal()`, read after `full.wait()`.
    private let lengths: UnsafeMutablePointer<Int>
    private let free = DispatchSemaphore(value: 0)
    private let full = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: Failure?
    /// Bytes after the last gzip member that do not start another member (read once `run` returns).
    private(set) var trailingBytes = 0
    private var trailing = 0

    /// `prefix`: bytes already read from `fd` (the sniffed head).
    private let progress: ProgressCounter?
    /// How much more of `fd` is read (its compressed bytes); used by the producer thread only.
    private var limit: ReadLimit

    init(fd: Int32, prefix: [UInt8], limit: ReadLimit = .none, progress: ProgressCounter? = nil) {
        self.progress = progress
        self.limit = limit
        self.fd = fd
        self.prefix = prefix
        blocks = (0..<Self.blocksInFlight).map { _ in .allocate(capacity: Self.blockSize) }
        lengths = .allocate(capacity: Self.blocksInFlight)
        lengths.initialize(repeating: 0, count: Self.blocksInFlight)
        for _ in 0..<Self.blocksInFlight { free.signal() }
    }

    deinit {
        blocks.forEach { $0.deallocate() }
        lengths.deallocate()
    }

    /// Inflates the whole input, handing each block of decompressed bytes to `consume` in order.
    func run(_ consume: (UnsafeRawBufferPointer) -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let producer = Thread { [self] in
            produce()
            done.signal()
        }
        producer.stackSize = 1 << 20
        producer.start()
        var index = 0
        while true {
            full.wait()
            let n = lengths[index]
            if n == 0 { break }
            consume(UnsafeRawBufferPointer(start: blocks[index], count: n))
            free.signal()
            index = (index + 1) % Self.blocksInFlight
        }
        done.wait()
        if let failure { throw failure }
    }

    /// The producer: reads compressed bytes, inflates member after member, fills blocks.
    private func produce() {
        var stream = z_stream()
        guard vclint_inflate_init(&stream) == Z_OK else {
            finish(.corrupt("zlib could not start"), index: 0)
            return
        }
        defer { inflateEnd(&stream) }
        let inputSize = 256 * 1024
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: max(inputSize, prefix.count) + 1)  // +1: a magic byte put back
        defer { input.deallocate() }
        var available = prefix.count
        prefix.withUnsafeBufferPointer { if let base = $0.baseAddress { input.update(from: base, count: prefix.count) } }
        var atEOF = false
        var index = 0
        var produced = 0
        var block = blocks[0]
        free.wait()
        var memberOpen = true

        func refill() -> Failure? {
            var n: Int
            repeat { n = limit.read(fd, input, inputSize) } while n < 0 && errno == EINTR
            if n < 0 { return .read(errno) }
            if n == 0 { atEOF = true }
            progress?.add(bytes: n)
            available = n
            stream.next_in = input
            stream.avail_in = UInt32(n)
            return nil
        }

        stream.next_in = input
        stream.avail_in = UInt32(available)
        while true {
            if stream.avail_in == 0 && !atEOF {
                if let f = refill() { finish(f, index: index, produced: produced); return }
            }
            if stream.avail_in == 0 && atEOF {
                finish(memberOpen ? .truncated : nil, index: index, produced: produced)
                return
            }
            if !memberOpen {
                // Another member follows (concatenated gzip files, inflated as gzip -d does), or the
                // rest is trailing bytes: counted to the end of the input, and reported.
                if stream.avail_in == 1 && stream.next_in[0] == 0x1F && !atEOF {
                    let first = stream.next_in[0]
                    if let f = refill() { finish(f, index: index, produced: produced); return }
                    if !atEOF {  // put the magic's first byte back in front of what was read
                        memmove(input + 1, input, available)
                        input[0] = first
                        available += 1
                        stream.next_in = input
                        stream.avail_in = UInt32(available)
                    } else {
                        stream.next_in = input
                        stream.avail_in = 0
                        trailing = 1
                    }
                }
                if stream.avail_in == 0 { continue }
                guard stream.avail_in >= 2 && stream.next_in[0] == 0x1F && stream.next_in[1] == 0x8B else {
                    trailing += Int(stream.avail_in)
                    while !atEOF {
                        if let f = refill() { finish(f, index: index, produced: produced); return }
                        trailing += available
                    }
                    finish(nil, index: index, produced: produced)
                    return
                }
                inflateReset(&stream)
                memberOpen = true
            }
            stream.next_out = block + produced
            stream.avail_out = UInt32(Self.blockSize - produced)
            let status = inflate(&stream, Z_NO_FLUSH)
            produced = Self.blockSize - Int(stream.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                memberOpen = false
            default:
                let why = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                finish(.corrupt(why), index: index, produced: produced)
                return
            }
            if produced == Self.blockSize {
                lengths[index] = produced
                full.signal()
                index = (index + 1) % Self.blocksInFlight
                free.wait()
                block = blocks[index]
                produced = 0
            }
        }
    }

    /// Hands over what is left, then the end marker (an empty block).
    private func finish(_ f: Failure?, index: Int, produced: Int = 0) {
        lock.lock()
        failure = f
        trailingBytes = trailing
        lock.unlock()
        var i = index
        if produced > 0 {
            lengths[i] = produced
            full.signal()
            i = (i + 1) % Self.blocksInFlight
            free.wait()
        }
        lengths[i] = 0
        full.signal()
    }
}
