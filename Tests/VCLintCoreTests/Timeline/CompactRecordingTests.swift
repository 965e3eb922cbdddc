import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation
#if canImport(Glibc)
import Glibc
#endif

/// The recording kept compactly (`CompactTimeline`: flat lists per input, a session built when it
/// is read): every view draws from it what it draws from the same sessions held whole.
@Suite struct CompactRecordingTests {
    static let fixtures = [
        "Fixtures/seeds/navtest-seed000.log",
        "Fixtures/seeds/swipe-back-cancelled-seed002.log",
        "Fixtures/flows/child-add-remove.log",
        "Fixtures/flows/leak-pop.log",
        "Fixtures/flows/page-sheet.log",
        "Fixtures/objects/mvvm-screens.log",
        "Fixtures/objects/described-leak.log",
        "Fixtures/objects/swiftui-only.log",
        "Fixtures/dialects/uikit-warnings.log",
        "Fixtures/flows/tab-switch-new-first.log",
    ]

    /// The same timeline held as whole sessions: what the recording was before it was compact.
    static func asValues(_ input: TimelineInput) -> TimelineInput {
        let t = input.timeline
        let values = TimelineRecording(sessions: Array(t.sessions), leaks: t.leaks, unjudgedClasses: t.unjudgedClasses)
        #expect(values.sessions.compact == nil)
        return TimelineInput(path: input.path, stats: input.stats, findings: input.findings, timeline: values)
    }

