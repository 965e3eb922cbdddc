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
    /// polled like `tail -F` until Ctrl-C. Findings go to `report` as they are decided; its end is
    /// the caller's, once the result is final.
    func follow(_ source: InputSource, options: LintOptions, report: LiveReport) throws -> LintResult {
        let start = Date()
        installStopHandlers()
        report.begin()
        let follower = LiveFollower(
            source: source, options: options,
            poll: { usleep(200_000); return followInterrupted == 0 },
            stopped: { followInterrupted != 0 },
            input: report.input,
            output: report.update,
            notice: { printError($0) })
        return LintResult(files: try follower.run(), seconds: Date().timeIntervalSince(start))
    }
}

/// What `--follow` prints on stdout: a streaming reporter's output, flushed piece by piece, with
/// each finding as the run's result will hold it (`--strict` makes warnings errors; a finding the
/// baseline records is left out).
final class LiveReport {
    private var reporter: any StreamingReporter
    private let strict: Bool
    private let baseline: Set<String>

    init(_ reporter: any StreamingReporter, strict: Bool, baseline: Baseline?) {
        self.reporter = reporter
        self.strict = strict
        self.baseline = Set(baseline?.entries.map(\.fingerprint) ?? [])
    }

    func begin() {
        writeStdout { out in try self.reporter.begin(to: out) }
    }

    func input(_ path: String) {
        writeStdout { out in try self.reporter.input(path, to: out) }
    }

    /// Resolutions of what was printed before, then the new findings.
    func update(_ update: LiveUpdate) {
        guard !update.isQuiet else { return }
        writeStdout { out in
            for r in update.resolutions where !self.baseline.contains(r.finding.fingerprint) {
                try self.reporter.resolution(r, to: out)
            }
            for var f in update.findings where !self.baseline.contains(f.fingerprint) {
                if self.strict && f.severity == .warning { f.severity = .error }
                try self.reporter.finding(f, to: out)
            }
        }
    }

    /// `result`: the run's, with --strict and the baseline applied.
    func end(_ result: LintResult) {
        writeStdout { out in try self.reporter.end(result, to: out) }
    }
}
