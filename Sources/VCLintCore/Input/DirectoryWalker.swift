import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds the captures below a directory by the raw bytes of their names (opendir/readdir), so a
/// name that is not UTF-8 or holds a newline is linted like any other: shown by its escaped display
/// text (`PathName`), opened by its bytes. Symbolic links to files count; links to directories are
/// not descended into (no cycles), as with FileManager's enumerator before. Unless `ignoring` is
/// off (`--no-ignore`), hidden entries and what git ignores are skipped (`IgnoreRules`).
///
/// Only regular files are read: a capture name on a FIFO, a socket, a device, or a symbolic link
/// to one of those (`x.log -> /dev/zero`) would block the walk's reader forever or never end, so it
/// is skipped and named in `special` (the caller prints a note). Named on the command line, such a
/// file is read: that is the user's choice, as standard input is.
///
/// A walk ends whatever the tree: a folder that is one of its own ancestors (the same device and
/// inode: a bind mount of a parent, or a path the system reads only up to a NUL byte) is not walked
/// again, and folders more than `maxDepth` levels below the walked one are not walked; both are
/// named in `notWalked` (the caller prints a note). A capture name that is a symbolic link leading
/// nowhere (a missing target, a loop) is named in `brokenLinks`, with a note too.
///
/// A `.json` (or `.json.gz`) file is read when its first bytes show `log show --style json`'s array
/// (`InputResolver.holdsLog`); other JSON is left out without a word, ignored or special ones too.
enum DirectoryWalker {
    /// What a walk found, and what it skipped.
    struct Found {
        var files: [String] = []
        /// Entries skipped as hidden or ignored (log names and folders).
        var skipped = 0
        /// Captures (and folders) skipped because an ignore file inside the walked folder says so:
        /// the user may not know of that file, so each is named (`InputResolver`'s note).
        var ignoredInside: [String] = []
        /// Capture names that are not regular files, each with what it is ("a FIFO").
        var special: [(path: String, kind: String)] = []
        /// Folders not walked: one of their own ancestors, or deeper than `maxDepth`; each with why.
        var notWalked: [(path: String, why: String)] = []
        /// Capture names that are symbolic links leading nowhere (dangling, or a loop of links), each with which.
        var brokenLinks: [(path: String, kind: String)] = []
    }

    /// How many levels below the walked folder a walk goes (a real capture folder is a few deep).
    static let maxDepth = 256

    /// "a FIFO", "a socket", …: what a capture name that is not a regular file is; nil for a regular file.
    static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a directory"
        default: return "a special file"
        }
    }

    /// The log files below `path`, sorted by display path, or nil when `path` is not a directory.
    static func walk(_ path: String, admit: (String) -> Bool, ignoring: Bool) throws(InputError) -> Found? {
        let root = PathName.bytes(of: path)
        var st = stat()
        guard withCString(root, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        guard let dir = withCString(root, { opendir($0) }) else {
            throw InputError(path: path, reason: "cannot read directory (\(String(cString: strerror(errno)).lowercased()))")
        }
        var found = Found()
        var rules: IgnoreRules? = nil
        let absolute = PathGlob.absoluteComponents(path)
        if ignoring { rules = IgnoreRules.enclosing(absolute) }
        var ancestors = [FolderID(st)]
        walk(dir, prefix: root.last == .slash ? root : root + [UInt8.slash], absolute: absolute, rootDepth: absolute.count, rules: rules,
             ignoring: ignoring, ancestors: &ancestors, into: &found, admit: admit)
        found.files.sort()
        return found
    }

    /// `absolute`: the folder's path components (display text), for the ignore rules; `rootDepth`:
    /// how many of them the walked folder has; `rules`: those in force above it (nil: not in a git
    /// repository); `ancestors`: the folders from the walked one down to this one.
    private static func walk(_ dir: LibC.DirectoryStream, prefix: [UInt8], absolute: [String], rootDepth: Int, rules: IgnoreRules?,
                             ignoring: Bool, ancestors: inout [FolderID], into found: inout Found, admit: (String) -> Bool) {
        defer { closedir(dir) }
        var rules = rules
        if ignoring, rules != nil,
           let text = IgnoreRules.read(PathName.display(prefix + Array(".gitignore".utf8))) {
            rules!.add(IgnoreRules.parse(text, base: absolute))
        }
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name == [UInt8.dot] || name == [UInt8.dot, UInt8.dot] { continue }
            let full = prefix + name
            var st = stat()
            guard withCString(full, { lstat($0, &st) }) == 0 else { continue }
            let isFolder = (st.st_mode & S_IFMT) == S_IFDIR
            if ignoring {
                let hidden = name.first == .dot
                let rule = hidden ? nil : rules?.ignoringRule(absolute + [PathName.display(name)], isFolder: isFolder)
                if hidden || rule != nil {
                    let counted = isFolder || InputResolver.isLogName(PathName.display(name))
                    if counted { found.skipped += 1 }
                    // An ignore file inside the walked folder (not the repository's, above it).
                    if counted, let rule, rule.base.count >= rootDepth {
                        found.ignoredInside.append(PathName.display(full) + (isFolder ? "/" : ""))
                    }
                    continue
                }
            }
            if isFolder {
                let id = FolderID(st)
                if ancestors.contains(id) {
                    found.notWalked.append((PathName.display(full) + "/", "the same folder as one that holds it (a bind mount or a loop), walked once"))
                    continue
                }
                if ancestors.count > maxDepth {
                    found.notWalked.append((PathName.display(full) + "/", "more than \(maxDepth) folders deep (a folder walk goes \(maxDepth) levels down; name the folder to walk it)"))
                    continue
                }
                if let sub = withCString(full, { opendir($0) }) {
                    ancestors.append(id)
                    walk(sub, prefix: full + [UInt8.slash], absolute: absolute + [PathName.display(name)], rootDepth: rootDepth, rules: rules,
                         ignoring: ignoring, ancestors: &ancestors, into: &found, admit: admit)
                    ancestors.removeLast()
                }
                continue
            }
            let isLog = InputResolver.isLogName(PathName.display(name))
            guard isLog || InputResolver.isJSONName(PathName.display(name)) else { continue }
            // A symbolic link counts when it leads to a regular file; one that leads nowhere is named
            // (a capture the user meant to lint may be behind it), one to a folder is not walked.
            var link = false
            if (st.st_mode & S_IFMT) == S_IFLNK {
                guard withCString(full, { stat($0, &st) }) == 0 else {
                    let loop = errno == ELOOP
                    if isLog { found.brokenLinks.append((PathName.display(full), loop ? "a loop of symbolic links" : "a symbolic link to a missing file")) }
                    continue
                }
                guard (st.st_mode & S_IFMT) != S_IFDIR else { continue }
                link = true
            }
            if !isLog {
                // JSON: only a log's array counts, and only a regular file is opened to tell.
                guard specialKind(st.st_mode) == nil, withCString(full, { InputResolver.holdsLog($0) }) else { continue }
            }
            if let kind = specialKind(st.st_mode) {
                found.special.append((PathName.display(full), link ? "a symbolic link to \(kind)" : kind))
                continue
            }
            let display = PathName.register(full)
            if admit(display) { found.files.append(display) }
        }
    }

    /// A folder by its device and inode: the same folder whatever path leads to it.
    struct FolderID: Equatable {
        let device: UInt64
        let inode: UInt64
        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    private static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var b = bytes.map { CChar(bitPattern: $0) }
        b.append(0)
        return b.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
