import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds the captures below a directory by the raw bytes of their names (opendir/readdir), so a
/// name that is not UTF-8 or holds a newline is linted like any other: shown by its escaped display
/// text (`PathName`), opened by its bytes. Symbolic links to files count; links to directories are
/// not descended into (no cycles), as with FileManager's enumerator before.
enum DirectoryWalker {
    /// The log files below `path`, sorted by display path, or nil when `path` is not a directory.
    static func logFiles(under path: String, admit: (String) -> Bool) throws(InputError) -> [String]? {
        let root = PathName.bytes(of: path)
        var st = stat()
        guard withCString(root, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        guard let dir = withCString(root, { opendir($0) }) else {
            throw InputError(path: path, reason: "cannot read directory (\(String(cString: strerror(errno)).lowercased()))")
        }
        var found: [String] = []
        walk(dir, prefix: root.last == 0x2F ? root : root + [0x2F], into: &found, admit: admit)
        return found.sorted()
    }

    private static func walk(_ dir: LibC.DirectoryStream, prefix: [UInt8], into found: inout [String], admit: (String) -> Bool) {
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let full = prefix + name
            var st = stat()
            guard withCString(full, { lstat($0, &st) }) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                if let sub = withCString(full, { opendir($0) }) { walk(sub, prefix: full + [0x2F], into: &found, admit: admit) }
                continue
            }
            guard InputResolver.isLogName(PathName.display(name)) else { continue }
            // A symbolic link counts when it leads to a file.
            if (st.st_mode & S_IFMT) == S_IFLNK {
                guard withCString(full, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { continue }
            }
            let display = PathName.register(full)
            if admit(display) { found.append(display) }
        }
    }

    private static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var b = bytes.map { CChar(bitPattern: $0) }
        b.append(0)
        return b.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
