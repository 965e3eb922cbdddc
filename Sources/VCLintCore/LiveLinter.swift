/// `vclint lint --follow`: lints a capture while it is being written (a growing file, `log stream`
/// on a pipe) and hands out each finding as soon as it is decidable: a leak once the grace period has
/// passed in log time, a missing did-callback once its transition settled, a UIKit warning at once.
/// A finding about a transition waits until the timeline has named it (docs/lifecycle.md#naming-transitions).
/// Findings whose rule needs a callback the class has not logged yet wait until it does (or the end).
public final class LiveLinter {
    public let path: String
    private let options: LintOptions
    private let input: InputPipeline
    private var builder: TimelineBuilder { input.builder }
    /// Observations (by index) whose rule needs a callback their class has not logged yet, by the
    /// class: only a class that logs something new (or a dialect that does) has its own checked
    /// again, so a capture that never logs dealloc does not re-read every leak at every read.
    private var waiting: [String: [Int]] = [:]
    /// Observations (by index) about a transition not named yet, in order.
    private var unnamed: [Int] = []

    public init(path: String, options: LintOptions = LintOptions()) {
        var o = options
        o.timeline.live = true
        self.path = path
        self.options = o
        input = InputPipeline(path: path, options: o)
        input.builder.tracksInstrumentationChanges = true
    }

    /// Reads more of the input (any split; an unfinished last line waits for its newline) and
    /// returns the findings that became decidable, in the order they were decided.
    /// Classic Mac line ends and JSON arrays are translated as in a batch run (`LineEndTranslator`).
    public func consume(_ bytes: UnsafeRawBufferPointer) -> [Finding] {
        input.read(bytes)
        return decide(atEnd: false)
    }

    /// The input's bytes ended: what the translator held back is read (a last object of a JSON
    /// array, an undecided start); the findings that became decidable. `finish` does it too.
    public func endOfInput() -> [Finding] {
        input.endOfInput()
        return decide(atEnd: false)
    }

    /// The input ended (EOF or Ctrl-C): the findings only the end decides, and the whole result
    /// (every finding, as a batch run over the same lines would report them in live mode).
    public func finish() -> (late: [Finding], result: FileResult) {
        var late = endOfInput()
        let (stats, summary) = input.finish()
        late += decide(atEnd: true)
        let unread = InputPipeline.inputObservations(stats)
        late += Array(named(RuleEngine.findings(unread, path: path, settings: options.rules, options: options.timeline)))
        var observations = InputPipeline.judged(summary.observations, stats)
        observations.append(contentsOf: unread)
        let all = named(RuleEngine.findings(observations, path: path, settings: options.rules, options: options.timeline))
        var result = FileResult(stats: stats, findings: all)
        result.tests = input.stage.tests
        return (late, result)
    }

    /// The findings with their tests (a finding's test started before its line, so it is known
    /// when the finding is).
    private func named(_ findings: FindingList) -> FindingList {
        var f = findings
        f.attach(tests: input.stage.tests)
        return f
    }

    private func decide(atEnd: Bool) -> [Finding] {
        var ready: [Int] = []
        let (changed, dialect) = builder.takeInstrumentationChanges()
        func recheck(_ className: String) {
            guard let list = waiting[className] else { return }
            var still: [Int] = []
            for i in list {
                switch builder.observation(i).decision {
                case .report: ready.append(i)
                case .drop: break
                case .wait: still.append(i)
                }
            }
            waiting[className] = still.isEmpty ? nil : still
        }
        if dialect || atEnd {
            for className in Array(waiting.keys) { recheck(className) }
        } else {
            for className in Set(changed) { recheck(className) }
        }
        var fresh: [Int] = []
        if !unnamed.isEmpty {
            // Named since, or the input ended (a transition never settled names none).
            fresh = unnamed.filter { atEnd || !builder.awaitsTransition($0) }
            unnamed.removeAll { atEnd || !builder.awaitsTransition($0) }
        }
        for i in builder.takeNewObservations() {
            if !atEnd, builder.awaitsTransition(i) { unnamed.append(i) } else { fresh.append(i) }
        }
        for i in fresh {
            let (o, decision) = builder.observation(i)
            switch decision {
            case .report: ready.append(i)
            case .drop: break
            case .wait: waiting[o.requires?.className ?? "", default: []].append(i)
            }
        }
        // What never became judgeable is dropped at the end, as in a batch run.
        if atEnd { waiting = [:] }
        guard !ready.isEmpty else { return [] }
        // In the order they were observed, whichever list they waited in.
        ready.sort()
        // (The unnamed controller of an input with redacted labels is not judged, from the first such label on.)
        let redacted = input.stage.redacted
        return Array(named(RuleEngine.findings(ready.map { builder.observation($0).0 }.filter { InputPipeline.judged($0, redacted) },
                                               path: path, settings: options.rules, options: options.timeline)))
    }
}
