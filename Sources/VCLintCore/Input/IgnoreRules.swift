import Foundation

/// What a directory walk leaves out, as ripgrep does: hidden files and folders (a name starting
/// with `.`), and, inside a git repository, what its `.gitignore` files and `.git/info/exclude`
/// ignore. `--no-ignore` turns both off; a path named on the command line is always read.
///
/// `.gitignore` lines as git reads them: blank lines and `#` comments skipped (`\#` for a
/// literal), trailing spaces dropped; `!` re-includes; a trailing `/` matches folders only; a
/// pattern with a `/` at its start or in its middle is relative to its file's folder, one without
/// matches a name at any depth below it; `*` stays within a name, `**` spans folders. The last
/// matching line wins, and nothing below an ignored folder is read (git cannot re-include it).
struct IgnoreRules {
    struct Rule {
        let glob: PathGlob
        let negated: Bool
        let folderOnly: Bool
        /// Matched against the path below `base`; otherwise against the name alone.
        let anchored: Bool
        /// The folder of the file the rule came from, as absolute path components.
        let base: [String]
    }

    private(set) var rules: [Rule] = []

    /// Parses one ignore file's text; `base` is its folder's absolute path components.
    static func parse(_ text: String, base: [String]) -> [Rule] {
        var out: [Rule] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = Substring(raw)
            // Trailing spaces go, unless escaped.
            while line.hasSuffix(" "), !line.hasSuffix("\\ ") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            var negated = false
            if line.hasPrefix("!") { negated = true; line = line.dropFirst() } else if line.hasPrefix("\\!") || line.hasPrefix("\\#") { line = line.dropFirst() }
            var folderOnly = false
            if line.hasSuffix("/") { folderOnly = true; line = line.dropLast() }
            guard !line.isEmpty else { continue }
            let anchored = line.dropLast().contains("/")
            if line.hasPrefix("/") { line = line.dropFirst() }
            out.append(Rule(glob: PathGlob(String(line)), negated: negated, folderOnly: folderOnly, anchored: anchored, base: base))
        }
        return out
    }

    mutating func add(_ more: [Rule]) { rules += more }

    /// An ignore file's text (at most 1 MiB of it), nil when there is none. Read with read(2):
    /// Foundation's file reading keeps a 4 KiB buffer of an empty file (LeakSanitizer sees it).
    static func read(_ path: String) -> String? {
        let fd = PathName.withCString(path) { LibC.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while bytes.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the entry at `path` (absolute path components) is ignored.
    func ignores(_ path: [String], isFolder: Bool) -> Bool {
        ignoringRule(path, isFolder: isFolder) != nil
    }

    /// The rule that ignores the entry at `path` (the last one that matches, when it is not a `!`
    /// one); nil when the entry is read. Its `base` tells where its ignore file is.
    func ignoringRule(_ path: [String], isFolder: Bool) -> Rule? {
        var last: Rule?
        for r in rules {
            if r.folderOnly && !isFolder { continue }
            guard path.count > r.base.count, Array(path.prefix(r.base.count)) == r.base else { continue }
            let below = Array(path.dropFirst(r.base.count))
            let hit = r.anchored ? r.glob.matchesExactly(below) : PathGlob.component(r.glob.text, below.last!)
            if hit { last = r }
        }
        return last?.negated == false ? last : nil
    }

    /// The rules that apply to a walk of `root` from above it: the repository's `.git/info/exclude`
    /// and the `.gitignore` files of the folders from the repository's top down to `root`'s
    /// parent (the walk adds those it meets). Nil when `root` is not in a git repository: its
    /// `.gitignore` files are then not read, as by git and ripgrep.
    static func enclosing(_ root: [String]) -> IgnoreRules? {
        func dir(_ n: Int) -> String { "/" + root.prefix(n).joined(separator: "/") }
        guard let top = stride(from: root.count, through: 0, by: -1).first(where: {
            FileManager.default.fileExists(atPath: (dir($0) as NSString).appendingPathComponent(".git"))
        }) else { return nil }
        var rules = IgnoreRules()
        if let text = read((dir(top) as NSString).appendingPathComponent(".git/info/exclude")) {
            rules.add(parse(text, base: Array(root.prefix(top))))
        }
        for n in top..<root.count {
            if let text = read((dir(n) as NSString).appendingPathComponent(".gitignore")) {
                rules.add(parse(text, base: Array(root.prefix(n))))
            }
        }
        return rules
    }
}
