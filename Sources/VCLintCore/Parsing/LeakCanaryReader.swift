import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// LeakCanary's logcat output read as evidence (docs/lifecycle.md#leakcanary): the watches it opens when an
/// Activity, Fragment, view or ViewModel ends its use, the retained counts and the all-collected line, and
/// its heap analyses with their leak traces (2.x `HEAP ANALYSIS RESULT` blocks, the 2.2 unframed traces, a
/// trace published without its frame, and 1.x `* X has leaked:` blocks).
///
/// The reader takes one message at a time (the text after the logcat envelope and tag, or a continuation
/// line as it stands) and hands back what each line completes. Every line of a block belongs to the block,
/// whatever it says: nothing in a trace is ever a lifecycle statement (`isInsideBlock`). A block is bounded
/// however hostile the input: a trace keeps its first `maxNodes` nodes, an analysis its first `maxTraces`
/// traces, every text its first `maxText` bytes, and a block that is never closed ends with the input
/// (`finish`) or at the next analysis. A trace cut before its `╰→` node proves nothing and gives nothing.
struct LeakCanaryReader {
    static let maxNodes = 256
    static let maxTraces = 1024
    static let maxText = 512

    /// What ended an object's use, as the watch's reason (or the leaking node's note) names it.
    enum EndOfUse: String, Sendable {
        case activityDestroyed = "Activity#onDestroy()"
        case fragmentDestroyed = "Fragment#onDestroy()"
        case fragmentViewDestroyed = "Fragment#onDestroyView()"
        case viewModelCleared = "ViewModel#onCleared()"
        case rootViewDetached = "View#onDetachedFromWindow()"
        case serviceDestroyed = "Service#onDestroy()"
        /// The app's own description, or none.
        case other = ""

        /// The end of use a reason or note names (`… received Activity#onDestroy() callback …`).
        init(naming text: Substring) {
            self = text.withBytes { EndOfUse(naming: $0) }
        }

        /// The same of the text's bytes.
        init(naming b: UnsafeBufferPointer<UInt8>) {
            // Every wording has a `#`: the literals around each `#` of the text, the first of `priority` found wins.
            var found: UInt8 = 0
            if let base = b.baseAddress {
                var from = 0
                while from < b.count, let hash = memchr(base + from, Int32(UInt8.hash), b.count - from) {
                    let at = UnsafeRawPointer(hash) - UnsafeRawPointer(base)
                    for (k, e) in Self.priority.enumerated() where e.literal.hasHash(in: b, at: at) { found |= 1 << k }
                    from = at + 1
                }
            }
            guard found != 0 else { self = .other; return }
            self = Self.priority[found.trailingZeroBitCount].end
        }

        /// The wordings in the order they are tried, and the end each names (`Activity#mDestroyed is true` says it of an
        /// Activity without a watch).
        private static let priority: [(literal: StaticString, end: EndOfUse)] = [
            ("Activity#onDestroy()", .activityDestroyed), ("Fragment#onDestroyView()", .fragmentViewDestroyed),
            ("Fragment#onDestroy()", .fragmentDestroyed), ("ViewModel#onCleared()", .viewModelCleared),
            ("View#onDetachedFromWindow()", .rootViewDetached), ("Service#onDestroy()", .serviceDestroyed),
            ("Activity#mDestroyed is true", .activityDestroyed),
        ]

        /// The raw value, for a search by bytes.
        var literal: StaticString {
            switch self {
            case .activityDestroyed: return "Activity#onDestroy()"
            case .fragmentDestroyed: return "Fragment#onDestroy()"
            case .fragmentViewDestroyed: return "Fragment#onDestroyView()"
            case .viewModelCleared: return "ViewModel#onCleared()"
            case .rootViewDetached: return "View#onDetachedFromWindow()"
            case .serviceDestroyed: return "Service#onDestroy()"
            case .other: return ""
            }
        }
    }

    /// `Watching instance of X (reason) with key K`: a watch opened on X's ended instance.
    struct Watch: Equatable, Sendable {
        var className: String
        var endOfUse: EndOfUse
        /// The reason as printed, without its parentheses ("" in the 2.0 alpha's wording).
        var reason: String
        var key: String
        var line: Int
    }

