import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `vclint lint --follow`, the part a test can drive: reads one input as it grows and hands each
/// finding out as soon as it is decidable (`LiveLinter`). A pipe is read to its end; a regular file
/// is followed like `tail -F`: at its end `poll` is called (the CLI sleeps 200 ms; a test changes the
/// file), then the file is looked at again:
/// - its name now names another file (st_dev/st_ino differ: rotated by rename): the rest of the old
///   file is read, then the new one from its start;
/// - it is shorter than what was read, or its first bytes changed (copytruncate, even one rewritten
///   past the old offset within one poll): read again from its start.
/// Either way the input starts anew: the findings that only the end decides are handed out for the
/// old contents, `notice` gets one line saying so, and `input` is called again (line numbers
/// restart at 1). gzip (a `.gz` file, or gzip bytes on a pipe) is inflated as it arrives; classic
/// Mac line ends are translated, and a JSON array (`log show --style json`) is read object by
/// object, each as soon as its closing brace is written (`LiveLinter` reads through
/// `LineEndTranslator`).
public final class LiveFollower {
    public let source: InputSource
    private let options: LintOptions
    private let poll: () -> Bool
    private let stopped: () -> Bool
    private let input: (String) -> Void
    private let output: (LiveUpdate) -> Void
    private let notice: (String) -> Void

    /// `poll`: called at the end of a growing file; waits, and returns false to stop following.
    /// `stopped`: checked after every read (Ctrl-C). `input`: a generation of the input starts (its
    /// display path), before any of its findings. `output`: findings as they are decided.
    /// `notice`: one line for stderr (rotation, truncation, gzip trailing bytes).
    public init(source: InputSource, options: LintOptions = LintOptions(), poll: @escaping () -> Bool,
                stopped: @escaping () -> Bool = { false }, input: @escaping (String) -> Void = { _ in },
                output: @escaping (LiveUpdate) -> Void, notice: @escaping (String) -> Void) {
        self.source = source
        self.options = options
        self.poll = poll
        self.stopped = stopped
        self.input = input
        self.output = output
        self.notice = notice
    }

    private var path: String { source.displayPath }

    /// Follows the input until it ends (a pipe) or `poll`/`stopped` says stop. One result per
    /// generation of the file: the first, then one per rotation or truncation.
    public func run() throws(InputError) -> [FileResult] {
        var fd: Int32
        do { fd = try InputResolver.open(source) } catch let e as InputError { throw e } catch {
            throw InputError(path: path, reason: "\(error)")
        }
        defer { if fd > 0 { close(fd) } }
        var st = stat()
        let regular = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        var results: [FileResult] = []
        var generation = Generation(path: path, options: options)
        input(path)
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }

        /// Reads what `fd` holds now; false on an interruption.
        func readAvailable() throws(InputError) -> Bool {
            while true {
                let n = read(fd, buffer, capacity)
                if n > 0 {
                    let bytes = UnsafeRawBufferPointer(start: buffer, count: n)
                    do { try generation.feed(bytes, output) } catch { throw InputError(path: path, reason: error.reason) }
                    if stopped() { return false }
                    continue
                }
                if n == 0 { return true }
                if errno == EINTR || errno == EAGAIN {
                    if stopped() { return false }
                    continue
                }
                throw InputError(path: path, reason: String(cString: strerror(errno)).lowercased())
            }
        }

        func startOver(_ why: String) throws(InputError) {
            results.append(try generation.finish(output, notice, complete: false))
            notice("vclint: \(path) \(why); reading it from the start, line numbers restart at 1")
            generation = Generation(path: path, options: options)
            input(path)
        }

        while try readAvailable() {
            guard regular, poll(), !stopped() else { break }
            switch look(fd: fd, generation: generation) {
            case .same:
                continue
            case .replaced(let newFD):
                // The writer may have appended to the old file just before it was renamed away.
                guard try readAvailable() else { close(newFD); break }
                close(fd)
                fd = newFD
                try startOver("was replaced by a new file (rotated)")
            case .truncated:
                lseek(fd, 0, SEEK_SET)
                try startOver("was truncated or rewritten")
            }
        }
        results.append(try generation.finish(output, notice, complete: !regular))
        return results
    }

    private enum Change { case same, replaced(Int32), truncated }

    /// What happened to the file since the last read.
    private func look(fd: Int32, generation: Generation) -> Change {
        var open = stat()
        guard fstat(fd, &open) == 0 else { return .same }
        if case .file = source {
            var named = stat()
            let found = source.withOpenPath { stat($0, &named) } == 0
            if found && (named.st_dev != open.st_dev || named.st_ino != open.st_ino) {
                let newFD = source.withOpenPath { LibC.open($0, O_RDONLY | O_CLOEXEC) }
                if newFD >= 0 { return .replaced(newFD) }
            }
        }
        if Int(open.st_size) < generation.offset { return .truncated }
        // Rewritten past the old offset within one poll: same size or more, but not the same bytes
        // at its head or just before the offset (a new capture may start like the old one did).
        for (bytes, at) in [(generation.head, 0), (generation.tail, generation.offset - generation.tail.count)] where !bytes.isEmpty {
            var now = [UInt8](repeating: 0, count: bytes.count)
            let n = now.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, bytes.count, off_t(at)) }
            if n >= 0 && (n != bytes.count || now != bytes) { return .truncated }
        }
        return .same
    }
}

