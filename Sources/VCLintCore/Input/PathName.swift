import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File names are bytes on Linux: not always UTF-8, and a newline is allowed. A path is shown in
/// every report by a printable, one-line text (`display`), and opened by its raw bytes: names that
/// need escaping are registered here, display text → bytes, when they are read (from argv, a
/// directory, a `--files-from` list), and `withCString` hands the bytes back for open(2)/stat(2).
/// A name that is UTF-8 without control characters is its own display text and is not registered.
public enum PathName {
    nonisolated(unsafe) private static var raw: [String: [UInt8]] = [:]
    private static let lock = NSLock()

    /// `\n`, `\r`, `\t`, `\\` and `\xNN` (other control bytes, DEL, bytes that are not UTF-8) when the
    /// name needs escaping at all; the name itself otherwise.
    public static func display(_ bytes: some Collection<UInt8>) -> String {
        if !needsEscaping(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var out = ""
        let array = Array(bytes)
        var i = 0
        func hex(_ b: UInt8) -> String { "\\x" + String(b, radix: 16, uppercase: true).leftPadded(2) }
        while i < array.count {
            let b = array[i]
            switch b {
            case .newline: out += "\\n"; i += 1; continue
            case .carriageReturn: out += "\\r"; i += 1; continue
            case .tab: out += "\\t"; i += 1; continue
            case .backslash: out += "\\\\"; i += 1; continue
            case 0..<UInt8.space, 0x7F: out += hex(b); i += 1; continue
            case .space..<0x7F: out.unicodeScalars.append(Unicode.Scalar(b)); i += 1; continue
            default: break
            }
            // A multi-byte sequence: kept when it is valid UTF-8 (and not a C1 control), else one \xNN.
            let n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            if n > 1, i + n <= array.count {
                var decoder = UTF8()
                var it = array[i..<(i + n)].makeIterator()
                if case .scalarValue(let s) = decoder.decode(&it), s.utf8.count == n, !(0x80...0x9F).contains(s.value) {
                    out.unicodeScalars.append(s)
                    i += n
                    continue
                }
            }
            out += hex(b)
            i += 1
        }
        return out
    }

    /// Whether a name must be escaped to be shown on one line: control characters, or not UTF-8.
    public static func needsEscaping(_ bytes: some Collection<UInt8>) -> Bool {
        var ascii = true
        for b in bytes {
            if b < UInt8.space || b == 0x7F { return true }
            if b >= 0x80 { ascii = false }
        }
        if ascii { return false }
        let s = String(validating: bytes, as: UTF8.self)
        guard let s else { return true }
        return s.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }

    /// The display text for `bytes`, remembered so that the file can be opened by it.
    @discardableResult
    public static func register(_ bytes: some Collection<UInt8>) -> String {
        let text = display(bytes)
        if needsEscaping(bytes) {
            lock.lock()
            raw[text] = Array(bytes)
            lock.unlock()
        }
        return text
    }

    /// The raw bytes of the path shown as `text` (its UTF-8 when it was never registered).
    public static func bytes(of text: String) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return raw[text] ?? Array(text.utf8)
    }

    /// The display text of a path the system gave (`realpath`, `mkstemp`), registered.
    static func register(cString: UnsafePointer<CChar>) -> String {
        register(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// Calls `body` with the NUL-terminated raw path shown as `text`.
    public static func withCString<R>(_ text: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var b = bytes(of: text).map { CChar(bitPattern: $0) }
        b.append(0)
        return try b.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}

extension InputSource {
    /// Calls `body` with the raw path of a file input (for open(2), stat(2)).
    func withOpenPath<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try PathName.withCString(displayPath, body)
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
