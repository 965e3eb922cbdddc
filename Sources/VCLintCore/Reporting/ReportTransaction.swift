import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Every report file of a run, committed together or not at all. Renames of several files cannot be
/// atomic as a set, so: every report is written to its temporary file and synced (and devices are
/// written) first; then each existing target gets a backup (a hard link, or a copy where links are
/// not allowed); then the temporaries are renamed over the targets. When a rename fails midway, the
/// targets already replaced get their backups back (or are removed, when there was none before),
/// so either every new report or every old one remains. Temporaries and backups are removed in the
/// end, and on SIGINT/SIGTERM/SIGHUP; a signal that comes during the renames waits for them.
public final class ReportTransaction {
    public let files: [PendingReportFile]
    /// `rename(2)`; tests put a failing one in to reach the rollback.
    /// Paths are display text, renamed by their raw bytes (`PathName`).
    var rename: (String, String) -> Int32 = { ReportTransaction.rawRename($0, $1) }
    /// `rename(2)` of a backup back over its target, and `unlink(2)` of a target that had none: tests
    /// put failing ones in to reach a rollback that fails.
    var restore: (String, String) -> Int32 = { ReportTransaction.rawRename($0, $1) }
    var remove: (String) -> Int32 = { PathName.withCString($0) { unlink($0) } }

    static func rawRename(_ from: String, _ to: String) -> Int32 {
        PathName.withCString(from) { f in PathName.withCString(to) { LibC.rename(f, $0) } }
    }

    public init(_ files: [PendingReportFile]) { self.files = files }

    /// Commits what `reports[i]` writes to `files[i]`, all or none. Each report is streamed into its
    /// temporary file (or device) as it is produced; one that fails to be written, midway or not,
    /// fails the commit with every target left as it was.
    public func commit(_ reports: [ReportWriting]) throws(ReportFileError) {
        precondition(reports.count == files.count)
        // Phase 1: temporaries (then devices, which cannot be taken back, only once every file is ready).
        let order = files.indices.filter { files[$0].renames } + files.indices.filter { !files[$0].renames }
        for i in order {
            do throws(ReportFileError) { try files[i].stage(reports[i]) } catch {
                discard()
                throw error
            }
        }
        TemporaryFiles.holdSignals()
        defer { TemporaryFiles.releaseSignals() }
        // Phase 2: backups of the targets that exist.
        let renamed = files.filter(\.renames)
        var backups: [String?] = []
        defer { for b in backups { if let b { PathName.withCString(b) { _ = unlink($0) }; TemporaryFiles.unregister(b) } } }
        for f in renamed {
            do throws(ReportFileError) { backups.append(try Self.backup(f)) } catch {
                discard()
                throw error
            }
        }
        // Phase 3: the renames; a failure restores what was replaced.
        for (k, f) in renamed.enumerated() {
            guard let temp = f.temporaryPath else { continue }
            if rename(temp, f.target) != 0 {
                let code = errno
                // The reports that stay new because their old one (or their absence) could not be put back.
                var stuck: [PendingReportFile] = []
                // The backups that could not be put back: the only copies of those old reports left,
                // so they are kept (not removed at the end, nor by a signal) and named.
                var kept: [String] = []
                for j in 0..<k {
                    if let b = backups[j] {
                        if restore(b, renamed[j].target) != 0 {
                            stuck.append(renamed[j])
                            TemporaryFiles.unregister(b)
                            kept.append("the old \(renamed[j].path) is kept as \(Self.shown(backup: b, of: renamed[j]))")
                        }
                        backups[j] = nil
                    } else if remove(renamed[j].target) != 0, errno != ENOENT {
                        stuck.append(renamed[j])
                    }
                }
                discard()
                let reason = String(cString: strerror(code)).lowercased()
                guard !stuck.isEmpty else { throw ReportFileError(path: f.path, reason: reason) }
                // The set is mixed: one line says which reports are new and which are as before.
                let new = stuck.map(\.path)
                let old = renamed.filter { r in !stuck.contains { $0 === r } }.map(\.path)
                let keptNote = kept.isEmpty ? "" : "; " + kept.joined(separator: "; ")
                throw ReportFileError(path: f.path, reason: "\(reason); putting the old reports back failed too, so the set is mixed: new \(new.joined(separator: ", ")); as before \(old.joined(separator: ", "))\(keptNote)")
            }
            f.installed()
        }
    }

