import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One `--reporter NAME[:FILE]` argument: a reporter, and the file it writes (nil: stdout).
public struct ReporterRequest: Sendable, Equatable {
    public var name: String
    /// nil, `NAME` alone or `NAME:-`, means standard output.
    public var path: String?

    public init(name: String, path: String? = nil) {
        self.name = name
        self.path = path
    }

    /// Parses `NAME` or `NAME:FILE` (split at the first colon: reporter names have none, file
    /// names may). The message of the error is one line for stderr.
    public static func parse(_ argument: String) throws(ReporterRequestError) -> ReporterRequest {
        let name: String
        var path: String?
        if let colon = argument.firstIndex(of: ":") {
            name = String(argument[..<colon])
            let file = String(argument[argument.index(after: colon)...])
            guard !file.isEmpty else {
                throw ReporterRequestError("reporter '\(argument)' names no file after the colon; use \(name) or \(name):FILE")
            }
            if file != "-" { path = file }
        } else {
            name = argument
        }
        guard ReporterRegistry.names.contains(name) else {
            let names = ReporterRegistry.names
            throw ReporterRequestError("unknown reporter '\(name)'\(EditDistance.didYouMean(name, among: names)); expected one of: \(names.joined(separator: ", "))")
        }
        return ReporterRequest(name: name, path: path)
    }

    /// Parses every argument and checks the set: at most one report on stdout, no file twice.
    /// No argument means `xcode` on stdout.
    public static func parseAll(_ arguments: [String]) throws(ReporterRequestError) -> [ReporterRequest] {
        guard !arguments.isEmpty else { return [ReporterRequest(name: ReporterRegistry.defaultName)] }
        var out: [ReporterRequest] = []
        for a in arguments { out.append(try parse(a)) }
        let toStdout = out.filter { $0.path == nil }
        if toStdout.count > 1 {
            throw ReporterRequestError("only one reporter can print to standard output (\(toStdout.map(\.name).joined(separator: ", "))); give the others a file: --reporter NAME:FILE")
        }
        var seen: Set<String> = []
        for r in out {
            guard let p = r.path else { continue }
            let key = URL(fileURLWithPath: p).standardizedFileURL.path
            if !seen.insert(key).inserted {
                throw ReporterRequestError("two reporters write to \(p); give each its own file")
            }
        }
        return out
    }
}

public struct ReporterRequestError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Why a report file could not be written: `PATH: reason`, for one stderr line.
public struct ReportFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)).lowercased())
    }
}

/// A report file written all at once or not at all: a temporary file beside the target (same
/// directory, so the final rename cannot cross file systems) is created up front, which also
/// proves early that the target's directory is writable, and renamed over the target once the
/// whole report is in it. A run that fails leaves the old report, or none, never half of one.
/// Several files of one run are committed together by a `ReportTransaction`; the temporary file is
/// removed on SIGINT/SIGTERM/SIGHUP too (`TemporaryFiles`).
///
/// A symbolic link is refused, dangling or not (the report would replace the file it points at, or
/// create one wherever it leads), unless it leads to a target written in place. A target that
/// exists and is not a regular file is written directly (renaming over it would replace the device
/// node) when it is `/dev/null` or this process's standard output or error however named
/// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/1`): those are written through a copy of the open
/// descriptor, so nothing is opened that could block. Any other (a FIFO, a socket, a terminal, a
/// device) is refused: opening a FIFO for writing waits for a reader that may never come.
public final class PendingReportFile {
    public let path: String
    public private(set) var temporaryPath: String?
    /// Where the report lands: `path` (a symbolic link there is refused, so it is the file itself).
    let target: String
    private var fd: Int32 = -1
    private var committed = false
    private var hasTemporary = false

