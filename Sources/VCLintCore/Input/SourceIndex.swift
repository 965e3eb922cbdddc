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

    /// The declarations of `classes` below `root`: @implementation or a Swift class before
    /// @interface; the first one in sorted path order wins. `note`: one line (without the
    /// `vclint: note: ` prefix) when files were too large to read.
    public static func locate(_ classes: Set<String>, under root: String, note: (String) -> Void = { _ in }) -> [String: Declaration] {
        guard !classes.isEmpty, let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        var files: [String] = []
        while let rel = walker.nextObject() as? String {
            if rel.hasPrefix(".build") || rel.contains("/.build/") || rel.contains("DerivedData/") { continue }
            if extensions.contains((rel as NSString).pathExtension) { files.append(rel) }
        }
        var strong: [String: Declaration] = [:]
        var weak: [String: Declaration] = [:]
        var tooLarge: [String] = []
        for rel in files.sorted() {
            let path = root.hasSuffix("/") ? root + rel : root + "/" + rel
            let data: [UInt8]
            do { data = try BoundedRead.bytes(path: path, limit: maxFileBytes, regularOnly: true) } catch .tooLarge {
                tooLarge.append(path)
                continue
            } catch { continue }
            let text = String(decoding: data, as: UTF8.self)
            var lineNumber = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                guard let (name, isDefinition) = declaredClass(line), classes.contains(name) else { continue }
                let d = Declaration(path: path, line: lineNumber)
                if isDefinition { if strong[name] == nil { strong[name] = d } } else if weak[name] == nil { weak[name] = d }
            }
        }
        if let first = tooLarge.first {
            let files = tooLarge.count == 1 ? "1 source file" : "\(tooLarge.count) source files"
            note("skipped \(files) under \(root) larger than \(maxFileBytes >> 20) MiB, which no Swift or Objective-C source is (first: \(first)); --source-root does not look for declarations in \(tooLarge.count == 1 ? "it" : "them")")
        }
        return weak.merging(strong) { _, s in s }
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

extension LintResult {
    /// Attaches each finding's controller declaration found below `root`; `note` as `SourceIndex.locate`'s.
    public mutating func attachDeclarations(under root: String, note: (String) -> Void = { _ in }) {
        let classes = Set(findings.map(\.controller.className))
        let index = SourceIndex.locate(classes, under: root, note: note)
        for i in files.indices { files[i].findings.attach(index) }
    }
}