    /// Commits `contents[i]` to `files[i]`, all or none.
    public func commit(_ contents: [String]) throws(ReportFileError) {
        try commit(contents.map(Self.writing))
    }

    private static func writing(_ text: String) -> ReportWriting {
        return { out in try out.write(text) }
    }

    /// A backup's name as the report's is written: beside `a.json` as given (`out/.a.json.vclint-old-…`),
    /// or in full when the report was a symbolic link to a file elsewhere.
    private static func shown(backup: String, of f: PendingReportFile) -> String {
        let dir = (f.path as NSString).deletingLastPathComponent
        func real(_ p: String) -> String? { PathName.withCString(p, { realpath($0, nil) }).map { r in defer { free(r) }; return PathName.register(cString: r) } }
        guard (f.target as NSString).lastPathComponent == (f.path as NSString).lastPathComponent,
              let here = real(dir.isEmpty ? "." : dir), here == real((backup as NSString).deletingLastPathComponent) else { return backup }
        let base = (backup as NSString).lastPathComponent
        return dir.isEmpty ? base : dir == "/" ? "/" + base : dir + "/" + base
    }

    /// Removes every temporary file; no target changes.
    public func discard() { files.forEach { $0.discard() } }

    /// A hard link to the target beside it (a copy where the file system has no links); nil when
    /// there is no target yet.
    private static func backup(_ f: PendingReportFile) throws(ReportFileError) -> String? {
        var st = stat()
        guard PathName.withCString(f.target, { lstat($0, &st) }) == 0 else { return nil }
        // Replaced by a directory (or something else) since the run started: rename(2) would fail.
        if (st.st_mode & S_IFMT) == S_IFDIR { throw ReportFileError(path: f.path, reason: "is a directory") }
        let (fd, name) = try PendingReportFile.makeTemporary(beside: f.target, tag: "vclint-old", reportPath: f.path)
        TemporaryFiles.register(name)
        PathName.withCString(name) { _ = unlink($0) }  // mkstemp chose a free name; link(2) wants it free
        if PathName.withCString(f.target, { t in PathName.withCString(name) { link(t, $0) } }) == 0 {
            close(fd)
            return name
        }
        // No hard links here: copy the old report, through the descriptor mkstemp opened.
        defer { close(fd) }
        let fresh = PathName.withCString(name) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        let source = PathName.withCString(f.target) { open($0, O_RDONLY | O_CLOEXEC) }
        defer { if source >= 0 { close(source) }; if fresh >= 0 { close(fresh) } }
        guard fresh >= 0, source >= 0 else {
            let code = errno
            PathName.withCString(name) { _ = unlink($0) }
            TemporaryFiles.unregister(name)
            throw ReportFileError(path: f.path, reason: "cannot keep a backup of the old report: \(String(cString: strerror(code)).lowercased())")
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if n == 0 { break }
            let w = n > 0 ? buffer.withUnsafeBytes { write(fresh, $0.baseAddress!, n) } : -1
            if n < 0 || w != n {
                if n < 0 && errno == EINTR { continue }
                let code = errno
                PathName.withCString(name) { _ = unlink($0) }
                TemporaryFiles.unregister(name)
                throw ReportFileError(path: f.path, reason: "cannot keep a backup of the old report: \(String(cString: strerror(code)).lowercased())")
            }
        }
        _ = fchmod(fresh, st.st_mode & 0o7777)
        return name
    }
}

/// Files to remove if the process is stopped by SIGINT, SIGTERM or SIGHUP: report temporaries and
/// backups. The handler only calls unlink(2) on C strings made beforehand (async-signal-safe), then
/// dies of the same signal; while a transaction renames, it only notes the signal, and the
/// transaction re-raises it when done, so the set of reports is never left half old, half new.
public enum TemporaryFiles {
    private static let capacity = 256
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    nonisolated(unsafe) private static var installed = false
    /// Every path ever registered, kept: the handler may read a slot on another thread while it is
    /// cleared, so the strings are never freed (a few per run), and this list keeps them reachable.
    nonisolated(unsafe) private static var kept: [UnsafeMutablePointer<CChar>] = []
    private static let lock = NSLock()