    /// Creates the temporary file (or opens a device); throws if the directory is missing or not
    /// writable, or if the target is a directory.
    public init(path: String) throws(ReportFileError) {
        self.path = path
        var st = stat()
        // `path` is display text: a name with a control character is created by its raw bytes (`PathName`).
        let exists = PathName.withCString(path, { stat($0, &st) }) == 0
        if exists && (st.st_mode & S_IFMT) == S_IFDIR {
            throw ReportFileError(path: path, reason: "is a directory")
        }
        if exists && (st.st_mode & S_IFMT) != S_IFREG {
            target = path
            fd = try Self.openStandard(path, st)
            return
        }
        var link = stat()
        if PathName.withCString(path, { lstat($0, &link) }) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            let leads = exists ? "to a regular file" : "leading nowhere"
            throw ReportFileError(path: path, reason: "is a symbolic link \(leads), not a regular file; a report is written to a regular file (not through a link, which would replace what it leads to), or to \(Self.standardTargets)")
        }
        target = path
        // `.NAME.vclint-XXXXXX`: hidden, and no log extension, so a lint of the directory skips it.
        // SIGINT/SIGTERM wait until the file is registered for removal (its handler is installed first).
        TemporaryFiles.prepare()
        TemporaryFiles.holdSignals()
        defer { TemporaryFiles.releaseSignals() }
        let (fd, temp) = try Self.makeTemporary(beside: target, tag: "vclint", reportPath: path)
        self.fd = fd
        self.temporaryPath = temp
        hasTemporary = true
        TemporaryFiles.register(temp)
    }

    /// A target written in place through `descriptor` (taken over), as `/dev/stdout` is: tests give
    /// a device that fails (`/dev/full`), which a path is no longer allowed to name.
    init(path: String, device descriptor: Int32) {
        self.path = path
        target = path
        fd = descriptor
    }

    deinit { discard() }

    /// The report targets that are not regular files and are written all the same, as the refusal names them.
    public static let standardTargets = "- (standard output), /dev/stdout, /dev/stderr or /dev/null"

    /// A descriptor for a target that is not a regular file: a copy of standard output's or standard
    /// error's when it is the same file, /dev/null opened; anything else refused.
    private static func openStandard(_ path: String, _ st: stat) throws(ReportFileError) -> Int32 {
        let identity = FileIdentity(st)
        for stream: Int32 in [1, 2] {
            var s = stat()
            if fstat(stream, &s) == 0, FileIdentity(s) == identity {
                let fd = fcntl(stream, F_DUPFD_CLOEXEC, 3)
                guard fd >= 0 else { let code = errno; throw ReportFileError(path: path, errno: code) }
                return fd
            }
        }
        var null = stat()
        if (st.st_mode & S_IFMT) == S_IFCHR, stat("/dev/null", &null) == 0, (null.st_mode & S_IFMT) == S_IFCHR, null.st_rdev == st.st_rdev {
            let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { let code = errno; throw ReportFileError(path: path, errno: code) }
            return fd
        }
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        default: kind = "a special file"
        }
        throw ReportFileError(path: path, reason: "is \(kind), not a regular file; a report is written to a regular file, or to \(standardTargets)")
    }

    /// Writes the whole report and renames it over the target (a transaction of one file).
    public func commit(_ contents: String) throws(ReportFileError) {
        try ReportTransaction([self]).commit([contents])
    }

    /// Streams the report `write` produces into the file and renames it over the target.
    public func commit(_ write: @escaping ReportWriting) throws(ReportFileError) {
        try ReportTransaction([self]).commit([write])
    }

    /// Phase one: the whole report streamed into the temporary file, synced and closed (a device is
    /// written in place). Nothing at `path` changes yet.
    func stage(_ write: ReportWriting) throws(ReportFileError) {
        guard fd >= 0, !committed else { throw ReportFileError(path: path, reason: "report already written") }
        committed = true
        var failure: Int32 = 0
        let out = ReportWriter(descriptor: fd)
        do {
            try write(out)
            try out.flush()
        } catch let error as ReportWriteError {
            failure = error.code
        } catch {
            discard()
            throw ReportFileError(path: path, reason: String(describing: error))
        }
        if hasTemporary {
            if failure == 0 { _ = fchmod(fd, Self.mode(for: target)) }
            if failure == 0, fsync(fd) != 0, errno != EINVAL { failure = errno }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        fd = -1
        if failure != 0 {
            discard()
            throw ReportFileError(path: path, errno: failure)
        }
    }

    /// Whether this report goes through a temporary file (a regular file) rather than in place.
    var renames: Bool { hasTemporary }

    /// The temporary file's rename is done (by the transaction): nothing is left to remove.
    func installed() {
        if let temp = temporaryPath { TemporaryFiles.unregister(temp) }
        temporaryPath = nil
    }

    /// Removes the temporary file (a run that failed); the target is untouched.
    public func discard() {
        if fd >= 0 { close(fd); fd = -1 }
        if let temp = temporaryPath {
            PathName.withCString(temp) { _ = unlink($0) }
            TemporaryFiles.unregister(temp)
            temporaryPath = nil
        }
    }

    /// A new file `.NAME.TAG-XXXXXX` in the directory of `target`, open for writing; its name is
    /// made of the target's raw bytes, and returned as display text (`PathName`).
    static func makeTemporary(beside target: String, tag: String, reportPath: String) throws(ReportFileError) -> (Int32, String) {
        var raw = PathName.bytes(of: target)
        if raw.first != .slash {  // relative: beside it in the working directory, named in full
            let cwd = FileManager.default.currentDirectoryPath
            raw = PathName.bytes(of: cwd) + (cwd.hasSuffix("/") ? [] : [UInt8.slash]) + raw
        }
        let slash = raw.lastIndex(of: UInt8.slash)!
        let name: [UInt8] = [UInt8.dot] + raw[(slash + 1)...] + Array(".\(tag)-XXXXXX".utf8)
        var template = (raw[...slash] + name).map { CChar(bitPattern: $0) } + [0]
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let code = errno
            throw ReportFileError(path: reportPath, errno: code)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, template.withUnsafeBufferPointer { PathName.register(cString: $0.baseAddress!) })
    }

    /// An existing report keeps its permissions; a new one gets what the umask allows (mkstemp's 0600 is
    /// too strict for a report other users or CI steps read).
    private static func mode(for path: String) -> mode_t {
        var st = stat()
        if PathName.withCString(path, { stat($0, &st) }) == 0 { return st.st_mode & 0o7777 }
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }
}