    /// Every view reads the compact recording as it reads the same sessions held whole: the compact
    /// store's own answers (instances, warnings, earliest time, line spans, classes) are theirs.
    @Test(arguments: fixtures) func compactAndWholeSessionsDrawAlike(_ fixture: String) throws {
        let input = try timelineInput(fixture)
        #expect(input.timeline.sessions.compact != nil)
        let whole = Self.asValues(input)
        #expect(TimelineJSON().render([input]) == TimelineJSON().render([whole]))
        #expect(ChromeTrace().render([input]) == ChromeTrace().render([whole]))
        #expect(TimelineTextRenderer(width: 120, axis: .time).render([input]) == TimelineTextRenderer(width: 120, axis: .time).render([whole]))
        let leaks = LeakReport(inputs: [input], graceSeconds: 3), wholeLeaks = LeakReport(inputs: [whole], graceSeconds: 3)
        #expect(LeakJSON().render(leaks) == LeakJSON().render(wholeLeaks))
        #expect(HTMLReport(inputs: [input], leaks: leaks).render() == HTMLReport(inputs: [whole], leaks: wholeLeaks).render())
        for k in input.findings.indices { #expect(input.placement(of: k) == whole.placement(of: k)) }
    }

    /// Sessions of one event each (a process id per line) are numbered in order, each with its one
    /// instance and callback, in the input's flat lists (no list of their own).
    @Test func aSessionPerLineIsHeldFlat() throws {
        let input = timelineInput(text: BoundedViewsTests.onePIDPerLine(200))
        let compact = try #require(input.timeline.sessions.compact)
        #expect(compact.sessions.count == 200)
        #expect(compact.lanes.count == 200)
        #expect(compact.callbacks.count == 200)
        #expect(compact.warnings.isEmpty && compact.laneExtras.isEmpty)
        for (k, s) in input.timeline.sessions.enumerated() {
            #expect(s.id == k + 1)
            #expect(s.instances.count == 1 && s.instances[0].callbacks.count == 1)
            #expect(s.firstEvent == s.lastEvent && s.firstEvent.line == k + 1 && s.firstEvent.order == k + 1)
        }
        let whole = Self.asValues(input)
        #expect(TimelineTextRenderer(width: 100).render([input]) == TimelineTextRenderer(width: 100).render([whole]))
    }

    /// Without lanes (`leaks`, `inspect`) a session keeps its first and last events, its end and its count of
    /// events, and its instances only as counts per class: those of the recording with lanes.
    @Test func withoutLanesSessionsKeepTheirSpanAndCounts() throws {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.recordLanes = false
        let bare = try #require(try lintFixture("Fixtures/seeds/navtest-seed000.log", options: options).timeline)
        let full = try timelineInput("Fixtures/seeds/navtest-seed000.log").timeline
        #expect(bare.sessions.count == full.sessions.count)
        for (a, b) in zip(bare.sessions, full.sessions) {
            #expect(a.firstEvent == b.firstEvent && a.lastEvent == b.lastEvent && a.endTime == b.endTime && a.eventCount == b.eventCount)
            #expect(a.instances.isEmpty && !b.instances.isEmpty)
        }
        #expect(bare.instanceCounts == full.instanceCounts)
        #expect(bare.instanceCounts.map(\.controllers).reduce(0, +) == full.sessions.map(\.instances.count).reduce(0, +))
        #expect("\(bare.classes)" == "\(full.classes)")
    }

    /// `vclint timeline` records no class summaries (`TimelineOptions.summarizesClasses`): its every view is the same.
    @Test(arguments: fixtures) func timelineViewsNeedNoClassSummaries(_ fixture: String) throws {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.summarizesClasses = false
        let bare = try lintFixture(fixture, options: options)
        let t = try #require(bare.timeline)
        #expect(t.classes.isEmpty && t.unjudgedClasses.isEmpty && t.instanceCounts.isEmpty)
        let input = TimelineInput.from(LintResult(files: [bare])), full = [try timelineInput(fixture)]
        #expect(!full[0].timeline.classes.isEmpty)
        #expect(TimelineJSON().render(input) == TimelineJSON().render(full))
        #expect(ChromeTrace().render(input) == ChromeTrace().render(full))
        #expect(TimelineTextRenderer(width: 120).render(input) == TimelineTextRenderer(width: 120).render(full))
    }

    /// `leaks` and `report` keep only what the leak report reads of the classes (`TimelineOptions.keepsClasses`):
    /// every leak view and the page are the same, with lanes and without.
    @Test(arguments: fixtures) func leakViewsNeedNoClassesKept(_ fixture: String) throws {
        for lanes in [true, false] {
            var options = LintOptions()
            options.timeline.recordTimeline = true
            options.timeline.recordLanes = lanes
            let kept = try lintFixture(fixture, options: options)
            options.timeline.keepsClasses = false
            let bare = try lintFixture(fixture, options: options)
            let a = try #require(kept.timeline), b = try #require(bare.timeline)
            #expect(b.classes.isEmpty && !a.classes.isEmpty)
            #expect(a.judgedClasses == b.judgedClasses && a.appLifetimeClasses == b.appLifetimeClasses)
            #expect(a.unjudgedClasses == b.unjudgedClasses && a.instanceCounts == b.instanceCounts)
            let ia = TimelineInput.from(LintResult(files: [kept])), ib = TimelineInput.from(LintResult(files: [bare]))
            let la = LeakReport(inputs: ia, graceSeconds: 3), lb = LeakReport(inputs: ib, graceSeconds: 3)
            #expect(LeakJSON().render(la) == LeakJSON().render(lb), "\(fixture) lanes \(lanes)")
            #expect(LeakText().render(la) == LeakText().render(lb), "\(fixture) lanes \(lanes)")
            #expect(HTMLReport(inputs: ia, leaks: la).render() == HTMLReport(inputs: ib, leaks: lb).render(), "\(fixture) lanes \(lanes)")
        }
        // What the leak report reads of them, from the classes of an input with app-lifetime objects and judged classes.
        let t = try timelineInput("Fixtures/objects/mvvm-screens.log").timeline
        let (judged, appLifetime) = ClassSummaryBuilder.leakFacts(t.classes, unjudged: t.unjudgedClasses)
        #expect(judged == t.classes.map(\.name).filter { name in !t.unjudgedClasses.contains { $0.className == name } })
        #expect(appLifetime == t.classes.filter(\.hasUnownedObject).map(\.name))
        #expect(t.judgedClasses == judged && t.appLifetimeClasses == appLifetime)
    }

    /// Without the classes kept, a recording with lanes reads what the leak report needs of them from its lanes sorted
    /// by class name (`leakFacts(lanesOf:)`); with them, from their summaries. The two agree on simulated apps of every
    /// family, on Android's logcat with and without LeakCanary, and on random traffic.
    @Test func leakFactsFromSortedLanesAreTheSummaries() {
        var captures = NavigationSimulator.Family.allCases.map { variedSimulatedApp($0, seed: 5, steps: 400) }
        captures += (UInt64(1)...4).map { FoldingTests.randomTraffic(seed: $0) }
        for seed in UInt64(1)...4 {
            var o = AndroidSimulator.Options(seed: seed)
            o.leakCanary = seed % 2 == 0
            captures.append(AndroidSimulator.generate(o).text)
        }
        for (n, text) in captures.enumerated() {
            var options = LintOptions()
            options.timeline.recordTimeline = true
            let kept = Linter(options: options).lint(text: text, path: "x.log").timeline
            options.timeline.keepsClasses = false
            let bare = Linter(options: options).lint(text: text, path: "x.log").timeline
            guard let a = kept, let b = bare else {
                Issue.record("capture \(n): no recording")
                continue
            }
            #expect(!a.classes.isEmpty && b.classes.isEmpty, "capture \(n)")
            #expect(a.unjudgedClasses == b.unjudgedClasses, "capture \(n)")
            #expect(a.judgedClasses == b.judgedClasses && a.appLifetimeClasses == b.appLifetimeClasses, "capture \(n)")
            #expect(a.instanceCounts == b.instanceCounts, "capture \(n)")
        }
    }

    /// A leak report of one input reads its unjudged classes in place (`UnjudgedRows`), each row made as it is read
    /// with the input's path: the same rows, and the same report in every format, as the rows set whole.
    @Test func oneInputsUnjudgedClassesAreReadInPlace() throws {
        let input = try timelineInput("Fixtures/objects/mvvm-screens.log")
        let report = LeakReport(inputs: [input], graceSeconds: 3)
        #expect(!report.unjudged.isEmpty)
        #expect(report.unjudged.map(\.className) == input.timeline.unjudgedClasses.map(\.className))
        #expect(report.unjudged.allSatisfy { $0.paths == [input.path] })
        var whole = report
        whole.unjudged = report.unjudged
        #expect(LeakJSON().render(whole) == LeakJSON().render(report) && LeakText().render(whole) == LeakText().render(report))
        #expect(HTMLReport(inputs: [input], leaks: whole).render() == HTMLReport(inputs: [input], leaks: report).render())
    }

    /// The unjudged rows are sorted by name in place, a cycle of places at a time: any order of them comes out as
    /// the sort of their names.
    @Test func unjudgedRowsAreSortedInPlace() {
        var generator = SplitMix64(seed: 11)
        for n in [0, 1, 2, 3, 17, 1_000] {
            let rows = (0..<n).map { UnjudgedClass(className: "C\($0 * 7_919 % 10_007)ViewController", instances: $0, removedWithoutDealloc: 0) }
            var shuffled = rows
            shuffled.shuffle(using: &generator)
            ClassSummaryBuilder.sortUnjudged(&shuffled)
            #expect(shuffled == rows.sorted { $0.className < $1.className }, "\(n) rows")
        }
    }

    /// A session's drawing is kept in pieces that never pass `pieceBytes` (but for one append longer than that), whose
    /// room a string's doubling keeps under 1 MiB; joined, they are the text.
    @Test func drawingsAreKeptInPiecesUnderAMebibyte() {
        var text = PiecewiseText(), whole = ""
        var k = 0
        while whole.utf8.count < 5 << 20 {
            let s = k % 997 == 0 ? String(repeating: "x", count: PiecewiseText.pieceBytes + 10) : "<rect x=\"\(k)\" y=\"\(k % 7)\"/>\n"
            text += s
            whole += s
            k += 1
        }
        #expect(text.pieces.joined() == whole && text.byteCount == whole.utf8.count)
        #expect(text.pieces.count > 5)
        for piece in text.pieces where piece.utf8.count > PiecewiseText.pieceBytes { #expect(piece.allSatisfy { $0 == "x" }) }
    }

    /// A lane's log while its session runs fits malloc's 112-byte chunks (400k live objects hold one each).
    @Test func aLaneLogFitsItsChunk() throws {
        #if canImport(Glibc)
        let entry = Instrumentation.ClassEntry(name: "MainActivity", dialect: .logcat)
        let log = TimelineRecorder.InstanceLog(AndroidInstance(entry: entry, generation: 1, address: nil, serial: 1))
        // glibc's `malloc_usable_size`, which its module map does not export (`malloc.h`).
        let f = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size"))
        let usableSize = unsafeBitCast(f, to: (@convention(c) (UnsafeMutableRawPointer) -> Int).self)
        #expect(usableSize(Unmanaged.passUnretained(log).toOpaque()) <= 104)
        #endif
    }

    /// Classes are found by their name's hash: two names whose hashes the index keeps alike (found here by search)
    /// are two classes, each summed in its own place.
    @Test func classesWhoseHashesCollideStayApart() throws {
        var seen: [UInt32: String] = [:]
        var pair: (String, String)?
        for k in 0..<400_000 where pair == nil {
            let name = "Screen\(k)ViewController"
            let h = UInt32(truncatingIfNeeded: StringArena.hash(name) >> 32)
            if let other = seen[h] { pair = (other, name) } else { seen[h] = name }
        }
        let (a, b) = try #require(pair)
        var builder = ClassSummaryBuilder()
        for (name, n) in [(a, 1), ("HomeViewController", 1), (b, 2), (a, 4), (b, 8)] {
            builder.add(className: name, dialect: .objcFunction, instances: n, kinds: 0, judged: false, kind: .controller,
                        owners: [:], unowned: 0, removed: 0)
        }
        let classes = builder.result()
        #expect(classes.map(\.name) == [a, "HomeViewController", b])
        #expect(classes.map(\.instances) == [5, 1, 10])
    }

    /// A thousand controllers pushed, popped and deallocated, and a thousand objects of one class: without
    /// lanes, one tally each, whatever their number.
    @Test func withoutLanesInstancesAreTalliedPerClass() throws {
        var lines = ["-[HomeViewController viewDidLoad]", "-[HomeViewController viewWillAppear:]", "-[HomeViewController viewDidAppear:]"]
        for i in 0..<1_000 {
            let d = "<DetailViewController: 0x\(String(0x6000_0000 + 16 * i, radix: 16))>"
            let m = "<DetailViewModel: 0x\(String(0x7000_0000 + 16 * i, radix: 16))>"
            lines += ["\(d) viewDidLoad", "\(m) init", "-[HomeViewController viewWillDisappear:]", "\(d) viewWillAppear:",
                      "-[HomeViewController viewDidDisappear:]", "\(d) viewDidAppear:", "\(d) viewWillDisappear:",
                      "-[HomeViewController viewWillAppear:]", "\(d) viewDidDisappear:", "-[HomeViewController viewDidAppear:]",
                      "\(d) dealloc", "\(m) deinit"]
        }
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.recordLanes = false
        let t = try #require(Linter(options: options).lint(text: lines.joined(separator: "\n") + "\n", path: "app.log").timeline)
        #expect(t.instanceCounts == [InstanceCounts(controllers: 1_001, objects: 1_000, views: 0)])
        #expect(t.classes.map(\.name) == ["HomeViewController", "DetailViewController", "DetailViewModel"])
        #expect(t.classes.map(\.instances) == [1, 1_000, 1_000])
        #expect(t.classes[2].isObject && t.classes[2].owners == ["DetailViewController\u{1F}stem": 1_000] && !t.classes[2].hasUnownedObject)
        #expect(t.classes[1].callbacks == [.viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .dealloc])
        // Home's dealloc is not logged (it is never removed).
        #expect(t.unjudgedClasses.map(\.className) == ["HomeViewController"] && t.leaks.isEmpty)
    }

    /// The report draws its sessions in batches, on several threads: the page is the same whatever
    /// the batch, across files and within one.
    @Test func theReportIsTheSameWhateverTheBatch() {
        let many = timelineInput(text: BoundedViewsTests.onePIDPerLine(700), path: "many.log")
        let few = timelineInput(text: BoundedViewsTests.onePIDPerLine(3), path: "few.log")
        let empty = timelineInput(text: "noise\n", path: "empty.log")
        let inputs = [few, empty, many, few]
        let leaks = LeakReport(inputs: inputs, graceSeconds: 3)
        var page = HTMLReport(inputs: inputs, leaks: leaks)
        let whole = page.render()
        #expect(whole.components(separatedBy: "<svg class=\"lanes\"").count - 1 == 706)
        for batch in [1, 2, 7, 699, 5000] {
            page.batch = batch
            #expect(page.render() == whole, "batch \(batch)")
        }
        // A batch that ends at a budget of bytes drawn, after every session or a few.
        page.batch = HTMLReport.sessionsPerBatch
        for bytes in [1, 5_000, 100_000] {
            page.batchBytes = bytes
            #expect(page.render() == whole, "batch of \(bytes) bytes")
        }
    }

    /// A session drawn as it is written (its lanes measured first, its transitions' bands and rows written in
    /// separate passes) gives the bytes of one drawn in pieces on a batch's thread: every fixture, a session cut by
    /// its budget within its lanes, within one long lane and within its transitions, and many sessions in one file.
    @Test func aSessionWrittenAsDrawnIsTheSameAsOneDrawnInPieces() throws {
        var inputs = try allFixtureLogs().map { try timelineInput($0) }
        inputs.append(timelineInput(text: BoundedViewsTests.onePIDPerLine(40), path: "many.log"))
        #expect(inputs.count > 100)
        let leaks = LeakReport(inputs: inputs, graceSeconds: 3)
        for budget in [HTMLReport.maxSessionBytes, 30_000, 6_000, 1_500, 0] {
            var page = HTMLReport(inputs: inputs, leaks: leaks)
            page.sessionBytes = budget
            page.streamedFrom = .max
            let inPieces = page.render()
            page.streamedFrom = 0
            let written = page.render()
            let a = written.split(separator: "\n", omittingEmptySubsequences: false), b = inPieces.split(separator: "\n", omittingEmptySubsequences: false)
            let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            #expect(written == inPieces, "budget \(budget), line \(at + 1): \(at < a.count ? a[at] : "(end)") | in pieces: \(at < b.count ? b[at] : "(end)")")
            // What is capped says so in both.
            if budget == 1_500 { #expect(written.contains("of this session not drawn here")) }
        }
    }

    /// The lanes' extras are found by lane among the lanes that have one; an owner taken back leaves the lane
    /// without extra, or with its removal only.
    @Test func laneExtrasAreFoundByLane() {
        var extras = CompactTimeline.LaneExtras()
        #expect(extras.isEmpty && extras[0] == nil)
        let owner = ControllerRef(className: "HomeViewController", address: nil, instance: "HomeViewController#1")
        let ref = EventRef(line: 7, time: nil, kind: .viewDidDisappear)
        let removal = Removal(kind: .popped, evidence: ref, takenAlongBy: nil, anchor: ref)
        let owned = [0, 3, 9, 100], removed = [3, 4, 50]
        for lane in Set(owned + removed).sorted() {
            extras.append(CompactTimeline.LaneExtra(removal: removed.contains(lane) ? removal : nil, owner: owned.contains(lane) ? owner : nil,
                                                    ownerReason: owned.contains(lane) ? .stem : nil), lane: lane, dates: PackedTime.Table())
        }
        for lane in 0...101 {
            #expect((extras[lane]?.owner != nil) == owned.contains(lane), "lane \(lane)")
            #expect((extras[lane]?.removal?.evidence.line == 7) == removed.contains(lane), "lane \(lane)")
        }
        extras.dropOwner(lane: 9)
        #expect(extras[9] == nil)
        extras.dropOwner(lane: 3)
        #expect(extras[3]?.owner == nil && extras[3]?.ownerReason == nil && extras[3]?.removal != nil)
        #expect(extras[0]?.ownerReason == .stem && !extras.isEmpty)
    }

    /// A removal is kept packed (its events' lines, kinds and times packed by the input's dates) and read back as
    /// it was set: with and without times, a time that does not pack (kept whole), and every field.
    @Test func removalsReadBackAsTheyWereSet() {
        let table = PackedTime.Table()
        var extras = CompactTimeline.LaneExtras()
        func fields(_ seconds: Double) -> LogTime {
            LogTime(seconds: seconds, year: 2024, month: 3, day: 1, hour: 12, minute: 0, second: 0, fraction: 123, fractionDigits: 3,
                    offsetMinutes: nil)
        }
        // Its seconds are its fields': it packs.
        let packable = fields(fields(0).fieldSeconds)
        // Its seconds are not its fields': it cannot be packed, and is kept whole.
        let whole = LogTime(seconds: 42.5, year: 2024, month: 3, day: 1, hour: 12, minute: 0, second: 0, fraction: 5, fractionDigits: 1,
                            offsetMinutes: 60)
        #expect(table.pack(packable) != nil && table.pack(whole) == nil)
        let removals = [
            Removal(kind: .popped, evidence: EventRef(line: 7, time: packable, kind: .viewDidDisappear), takenAlongBy: nil,
                    anchor: EventRef(line: 7, time: packable, kind: .viewDidDisappear), transition: .pop),
            Removal(kind: .poppedWithTop, evidence: EventRef(line: 1 << 40, time: whole, kind: .viewWillDisappear),
                    takenAlongBy: "DetailViewController#3", anchor: EventRef(line: 9, time: nil, kind: .dismissEnd)),
            Removal(kind: .dismissed, evidence: EventRef(line: 12, time: nil, kind: .dismissEnd), takenAlongBy: nil,
                    anchor: EventRef(line: 15, time: whole, kind: .viewDidDisappear), transition: .dismiss),
        ]
        for (k, r) in removals.enumerated() { extras.append(CompactTimeline.LaneExtra(removal: r, owner: nil, ownerReason: nil), lane: 2 * k, dates: table) }
        extras.freeze(table)
        for (k, r) in removals.enumerated() {
            let back = extras[2 * k]?.removal
            #expect(back?.kind == r.kind && back?.takenAlongBy == r.takenAlongBy && back?.transition == r.transition, "removal \(k)")
            #expect(back?.evidence == r.evidence && back?.anchor == r.anchor, "removal \(k)")
            #expect(back?.evidence.time?.seconds.bitPattern == r.evidence.time?.seconds.bitPattern && back?.evidence.time?.iso == r.evidence.time?.iso)
            #expect(back?.anchor.time?.seconds.bitPattern == r.anchor.time?.seconds.bitPattern && back?.anchor.time?.iso == r.anchor.time?.iso)
            #expect(extras[2 * k + 1] == nil)
        }
    }

    /// A stamp's line is kept in 32 bits, and one past them whole: every line reads back.
    @Test func stampLinesPastThirtyTwoBitsReadBack() {
        let table = PackedTime.Table()
        var stamps = StampTable(sparse: false)
        let lines = [1, 2, Int(UInt32.max) - 1, Int(UInt32.max), Int(UInt32.max) + 1, 1 << 40, 3]
        for (k, line) in lines.enumerated() { #expect(stamps.append(TimelineStamp(line: line, order: k + 1, time: nil), table) == k) }
        stamps.freeze(table)
        for (k, line) in lines.enumerated() {
            #expect(stamps.line(k) == line && stamps.stamp(k).line == line && stamps.order(k) == k + 1)
        }
    }

    /// A lane's callbacks while its session runs: the first in place, the others in an array, read back in order,
    /// the latest match found first.
    @Test func callbackListsReadBackInOrder() {
        for n in [0, 1, 2, 5] {
            var list = TimelineRecorder.CallbackList()
            let values = (0..<n).map { CompactTimeline.packCallback(stamp: $0 * 3, kind: .viewDidLoad, toParent: $0 % 2 == 0) }
            if n > 2 {
                list.append(values[0])
                list.append(contentsOf: values[1...])
            } else {
                for v in values { list.append(v) }
            }
            #expect(list.count == n)
            #expect(Array(list) == values)
            #expect(list.last(where: { _ in true }) == values.last)
            #expect(list.last(where: { $0 == values.first }) == values.first)
            #expect(list.last(where: { _ in false }) == nil)
        }
    }

    /// The flat lists' words: 32 bits each until one needs more, then every word in 64, read back the same.
    @Test func wordListsWidenWhenAWordNeedsIt() {
        var list = WordList()
        var expected: [UInt64] = []
        for k in 0..<10_000 {
            let w = UInt64(k) << 8 | UInt64(k & 0x3F)
            list.append(w)
            expected.append(w)
        }
        #expect(!list.isWide)
        #expect(Array(list) == expected)
        list[17] = UInt64(UInt32.max)
        expected[17] = UInt64(UInt32.max)
        #expect(!list.isWide)
        // A stamp past 2^24 in a callback's word does not fit in 32 bits.
        let big = UInt64(1 << 24) << 8 | 5
        list.append(big)
        expected.append(big)
        #expect(list.isWide)
        list.append(contentsOf: [1, 2, 3])
        expected.append(contentsOf: [1, 2, 3])
        list[3] = 1 << 40
        expected[3] = 1 << 40
        #expect(list.count == expected.count)
        #expect(Array(list) == expected)
        #expect(Array(list[9_998..<10_002]) == Array(expected[9_998..<10_002]))
        #expect(WordList(expected.prefix(5)).count == 5)
    }

    /// A log's lists take one array's room, narrow while their words fit and wide after, and read back the same.
    @Test func smallWordsWidenInTheRoomOfAnArray() {
        #expect(MemoryLayout<SmallWords>.size == MemoryLayout<[UInt64]>.size)
        var words = SmallWords()
        var expected: [UInt64] = []
        for k in 0..<1_000 {
            words.append(UInt64(k) << 4 | 3)
            expected.append(UInt64(k) << 4 | 3)
        }
        #expect(!words.isWide && Array(words) == expected)
        words.append(contentsOf: [UInt64(UInt32.max) + 1, 7])
        expected.append(contentsOf: [UInt64(UInt32.max) + 1, 7])
        #expect(words.isWide && Array(words) == expected)
        #expect(words.last(where: { $0 > UInt64(UInt32.max) }) == UInt64(UInt32.max) + 1)
        #expect(SmallWords().isEmpty)
    }

    /// Transitions packed in 20 bytes read back as they were appended, and one whose numbers do not fit is
    /// kept whole; renaming the last one renames it either way.
    @Test func transitionListsReadBackAsAppended() {
        var list = CompactTimeline.TransitionList()
        var expected: [CompactTimeline.Transition] = []
        let kinds = TransitionKind.allCases
        for k in 0..<5_000 {
            let t = CompactTimeline.Transition(kind: kinds[k % kinds.count], start: k * 7, end: k * 7 + k % 13, members: (2 * k)..<(2 * k + k % 4))
            list.append(t)
            expected.append(t)
        }
        let huge = CompactTimeline.Transition(kind: .push, start: 1 << 33, end: (1 << 33) + 4, members: 10_000..<10_002)
        list.append(huge)
        expected.append(huge)
        func same(_ a: CompactTimeline.Transition, _ b: CompactTimeline.Transition) -> Bool {
            a.kind == b.kind && a.start == b.start && a.end == b.end && a.members == b.members
        }
        #expect(list.count == expected.count)
        #expect(zip(list, expected).allSatisfy(same))
        list.renameLast(.pop)
        #expect(list[list.count - 1].kind == .pop && list[list.count - 1].start == 1 << 33)
        list.append(expected[3])
        list.renameLast(.dismiss)
        #expect(list[list.count - 1].kind == .dismiss && list[list.count - 1].members == expected[3].members)
    }

    /// The recorder's logs by serial: an `ObjectTable` keyed by what each log holds.
    @Test func logsAreFoundBySerial() {
        let table = ObjectTable<TimelineRecorder.InstanceLog>()
        let entry = Instrumentation().entry("ItemViewModel", dialect: .objcFunction)
        var logs: [Int: TimelineRecorder.InstanceLog] = [:]
        for serial in 0..<3000 {
            let log = TimelineRecorder.InstanceLog(Instance(serial: serial, entry: entry, address: nil, generation: serial, dialect: .objcFunction, line: 1))
            table[UInt64(serial)] = log
            logs[serial] = log
        }
        for serial in stride(from: 0, to: 3000, by: 3) {
            table[UInt64(serial)] = nil
            logs[serial] = nil
        }
        #expect(table.count == logs.count)
        for serial in 0..<3001 { #expect(table[UInt64(serial)] === logs[serial]) }
    }
}