    /// Installs the SIGINT/SIGTERM handlers that remove the registered files (before a file is
    /// created, so that no signal can come between its creation and its registration).
    static func prepare() {
        lock.lock()
        defer { lock.unlock() }
        installHandlers()
    }

    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        installHandlers()
        for i in 0..<capacity where slots[i] == nil {
            // The raw bytes the file was created by (`PathName`): the handler unlinks them as they are.
            guard let copy = PathName.withCString(path, { strdup($0) }) else { return }
            kept.append(copy)
            slots[i] = copy
            return
        }
    }

    static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        let raw = PathName.bytes(of: path)
        for i in 0..<capacity {
            if let p = slots[i], strlen(p) == raw.count, memcmp(p, raw, raw.count) == 0 {
                slots[i] = nil  // never freed: the handler may be reading it on another thread
                return
            }
        }
    }

    /// Removes every registered file now (a run that exits early, e.g. on a stdout write error).
    public static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity {
            if let p = slots[i] { unlink(p); slots[i] = nil }
        }
    }

    /// Transactions renaming now (several may, on several threads, in the library): the handler
    /// waits while any does, and the last one to finish re-raises a signal that came meanwhile.
    nonisolated(unsafe) private static var holds = 0
    private static let holdLock = NSLock()

    static func holdSignals() {
        holdLock.lock()
        holds += 1
        vclint_cleanup_hold = 1
        holdLock.unlock()
    }

    static func releaseSignals() {
        holdLock.lock()
        holds -= 1
        let last = holds == 0
        if last { vclint_cleanup_hold = 0 }
        holdLock.unlock()
        let pending = vclint_cleanup_pending
        if last && pending != 0 { vclint_cleanup_die(pending) }
    }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        vclint_cleanup_slots = slots
        vclint_cleanup_capacity = Int32(capacity)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var old = sigaction()
            sigaction(sig, nil, &old)
            // Keep what a caller chose: ignored (nohup), or a handler of its own (--follow's).
            if old.plainHandler != nil { continue }  // not SIG_DFL
            var action = sigaction()
            action.plainHandler = { sig in
                if vclint_cleanup_hold != 0 { vclint_cleanup_pending = sig; return }
                vclint_cleanup_die(sig)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, nil)
            // A parent may have started us with the signal blocked (it would never arrive).
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, sig)
            sigprocmask(SIG_UNBLOCK, &set, nil)
        }
    }
}

nonisolated(unsafe) private var vclint_cleanup_slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
nonisolated(unsafe) private var vclint_cleanup_capacity: Int32 = 0
nonisolated(unsafe) private var vclint_cleanup_hold: sig_atomic_t = 0
nonisolated(unsafe) private var vclint_cleanup_pending: sig_atomic_t = 0

/// Unlinks the registered files and dies of `sig` (default action), as if it had not been caught.
private func vclint_cleanup_die(_ sig: Int32) {
    if let slots = vclint_cleanup_slots {
        for i in 0..<Int(vclint_cleanup_capacity) { if let p = slots[i] { unlink(p) } }
    }
    signal(sig, SIG_DFL)
    raise(sig)
}

extension ReportTransaction {
    /// A file a run reads besides its captures, with what it is to the run ("the --baseline file").
    public struct OtherInput: Sendable {
        public let path: String
        public let role: String
        public init(_ path: String, _ role: String) {
            self.path = path
            self.role = role
        }
    }