    /// One node of a trace: `├─ C instance` (or the last, `╰→ C instance`) with its notes.
    struct Node: Equatable, Sendable {
        enum Leaking: Equatable, Sendable { case no, unknown, yes }
        /// `com.example.ServiceActivity` (a class, an instance's class or an array's type).
        var className: String
        /// `instance`, `class` or `array` (`Object[] array`), as printed.
        var kind: String
        var line: Int
        var leaking: Leaking = .unknown
        /// The note after `Leaking: X` (`Service held by ActivityThread`), without its parentheses.
        var note: String = ""
        /// The reference to the next node (`TimeService.timeCallBack`), "" for the last node.
        var reference: String = ""
        /// Whether `~~~` underlines the reference: a likely cause.
        var suspect = false
    }

    /// Which section of an analysis a trace is in: it decides the rule (docs/rules.md).
    enum Section: Equatable, Sendable { case application, library, unreachable }

    /// One leak trace: from its GC root to the leaking object (`╰→`), with LeakCanary's signature.
    struct Trace: Equatable, Sendable {
        var section: Section
        /// `Signature: H` (2.0–2.4) or `Leak fingerprint: H` (2.5 and later), and its line.
        var signature: String?
        var signatureLine: Int?
        /// `Leak pattern:` and the first sentence of `Description:` (library leaks).
        var pattern: String?
        var description: String?
        /// `N bytes retained by leaking objects`, as printed (`98128 bytes`), if given.
        var retainedBytes: String?
        /// `Displaying only 1 leak trace out of K with the same signature`: K (1 without that line).
        var sharedBy = 1
        /// `GC Root: Global variable in native code`.
        var gcRoot: String?
        /// The nodes, the leaking object last (at most `maxNodes` of them: the first ones).
        var nodes: [Node] = []
        /// Nodes past `maxNodes`, counted only.
        var omittedNodes = 0
        /// The leaking object's `key = K` (its watch), `Retaining 98.1 kB …`, `watchDurationMillis` and
        /// `retainedDurationMillis`.
        var key: String?
        var retaining: String?
        var watchMillis: Int?
        var retainedMillis: Int?
        /// Whether it came from a LeakCanary 1.x `has leaked:` block.
        var legacy = false

        /// The leaking object (the `╰→` node).
        var leaking: Node { nodes[nodes.count - 1] }
        /// The line of the finding: the `╰→` node's (1.x: `* leaks X instance`).
        var line: Int { leaking.line }

        /// The end of use the leaking object's note names (`ObjectWatcher was watching this because …`).
        var endOfUse: EndOfUse { EndOfUse(naming: Substring(leaking.note)) }

        /// The retaining chain on one line: the GC root, each reference (suspects in `[…]`), the
        /// leaking object's simple name.
        var chain: String {
            var parts: [String] = []
            if let gcRoot { parts.append("GC Root: " + gcRoot) }
            for n in nodes.dropLast() where !n.reference.isEmpty {
                parts.append(n.suspect ? "[" + n.reference + "]" : n.reference)
            }
            if omittedNodes > 0 { parts.append("… \(omittedNodes) more") }
            parts.append(String(LeakCanaryReader.simpleName(leaking.className)))
            return parts.joined(separator: " → ")
        }
    }

    /// One heap analysis: its traces in the order printed.
    struct Analysis: Equatable, Sendable {
        /// Its first line (`HEAP ANALYSIS RESULT`, `Found N paths …`, `* X has leaked:`, or the trace's `┬───`).
        var line: Int
        var traces: [Trace] = []
        /// Traces past `maxTraces`, counted only.
        var omittedTraces = 0
        /// A test LeakCanary named itself (`helperTextHasExpectedContent(leakcanary.tests.TuPeuxPasTest)
        /// failed because application memory leaks were detected:`), as `class/method`.
        var test: String?

        /// The traces that are findings, each with the traces it explains folded in (docs/lifecycle.md#leakcanary):
        /// a trace whose path passes through a `Leaking: YES` node that another trace of the analysis ends
        /// in belongs to that other trace. Unreachable objects are no finding.
        func roots() -> [(trace: Trace, folded: [Trace])] {
            let reported = traces.filter { $0.section != .unreachable }
            var ends: [String: Int] = [:]
            for (k, t) in reported.enumerated() where ends[t.leaking.className] == nil { ends[t.leaking.className] = k }
            var into = [Int?](repeating: nil, count: reported.count)
            for (k, t) in reported.enumerated() {
                for n in t.nodes.dropLast() where n.leaking == .yes {
                    if let other = ends[n.className], other != k { into[k] = other; break }
                }
            }
            // Follow chains of folds to their root (a cycle keeps both).
            func root(_ k: Int) -> Int {
                var seen: Set<Int> = [k], r = k
                while let next = into[r], !seen.contains(next) { seen.insert(next); r = next }
                return into[r] == nil ? r : k
            }
            var folded: [Int: [Trace]] = [:]
            var order: [Int] = []
            for k in reported.indices {
                let r = root(k)
                if r == k { order.append(k) } else { folded[r, default: []].append(reported[k]) }
            }
            return order.map { (reported[$0], folded[$0] ?? []) }
        }
    }

