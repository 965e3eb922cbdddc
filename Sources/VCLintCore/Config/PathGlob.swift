import Foundation

/// Path globs as `.swiftlint.yml`'s `included`/`excluded` and `.gitignore` read them: `*`, `?` and
/// `[…]` stay within one path component (`*.log` does not match `a/b.log`), `**` spans any number of
/// components, none included (`**/old/*.log`, `logs/**`). A glob that matches a folder covers
/// everything below it.
public struct PathGlob: Sendable, Equatable {
    public let text: String
    let segments: [String]

    public init(_ text: String) {
        self.text = text
        var t = Substring(text)
        while t.hasPrefix("./") { t = t.dropFirst(2) }
        var segs: [String] = []
        for s in t.split(separator: "/", omittingEmptySubsequences: true) where s != "." {
            if s == "**", segs.last == "**" { continue }  // a/**/**/b is a/**/b
            segs.append(String(s))
        }
        segments = segs
    }

    /// Whether the glob matches these path components or a folder among their leading ones.
    public func matches(_ path: [String]) -> Bool {
        guard !segments.isEmpty else { return false }
        return Self.match(segments[...], path[...], prefix: true)
    }

    /// Whether the glob matches exactly these components (no folder prefix).
    func matchesExactly(_ path: [String]) -> Bool {
        guard !segments.isEmpty else { return false }
        return Self.match(segments[...], path[...], prefix: false)
    }

    /// `prefix`: the glob may end before the path does (it matched a folder of it).
    static func match(_ glob: ArraySlice<String>, _ path: ArraySlice<String>, prefix: Bool) -> Bool {
        guard let g = glob.first else { return path.isEmpty || prefix }
        if g == "**" {
            let rest = glob.dropFirst()
            if rest.isEmpty { return true }  // `logs/**`: everything below (`**` alone: everything)
            var p = path
            while true {
                if match(rest, p, prefix: prefix) { return true }
                guard !p.isEmpty else { return false }
                p = p.dropFirst()
            }
        }
        guard let c = path.first, component(g, c) else { return false }
        return match(glob.dropFirst(), path.dropFirst(), prefix: prefix)
    }

    /// One component against one glob segment (fnmatch: `*`, `?`, `[…]`, `\` escapes; no `/` in either).
    static func component(_ glob: String, _ name: String) -> Bool {
        if !glob.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" || $0 == "\\" }) { return glob == name }
        return fnmatch(glob, name, 0) == 0
    }

    /// `path` as components relative to `base` (both made absolute against the working directory
    /// and normalised lexically; `..` where the path lies outside `base`).
    public static func relativeComponents(_ path: String, to base: String) -> [String] {
        let p = absoluteComponents(path), b = absoluteComponents(base)
        var common = 0
        while common < p.count, common < b.count, p[common] == b[common] { common += 1 }
        return Array(repeating: "..", count: b.count - common) + p[common...]
    }

    static func absoluteComponents(_ path: String) -> [String] {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var out: [String] = []
        for c in full.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !out.isEmpty { out.removeLast() }; continue }
            out.append(String(c))
        }
        return out
    }
}
