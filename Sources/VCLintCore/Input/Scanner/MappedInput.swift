import CPCRE2
import CVectorScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A regular file is read through mapped windows, as ripgrep reads one: the lines are scanned where the
// page cache holds them, without read(2)'s copy into the buffer. A window is `mapWindow` bytes (64 MiB: a 4 GiB
// capture never needs 4 GiB of address space), advised sequential; its whole lines are lent to the
// buffer (`LineBuffer.lend`) a chunk at a time and scanned exactly as read lines are: a line longer than
// the chunk, a line that straddles two windows and the input's last bytes go through the buffer as
// read bytes do, so line numbers, over-long lines read by their head, CRLF ends and time samples are
// what read(2) gives. Pages read are given back at once (resident memory stays the buffer's). The
// file's size is taken again before each window: a file that shrank between windows ends there, as a
// read would, and so does one found shorter than the next piece (read(2) reads the rest); one truncated
// while a piece is read is an error of the input (`InputReadError.truncated`): its lost pages fault,
// which the SIGBUS guard of `vclint_map_window` turns into zero pages, and the size taken after the
// piece tells (a partial last page reads as zeros without a fault).
extension LogScanner {
    /// Reads the rest of `fd` (to `limit`) through mapped windows when it is a regular file. False
    /// when it is not, or a window cannot be mapped: the rest is to be read with read(2), from where
    /// the descriptor's offset and `limit` then say.
    func scanMapped(fd: Int32, limit: inout ReadLimit) throws -> Bool {
        guard mapWindow > 0 else { return false }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        let first = Int(lseek(fd, 0, SEEK_CUR))
        guard first >= 0 else { return false }
        let page = vclint_page_size()
        // At least a chunk, its slack and a page, so that every window moves the input on.
        let window = max(mapWindow, (buffer.capacity + LineBuffer.slack) / page * page + 2 * page)
        let end = limit.remaining.map { first + $0 } ?? Int.max
        var pos = first
        defer {
            limit.consumed(pos - first)
            lseek(fd, off_t(pos), SEEK_SET)
        }
        while true {
            // A file that shrank ends where it ends now.
            let stop = min(end, try Self.fileSize(fd))
            guard pos < stop else { return true }
            let mapStart = pos - pos % page
            let length = min(window, stop - mapStart)
            var slot: Int32 = 0
            guard let map = vclint_map_window(fd, Int64(mapStart), length, &slot) else { return false }
            defer { vclint_unmap_window(map, length, slot) }
            windowMapped?(mapStart)
            let windowEnd = mapStart + length
            let (read, shrank) = try scanWindow(map + (pos - mapStart), count: windowEnd - pos, at: pos, atEnd: windowEnd == stop, fd: fd, slot: slot)
            pos += read
            if shrank { return false }
        }
    }

    /// Scans the `count` bytes at `p` (file offset `offset`), the input from here to the end of a
    /// mapped window (`atEnd`: the input's end), a piece at a time: returns how many it read, all at
    /// the end; elsewhere up to the last whole line that has `LineBuffer.slack` bytes of the window
    /// after it (the next window starts there). `shrank`: the file no longer held the next piece, which
    /// (and the rest) read(2) reads then, as it would have. A piece the file lost while it was read
    /// (a read of it faulted, or the size taken after it falls short: a partial page reads as zeros
    /// without a fault) is an error. A fault past the file's end before a piece (the search for its
    /// last newline) is no loss: the guard maps zeros only from the page after the one the end is in.
    private func scanWindow(_ p: UnsafePointer<UInt8>, count: Int, at offset: Int, atEnd: Bool, fd: Int32, slot: Int32) throws
        -> (read: Int, shrank: Bool) {
        var done = 0
        /// The file's size when last taken.
        var size = 0
        /// Reads the `n` bytes from `done` with `body` if the file still holds them; false if not.
        func piece(_ n: Int, _ body: () -> Void) throws -> Bool {
            if size < offset + done + n {
                size = try Self.fileSize(fd)
                if size < offset + done + n { return false }
            }
            let faults = vclint_window_faults(slot)
            body()
            size = try Self.fileSize(fd)
            if size < offset + done + n || vclint_window_faults(slot) != faults { throw InputReadError.truncated }
            done += n
            return true
        }
        /// The bytes up to and including the next newline (or to the window's end).
        func toNewline(from: Int) -> Int {
            guard let nl = memchr(p + from, Int32(UInt8.newline), count - from) else { return count - from }
            return UnsafePointer<UInt8>(nl.assumingMemoryBound(to: UInt8.self)) - (p + from) + 1
        }
        if buffer.filled > 0 || buffer.skipping {
            // The rest of the line the buffer holds the start of (or skips).
            let n = toNewline(from: 0)
            guard try piece(n, { copyThrough(p, n) }) else { return (done, true) }
        }
        let inPlace = count - LineBuffer.slack
        while done < inPlace {
            let q = p + done, pieceEnd = min(done + buffer.capacity, inPlace)
            guard let last = vclint_memrchr(q, Int32(UInt8.newline), pieceEnd - done) else {
                // Not a whole line before the window's end: the next window's (or the end's).
                guard pieceEnd - done == buffer.capacity else { break }
                // A line as long as the buffer: through it, to be read by its head.
                let n = toNewline(from: done)
                guard try piece(n, { copyThrough(q, n) }) else { return (done, true) }
                continue
            }
            let n = last.assumingMemoryBound(to: UInt8.self) - q + 1
            guard try piece(n, { scanInPlace(q, n) }) else { return (done, true) }
            vclint_window_release(q, n)
        }
        if atEnd, done < count {
            let n = count - done, q = p + done
            guard try piece(n, { copyThrough(q, n) }) else { return (done, true) }
        }
        return (done, false)
    }

    /// Whole lines of a window scanned where they are, as if read into the buffer.
    private func scanInPlace(_ p: UnsafePointer<UInt8>, _ n: Int) {
        stats.bytes += n
        progress?.add(bytes: n)
        buffer.lend(p, count: n)
        process(0, n)
        buffer.giveBack()
    }

    private static func fileSize(_ fd: Int32) throws -> Int {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputReadError.io(errno) }
        return Int(st.st_size)
    }

    /// Bytes of a window read as if read(2) had put them in the buffer.
    private func copyThrough(_ p: UnsafePointer<UInt8>, _ n: Int) {
        progress?.add(bytes: n)
        consume(UnsafeRawBufferPointer(start: p, count: n))
    }
}