    /// What a line completed.
    enum Evidence: Equatable, Sendable {
        case watch(Watch)
        /// A retained count (any of its three wordings): N watched objects survived a GC.
        case retainedCount(Int, line: Int)
        /// `Check for retained objects found N objects, dumping the heap`.
        case dumpingHeap(line: Int)
        /// `All retained objects have been garbage collected`: every open watch released.
        case allCollected(line: Int)
        case analysis(Analysis)
    }

    // MARK: - State

    private var analysis: Analysis?
    private var section: Section = .application
    /// The trace being read, and whether its `╰→` node came (its details follow).
    private var trace: Trace?
    private var traceEnded = false
    /// What the next trace of the section carries (lines before its `┬───`).
    private var pending = Trace(section: .application)
    /// The line before was a node's `↓` reference: a `~~~` line underlines it.
    private var lastWasReference = false
    /// The leaking node's `Leaking: YES (…` note is open (wrapped onto the next line).
    private var noteOpen = false
    /// A 1.x block (`* X has leaked:`) is being read.
    private var legacy = false
    /// A test LeakCanary named before its analysis.
    private var namedTest: String?

    /// Whether a block is being read: every line is then the block's, never a statement.
    var isInsideBlock: Bool { analysis != nil }
    /// The first line of the block being read.
    var blockLine: Int? { analysis?.line }

    // MARK: - Reading

    /// Reads one message; returns what it completed (most lines complete nothing).
    mutating func read(_ message: Substring, line: Int) -> [Evidence] {
        let text = Self.trimmed(message)
        var out: [Evidence] = []
        if let e = statement(text, line: line, out: &out) { out.append(e); return out }
        if analysis != nil { block(text, line: line, out: &out) } else if startsTrace(text) {
            analysis = Analysis(line: line)
            section = .application
            block(text, line: line, out: &out)
        }
        return out
    }

    /// The input ended: a block still open closes (a trace cut before its `╰→` node is dropped).
    mutating func finish() -> [Evidence] {
        var out: [Evidence] = []
        closeAnalysis(&out)
        return out
    }

    /// Lines that stand alone: watches, counts, the all-collected line, and the lines that open an analysis.
    private mutating func statement(_ t: Substring, line: Int, out: inout [Evidence]) -> Evidence? {
        // A trace's own lines (most of a block) open with its box characters.
        if let f = t.unicodeScalars.first, f == "│" || f == "├" || f == "╰" || f == "┬" || f == "~" { return nil }
        if let rest = t.after("Watching instance of ") {
            closeAnalysis(&out)
            return Self.watch(rest, line: line).map(Evidence.watch)
        }
        if t.begins("All retained objects have been garbage collected") {
            closeAnalysis(&out)
            return .allCollected(line: line)
        }
        if let n = Self.retainedCount(t) {
            closeAnalysis(&out)
            return .retainedCount(n, line: line)
        }
        if t.begins("Check for retained objects found"), t.has("dumping the heap") {
            closeAnalysis(&out)
            return .dumpingHeap(line: line)
        }
        if t.has("failed because application memory leaks were detected"), let name = Self.testName(t) {
            namedTest = name
            return nil
        }
        if t.equals("HEAP ANALYSIS RESULT") || (t.begins("Found ") && t.has(" paths to retained objects")) {
            closeAnalysis(&out)
            analysis = Analysis(line: line, test: namedTest)
            announced = true
            namedTest = nil
            section = .application
            return nil
        }
        if analysis == nil, let s = Self.sectionHeader(t) {
            // A block copied without its `HEAP ANALYSIS RESULT` header (capture 60 begins at `1 LIBRARY LEAKS`).
            analysis = Analysis(line: line, test: namedTest)
            announced = true
            namedTest = nil
            section = s
            pending = Trace(section: s)
            return nil
        }
        if t.begins("* "), t.ends(" has leaked:") {
            closeAnalysis(&out)
            analysis = Analysis(line: line, test: namedTest)
            announced = true
            namedTest = nil
            section = .application
            legacy = true
            // Its nodes follow (`* references …`), the leaked object last (`* leaks X instance`).
            trace = Trace(section: .application, legacy: true)
            traceEnded = false
            return nil
        }
        return nil
    }