    /// A report path that names one of the inputs would overwrite the capture it reports on: refused
    /// before anything is written. The same file is the same device and inode (a symbolic link, a
    /// hard link, `./x` against `x`, standard input redirected from it); a report that does not
    /// exist yet is compared by standardized path.
    ///
    /// So are the run's other inputs (`others`: the baseline, the configuration file, the
    /// `--files-from` lists), and, under `sourceRoot`, the source files it reads (*.swift, *.m, *.mm, *.h).
    public static func refuseInputs(_ reportPaths: [String], inputs: [InputSource], others: [OtherInput] = [],
                                    sourceRoot: String? = nil) throws(ReportFileError) {
        guard !reportPaths.isEmpty else { return }
        try refuseOthers(reportPaths, others, sourceRoot: sourceRoot)
        // The reports first (a few), then each input once against them: a run over 100k captures
        // stats each, and standardizes only an input named like a report that does not exist yet.
        var existing: [FileIdentity: Int] = [:]
        var missing: [(index: Int, name: String, standardized: String)] = []
        for (k, report) in reportPaths.enumerated() {
            var st = stat()
            if PathName.withCString(report, { stat($0, &st) }) == 0 {
                if (st.st_mode & S_IFMT) == S_IFREG, existing[FileIdentity(st)] == nil { existing[FileIdentity(st)] = k }
            } else {
                let url = URL(fileURLWithPath: report).standardizedFileURL
                missing.append((k, url.lastPathComponent, url.path))
            }
        }
        /// The first input that each report would overwrite.
        var overwritten: [Int: String] = [:]
        for input in inputs {
            switch input {
            case .standardInput:
                var st = stat()
                if !existing.isEmpty, fstat(0, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let k = existing[FileIdentity(st)], overwritten[k] == nil {
                    overwritten[k] = "standard input"
                }
            case .file:
                let path = input.displayPath
                if !existing.isEmpty {
                    var st = stat()
                    if input.withOpenPath({ stat($0, &st) }) == 0, let k = existing[FileIdentity(st)], overwritten[k] == nil { overwritten[k] = path }
                }
                if !missing.isEmpty, let name = path.split(separator: "/").last.map(String.init) {
                    for m in missing where m.name == name && overwritten[m.index] == nil {
                        if URL(fileURLWithPath: path).standardizedFileURL.path == m.standardized { overwritten[m.index] = path }
                    }
                }
            }
        }
        guard let first = overwritten.keys.min(), let input = overwritten[first] else { return }
        let report = reportPaths[first]
        let exists = !missing.contains { $0.index == first }
        throw ReportFileError(path: report, reason: !exists || input == report ? "is one of the inputs; a report would overwrite it"
                                                                               : "is one of the inputs (\(input)); a report would overwrite it")
    }
}

extension ReportTransaction {
    private static func refuseOthers(_ reportPaths: [String], _ others: [OtherInput], sourceRoot: String?) throws(ReportFileError) {
        func standardized(_ p: String) -> String { URL(fileURLWithPath: p).standardizedFileURL.path }
        func real(_ p: String) -> String? { PathName.withCString(p, { realpath($0, nil) }).map { r in defer { free(r) }; return PathName.register(cString: r) } }
        /// The path with its symbolic links resolved (its folder's, for a file not there yet).
        func resolved(_ p: String) -> String {
            if let r = real(p) { return r }
            let url = URL(fileURLWithPath: p).standardizedFileURL
            guard let folder = real(url.deletingLastPathComponent().path) else { return url.path }
            return (folder == "/" ? "" : folder) + "/" + url.lastPathComponent
        }
        var identities: [FileIdentity: OtherInput] = [:]
        var names: [String: OtherInput] = [:]
        for other in others where other.path != "-" {
            var st = stat()
            if PathName.withCString(other.path, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFREG { identities[FileIdentity(st)] = other }
            names[standardized(other.path)] = other
        }
        let root = sourceRoot.map { resolved($0) + "/" }
        for report in reportPaths {
            var st = stat()
            let exists = PathName.withCString(report, { stat($0, &st) }) == 0
            let other = exists ? ((st.st_mode & S_IFMT) == S_IFREG ? identities[FileIdentity(st)] : nil) : names[standardized(report)]
            if let other {
                let named = other.path == report ? "" : " \(other.path)"
                throw ReportFileError(path: report, reason: "is also an input of this run (\(other.role)\(named)); a report would overwrite it")
            }
            if let root, SourceIndex.extensions.contains((report as NSString).pathExtension), resolved(report).hasPrefix(root) {
                throw ReportFileError(path: report, reason: "is also an input of this run (a source file under --source-root); a report would overwrite it")
            }
        }
    }
}

/// A file's device and inode: the same file whatever path names it.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
