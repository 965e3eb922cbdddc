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
    /// The leaks (by observation index) printed while their session goes on: a later line may
    /// resolve them (`LeakResolution`), and a resolution is printed only for what was printed.
    private var printedLeaks: Set<Int> = []

    public init(path: String, options: LintOptions = LintOptions()) {
        var o = options
        o.timeline.live = true
        self.path = path
        self.options = o
        input = InputPipeline(path: path, options: o)
        input.builder.tracksInstrumentationChanges = true
    }

    /// Reads more of the input (any split; an unfinished last line waits for its newline) and
    /// returns the findings that became decidable, in the order they were decided, after the
    /// resolutions of findings returned before.
    /// Classic Mac line ends and JSON arrays are translated as in a batch run (`LineEndTranslator`).
    public func consume(_ bytes: UnsafeRawBufferPointer) -> LiveUpdate {
        input.read(bytes)
        return decide(atEnd: false)
    }

    /// The input's bytes ended: what the translator held back is read (a last object of a JSON
    /// array, an undecided start); what became decidable. `finish` does it too.
    public func endOfInput() -> LiveUpdate {
        input.endOfInput()
        return decide(atEnd: false)
    }

    /// The input ended (EOF or Ctrl-C): what only the end decides, and the whole result: a batch
    /// run's over the same lines (a leak printed and resolved since is not in it).
    public func finish() -> (late: LiveUpdate, result: FileResult) {
        var late = endOfInput()
        let (stats, summary) = input.finish()
        late += decide(atEnd: true)
        let unread = InputPipeline.inputObservations(stats)
        late.findings += Array(named(RuleEngine.findings(unread, path: path, settings: options.rules, options: options.timeline)))
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

    /// The resolutions of the leaks printed before that later lines changed.
    private func resolutions() -> [Resolution] {
        var out: [Resolution] = []
        for r in builder.takeResolutions() where printedLeaks.remove(r.observation) != nil {
            let list = RuleEngine.findings([r.leak], path: path, settings: options.rules, options: options.timeline)
            if let printed = Array(named(list)).first { out.append(Resolution(printed, r)) }
        }
        return out
    }

    private func decide(atEnd: Bool) -> LiveUpdate {
        var update = LiveUpdate(resolutions: resolutions())
        var ready: [Int] = []
        let (changed, dialect) = builder.takeInstrumentationChanges()
        func recheck(_ className: String) {
            guard let list = waiting[className] else { return }
            var still: [Int] = []
            for i in list where !builder.isWithdrawn(i) {
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
        // Withdrawn before they were printed (a leak and its resolution in one read): nothing to say.
        for i in fresh where !builder.isWithdrawn(i) {
            let (o, decision) = builder.observation(i)
            switch decision {
            case .report: ready.append(i)
            case .drop: break
            case .wait: waiting[o.requires?.className ?? "", default: []].append(i)
            }
        }
        // What never became judgeable is dropped at the end, as in a batch run; a session's end
        // resolves nothing more.
        if atEnd {
            waiting = [:]
            printedLeaks = []
        }
        guard !ready.isEmpty else { return update }
        // In the order they were observed, whichever list they waited in.
        ready.sort()
        // (The unnamed controller of an input with redacted labels is not judged, from the first such label on.)
        let redacted = input.stage.redacted
        var judged: [Observation] = []
        for i in ready {
            let o = builder.observation(i).0
            guard InputPipeline.judged(o, redacted) else { continue }
            judged.append(o)
            if !atEnd, builder.isLeak(i) { printedLeaks.insert(i) }
        }
        update.findings = Array(named(RuleEngine.findings(judged, path: path, settings: options.rules, options: options.timeline)))
        return update
    }
}