    /// A line inside an analysis.
    private mutating func block(_ t: Substring, line: Int, out: inout [Evidence]) {
        if legacy { return legacyLine(t, line: line, out: &out) }
        if t.begins("====") {
            // The frame between sections; the one after METADATA closes the block.
            if sawMetadata { closeAnalysis(&out) } else { endTrace() }
            return
        }
        if t.equals("METADATA") { endTrace(); sawMetadata = true; return }
        if sawMetadata {
            // Its last line, should the closing frame be lost.
            if t.begins("Analysis duration:") { closeAnalysis(&out) }
            return
        }
        if let s = Self.sectionHeader(t) {
            endTrace()
            section = s
            pending = Trace(section: s)
            return
        }
        if t.begins("Signature: ") || t.begins("Leak fingerprint: ") {
            endTrace()
            pending.signature = Self.capped(t[t.index(after: t.firstIndex(of: ":")!)...].drop { $0 == " " })
            pending.signatureLine = line
            return
        }
        if let pattern = t.after("Leak pattern: ") { endTrace(); pending.pattern = Self.capped(pattern); return }
        if let d = t.after("Description: ") {
            endTrace()
            pending.description = Self.capped(d.firstIndex(of: ".").map { d[...$0] } ?? d)
            return
        }
        if let r = t.firstRange(" retained by leaking objects"), r.upperBound == t.endIndex {
            endTrace()
            pending.retainedBytes = Self.capped(t[..<r.lowerBound])
            return
        }
        if let shown = t.after("Displaying only 1 leak trace out of "), let k = Int(shown.prefix { $0.isNumber }) {
            endTrace()
            pending.sharedBy = k
            return
        }
        if t.begins("┬") { endTrace(); beginTrace(line: line); return }
        if t.begins("├─ ") || t.begins("╰→ ") {
            if trace == nil || traceEnded { endTrace(); beginTrace(line: line) }
            node(t.dropFirst(3), line: line, last: t.begins("╰→"))
            return
        }
        // A trace copied from its middle: its first `│` line begins it.
        if trace == nil, t.begins("│") { beginTrace(line: line) }
        guard trace != nil else { return }
        // A node's details: `│` lines, and after the `╰→` node its indented ones.
        var d = t
        if d.begins("│") { d = Self.trimmed(d.dropFirst()) }
        details(d, line: line)
    }

    private var sawMetadata = false
    /// The open analysis began with LeakCanary's own header (not a bare trace).
    private var announced = false

    private mutating func beginTrace(line: Int) {
        trace = pending
        pending = Trace(section: section)
        traceEnded = false
        lastWasReference = false
        noteOpen = false
    }

    private mutating func node(_ rest: Substring, line: Int, last: Bool) {
        lastWasReference = false
        noteOpen = false
        guard var t = trace else { return }
        // `com.example.Foo instance`, `com.example.Foo class`, `java.lang.Object[] array`.
        var name = rest, kind: Substring = ""
        if let sp = rest.lastIndex(of: " ") { (name, kind) = (rest[..<sp], rest[rest.index(after: sp)...]) }
        let n = Node(className: Self.capped(name), kind: Self.capped(kind), line: line, leaking: last ? .yes : .unknown)
        if last {
            if t.nodes.count >= Self.maxNodes { t.nodes.removeLast(); t.omittedNodes += 1 }
            t.nodes.append(n)
            traceEnded = true
        } else if t.nodes.count < Self.maxNodes - 1 {
            t.nodes.append(n)
        } else {
            t.omittedNodes += 1
        }
        trace = t
    }

