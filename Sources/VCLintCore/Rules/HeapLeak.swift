/// What a LeakCanary trace proves (docs/lifecycle.md#leakcanary), as the timeline bound it to an instance: the
/// facts of `leaked_activity`, `leaked_fragment`, `leaked_fragment_view`, `library_leak` and Android's
/// `leaked_object` carry one. The rules word it alike: one sentence, then the retaining chain on one line.
/// Emitted by `SessionTimeline+Evidence.swift` (`analysis`).
struct HeapLeak: Sendable, Equatable {
    /// The subject and what ended its use: `ServiceActivity#1 was destroyed`, `AppsListFragment#1's view
    /// (ConstraintLayout) was destroyed`, `FragmentManagerViewModel was cleared`; the subject alone when the
    /// evidence names no end of use (`endKnown` false).
    var ended: String
    var endKnown: Bool
    /// The chain: `GC Root: … → TimeService$TimeBinder.this$0 → [TimeService.timeCallBack] → ServiceActivity`.
    var chain: String
    /// Sizes and durations as LeakCanary printed them: `98.1 kB; watched 6.9 s, retained 1.9 s` ("" when none).
    var sizes: String
    /// `Displaying only 1 leak trace out of K`: K (1 without that line).
    var sharedBy: Int
    /// The watched objects this trace explains (retained along with it): named, not reported apart.
    var folded: [String]
    /// A library leak's `Leak pattern:` and first `Description:` sentence.
    var pattern: String?
    var description: String?
    /// LeakCanary's signature (2.0–2.4) or leak fingerprint (2.5+): the same for the same bug across heap dumps.
    var signature: String?
    /// The end of use, the watch, the signature and every node of the trace, with their notes.
    var related: [Related]
    /// A ViewModel's owner (the Activity or Fragment it served).
    var owner: ControllerRef?
    /// The test LeakCanary or the runner named for the analysis (docs/lifecycle.md#android-tests).
    var test: String?

    struct Related: Sendable, Equatable {
        var line: Int
        var note: String
    }

    func write(to w: inout ObservationWriter) {
        w.string(ended)
        w.bool(endKnown)
        w.string(chain)
        w.string(sizes)
        w.int(sharedBy)
        w.uint(UInt64(folded.count))
        for f in folded { w.string(f) }
        w.optionalString(pattern)
        w.optionalString(description)
        w.optionalString(signature)
        w.uint(UInt64(related.count))
        for r in related { w.int(r.line); w.string(r.note) }
        if let owner { w.byte(1); w.controller(owner) } else { w.byte(0) }
        w.optionalString(test)
    }

    init(ended: String, endKnown: Bool, chain: String, sizes: String, sharedBy: Int, folded: [String], pattern: String?, description: String?,
         signature: String?, related: [Related], owner: ControllerRef?, test: String?) {
        self.ended = ended
        self.endKnown = endKnown
        self.chain = chain
        self.sizes = sizes
        self.sharedBy = sharedBy
        self.folded = folded
        self.pattern = pattern
        self.description = description
        self.signature = signature
        self.related = related
        self.owner = owner
        self.test = test
    }

    init(reading r: inout ObservationReader) {
        ended = r.string()
        endKnown = r.bool()
        chain = r.string()
        sizes = r.string()
        sharedBy = r.int()
        folded = (0..<Int(r.uint())).map { _ in r.string() }
        pattern = r.optionalString()
        description = r.optionalString()
        signature = r.optionalString()
        related = (0..<Int(r.uint())).map { _ in Related(line: r.int(), note: r.string()) }
        owner = r.byte() == 0 ? nil : r.controller()
        test = r.optionalString()
    }

    /// The finding's words: `ServiceActivity#1 was destroyed and is still retained: <chain> (<sizes>)`, what
    /// shares or rides along with it, and the fix's direction. The fingerprint's cause is LeakCanary's signature
    /// (else the chain without sizes): keys, sizes and addresses never enter it.
    func verdict(rule: String) -> RuleVerdict {
        var message: String
        let retained = endKnown ? "\(ended) and is still retained" : "\(ended) is still retained"
        if let pattern {
            message = "\(retained) by a known leak of the framework or a library (\(pattern)"
            if let description { message += ": \(description)" }
            message += "): \(chain)"
        } else {
            message = "\(retained): \(chain)"
        }
        if !sizes.isEmpty { message += " (\(sizes))" }
        if sharedBy > 1 { message += "; \(sharedBy) leaks share this trace" }
        if !folded.isEmpty { message += "; retained with it: \(folded.joined(separator: ", "))" }
        return RuleVerdict(message: message, related: related.map { ($0.line, $0.note) },
                           cause: "leakcanary:" + (signature ?? chain), owner: owner, test: test)
    }
}

/// The facts of the heap-proven leak rules: one type each, so that each rule words its own (`RuleRegistry`).
protocol HeapLeakFact: Fact {
    var leak: HeapLeak { get }
    init(_ leak: HeapLeak)
}

extension HeapLeakFact {
    func write(to w: inout ObservationWriter) { leak.write(to: &w) }
    init(reading r: inout ObservationReader) { self.init(HeapLeak(reading: &r)) }
}
