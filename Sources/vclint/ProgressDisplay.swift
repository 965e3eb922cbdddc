import Foundation
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// The progress line of a long batch run: on stderr, only when stderr is a terminal, redrawn a few
/// times a second after the first half second, and erased before the summary. Silent otherwise.
final class ProgressDisplay: @unchecked Sendable {
    let counter: ProgressCounter
    private let start = Date()
    private let stop = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var drawn = false

    /// nil when progress would not be seen (stderr not a terminal) or was not wanted.
    static func start(for sources: [InputSource], quiet: Bool) -> ProgressDisplay? {
        guard !quiet, isatty(2) == 1 else { return nil }
        var total = 0
        for case .file(let path) in sources {
            var st = stat()
            if stat(path, &st) == 0 { total += Int(st.st_size) }
        }
        let display = ProgressDisplay(ProgressCounter(totalBytes: total, totalFiles: sources.count))
        Thread.detachNewThread { display.run() }
        return display
    }

    private init(_ counter: ProgressCounter) { self.counter = counter }

    /// Runs shorter than this show no progress (`VCLINT_PROGRESS_AFTER` seconds overrides it, for tests).
    private let delay = ProcessInfo.processInfo.environment["VCLINT_PROGRESS_AFTER"].flatMap(Double.init) ?? 0.5

    private func run() {
        while stop.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            let elapsed = Date().timeIntervalSince(start)
            guard elapsed >= delay else { continue }
            FileHandle_stderr.write("\r\u{1B}[Kvclint: " + TerminalText.field(counter.line(elapsed: elapsed)))
            drawn = true
        }
        if drawn { FileHandle_stderr.write("\r\u{1B}[K") }
        finished.signal()
    }

    /// Erases the line; returns once it is gone.
    func end() {
        stop.signal()
        finished.wait()
    }
}
