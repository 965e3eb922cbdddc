import Foundation
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT/SIGTERM while following: stop reading, print the summary, exit with the run's code.
nonisolated(unsafe) private var followInterrupted: sig_atomic_t = 0

private func installStopHandlers() {
    var action = sigaction()
    action.plainHandler = { _ in followInterrupted = 1 }
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
    /// `--follow`: one input read as it grows (`LiveFollower`). A pipe ends at EOF; a regular file is
    /// polled like `tail -F` until Ctrl-C. Findings are printed (xcode format) as they are decided.
    func follow(_ source: InputSource, options: LintOptions) throws -> LintResult {
        let start = Date()
        installStopHandlers()
        let reporter = XcodeReporter(color: color.stdout)
        let strict = gate.strict
        let follower = LiveFollower(
            source: source, options: options,
            poll: { usleep(200_000); return followInterrupted == 0 },
            stopped: { followInterrupted != 0 },
            output: { findings in
                guard let first = findings.first else { return }
                let file = FileResult(stats: InputStats(path: first.path), findings: findings)
                let live = LintResult(files: [file])
                writeStdout(reporter.writer(for: strict ? live.promotingWarnings() : live))
            },
            notice: { printError($0) })
        return LintResult(files: try follower.run(), seconds: Date().timeIntervalSince(start))
    }
}
