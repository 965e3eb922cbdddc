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
    public static func noCaptures(under path: String, skipped: Int = 0) -> InputError {
        let why = skipped == 0 ? "" : "; \(skipped) hidden or git-ignored entr\(skipped == 1 ? "y was" : "ies were") skipped, which --no-ignore reads"
        return InputError(path: path, reason: "no capture files", sentence: "no capture files found under \(path) (looked for *.log, *.txt, *.ndjson, *.jsonl and their .gz forms\(why))")
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

    /// Paths as given on the command line → inputs. Directories are searched (sorted, so the
    /// report order is deterministic) for the log extensions, skipping hidden and git-ignored
    /// entries unless `ignoring` is off (`--no-ignore`); no path or `-` means stdin.
    public static func resolve(_ paths: [String], admit: (String) -> Bool = { _ in true }, ignoring: Bool = true) throws -> [InputSource] {
        if paths.isEmpty { return [.standardInput] }
        var out: [InputSource] = []
        for path in paths {
            if path == "-" { out.append(.standardInput); continue }
            // A missing path stays an input: `open` reports it, and the other inputs are still linted.
            // Directories are walked by the raw bytes of their names (DirectoryWalker).
            if let found = try DirectoryWalker.walk(path, admit: admit, ignoring: ignoring) {
                guard !found.files.isEmpty else { throw InputError.noCaptures(under: path, skipped: found.skipped) }
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

extension Linter {
    /// Lints every input; the result lists them in input order whatever order they finish in.
    /// An unreadable input stops the run with an `InputError` (the first one in input order).
    public func lint(_ sources: [InputSource], jobs: Int = Linter.defaultJobs) throws -> LintResult {
        let start = Date()
        var files: [FileResult] = []
        for outcome in lintEach(sources, jobs: jobs) {
            files.append(try outcome.get())
        }
        return LintResult(files: files, seconds: Date().timeIntervalSince(start))
    }

    /// Lints every input, going on past the ones that cannot be opened or read: those are in
    /// `failures` (the run failed, exit 2) and the others' findings are all there (`vclint lint`).
    public func lintAll(_ sources: [InputSource], jobs: Int = Linter.defaultJobs) -> LintResult {
        let start = Date()
        var result = LintResult(files: [], seconds: 0)
        for outcome in lintEach(sources, jobs: jobs) {
            switch outcome {
            case .success(let file): result.files.append(file)
            case .failure(let error): result.failures.append(error)
            }
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// One core per file: as many files in flight as there are cores.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Lints the inputs on up to `jobs` threads, one file per thread (a file's timeline is
    /// sequential); when there are at least twice as many threads as files in flight, each file
    /// also gets a second thread for its events (`LintOptions.pipelined`). Outcomes are in input
    /// order, so reports are deterministic.
    public func lintEach(_ sources: [InputSource], jobs: Int = Linter.defaultJobs) -> [Result<FileResult, InputError>] {
        let outcomes = OutcomeSlots(count: sources.count)
        let workers = max(1, min(jobs, sources.count))
        var spare = self
        if jobs >= 2 * workers { spare.options.pipelined = true }
        let linter = spare
        if workers == 1 {
            for (i, source) in sources.enumerated() { outcomes.set(i, linter.lintOne(source)) }
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let i = outcomes.claim() { outcomes.set(i, linter.lintOne(sources[i])) }
            }
        }
        return outcomes.all
    }

    private func lintOne(_ source: InputSource) -> Result<FileResult, InputError> {
        let fd: Int32
        do { fd = try InputResolver.open(source) } catch let e as InputError { return .failure(e) } catch {
            return .failure(InputError(path: source.displayPath, reason: "\(error)"))
        }
        defer { if fd != 0 { close(fd) } }
        do {
            return .success(try lint(fd: fd, path: source.displayPath))
        } catch LogScanner.ReadError.io(let code) {
            return .failure(InputError(path: source.displayPath, reason: String(cString: strerror(code)).lowercased()))
        } catch LogScanner.ReadError.compressed(let why) {
            return .failure(InputError(path: source.displayPath, reason: why))
        } catch {
            return .failure(InputError(path: source.displayPath, reason: "\(error)"))
        }
    }
}

/// Work distribution and results for `lintEach`: a shared next-index counter and one slot per input.
private final class OutcomeSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [Result<FileResult, InputError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    func set(_ i: Int, _ r: Result<FileResult, InputError>) {
        lock.lock()
        slots[i] = r
        lock.unlock()
    }

    var all: [Result<FileResult, InputError>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
