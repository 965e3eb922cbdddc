import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a controller class is declared in the app's sources (`--source-root`).
public struct Declaration: Sendable, Equatable {
    public var path: String
    public var line: Int
}

/// Finds class declarations in Swift (`class X`, `final class X: …`) and Objective-C
/// (`@implementation X`, `@interface X`) sources, so that code-scanning annotations land on the
/// controller's source rather than on a log line.
///
/// Each file is read on its own, within a bound: a source file larger than `maxFileBytes` (a
/// generated blob, a sparse file named `.swift`) is skipped and `note` says how many were and names
/// the first, and only regular files are opened (a FIFO named `.swift` would block the run).
public enum SourceIndex {
    static let extensions: Set<String> = ["swift", "m", "mm", "h"]
    /// The largest source file read (no real Swift or Objective-C source file is near it).
    public static let maxFileBytes = 4 << 20
    /// How many folders down the walk goes (symbolic links to folders are not followed).
    static let maxDepth = 256

    /// The declarations of `classes` below `root`: @implementation or a Swift class before
    /// @interface; the first one in sorted path order wins. The folders are walked by their raw
    /// bytes (`PathName`): a root or a file whose name holds a control character, or is not UTF-8,
    /// is read as named, and shown by its display text. `note`: one line (without the
    /// `vclint: note: ` prefix) when files were too large to read.
    public static func locate(_ classes: Set<String>, under root: String, note: (String) -> Void = { _ in }) -> [String: Declaration] {
        guard !classes.isEmpty else { return [:] }
        return scan(classes, under: root, note: note).declarations
    }

    /// What `--source-root` reads: the declarations of `classes` (as `locate`) and every
    /// `// vclint:disable` comment in the sources (`SuppressionComment`), in path and line order.
    public static func scan(_ classes: Set<String>, under root: String, note: (String) -> Void = { _ in }) -> (declarations: [String: Declaration], suppressions: [SuppressionComment]) {
        let raw = PathName.bytes(of: root)
        var files: [(rel: String, full: [UInt8])] = []
        walk(raw.last == .slash ? raw : raw + [UInt8.slash], rel: [], depth: 0, into: &files)
        var strong: [String: Declaration] = [:]
        var weak: [String: Declaration] = [:]
        var tooLarge: [String] = []
        var suppressions: [SuppressionComment] = []
        for file in files.sorted(by: { $0.rel < $1.rel }) {
            let path = PathName.register(file.full)
            let data: [UInt8]
            do { data = try BoundedRead.bytes(path: path, limit: maxFileBytes, regularOnly: true) } catch .tooLarge {
                tooLarge.append(path)
                continue
            } catch { continue }
            let text = String(decoding: data, as: UTF8.self)
            var lineNumber = 0
            var comments = SuppressionReader(path: path)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                let declared = declaredClass(line)
                comments.read(line, number: lineNumber, declaring: declared?.0)
                guard let (name, isDefinition) = declared, classes.contains(name) else { continue }
                let d = Declaration(path: path, line: lineNumber)
                if isDefinition { if strong[name] == nil { strong[name] = d } } else if weak[name] == nil { weak[name] = d }
            }
            suppressions += comments.finish()
        }
        if let first = tooLarge.first {
            let files = tooLarge.count == 1 ? "1 source file" : "\(tooLarge.count) source files"
            note("skipped \(files) under \(root) larger than \(maxFileBytes >> 20) MiB, which no Swift or Objective-C source is (first: \(first)); --source-root does not look for declarations in \(tooLarge.count == 1 ? "it" : "them")")
        }
        return (weak.merging(strong) { _, s in s }, suppressions)
    }

    /// The source files below the folder `prefix` (its raw path, ending in `/`): each with its path
    /// relative to the root (display text, for sorting and for the build folders left out) and its
    /// raw path. Folders are entered, not symbolic links to them (a link may loop).
    private static func walk(_ prefix: [UInt8], rel: [UInt8], depth: Int, into files: inout [(rel: String, full: [UInt8])]) {
        guard depth <= maxDepth, let dir = withCString(prefix, { opendir($0) }) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [UInt8.dot] || name == [UInt8.dot, UInt8.dot] { continue }
            let full = prefix + name, relative = rel + name
            let shown = PathName.display(relative)
            if shown.hasPrefix(".build") || shown.contains("/.build/") || shown.contains("DerivedData/") { continue }
            var st = stat()
            guard withCString(full, { lstat($0, &st) }) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                walk(full + [UInt8.slash], rel: relative + [UInt8.slash], depth: depth + 1, into: &files)
            } else if extensions.contains((PathName.display(name) as NSString).pathExtension) {
                files.append((shown, full))
            }
        }
    }

    private static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var b = bytes.map { CChar(bitPattern: $0) }
        b.append(0)
        return b.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The class a line declares, and whether it is the definition (not an @interface).
    static func declaredClass(_ line: Substring) -> (String, Bool)? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return nil }
        if first == "@implementation" || first == "@interface", words.count > 1 {
            return (identifier(words[1]), first == "@implementation")
        }
        // Swift: modifiers and attributes, then `class Name`.
        let modifiers: Set<Substring> = ["public", "open", "internal", "fileprivate", "private", "final", "@MainActor", "@objc", "@objcMembers"]
        var i = 0
        while i < words.count, modifiers.contains(words[i]) || words[i].hasPrefix("@objc(") { i += 1 }
        guard i + 1 < words.count, words[i] == "class" else { return nil }
        let name = identifier(words[i + 1])
        return name.isEmpty || name == "func" || name == "var" || name == "let" ? nil : (name, true)
    }

    private static func identifier(_ word: Substring) -> String {
        String(word.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }
}