    /// A detail line of the current node (or of the trace before its first node).
    private mutating func details(_ d: Substring, line: Int) {
        guard var t = trace else { return }
        defer { trace = t }
        if let root = d.after("GC Root: ") { t.gcRoot = Self.capped(root); return }
        if d.first == "~", lastWasReference, !t.nodes.isEmpty, d.allSatisfy({ $0 == "~" }) {
            t.nodes[t.nodes.count - 1].suspect = true
            lastWasReference = false
            return
        }
        lastWasReference = false
        // A trace copied from its middle: the details before its first node line are a node's whose line was cut.
        if t.nodes.isEmpty {
            guard d.begins("Leaking: ") || d.begins("↓ ") else { return }
            t.nodes.append(Node(className: "", kind: "instance", line: line))
        }
        let k = t.nodes.count - 1
        if t.nodes[k].className.isEmpty, d.begins("↓ ") {
            // Its class is the owner of the field it references.
            let ref = Self.reference(d.dropFirst(2))
            t.nodes[k].className = Self.capped(ref.lastIndex(of: ".").map { ref[..<$0] } ?? ref)
        }
        if let v = d.after("Leaking: ") {
            t.nodes[k].leaking = v.begins("YES") ? .yes : v.begins("NO") ? .no : .unknown
            if let open = v.firstIndex(of: "(") {
                let note = v[v.index(after: open)...]
                noteOpen = !note.ends(")")
                t.nodes[k].note = Self.capped(noteOpen ? note : note.dropLast())
            }
            return
        }
        if noteOpen {
            // A note LeakCanary wrapped: its rest, up to the closing parenthesis.
            noteOpen = !d.ends(")")
            t.nodes[k].note = Self.capped(Substring(t.nodes[k].note + " " + (noteOpen ? d : d.dropLast())))
            return
        }
        if d.begins("↓ ") {
            t.nodes[k].reference = Self.capped(Self.reference(d.dropFirst(2)))
            lastWasReference = true
            return
        }
        guard traceEnded else { return }
        if let key = d.after("key = ") { t.key = Self.capped(key) }
        else if let ms = d.after("watchDurationMillis = ") { t.watchMillis = Int(ms) }
        else if let ms = d.after("retainedDurationMillis = ") { t.retainedMillis = Int(ms) }
        else if let r = d.after("Retaining ") {
            t.retaining = Self.capped(r.firstRange(" in ").map { r[..<$0.lowerBound] } ?? r)
        }
    }

    /// A LeakCanary 1.x block: `* GC ROOT …`, `* references C.field`, `* leaks X instance`, `* Retaining: …`.
    private mutating func legacyLine(_ t: Substring, line: Int, out: inout [Evidence]) {
        guard t.begins("* ") else { return }
        let rest = t.dropFirst(2)
        guard var tr = trace else { return }
        defer { trace = tr }
        if rest.begins("GC ROOT ") {
            tr.gcRoot = Self.capped(rest.dropFirst("GC ROOT ".count))
        } else if rest.begins("references ") {
            var r = rest.dropFirst("references ".count)
            if r.ends(" (anonymous subclass of java.lang.Object)") { r = r.dropLast(" (anonymous subclass of java.lang.Object)".count) }
            let ref = Self.capped(Self.reference(r))
            if tr.nodes.count < Self.maxNodes - 1 {
                // The field's owner: `com.example.Holder` of `com.example.Holder.sContext`.
                let owner = ref.lastIndex(of: ".").map { String(ref[..<$0]) } ?? ref
                tr.nodes.append(Node(className: owner, kind: "instance", line: line, leaking: .unknown, reference: ref))
            } else {
                tr.omittedNodes += 1
            }
        } else if rest.begins("leaks "), rest.ends(" instance") {
            let name = rest.dropFirst("leaks ".count).dropLast(" instance".count)
            tr.nodes.append(Node(className: Self.capped(name), kind: "instance", line: line, leaking: .yes))
            traceEnded = true
        } else if rest.begins("Retaining: ") {
            tr.retaining = Self.capped(rest.dropFirst("Retaining: ".count).trimmingSuffix("."))
        }
    }

    /// The trace read so far joins the analysis if it reached its `╰→` node.
    private mutating func endTrace() {
        defer { trace = nil; traceEnded = false; noteOpen = false; lastWasReference = false }
        guard let t = trace, traceEnded, !t.nodes.isEmpty, analysis != nil else { return }
        if analysis!.traces.count < Self.maxTraces { analysis!.traces.append(t) } else { analysis!.omittedTraces += 1 }
    }

    private mutating func closeAnalysis(_ out: inout [Evidence]) {
        endTrace()
        // An analysis LeakCanary announced is one even when it found nothing (it resolves the retained counts); a
        // trace published alone proves something only when it reached its `╰→` node.
        if let a = analysis, announced || !a.traces.isEmpty || a.omittedTraces > 0 { out.append(.analysis(a)) }
        analysis = nil
        announced = false
        legacy = false
        sawMetadata = false
        section = .application
        pending = Trace(section: .application)
    }

