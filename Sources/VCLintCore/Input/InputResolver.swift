import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thing to read: a file or standard input.
public enum InputSource: Sendable, Equatable {
    case file(String)
    case standardInput

    public var displayPath: String {
        switch self {
        case .file(let p): return p
        case .standardInput: return "<stdin>"
        }
    }
}

/// A run that cannot go on: exit code 2 with one line naming the file and the reason.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    /// The whole line, when it does not read `PATH: reason`.
    private let sentence: String?
    public var description: String { sentence ?? "\(path): \(reason)" }
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
        sentence = nil
    }

    /// A directory (or configuration filter) that left nothing to read: the run failed, as
    /// SwiftLint's does; linting nothing must not pass for a clean capture.
    public static func noCaptures(under path: String, skipped: Int = 0, special: Int = 0) -> InputError {
        var why = skipped == 0 ? "" : "; \(skipped) hidden or git-ignored entr\(skipped == 1 ? "y was" : "ies were") skipped, which --no-ignore reads"
        if special > 0 { why += "; \(special) \(special == 1 ? "was not a regular file" : "were not regular files") (FIFOs, sockets, devices), which a folder walk does not read" }
        return InputError(path: path, reason: "no capture files", sentence: "no capture files found under \(path) (looked for *.log, *.txt, *.ndjson, *.jsonl, logs in *.json and their .gz forms\(why))")
    }

    /// No path given, and standard input is a terminal (a user typed the command to see what it does).
    public static func terminal(command: String) -> InputError {
        InputError(path: "-", reason: "standard input is a terminal",
                   sentence: "no capture given and standard input is a terminal: name a capture file or directory, or pipe one in (… | vclint \(command) -)")
    }

    private init(path: String, reason: String, sentence: String) {
        self.path = path
        self.reason = reason
        self.sentence = sentence
    }
}

public enum InputResolver {
    public static let logExtensions: Set<String> = ["log", "txt", "ndjson", "jsonl"]

    /// `capture.log`, `run.ndjson`, and their gzip-compressed forms (`capture.log.gz`).
    public static func isLogName(_ name: String) -> Bool {
        var n = name as NSString
        if n.pathExtension.lowercased() == "gz" { n = n.deletingPathExtension as NSString }
        return logExtensions.contains(n.pathExtension.lowercased())
    }

    /// `log.json` and `log.json.gz`: `log show --style json`'s array, which a folder walk reads only
    /// when its first bytes show a log (`holdsLog`); other JSON (a package manifest, a lint report)
    /// is left out quietly. Named on the command line, any file is read.
    public static func isJSONName(_ name: String) -> Bool {
        var n = name as NSString
        if n.pathExtension.lowercased() == "gz" { n = n.deletingPathExtension as NSString }
        return n.pathExtension.lowercased() == "json"
    }

    /// How much of a `.json` file a folder walk looks at (inflated, for `.json.gz`).
    static let jsonHeadBytes = 64 * 1024

    /// Whether the file at `path` starts as a log's JSON array (`vclint leaks` tells a capture from
    /// a JSON leak report with it).
    public static func holdsLog(atPath path: String) -> Bool {
        PathName.withCString(path) { holdsLog($0) }
    }

    /// Whether the regular file at `path` (its bytes) starts as a log's JSON array: `[`, `{`, a
    /// member, and a log's keys (`eventMessage`, `timestamp`) in its first 64 KiB.
    static func holdsLog(_ path: UnsafePointer<CChar>) -> Bool {
        let fd = LibC.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var raw = [UInt8](repeating: 0, count: jsonHeadBytes)
        var got = 0
        while got < raw.count {
            let n = raw.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        raw.removeLast(raw.count - got)
        var head = raw
        if raw.withUnsafeBytes({ Inflater.isGzip($0) }) {
            head = []
            head = inflatedHead(raw)
        }
        return JSONArraySniff.isLogArray(head)
    }

    /// The first `jsonHeadBytes` that the gzip bytes `raw` inflate to (as many as they hold).
    private static func inflatedHead(_ raw: [UInt8]) -> [UInt8] {
        var head: [UInt8] = []
        guard let gzip = try? GzipStream() else { return head }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: raw.count, alignment: 1)
        defer { bytes.deallocate() }
        bytes.copyBytes(from: raw)
        do {
            try gzip.feed(UnsafeRawBufferPointer(bytes)) { out in head += out.prefix(max(0, jsonHeadBytes - head.count)) }
        } catch {}
        return head
    }

