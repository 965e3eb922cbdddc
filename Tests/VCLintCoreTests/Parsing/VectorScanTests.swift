import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// The vector scanner (x86-64) against the portable one (memchr and the PCRE2 candidate patterns):
/// the same lines must pass the candidate search, and envelope shapes must never change a line's
/// format. Reports are compared as a whole in `EquivalenceTests`; these tests aim at the edges.
@Suite struct VectorScanTests {
    /// Every literal of the vector path is one of the PCRE2 candidate patterns' alternatives, and
    /// the other way round (`\b` marks the word-start literal).
    @Test func literalsAreTheCandidatePatterns() throws {
        guard let vector = CandidateSearch.vectorLiterals else { return }  // portable build
        var fromPatterns: [String] = []
        for pattern in CandidateSearch.patterns {
            for alternative in pattern.source.split(separator: "|") {
                fromPatterns.append(alternative.replacingOccurrences(of: #"\b"#, with: "").replacingOccurrences(of: #"\*"#, with: "*")
                    .replacingOccurrences(of: #"\("#, with: "(").replacingOccurrences(of: #"\)"#, with: ")"))
            }
        }
        #expect(vector.sorted() == fromPatterns.sorted())
    }

#if arch(x86_64)
    /// The AVX2 bulk pass (where this CPU has AVX2) marks exactly the newlines and fingerprint hits
    /// of the SSSE3 one, on text full of literal fragments and on random bytes, at every offset.
    @Test func avx2MasksEqualSSSE3Masks() {
        guard VectorLevel.avx2 else { return }
        let sse = CandidateLiterals(avx2: false), avx = CandidateLiterals(avx2: true)
        let pieces = CandidateSearch.vectorLiterals!.map { Array($0.utf8) } + [Array("\n".utf8), Array(" x".utf8)]
        var rng = SplitMix(seed: 9)
        let size = 8192
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: size + 128)
        defer { data.deallocate() }
        var i = 0
        while i < size + 128 {
            if rng.next() % 4 == 0 {
                data[i] = UInt8(truncatingIfNeeded: rng.next())
                i += 1
            } else {
                var piece = pieces[Int(rng.next() % UInt64(pieces.count))]
                if rng.next() % 3 == 0 { piece = Array(piece.prefix(Int(rng.next() % UInt64(piece.count)))) }
                for b in piece where i < size + 128 { data[i] = b; i += 1 }
            }
        }
        let blocks = size / 32 - 1
        let n1 = UnsafeMutablePointer<UInt32>.allocate(capacity: blocks), h1 = UnsafeMutablePointer<UInt32>.allocate(capacity: blocks)
        let n2 = UnsafeMutablePointer<UInt32>.allocate(capacity: blocks), h2 = UnsafeMutablePointer<UInt32>.allocate(capacity: blocks)
        defer { n1.deallocate(); h1.deallocate(); n2.deallocate(); h2.deallocate() }
        var hits = 0
        for offset in 0..<32 {
            sse.masks(data + offset, blocks: blocks, newlines: n1, hits: h1)
            avx.masks(data + offset, blocks: blocks, newlines: n2, hits: h2)
            for b in 0..<blocks {
                #expect(n1[b] == n2[b] && h1[b] == h2[b], "offset \(offset) block \(b)")
                hits += h1[b].nonzeroBitCount
            }
        }
        #expect(hits > 1_000)
    }
#endif

    static func candidates(_ text: String, portable: Bool, chunkSize: Int, feed: Int) -> [Int] {
        let scanner = LogScanner(sink: EventStage(builder: TimelineBuilder(), customDialects: []), chunkSize: chunkSize)
        scanner.portable = portable
        scanner.candidateLines = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let n = min(feed, bytes.count - i)
            bytes[i..<(i + n)].withUnsafeBytes { scanner.consume($0) }
            i += n
        }
        _ = scanner.finish()
        return scanner.candidateLines ?? []
    }

    /// Literals at every offset against the 32-byte steps, cut short, glued to word characters,
    /// at the start and the very end of the input, split by chunk boundaries.
    @Test func candidateLinesMatchThePortableSearch() {
        let literals = CandidateSearch.vectorLiterals ?? ["viewDid", "dealloc", "init"]
        let glue = ["", " ", "x", "_", "9", "-[", "(", "\u{e9}", "\t"]
        var rng = SplitMix(seed: 7)
        var lines: [String] = []
        for literal in literals {
            for offset in 0..<40 {
                let pad = String(repeating: "ab", count: offset / 2) + (offset % 2 == 0 ? "" : "q")
                let before = glue[Int(rng.next() % UInt64(glue.count))]
                let after = glue[Int(rng.next() % UInt64(glue.count))]
                lines.append(pad + before + literal + after)
                lines.append(pad + before + String(literal.dropLast()) + after)  // one byte short
                lines.append(pad + String(literal.dropFirst()))
            }
        }
        // Near misses of the fingerprints, and several literals on one line.
        lines += ["viewWil", "iewDid", "deallo", "reinit", "_init", "xinit", " init", "init", "Attempt t",
                  "appearance transition", "present", "present x", "dismiss", "willMov", "awakeFromNi",
                  "viewDid dealloc init", "initinit", "-[A init]", "", "\r", "init\r"]
        for _ in 0..<300 { lines.swapAt(Int(rng.next() % UInt64(lines.count)), Int(rng.next() % UInt64(lines.count))) }
        let text = lines.joined(separator: "\n")
        for (chunk, feed) in [(256, 7), (300, 64), (4096, 4096), (1 << 20, 1 << 20)] {
            let vector = Self.candidates(text, portable: false, chunkSize: chunk, feed: feed)
            let portable = Self.candidates(text, portable: true, chunkSize: chunk, feed: feed)
            let differ = Set(vector).symmetricDifference(portable).sorted()
            #expect(differ.isEmpty, "chunk \(chunk), reads of \(feed): lines \(differ.prefix(8)) differ, e.g. \(differ.first.map { lines[$0 - 1] } ?? "")")
            #expect(portable.count > lines.count / 4)
        }
        // The last line without a newline, as the input's only line.
        for literal in literals {
            #expect(Self.candidates(literal, portable: false, chunkSize: 256, feed: 5) == [1])
        }
    }

    /// androidx's view-misuse exception opens a window of lines in which a stack frame is a candidate (the first app
    /// frame names the fragment, and frames carry no literal): in logcat's envelope and in Android Studio's copy, on
    /// the vector and the portable path alike, at any read and chunk size; after the window, and in a capture that is
    /// no logcat, a frame is noise again.
    @Test func aViewMisuseExceptionMakesTheFramesUnderItCandidates() {
        let envelope = "03-02 10:15:04.703  7311  7311 E AndroidRuntime: "
        let exception = "java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner when getView() is null i.e., before onCreateView() or after onDestroyView()"
        let noise = "03-02 10:15:04.600  7311  7340 I okhttp.OkHttpClient: <-- 200 https://api.example.com/feed (212ms)"
        var lines = (0..<5).map { _ in noise }
        lines += [envelope + "FATAL EXCEPTION: main", envelope + exception,
                  envelope + "\tat androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)",
                  noise,
                  envelope + "\tat com.example.feed.ui.FeedScreen.bindResults(FeedScreen.kt:88)"]
        let exceptionLine = 7
        lines += (0..<30).map { _ in noise }
        lines.append(envelope + "\tat com.example.feed.ui.FeedScreen.late(FeedScreen.kt:9)")  // past the window
        // Android Studio's multi-line copy: the frames without an envelope.
        lines += ["2021-08-31 11:33:56.398 5615-5615/com.example E/AndroidRuntime: FATAL EXCEPTION: main",
                  "    " + exception, "        at androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)",
                  "        at com.example.ui.SessionFeedbackDialog.setupObservers(SessionFeedbackDialog.kt:148)"]
        let studio = lines.count - 2  // the exception's line
        let text = lines.joined(separator: "\n")
        let expected = [exceptionLine, exceptionLine + 1, exceptionLine + 3, studio, studio + 1, studio + 2]
        for (chunk, feed) in [(256, 7), (300, 64), (1 << 20, 1 << 20)] {
            for portable in [false, true] {
                #expect(Self.candidates(text, portable: portable, chunkSize: chunk, feed: feed) == expected, "chunk \(chunk), portable \(portable)")
            }
        }
        // An iOS capture's frames are noise, exception or not.
        let ios = ["2024-03-01 22:13:28.546420+0800 Shop[4000:51413] " + exception, "    at com.example.Feed.bind(Feed.kt:1)"].joined(separator: "\n")
        #expect(Self.candidates(ios, portable: false, chunkSize: 1 << 20, feed: 1 << 20) == [1])
    }

#if arch(x86_64)
    /// A line with a template's shape has the template's format and, when the template covers the
    /// process and pid, the template line's run key at the same place: mutations of real envelope
    /// lines (digits, the thread column's `0x`, `log show`'s thread, type and activity columns, type
    /// codes, lengths) never make `matches` and `classify` or `RunKey` disagree.
    @Test func envelopeShapesNeverChangeTheFormat() {
        let bases = [
            "2024-03-01 22:13:28.546420+0800 Shop App[4000:51413] [Sync] merged 251 records",
            "2024-03-01 22:13:28.546 Shop App[4000:51413] -[A viewDidLoad]",
            "2024-03-01 22:13:28.546420+0800 0x1a2b3c   Default     0x0                  4000   0    Shop App: x",
            "2024-03-01 22:13:28.546420+0800 0x1a2b     Info        0x1f4e               4000   0    Shop App: (CFNetwork) x",
            "2024-03-01 22:13:28.546 Df Shop App[4000:51413] x",
            "2024-03-01 22:13:28.546 E  Shop App[4000:51413] x",
            "2024-03-01T22:13:28Z 1Password[12:34] x",
            "2024-03-01 22:13:28,5 0x A[1:2] x",
            "{\"eventMessage\":\"x\"}",
            // logcat: threadtime (with and without a year, pids of every width) and Android Studio's layout.
            "01-05 09:00:04.933  4000  4031 D DetailActivity: onCreate() called",
            "11-24 10:00:00.123 12345 12367 I ActivityTaskManager: START u0 {cmp=com.example/.Main}",
            "01-05 09:00:04  412   98 W Tag: x",
            "2021-04-28 16:10:10.100  4000  4031 E Tag: x",
            "2022-01-20 14:01:32.624 6937-6937/com.example.geoquiz D/MainActivity: onStart() called",
            "2022-01-20 14:01:32.624+0100 6937-6937/com.example.geoquiz D/MainActivity: onStart() called",
        ]
        var rng = SplitMix(seed: 11)
        let alphabet = Array("0123456789x :.-+TZ[]Shp Ab{\tVDIWEFAX/".utf8)
        var checked = 0, matched = 0
        for base in bases {
            let baseBytes = Array(base.utf8)
            let template: EnvelopeTemplate? = baseBytes.withUnsafeBufferPointer { EnvelopeTemplate($0.baseAddress!, $0.count) }
            // A process name (or a time-only line's message) that starts with a digit has no shape of
            // its own: `6937-6937/com.app D/Tag:` after the same timestamp is logcat (a fuzz find).
            let digitFirst = base.contains("1Password")
            // A `log show` line without a pid and process after its columns has none either: a
            // shape without them would take in the next lines of any process (`RunKey`).
            let keyless = base.contains("0x A[1:2]")
            #expect((template == nil) == (digitFirst || keyless), "\(base)")
            guard let template else { continue }
            #expect(template.keyed == (template.format != .ndjson && template.format != .logcat), "\(base)")
            #expect(template.format == EnvelopeParser.classify(baseBytes.withUnsafeBufferPointer { $0.baseAddress! }, baseBytes.count), "\(base)")
            for _ in 0..<4000 {
                var line = baseBytes
                for _ in 0..<Int(1 + rng.next() % 3) {
                    let i = Int(rng.next() % UInt64(min(line.count, template.extent + 4)))
                    switch rng.next() % 4 {
                    case 0: line[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                    case 1: if ByteCursor.isDigit(line[i]) { line[i] = 0x30 + UInt8(rng.next() % 10) }
                    case 2: line.remove(at: i)
                    default: line.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
                    }
                }
                if rng.next() % 8 == 0 { line = Array(line.prefix(Int(rng.next() % UInt64(line.count + 1)))) }
                var padded = line + [UInt8](repeating: 0x41, count: EnvelopeTemplate.width)
                let n = line.count
                let (shaped, classified) = padded.withUnsafeMutableBufferPointer { b in
                    (template.matches(b.baseAddress!, n), EnvelopeParser.classify(b.baseAddress!, n))
                }
                if shaped {
                    #expect(classified == template.format, "\(String(decoding: line, as: UTF8.self))")
                    if template.keyed, let key = baseBytes.withUnsafeBufferPointer({ RunKey.span($0.baseAddress!, $0.count, format: template.format) }) {
                        let lineKey = padded.withUnsafeBufferPointer { RunKey.span($0.baseAddress!, n, format: template.format) }
                        let same = lineKey == key && Array(line[key]) == Array(baseBytes[key])
                        #expect(same, "\(String(decoding: line, as: UTF8.self))")
                    }
                    matched += 1
                }
                checked += 1
            }
        }
        #expect(checked == 4000 * (bases.count - 2))
        #expect(matched > 1000)
    }

    /// The lines of a simulated capture in `envelope` (some noise among the callbacks).
    static func simulatedLines(_ envelope: EnvelopeFormat, seed: UInt64, steps: Int) -> [String] {
        var o = NavigationSimulator.Options(seed: seed)
        o.envelope = envelope
        o.noise = 3
        o.steps = steps
        return NavigationSimulator.generate(o).lines
    }

    /// The envelope reading by recent shapes says whether the line has the latest shape where it may be keyed, so that
    /// the scanner does not compare again (`templatedFormat`'s `shaped`): lines of simulated captures in every envelope,
    /// each also with bytes of its head changed, their shapes learnt as they come, against the comparison itself.
    @Test func templatedFormatSaysWhetherTheLineHasTheLatestShape() {
        let scanner = LogScanner(sink: EventStage(builder: TimelineBuilder(), customDialects: []))
        var rng = SplitMix(seed: 5)
        var shaped = 0, checked = 0
        for envelope in EnvelopeFormat.allCases {
            for text in Self.simulatedLines(envelope, seed: UInt64(envelope.index + 40), steps: 20) {
                var line = Array(text.utf8)
                if rng.next() % 3 == 0, !line.isEmpty {
                    let i = Int(rng.next() % UInt64(min(line.count, 40)))
                    line[i] = Array("0123456789 :.-[]xA{".utf8)[Int(rng.next() % 19)]
                }
                let n = line.count
                let padded = line + [UInt8](repeating: 0x41, count: EnvelopeTemplate.width)
                padded.withUnsafeBufferPointer { b in
                    let p = b.baseAddress!
                    let got = scanner.templatedFormat(p, n)
                    let latest = scanner.templates.count > 0 && scanner.templates.latest.pointee.keyed
                    let compared = got.skip == 0 && latest && EnvelopeTemplate.matches(scanner.templates.latest, p, n)
                    #expect((got.shaped && latest) == compared, "\(envelope): \(String(decoding: line, as: UTF8.self))")
                    if compared { shaped += 1 }
                    checked += 1
                }
            }
        }
        _ = scanner.finish()
        #expect(shaped > 300 && checked - shaped > 300)
    }

    /// The shape's definition, byte by byte (`vclint_shape`): each of the line's first `extent` bytes within its range,
    /// and a level letter where the shape has a level.
    static func fitsByteByByte(_ t: EnvelopeTemplate, _ line: [UInt8]) -> Bool {
        let s = t.shape
        guard line.count >= s.extent else { return false }
        let fits = withUnsafeBytes(of: s.base) { base in
            withUnsafeBytes(of: s.limit) { limit in
                (0..<s.extent).allSatisfy { i in (line[i] &- base[i]) <= limit[i] }
            }
        }
        return fits && (s.level < 0 || Array("VDIWEFA".utf8).contains(line[s.level]))
    }

    /// The shape runs (16-byte chunks, and 32-byte ones where the CPU has AVX2) take exactly the lines that fit the shape
    /// by its definition, up to the first that does not, a literal or a sample: lines of every envelope, each with bytes
    /// of its head changed, one after another in a buffer, run from every line.
    @Test func shapeRunsTakeTheLinesThatFitTheShape() {
        guard VectorLevel.v2 else { return }
        var rng = SplitMix(seed: 21)
        var taken = 0, stopped = 0
        for envelope in EnvelopeFormat.allCases {
            let lines = Self.simulatedLines(envelope, seed: UInt64(envelope.index + 70), steps: 12).map { text -> [UInt8] in
                var line = Array(text.utf8)
                if rng.next() % 4 == 0, !line.isEmpty {
                    line[Int(rng.next() % UInt64(min(line.count, 70)))] = Array("0123456789 :.-[]xA{\r".utf8)[Int(rng.next() % 20)]
                }
                if rng.next() % 16 == 0 { line.append(0x0D) }
                return line
            }
            guard let first = lines.first(where: { !$0.isEmpty }),
                  let template = first.withUnsafeBufferPointer({ EnvelopeTemplate($0.baseAddress!, $0.count) }) else { continue }
            var buffer: [UInt8] = [], ends: [Int32] = [], starts: [Int] = []
            for line in lines {
                starts.append(buffer.count)
                buffer += line
                ends.append(Int32(buffer.count))
                buffer.append(0x0A)
            }
            buffer += [UInt8](repeating: 0x41, count: EnvelopeTemplate.width)
            /// The definition's run from line `from`: a line exactly as long as the shape drops its carriage return.
            func expected(_ from: Int, hit: Int, sampleAt: Int) -> Int {
                var i = from
                while i < lines.count, Int(ends[i]) <= hit, starts[i] < sampleAt {
                    var line = lines[i]
                    if line.count == template.shape.extent, line.last == 0x0D { line.removeLast() }
                    guard Self.fitsByteByByte(template, line) else { break }
                    i += 1
                }
                return i
            }
            buffer.withUnsafeBufferPointer { b in
                ends.withUnsafeBufferPointer { e in
                    withUnsafePointer(to: template) { t in
                        for from in 0..<lines.count {
                            let hit = rng.next() % 3 == 0 ? Int(ends[min(lines.count - 1, from + Int(rng.next() % 8))]) : Int.max
                            let sampleAt = rng.next() % 3 == 0 ? starts[min(lines.count - 1, from + Int(rng.next() % 8))] : Int.max
                            let want = expected(from, hit: hit, sampleAt: sampleAt)
                            for avx2 in VectorLevel.avx2 ? [false, true] : [false] {
                                var start = starts[from]
                                let got = EnvelopeTemplate.run(t, b.baseAddress!, ends: e.baseAddress!, from: from, to: lines.count, window: 0,
                                                               lineStart: &start, hit: hit, sampleAt: sampleAt, avx2: avx2)
                                #expect(got == want && start == (got < lines.count ? starts[got] : buffer.count - EnvelopeTemplate.width),
                                        "\(envelope) from \(from), avx2 \(avx2): \(got) for \(want)")
                            }
                            let line = lines[from]
                            let matched = EnvelopeTemplate.matches(t, b.baseAddress! + starts[from], line.count)
                            #expect(matched == Self.fitsByteByByte(template, line), "\(envelope): \(String(decoding: line, as: UTF8.self))")
                            if want > from { taken += 1 } else { stopped += 1 }
                        }
                    }
                }
            }
        }
        #expect(taken > 200 && stopped > 200, "\(taken) \(stopped)")
    }

    /// The fuzz find behind that rule: a time-only NSLog line whose message starts with digits, then
    /// a logcat line with the same timestamp shape.
    @Test func aTimeOnlyLineWithDigitsMakesNoTemplateForLogcat() {
        let nslog = Array("2022-01-20 14:01:32.591 693726937/com.example.geoquiz D/MainActivity: onStart() called".utf8)
        let logcat = Array("2022-01-20 14:01:32.624 6937-6937/com.example.geoquiz D/MainActivity: onStart() called".utf8)
        #expect(nslog.withUnsafeBufferPointer { EnvelopeParser.classify($0.baseAddress!, $0.count) } == .nslog)
        #expect(logcat.withUnsafeBufferPointer { EnvelopeParser.classify($0.baseAddress!, $0.count) } == .logcat)
        #expect(nslog.withUnsafeBufferPointer { EnvelopeTemplate($0.baseAddress!, $0.count) } == nil)
    }
#endif
}

/// A small deterministic generator for test inputs.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix {
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func bool() -> Bool { next() & 1 == 1 }

    /// One to three random edits of `bytes` (not empty): a byte replaced, removed (while more than three are left) or
    /// inserted, each new byte from `alphabet`.
    mutating func edit(_ bytes: inout [UInt8], from alphabet: [UInt8]) {
        for _ in 0..<Int(1 + next() % 3) {
            let i = Int(next() % UInt64(bytes.count))
            switch next() % 3 {
            case 0: bytes[i] = alphabet[Int(next() % UInt64(alphabet.count))]
            case 1: if bytes.count > 3 { bytes.remove(at: i) }
            default: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: i)
            }
        }
    }
}