    /// A trace published without its frame (docs/lifecycle.md#leakcanary): its first line.
    private func startsTrace(_ t: Substring) -> Bool {
        t.begins("┬───") || t.begins("├─ ") || t.begins("╰→ ") || t.begins("│ ")
    }

    // MARK: - Words

    /// Whether a message that no `LeakCanary` tag introduced is one of LeakCanary's lines all the same: a trace
    /// published as text, or another tag's copy (`AndroidEvidence.unenveloped`). Its box characters, the leaking
    /// node's indented details, and the sentences `statement` reads.
    static func mayRead(_ m: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = m.first else { return false }
        // Every line below begins with one of these bytes (most messages of a logcat capture begin with none).
        switch first {
        case 0xE2, UInt8(ascii: "W"), UInt8(ascii: "A"), UInt8(ascii: "H"), UInt8(ascii: "L"), UInt8(ascii: "F"), UInt8(ascii: "R"),
             UInt8(ascii: "C"), UInt8(ascii: "*"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
        default: return false
        }
        if first == 0xE2 {
            // As the candidate search's literals spell them: `│ `, `├─ `, `┬───`, `╰→ `.
            return AndroidEvidence.startsWith(m, "│ ") || AndroidEvidence.startsWith(m, "├─ ") || AndroidEvidence.startsWith(m, "┬───")
                || AndroidEvidence.startsWith(m, "╰→ ")
        }
        for prefix in lineStarts where AndroidEvidence.startsWith(m, prefix) { return true }
        // The counts and the analysis's first line (`Found 3 paths to retained objects`), in their three wordings.
        if AndroidEvidence.startsWith(m, "Found ") || AndroidEvidence.startsWith(m, "Rescheduling check ") || AndroidEvidence.startsWith(m, "Check for ") {
            return LogcatStatement.contains(m, "retained objects") || LogcatStatement.contains(m, "retained instances")
                || LogcatStatement.contains(m, "objects retained")
        }
        if ByteCursor.isDigit(first) {
            return LogcatStatement.contains(m, " APPLICATION LEAKS") || LogcatStatement.contains(m, " LIBRARY LEAKS")
                || LogcatStatement.contains(m, " UNREACHABLE OBJECTS")
        }
        if first == UInt8(ascii: "*") { return isLegacyLine(m) }
        return false
    }

    /// A line of a LeakCanary 1.x block (`* X has leaked:`, `* GC ROOT …`, `* references …`, `* leaks X instance`,
    /// `* Retaining: …`), read without its tag too: the reader takes the others only inside a block its header opened.
    static func isLegacyLine(_ m: UnsafeBufferPointer<UInt8>) -> Bool {
        guard AndroidEvidence.startsWith(m, "* ") else { return false }
        for prefix in legacyStarts where AndroidEvidence.startsWith(m, prefix) { return true }
        var end = m.count
        while end > 0, m[end - 1] == .space || m[end - 1] == .tab || m[end - 1] == .carriageReturn { end -= 1 }
        return end >= 2 + " has leaked:".utf8.count && LogcatStatement.endsWith(UnsafeBufferPointer(rebasing: m[..<end]), " has leaked:")
    }

    private static let legacyStarts: [StaticString] = ["* GC ROOT ", "* references ", "* leaks ", "* Retaining: "]

    /// (Each holds one of the candidate search's literals, `CandidateSearch.patterns`: what the search never lets through
    /// must not be read when it does not run either. Signatures and 1.x blocks are read under LeakCanary's tag.)
    private static let lineStarts: [StaticString] = [
        "Watching instance of ", "All retained objects have been garbage collected", "HEAP ANALYSIS RESULT", "Leaking: ",
    ]


    static func sectionHeader(_ t: Substring) -> Section? {
        guard let first = t.first, first.isNumber else { return nil }
        let words = t.drop { $0.isNumber }
        switch words {
        case " APPLICATION LEAKS": return .application
        case " LIBRARY LEAKS": return .library
        case " UNREACHABLE OBJECTS": return .unreachable
        default: return nil
        }
    }

    static func watch(_ t: Substring, line: Int) -> Watch? {
        t.withBytes { watch($0, t, line: line) }
    }

    /// `watch` on the text's bytes: ` with key ` from the end, the key up to white space, the reason between the head's
    /// parentheses, each made a `String` of its bytes (the places are ASCII bytes, so the bytes between them are what
    /// slicing the text there gives; slicing the text itself, with an index computed for each end, cost more than the
    /// rest of the watch).
    private static func watch(_ b: UnsafeBufferPointer<UInt8>, _ t: Substring, line: Int) -> Watch? {
        guard let base = b.baseAddress, let at = lastIndex(b, of: " with key ") else { return nil }
        var k = at + 10
        while k < b.count, b[k].isASCII, !isASCIIWhiteSpace(b[k]) { k += 1 }
        var headEnd = at, open: Int?
        if at > 0, b[at - 1] == .closeParen, let o = b[..<at].firstIndex(of: .openParen) {
            open = o
            headEnd = o
            while headEnd > 0, b[headEnd - 1] == .space { headEnd -= 1 }
        }
        guard headEnd > 0, memchr(base, Int32(UInt8.space), headEnd) == nil else { return nil }
        let key: String
        if k < b.count, !b[k].isASCII {
            // A byte of another script: `Character.isWhitespace` decides where the key ends.
            key = capped(t[t.utf8.index(t.startIndex, offsetBy: at + 10)...].prefix { !$0.isWhitespace })
        } else {
            key = capped(UnsafeBufferPointer(rebasing: b[(at + 10)..<k]))
        }
        let reason = open.map { UnsafeBufferPointer(rebasing: b[($0 + 1)..<(at - 1)]) } ?? UnsafeBufferPointer(start: base, count: 0)
        return Watch(className: capped(UnsafeBufferPointer(rebasing: b[..<headEnd])), endOfUse: EndOfUse(naming: reason),
                     reason: capped(reason), key: key, line: line)
    }

    /// Where the text last occurs in the bytes.
    private static func lastIndex(_ b: UnsafeBufferPointer<UInt8>, of needle: StaticString) -> Int? {
        let k = needle.utf8CodeUnitCount
        guard let h = b.baseAddress, b.count >= k else { return nil }
        var i = b.count - k
        while i >= 0 {
            if h[i] == needle.utf8Start[0], bytesEqual(h + i, needle.utf8Start, k) { return i }
            i -= 1
        }
        return nil
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return: ASCII's white space, as `Character` says.
    @inline(__always) private static func isASCIIWhiteSpace(_ b: UInt8) -> Bool { b == .space || (b >= 0x09 && b <= 0x0D) }

    /// The three wordings of a retained count (docs/lifecycle.md#leakcanary).
    static func retainedCount(_ t: Substring) -> Int? {
        func number(after prefix: StaticString) -> Int? {
            guard let r = t.firstRange(prefix) else { return nil }
            return Int(t[r.upperBound...].prefix { $0.isNumber })
        }
        if t.begins("Found "), t.has(" retained instances, which is less than the visible threshold") { return number(after: "Found ") }
        if t.begins("Rescheduling check for retained objects"), t.has("found only ") { return number(after: "found only ") }
        if t.begins("Found "), t.has(" objects retained, not dumping heap yet") { return number(after: "Found ") }
        return nil
    }

    /// `helperTextHasExpectedContent(leakcanary.tests.TuPeuxPasTest) failed because …` as
    /// `leakcanary.tests.TuPeuxPasTest/helperTextHasExpectedContent`.
    static func testName(_ t: Substring) -> String? {
        guard let open = t.firstIndex(of: "("), let close = t[open...].firstIndex(of: ")") else { return nil }
        let method = t[..<open], cls = t[t.index(after: open)..<close]
        guard !method.isEmpty, !cls.isEmpty, !method.has(" "), !cls.has(" ") else { return nil }
        return capped(cls) + "/" + capped(method)
    }

    /// `ServiceActivity$2.this$0` from `↓ ServiceActivity$2.this$0` (1.x: `static ServiceActivity.sLeak`,
    /// `java.util.ArrayList.elementData`, read by its last class and field).
    static func reference(_ r: Substring) -> Substring {
        var r = r
        for word in ["static ", "instance ", "array "] as [StaticString] { if let after = r.after(word) { r = after } }
        if let sp = r.firstIndex(of: " ") { r = r[..<sp] }
        return r
    }

    /// `ServiceActivity` from `com.example.space.service.ServiceActivity`.
    static func simpleName(_ qualified: String) -> Substring {
        // The last dot by `memrchr` over the contiguous bytes (the UTF-8 view's generic `lastIndex` took 700 instructions
        // a name); a name that is not contiguous (bridged) takes the view's way.
        let u = qualified.utf8
        let after: Int?? = u.withContiguousStorageIfAvailable { b in
            guard let base = b.baseAddress, let dot = vclint_memrchr(base, Int32(UInt8.dot), b.count) else { return nil }
            return UnsafeRawPointer(dot) - UnsafeRawPointer(base) + 1
        }
        switch after {
        case .some(.some(let k)): return qualified[u.index(u.startIndex, offsetBy: k)...]
        case .some(.none): return qualified[...]
        case .none: return u.lastIndex(of: .dot).map { qualified[u.index(after: $0)...] } ?? qualified[...]
        }
    }

    static func trimmed(_ s: Substring) -> Substring {
        // By bytes: spaces, tabs and a zero-width space (E2 80 8B) before, spaces, tabs and CR after.
        let (head, tail) = s.withBytes { b -> (Int, Int) in
            var i = 0, j = b.count
            while i < j {
                if b[i] == 0x20 || b[i] == 0x09 { i += 1; continue }
                if b[i] == 0xE2, i + 2 < j, b[i + 1] == 0x80, b[i + 2] == 0x8B { i += 3; continue }
                break
            }
            while j > i, b[j - 1] == 0x20 || b[j - 1] == 0x09 || b[j - 1] == 0x0D { j -= 1 }
            return (i, b.count - j)
        }
        guard head > 0 || tail > 0 else { return s }
        let u = s.utf8
        return s[u.index(u.startIndex, offsetBy: head)..<u.index(u.endIndex, offsetBy: -tail)]
    }

    static func capped<S: StringProtocol>(_ s: S) -> String {
        if s.utf8.count <= maxText { return String(s) }
        let u = Array(s.utf8.prefix(maxText + 1))
        var end = maxText
        while end > 0, UTF8.isContinuation(u[end]) { end -= 1 }
        return String(decoding: u[..<end], as: UTF8.self) + "…"
    }

    /// The same of a text's bytes (whole characters: cut where the text may be cut).
    static func capped(_ b: UnsafeBufferPointer<UInt8>) -> String {
        if b.count <= maxText { return String(decoding: b, as: UTF8.self) }
        var end = maxText
        while end > 0, UTF8.isContinuation(b[end]) { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[..<end]), as: UTF8.self) + "…"
    }
}

private extension StaticString {
    /// Whether the literal occurs in `b` with its `#` at `at`.
    func hasHash(in b: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        withUTF8Buffer { l in
            guard let h = l.firstIndex(of: .hash), at >= h, at - h + l.count <= b.count else { return false }
            return memcmp(b.baseAddress! + (at - h), l.baseAddress!, l.count) == 0
        }
    }
}

private extension Substring {
    func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}

/// LeakCanary's literals found by bytes, not by `Character`s (a `Character`-wise `hasPrefix` or Foundation's `contains`
/// cost more than the rest of a line's reading). The literals are ASCII or box-drawing text.
extension Substring {
    /// The bytes of the text, and what `body` makes of them.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = utf8.withContiguousStorageIfAvailable(body) { return r }
        var copy = String(self)
        return copy.withUTF8(body)
    }

    func begins(_ s: StaticString) -> Bool { withBytes { AndroidEvidence.startsWith($0, s) } }
    func ends(_ s: StaticString) -> Bool { withBytes { LogcatStatement.endsWith($0, s) } }
    func has(_ s: StaticString) -> Bool { withBytes { LogcatStatement.contains($0, s) } }
    func equals(_ s: StaticString) -> Bool { withBytes { $0.count == s.utf8CodeUnitCount && AndroidEvidence.startsWith($0, s) } }

    /// The text after the literal it begins with, or nil.
    func after(_ s: StaticString) -> Substring? {
        begins(s) ? self[utf8.index(startIndex, offsetBy: s.utf8CodeUnitCount)...] : nil
    }

    /// Where the literal first occurs.
    func firstRange(_ s: StaticString) -> Range<Index>? {
        guard let at = withBytes({ LogcatStatement.find($0, s) }) else { return nil }
        let lower = utf8.index(startIndex, offsetBy: at)
        return lower..<utf8.index(lower, offsetBy: s.utf8CodeUnitCount)
    }
}