    /// How many skipped paths a note names before it says "and N more".
    static let namedInNote = 5

    /// Paths as given on the command line → inputs. Directories are searched (sorted, so the
    /// report order is deterministic) for the log extensions, skipping hidden and git-ignored
    /// entries unless `ignoring` is off (`--no-ignore`); no path or `-` means stdin.
    ///
    /// What a walk leaves out that the user may not expect is said through `note` (one line each,
    /// without the `vclint: note:` prefix): each capture name that is not a regular file (a FIFO, a
    /// device, a link to one), the captures an ignore file inside the folder ignores, and the folders
    /// a walk does not go into (one of their own ancestors, or too deep: `DirectoryWalker.maxDepth`).
    public static func resolve(_ paths: [String], admit: (String) -> Bool = { _ in true }, ignoring: Bool = true,
                               note: (String) -> Void = { _ in }) throws -> [InputSource] {
        if paths.isEmpty { return [.standardInput] }
        var out: [InputSource] = []
        for path in paths {
            if path == "-" { out.append(.standardInput); continue }
            // A missing path stays an input: `open` reports it, and the other inputs are still linted.
            // Directories are walked by the raw bytes of their names (DirectoryWalker).
            if let found = try DirectoryWalker.walk(path, admit: admit, ignoring: ignoring) {
                for s in found.special.sorted(by: { $0.path < $1.path }) {
                    note("skipped \(s.path): \(s.kind), not a regular file (a folder walk reads regular files only; name it on the command line to read it)")
                }
                for b in found.brokenLinks.sorted(by: { $0.path < $1.path }) {
                    note("skipped \(b.path): \(b.kind), which leads to no capture")
                }
                // Folders not walked, by why: the first few named, as for ignored captures.
                for why in Set(found.notWalked.map(\.why)).sorted() {
                    let folders = found.notWalked.filter { $0.why == why }.map(\.path).sorted()
                    var named = folders.prefix(namedInNote).joined(separator: ", ")
                    if folders.count > namedInNote { named += " and \(folders.count - namedInNote) more" }
                    note("skipped \(named): \(why)")
                }
                if !found.ignoredInside.isEmpty {
                    let n = found.ignoredInside.count
                    var named = found.ignoredInside.sorted().prefix(namedInNote).joined(separator: ", ")
                    if n > namedInNote { named += " and \(n - namedInNote) more" }
                    // A folder (named with its trailing /) holds captures the note cannot count.
                    let what = found.ignoredInside.contains { $0.hasSuffix("/") } ? (n == 1 ? "entry" : "entries") : (n == 1 ? "capture" : "captures")
                    note("skipped \(n) \(what) under \(path) that an ignore file inside it (.gitignore) ignores: \(named) (--no-ignore reads them)")
                }
                guard !found.files.isEmpty else { throw InputError.noCaptures(under: path, skipped: found.skipped, special: found.special.count) }
                out.append(contentsOf: found.files.map { .file($0) })
            } else {
                out.append(.file(path))
            }
        }
        return out
    }

    /// Opens an input for reading; the error names the file and the reason.
    public static func open(_ source: InputSource) throws -> Int32 {
        switch source {
        case .standardInput: return 0
        case .file(let path):
            let fd = PathName.withCString(path) { LibC.open($0, O_RDONLY | O_CLOEXEC) }
            if fd < 0 {
                throw InputError(path: path, reason: String(cString: strerror(errno)).lowercased())
            }
            return fd
        }
    }
}
