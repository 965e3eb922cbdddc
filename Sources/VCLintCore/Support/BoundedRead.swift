import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file read whole, as a stream, up to a limit: what vclint reads back in one piece (a baseline, a
/// shard's report) never fills memory, whatever the path names (`/dev/zero`, a pipe, `<(…)`, a
/// sparse file). A regular file over the limit is refused before it is read. `regularOnly`: what is
/// not a regular file is refused unread (`ENODEV`), and opening a FIFO does not wait for a writer.
enum BoundedRead {
    enum Failure: Error {
        /// The `errno` of the open or the read (`EISDIR` for a directory).
        case system(Int32)
        case tooLarge
    }

    static func bytes(path: String, limit: Int, regularOnly: Bool = false) throws(Failure) -> [UInt8] {
        let fd = PathName.withCString(path) { LibC.open($0, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0)) }
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .system(EISDIR) }
            if regularOnly, (st.st_mode & S_IFMT) != S_IFREG { throw .system(ENODEV) }
            if (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) > limit { throw .tooLarge }
        }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if n == 0 { return out }
            if out.count + n > limit { throw .tooLarge }
            out.append(contentsOf: chunk[..<n])
        }
    }
}

/// How much of an input a batch run reads: a regular file up to the size it had when it was opened
/// (`fstat`), so a file that a writer grows faster than it is read still ends (`lint --follow` is what
/// follows growth); a file that says no size when opened (empty, or a `/proc` file), a pipe or a
/// device is read to its end. For a gzip file the limit is on its compressed bytes.
struct ReadLimit: Sendable {
    /// Bytes still to be read; nil: to the end.
    private(set) var remaining: Int?

    /// No limit: to the end.
    static let none = ReadLimit(remaining: nil)

    init(remaining: Int?) { self.remaining = remaining }

    /// The limit of the file open at `fd`, taken now: what it holds from its reading position.
    init(fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else {
            remaining = nil
            return
        }
        let position = lseek(fd, 0, SEEK_CUR)  // standard input redirected from a file may be part-read
        remaining = max(0, Int(st.st_size) - max(0, Int(position)))
    }

    /// Bytes the reader has had another way (a mapping) than by `read`.
    mutating func consumed(_ n: Int) {
        if let remaining { self.remaining = max(0, remaining - n) }
    }

    /// read(2) of at most what remains: 0 (the end) once the limit is reached.
    mutating func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        var wanted = count
        if let remaining {
            if remaining == 0 { return 0 }
            wanted = min(count, remaining)
        }
        let n = LibC.read(fd, buffer, wanted)
        if n > 0, let remaining { self.remaining = remaining - n }
        return n
    }
}
