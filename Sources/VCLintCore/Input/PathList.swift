import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--files-from FILE` (and `@FILE`): paths one per line (a CRLF's CR is dropped, empty lines
/// skipped), or NUL-separated (`find -print0`), read as raw bytes so that any file name can be listed.
///
/// Read as a stream, within bounds: a list is at most `maxBytes` (16 MiB) and `maxEntries` lines
/// (or NUL-separated entries, empty ones included), a path at most `maxPathBytes` (4096, Linux's
/// PATH_MAX), so `--files-from /dev/zero` or a capture given as a list by mistake fails at once
/// with one line, instead of growing without end. A line that holds a NUL byte names no file (the
/// system reads a path up to its NUL: `logs\0x` would open `logs`, and a walk of it would find
/// `logs\0x/a.log` to be `logs` again), so the list is refused, naming the line.
public enum PathList {
    /// The most a list may hold.
    public static let maxBytes = 16 << 20
    /// The most lines (entries) a list may have.
    public static let maxEntries = 1 << 20
    /// The longest path a list may hold.
    public static let maxPathBytes = 4096

    public static func read(_ file: String, separator: UInt8 = UInt8(ascii: "\n")) throws(InputError) -> [String] {
        let fd = file == "-" ? 0 : PathName.withCString(file) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw InputError(path: file, reason: String(cString: strerror(errno)).lowercased()) }
        defer { if fd != 0 { close(fd) } }
        var parser = Parser(separator: separator)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: file, reason: String(cString: strerror(errno)).lowercased())
            }
            if n == 0 { break }
            total += n
            if total > maxBytes {
                throw InputError(path: file, reason: "a list of paths is at most \(maxBytes >> 20) MiB, and this one is longer (--files-from and @FILE take paths, \(separator == 0 ? "NUL-separated" : "one per line"))")
            }
            try parser.feed(chunk[..<n], file: file)
        }
        try parser.finish(file: file)
        return parser.paths
    }

    public static func parse(_ data: [UInt8], separator: UInt8 = UInt8(ascii: "\n")) -> [String] {
        var out: [String] = []
        for var entry in data.split(separator: separator, omittingEmptySubsequences: true) {
            if separator == .newline, entry.last == .carriageReturn { entry = entry.dropLast() }
            guard !entry.isEmpty else { continue }
            out.append(PathName.register(entry))
        }
        return out
    }

    /// Splits the stream into paths as it comes, holding at most one unfinished path.
    private struct Parser {
        let separator: UInt8
        var paths: [String] = []
        var entry: [UInt8] = []
        var number = 1

        init(separator: UInt8) { self.separator = separator }

        mutating func feed(_ bytes: ArraySlice<UInt8>, file: String) throws(InputError) {
            let separator = self.separator
            let failure: InputError? = bytes.withUnsafeBufferPointer { buf in
                do throws(InputError) { try feed(buf, separator: separator, file: file) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }

        private mutating func feed(_ buf: UnsafeBufferPointer<UInt8>, separator: UInt8, file: String) throws(InputError) {
            guard let base = buf.baseAddress else { return }
            var start = 0
            while start < buf.count {
                // A run of separators (empty lines, or a stream of NULs) is counted in one go.
                if entry.isEmpty, base[start] == separator {
                    var end = start
                    while end < buf.count, base[end] == separator { end += 1 }
                    number += end - start
                    if number > PathList.maxEntries + 1 { throw tooMany(file) }
                    start = end
                    continue
                }
                let found = memchr(base + start, Int32(separator), buf.count - start)
                let end = found.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? buf.count
                entry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                if entry.count > PathList.maxPathBytes + 1 { throw tooLong(file) }
                if end == buf.count { break }
                try finishEntry(file: file)
                start = end + 1
            }
        }

        /// The last path, when the list does not end with a separator.
        mutating func finish(file: String) throws(InputError) {
            if !entry.isEmpty { try finishEntry(file: file) }
        }

        private mutating func finishEntry(file: String) throws(InputError) {
            defer { entry.removeAll(keepingCapacity: true); number += 1 }
            if number > PathList.maxEntries { throw tooMany(file) }
            if separator == .newline, entry.last == .carriageReturn { entry.removeLast() }
            guard !entry.isEmpty else { return }
            if entry.count > PathList.maxPathBytes { throw tooLong(file) }
            if separator != 0, entry.contains(0) { throw holdsNUL(file) }
            paths.append(PathName.register(entry[...]))
        }

        private func tooMany(_ file: String) -> InputError {
            let what = separator == 0 ? "NUL-separated entries" : "lines"
            return InputError(path: file, reason: "a list of paths has at most \(PathList.maxEntries) \(what), and this one has more (--files-from and @FILE take paths, \(separator == 0 ? "NUL-separated" : "one per line"))")
        }

        private func holdsNUL(_ file: String) -> InputError {
            InputError(path: file, reason: "line \(number) holds a NUL byte, which no path can (--files-from and @FILE take paths, one per line; --null reads NUL-separated ones)")
        }

        private func tooLong(_ file: String) -> InputError {
            let what = separator == 0 ? "entry" : "line"
            return InputError(path: file, reason: "\(what) \(number) is longer than \(PathList.maxPathBytes) bytes, which no path is (--files-from and @FILE take paths, \(separator == 0 ? "NUL-separated" : "one per line"))")
        }
    }
}
