/// `vclint lint --follow`: lints a capture while it is being written (a growing file, `log stream`
/// on a pipe) and hands out each finding as soon as it is decidable: a leak once the grace period has
/// passed in log time, a missing did-callback once its transition settled, a UIKit warning at once.
/// Findings whose rule needs a callback the class has not logged yet wait until it does (or the end).
public final class LiveLinter {
    public let path: String
    private let options: LintOptions
    private let scanner: LogScanner
    private var waiting: [Observation] = []

    public init(path: String, options: LintOptions = LintOptions()) {
        var o = options
        o.timeline.live = true
        self.path = path
        self.options = o
        scanner = o.makeScanner(path: path)
    }

    /// Reads more of the input (any split; an unfinished last line waits for its newline) and
    /// returns the findings that became decidable, in the order they were decided.
    public func consume(_ bytes: UnsafeRawBufferPointer) -> [Finding] {
        scanner.consume(bytes)
        return decide(atEnd: false)
    }

    /// The input ended (EOF or Ctrl-C): the findings only the end decides, and the whole result
    /// (every finding, as a batch run over the same lines would report them in live mode).
    public func finish() -> (late: [Finding], result: FileResult) {
        let (stats, summary) = scanner.finish()
        var late = decide(atEnd: true)
        let unread = [Observation.noEvents(stats)].compactMap { $0 }
        late += Array(RuleEngine.findings(unread, path: path, settings: options.rules, options: options.timeline))
        var observations = summary.observations
        observations.append(contentsOf: unread)
        let all = RuleEngine.findings(observations, path: path, settings: options.rules, options: options.timeline)
        return (late, FileResult(stats: stats, findings: all))
    }

    private func decide(atEnd: Bool) -> [Finding] {
        let builder = scanner.builder
        var ready: [Observation] = []
        var still: [Observation] = []
        for o in waiting + builder.takeNewObservations() {
            switch builder.admits(o) {
            case .some(true): ready.append(o)
            case .some(false): break
            case .none: if !atEnd { still.append(o) }
            }
        }
        waiting = still
        guard !ready.isEmpty else { return [] }
        return Array(RuleEngine.findings(ready, path: path, settings: options.rules, options: options.timeline))
    }
}