/// One generation of a followed input: the bytes read since it was opened or started anew.
private struct Generation {
    static let headSize = 1024
    let path: String
    let live: LiveLinter
    /// Raw bytes read (compressed ones for gzip): where the next read starts in the file.
    private(set) var offset = 0
    /// The file's first bytes as read, and the last ones, to tell a rewritten file from a grown one.
    private(set) var head: [UInt8] = []
    private(set) var tail: [UInt8] = []
    private var sniffed: [UInt8] = []
    private var decided = false
    private var gzip: GzipStream?

    /// The scanner's read buffer: a longer line is read by its head (the warning says so).
    private let chunkSize: Int

    init(path: String, options: LintOptions) {
        self.path = path
        chunkSize = options.chunkSize
        live = LiveLinter(path: path, options: options)
    }

    struct Failure: Error { let reason: String }

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ output: (LiveUpdate) -> Void) throws(Failure) {
        offset += bytes.count
        if head.count < Self.headSize { head += bytes.prefix(Self.headSize - head.count) }
        if bytes.count >= Self.headSize {
            tail = Array(bytes.suffix(Self.headSize))
        } else {
            tail += bytes
            if tail.count > Self.headSize { tail.removeFirst(tail.count - Self.headSize) }
        }
        if !decided {
            sniffed += bytes
            guard sniffed.count >= 2 else { return }
            decided = true
            let first = sniffed
            sniffed = []
            if first.withUnsafeBytes({ Inflater.isGzip($0) }) {
                do { gzip = try GzipStream() } catch { throw Failure(reason: "zlib could not start") }
            }
            do { try first.withUnsafeBytes { try pass($0, output) } } catch let f as Failure { throw f } catch {
                throw Failure(reason: "\(error)")
            }
            return
        }
        try pass(bytes, output)
    }

    private mutating func pass(_ bytes: UnsafeRawBufferPointer, _ output: (LiveUpdate) -> Void) throws(Failure) {
        let live = self.live
        if let gzip {
            do {
                try gzip.feed(bytes) { output(live.consume($0)) }
            } catch GzipStream.Failure.corrupt(let why) {
                throw Failure(reason: "not a valid gzip stream (\(why))")
            } catch {
                throw Failure(reason: "not a valid gzip stream")
            }
        } else {
            output(live.consume(bytes))
        }
    }

    /// The end of this generation. `complete`: the input really ended (a pipe at EOF), so a gzip
    /// member cut short is an error, as in a batch run; a file that is still being written when
    /// following stops may end mid-member.
    mutating func finish(_ output: (LiveUpdate) -> Void, _ notice: (String) -> Void, complete: Bool) throws(InputError) -> FileResult {
        let live = self.live
        var found = LiveUpdate()
        if !decided && !sniffed.isEmpty {
            decided = true
            sniffed.withUnsafeBytes { found += live.consume($0) }
            sniffed = []
        }
        found += live.endOfInput()
        output(found)
        if let gzip {
            do { try gzip.finish() } catch {
                if complete { throw InputError(path: path, reason: "the gzip stream ends early (truncated)") }
                notice("vclint: warning: \(path): the gzip stream ends mid-member; what was inflated so far is linted")
            }
            if gzip.trailingBytes > 0 {
                notice(Inflater.trailingWarning(gzip.trailingBytes, path: path))
            }
        }
        let (late, result) = live.finish()
        output(late)
        if result.stats.oversizedObjects > 0 { notice(JSONArrayReader.oversizedWarning(result.stats.oversizedObjects, path: path)) }
        if result.stats.overlongLines > 0 {
            notice(CandidateSearch.overlongWarning(result.stats.overlongLines, chunkSize: chunkSize, path: path))
        }
        return result
    }
}
