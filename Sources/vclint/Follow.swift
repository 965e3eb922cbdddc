import Foundation
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT/SIGTERM while following: stop reading, print the summary, exit with the run's code.
nonisolated(unsafe) private var followInterrupted: sig_atomic_t = 0

private func installStopHandlers() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in followInterrupted = 1 }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0  // no SA_RESTART: a blocking read returns EINTR and the loop sees the flag
    sigaction(SIGINT, &action, nil)
    sigaction(SIGTERM, &action, nil)
    // A parent may have started us with these signals blocked (they would never arrive).
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    sigprocmask(SIG_UNBLOCK, &set, nil)
}

extension LintCommand {
    /// `--follow`: one input read as it grows. A pipe ends at EOF; a regular file is polled like
    /// `tail -f` until Ctrl-C. Findings are printed (xcode format) and flushed as they are decided.
    func follow(_ source: InputSource, options: LintOptions) throws -> LintResult {
        let start = Date()
        let fd = try InputResolver.open(source)
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        let regular = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        installStopHandlers()
        let live = LiveLinter(path: source.displayPath, options: options)
        let reporter = XcodeReporter()
        func show(_ findings: [Finding]) {
            guard !findings.isEmpty else { return }
            writeStdout(reporter.report(LintResult(files: [FileResult(stats: InputStats(path: live.path), findings: findings)])))
        }
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while followInterrupted == 0 {
            let n = read(fd, buffer, capacity)
            if n > 0 {
                offset += off_t(n)
                show(live.consume(UnsafeRawBufferPointer(start: buffer, count: n)))
                continue
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw InputError(path: source.displayPath, reason: String(cString: strerror(errno)).lowercased())
            }
            guard regular else { break }  // a pipe's writer is done
            // A file: wait for more. One that shrank was truncated or rotated: start again at its head.
            if fstat(fd, &info) == 0, info.st_size < offset {
                printError("vclint: \(source.displayPath) was truncated; reading it again from the start")
                lseek(fd, 0, SEEK_SET)
                offset = 0
            }
            usleep(200_000)
        }
        let (late, file) = live.finish()
        show(late)
        return LintResult(files: [file], seconds: Date().timeIntervalSince(start))
    }
}
