import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file read whole, as a stream, up to a limit: what vclint reads back in one piece (a baseline, a
/// shard's report) never fills memory, whatever the path names (`/dev/zero`, a pipe, `<(…)`, a
/// sparse file). A regular file over the limit is refused before it is read.
enum BoundedRead {
    enum Failure: Error {
        /// The `errno` of the open or the read (`EISDIR` for a directory).
        case system(Int32)
        case tooLarge
    }

    static func bytes(path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = PathName.withCString(path) { LibC.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .system(EISDIR) }
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
