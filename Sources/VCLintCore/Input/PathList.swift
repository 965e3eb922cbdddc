import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--files-from FILE`: paths one per line (a CRLF's CR is dropped, empty lines skipped), or
/// NUL-separated (`find -print0`), read as raw bytes so that any file name can be listed.
public enum PathList {
    public static func read(_ file: String, separator: UInt8 = 0x0A) throws(InputError) -> [String] {
        let fd = file == "-" ? 0 : PathName.withCString(file) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw InputError(path: file, reason: String(cString: strerror(errno)).lowercased()) }
        defer { if fd != 0 { close(fd) } }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: file, reason: String(cString: strerror(errno)).lowercased())
            }
            if n == 0 { break }
            data += chunk[..<n]
        }
        return parse(data, separator: separator)
    }

    public static func parse(_ data: [UInt8], separator: UInt8 = 0x0A) -> [String] {
        var out: [String] = []
        for var entry in data.split(separator: separator, omittingEmptySubsequences: true) {
            if separator == 0x0A, entry.last == 0x0D { entry = entry.dropLast() }
            guard !entry.isEmpty else { continue }
            out.append(PathName.register(entry))
        }
        return out
    }
}
