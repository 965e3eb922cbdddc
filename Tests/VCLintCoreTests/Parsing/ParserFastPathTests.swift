import Testing
import Foundation
@testable import VCLintCore
import VCLintSimulation

/// The hand-written reading of `-[Class method:] rest` must give exactly what the `objc` regex gives,
/// on real shapes and on mutations of them (categories, dotted classes, odd whitespace, bytes ≥ 0x80).
@Suite struct ParserFastPathTests {
    static func describe(_ e: Event?) -> String {
        guard let e else { return "nil" }
        return "\(e.kind) \(e.className) \(e.address.map { String($0, radix: 16) } ?? "-") \(e.parent) \(e.dialect)"
    }

    /// Parses every seed and `rounds - 1` mutations of it (bytes replaced, removed or inserted from
    /// `alphabet`) with the fast paths on and with `slow`'s off: the two must agree. Returns how many
    /// of the lines were events.
    static func compareMutations(_ seeds: [String], alphabet: [UInt8], seed: UInt64, rounds: Int, slow: (MessageParser) -> Void) -> Int {
        var rng = SplitMix(seed: seed)
        let fast = MessageParser(), regex = MessageParser()
        slow(regex)
        var compared = 0, events = 0
        for seed in seeds {
            for round in 0..<rounds {
                var bytes = Array(seed.utf8)
                if round > 0 { rng.edit(&bytes, from: alphabet) }
                let (a, b) = bytes.withUnsafeBufferPointer { (fast.parse($0), regex.parse($0)) }
                #expect(describe(a) == describe(b), "\(String(decoding: bytes, as: UTF8.self))")
                #expect(fast.note.title == regex.note.title, "\(String(decoding: bytes, as: UTF8.self))")
                compared += 1
                if a != nil { events += 1 }
            }
        }
        #expect(compared == seeds.count * rounds)
        return events
    }

    @Test func objcShapeAgreesWithTheRegex() {
        let seeds = [
            "-[HomeViewController viewWillAppear:]", "+[Foo initialize]", "-[ChildViewController willMoveToParentViewController:] nil",
            "-[ChildViewController didMoveToParentViewController:] <ContainerViewController: 0x7fa1c8d0a200>",
            "-[VC initWithNibName:bundle:]", "-[LifeCycleViewController dealloc]", "-[A viewDidAppear:] animated",
            "-[A(Category) viewDidLoad]", "-[A (Cat) viewDidLoad]", "-[MyApp.A viewDidLoad]", "-[A\tviewDidLoad]",
            "-[A  viewDidDisappear:] 0x1234", "-[_A$b viewDidLoad]", "-[\u{e9}cran viewDidLoad]", "-[A viewDidLoad] extra words",
            "-[A viewDidLoad:x:y]", "-[A 1viewDidLoad]", "-[A viewDidLoad", "-[A]", "-[ viewDidLoad]", "-[A viewDidLoad]]",
        ]
        let alphabet = Array("-+[]():. \t\u{0B}_$xA0a9vd".utf8) + [0xC3, 0xA9, 0x80, 0x0A]
        let events = Self.compareMutations(seeds, alphabet: alphabet, seed: 3, rounds: 600) { $0.objcFastPath = false }
        #expect(events > 800)
    }

    /// `twoWordShape` against the `twoWord` regex: Swift-style statements, tagged noise that mentions
    /// callbacks, addresses, dotted names, odd separators and bytes ≥ 0x80, mutated.
    @Test func twoWordShapeAgreesWithTheRegex() {
        let seeds = [
            "HomeViewController viewDidAppear(_:)", "[Lifecycle] HomeViewController viewWillAppear(_:)", "DetailVC deinit",
            "[Debug] swizzled viewWillAppear: and dealloc on UIViewController for tracking",
            "[Router] will present login if the token expires (dismiss later)", "ListVC viewDidLoad()",
            "[Memory] footprint 12 MB after didReceiveMemoryWarning from the system", "VC viewWillAppear(animated: true)",
            "[Analytics] queued screen event viewDidAppear for HomeViewController", "A  viewDidDisappear(_ animated:) extra",
            "VC 0x7fa1c8d0a200 viewDidLoad", "VC <0x1f> viewDidLoad", "MyApp.VC viewDidLoad", "VC.viewDidLoad()", "VC: viewDidLoad",
            "VC - viewDidLoad", "VC -> viewDidLoad", "\u{1F4F1} VC viewDidLoad", "[] VC viewDidLoad", "VC viewDidLoad(_:x",
            "VC viewWillAppear:animated:", "[\(String(repeating: "t", count: 59))] VC viewDidLoad", "VC\tdeinit", "_VC$1 init(coder:)",
            // Where the shape decides that the regex cannot match: no method after the class, unless
            // an address (also one inside the class's run) or a separator could still follow.
            "[Memory] footprint 925 MB", "VC0x1f viewDidLoad", "[T] VC 9 viewDidLoad", "VC (0x1f) viewDidLoad", "VC [0x2] deinit",
            "VC , viewDidLoad", "[T]VC\u{e9} 1 deinit", "[T] 9VC deinit", "[\(String(repeating: "t", count: 61))] VC deinit",
        ]
        let alphabet = Array("[]():.-> \t\u{0B}_$xA0a9vd".utf8) + [0xC3, 0xA9, 0x80, 0x85, 0xA0, 0x0A]
        let events = Self.compareMutations(seeds, alphabet: alphabet, seed: 11, rounds: 500) { $0.twoWordFastPath = false }
        #expect(events > 1_000)
    }

    /// The described, method-class, invoke, marker and dots readings (`MessageShapes.swift`) against
    /// their regexes: each dialect's statements as the simulator writes them, their odd spellings
    /// (descriptions after `;`, dotted classes, separators, titles, ellipses) and noise shaped like
    /// them, mutated.
    @Test func grammarShapesAgreeWithTheirRegexes() {
        let seeds = [
            // described
            "<ComposeViewController: 0x600003d0c000> viewWillAppear:", "<ChildViewController: 0x1f> willMoveToParentViewController: nil",
            "<ChildViewController: 0x1f> didMoveToParentViewController: <ContainerViewController: 0x600003d0c000>",
            "<HomeViewController: 0x7fa1; frame = (0 0; 320 480)> viewDidLoad", "<MyApp.Home: 0xab> - dealloc", "<Home:0xAB>: viewDidAppear(_:)",
            "<Home: 0x12>viewDidLoad() extra", "<Home: 12> viewDidLoad", "<\u{e9}cran: 0x1> deinit", "<Home: 0x1> 9view",
            // method + class
            "init:Tab0RootCoordinator", "viewDidLoad:Tab0RootViewController", "viewWillAppear(_:): MyApp.HomeViewController",
            "willMove(toParent:) : Child.Inner.VC nil", "deinit : HomeViewModel", "viewDidLoad: Home Screen", "response: {",
            "Reachability: network changed to wifi (323 ms since last change)", "viewDidLoad(x): Home", "viewDidLoad(a:b): Home",
            "CoreData: annotation: fetch request took 8 ms, 648 rows", "dealloc: <null>", "init:_$Home.9x",
            // named: invoke, markers, dots
            "ModalViewController invoke viewWillAppear", "ComposeViewController invoke viewDidLoad:", "Home  invoke\tdeinit extra",
            "Home invoke viewWillAppear(_:) animated", "Home invokes viewDidLoad", "[Home] invoke viewDidLoad", "A.B invoke dealloc",
            "ModalViewController present end", "ComposeViewController present begin", "Home dismiss completed", "Home  dismiss\tfinished",
            "Home Screen dismiss end", "Home Screen Two present start", "home screen present done", "Home present the end",
            "[Router] will present login if the token expires (dismiss later)", "Home dismiss complete", "Homepresent end",
            ".......dealloc.......", "Home.......dealloc", "Home ... deinit ...", "Home\u{2026}\u{2026}dealloc\u{2026}", "..dealloc",
            "Home..dealloc x", "a.b..deinit..", "[Home]...dealloc", "Home . . dealloc",
        ]
        let alphabet = Array("[]()<>:;.- \t\u{0B}_$xA0a9vdpe".utf8) + [0xC3, 0xA9, 0x80, 0xE2, 0xA6, 0x0A]
        let events = Self.compareMutations(seeds, alphabet: alphabet, seed: 17, rounds: 400) { $0.shapeFastPaths = false }
        #expect(events > 4_000)
    }
}

/// The fraction digits' weights are the values a running division by ten gives.
@Suite struct FractionScaleTests {
    @Test func weightsAreTheRunningDivision() {
        var scale = 0.1
        for i in 0..<9 {
            #expect(TimestampParser.fractionScale(i).bitPattern == scale.bitPattern, "digit \(i)")
            scale /= 10
        }
    }
}

/// Timestamps read through the minute cache equal timestamps read from scratch, with the cursor at
/// the same place, whatever came before (same minute, another minute, invalid dates, short lines).
@Suite struct MinuteCacheTests {
    @Test func cachedTimestampsEqualFreshOnes() {
        let seeds = ["2024-03-01 22:13:28.546420+0800 x", "2024-03-01 22:13:29,5 y", "2024-03-01T22:13:59Z",
                     "2024-03-01 22:14:00.000-05:00 z", "2024-13-01 22:13:28 bad month", "2024-03-01 22:13:61 leap?",
                     "2024-03-01 22:13", "2024-03-01 22:13:", "2024-02-30 23:59:59.999999999999 long fraction",
                     "1999-12-31 23:59:60+14:00", "2024-03-01 22:13:28.546420+08001 x", "2024-03-01 22:13:28.5+08:0 y",
                     "2024-03-01 22:13:28.123Zq", "2024-03-01 22:13:28.123456789123+0800", "2024-03-01 22:13:28.546420+0800",
                     "2024-03-01 22:13:28.9-0800 z", "2024-03-01 22:13:28.25 +0800"]
        let alphabet = Array("0123456789:-.,+ TZ".utf8)
        var rng = SplitMix(seed: 5)
        var cache = TimestampParser.MinuteCache()
        var compared = 0, parsed = 0
        for _ in 0..<40_000 {
            var bytes = Array(seeds[Int(rng.next() % UInt64(seeds.count))].utf8)
            if rng.next() % 2 == 0 {
                let i = Int(rng.next() % UInt64(bytes.count))
                if rng.next() % 2 == 0 { bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))] } else { bytes = Array(bytes.prefix(i)) }
            }
            bytes.withUnsafeBufferPointer { b in
                guard let base = b.baseAddress else { return }
                var fresh = ByteCursor(base, count: b.count), cached = fresh
                let a = TimestampParser.parseISOLike(&fresh)
                let c = TimestampParser.parseISOLike(&cached, cache: &cache)
                #expect(a?.0 == c?.0 && a?.hasOffset == c?.hasOffset && fresh.pos == cached.pos,
                        "\(String(decoding: bytes, as: UTF8.self))")
                if a != nil { parsed += 1 }
            }
            compared += 1
        }
        #expect(compared == 40_000)
        #expect(parsed > 10_000)
    }
}

/// `LogTime.fieldSeconds` (digits taken by a constant division) gives the parser's seconds for every
/// parsed stamp, and the digit-by-digit sum it replaced for any fraction and digit count.
@Suite struct FieldSecondsTests {
    static func digitByDigit(_ t: LogTime) -> Double {
        let days = CivilTime.daysFromCivil(year: t.year == 0 ? 2000 : Int(t.year), month: Int(t.month), day: Int(t.day))
        let offsetSeconds = t.offsetMinutes.map { $0 == Int16.min ? 0 : Int($0) * 60 } ?? 0
        var f = 0.0
        var scale = 1
        for _ in 1..<max(1, Int(t.fractionDigits)) { scale *= 10 }
        for i in 0..<Int(t.fractionDigits) {
            f += Double(Int(t.fraction) / scale % 10) * TimestampParser.fractionScale(i)
            scale /= 10
        }
        return Double(days * 86400 + Int(t.hour) * 3600 + Int(t.minute) * 60 + Int(t.second) - offsetSeconds) + f
    }

    @Test func fieldSecondsAreTheParsedSeconds() {
        var rng = SplitMix(seed: 23)
        var checked = 0
        for _ in 0..<5_000 {
            let digits = Int(rng.next() % 10)
            var fraction = ""
            for _ in 0..<digits { fraction += String(rng.next() % 10) }
            let offsets = ["", "Z", "+0800", "-05:00", "+1400", "+2460"]
            let text = "2024-0\(1 + rng.next() % 9)-1\(rng.next() % 10) 1\(rng.next() % 10):3\(rng.next() % 10):5\(rng.next() % 10)"
                + (digits > 0 ? "." + fraction : "") + offsets[Int(rng.next() % UInt64(offsets.count))]
            var bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeMutableBufferPointer { b -> LogTime? in
                var c = ByteCursor(UnsafePointer(b.baseAddress!), count: b.count)
                return TimestampParser.parseISOLike(&c)?.0
            }
            guard let t = parsed else { Issue.record("\(text) did not parse"); continue }
            #expect(t.fieldSeconds.bitPattern == t.seconds.bitPattern, "\(text)")
            var odd = t
            odd.fraction = UInt32(truncatingIfNeeded: rng.next())
            odd.fractionDigits = UInt8(rng.next() % 20)
            #expect(odd.fieldSeconds.bitPattern == Self.digitByDigit(odd).bitPattern, "\(odd.fraction) \(odd.fractionDigits)")
            checked += 1
        }
        #expect(checked == 5_000)
    }

    /// A year-less stamp's day number (`CivilTime.daysIn2000`, a table of months) is the algorithm's for 2000, on every
    /// month and every day a stamp's two digits can say.
    @Test func dayNumbersWithinTheYear2000AreTheAlgorithms() {
        for month in 0...13 {
            for day in 0...99 {
                #expect(CivilTime.daysIn2000(month: month, day: day) == CivilTime.daysFromCivil(year: 2000, month: month, day: day), "\(month)-\(day)")
            }
        }
    }

    /// A parsed time that says its seconds are its fields' (`LogTime.secondsAreFields`, which lets `PackedTime` skip
    /// computing them) has exactly those seconds, from every timestamp parser (ISO read whole and through the minute cache
    /// and its template, syslog, logcat's threadtime and other stamps); one whose seconds are set afterwards does not say
    /// so, and does not pack.
    @Test func timesThatSayTheirSecondsAreTheirFieldsHaveThem() throws {
        var rng = SplitMix(seed: 41)
        var cache = TimestampParser.MinuteCache(), logcatCache = TimestampParser.MinuteCache()
        var flagged = 0, total = 0, zeroYears = 0
        let times = PackedTime.Table()
        func check(_ t: LogTime?, _ text: String) {
            guard let t else { Issue.record("\(text) did not parse"); return }
            total += 1
            if t.secondsAreFields {
                flagged += 1
                #expect(t.fieldSeconds.bitPattern == t.seconds.bitPattern, "\(text)")
            }
            var moved = t
            moved.seconds += 0.25
            #expect(!moved.secondsAreFields && times.pack(moved) == nil, "\(text)")
            if let v = times.pack(t) {
                let back = times.unpack(v)
                #expect(back.secondsAreFields && back.seconds.bitPattern == t.seconds.bitPattern && back.iso == t.iso, "\(text)")
            }
        }
        for k in 0..<6_000 {
            let digits = Int(rng.next() % 10)
            let fraction = digits == 0 ? "" : "." + (0..<digits).map { _ in String(rng.next() % 10) }.joined()
            let years = [0, 1970, 2024, 2024, 2024, 9999]
            let offsets = ["", "Z", "+0800", "-05:00", "+1400"]
            // Runs of stamps within one minute, so that the cache and its template answer most of them.
            let minute = k / 20 % 60
            let year = years[Int(rng.next() % 6)]
            if year == 0 { zeroYears += 1 }
            let iso = String(format: "%04d-03-0%d 1%d:%02d:%02d", year, 1 + k / 1200, k / 600 % 10, minute,
                             Int(rng.next() % 60)) + fraction + offsets[k / 40 % offsets.count]
            var bytes = Array(iso.utf8) + Array(" message".utf8)
            bytes.withUnsafeBufferPointer { b in
                var c = ByteCursor(b.baseAddress!, count: b.count)
                check(TimestampParser.parseISOLike(&c, cache: &cache)?.0, iso)
                var cold = ByteCursor(b.baseAddress!, count: b.count)
                check(TimestampParser.parseISOLike(&cold)?.0, iso)
            }
            let syslog = String(format: "Mar %2d %02d:%02d:%02d", 1 + k % 28, k % 24, minute, Int(rng.next() % 60)) + fraction
            bytes = Array(syslog.utf8)
            bytes.withUnsafeBufferPointer { b in
                var c = ByteCursor(b.baseAddress!, count: b.count)
                check(TimestampParser.parseSyslog(&c), syslog)
            }
            let logcat = String(format: "03-%02d %02d:%02d:%02d.%03d  1234  1234 D Tag: message", 1 + k % 28, k % 24, minute,
                                Int(rng.next() % 60), Int(rng.next() % 1000))
            let logcatISO = String(format: "2024-03-%02d %02d:%02d:%02d.%03d  1234  1234 D Tag: message", 1 + k % 28, k % 24, minute,
                                   Int(rng.next() % 60), Int(rng.next() % 1000))
            for text in [logcat, logcatISO] {
                bytes = Array(text.utf8)
                bytes.withUnsafeBufferPointer { b in check(LogcatEnvelope.time(b.baseAddress!, b.count, cache: &logcatCache), text) }
            }
        }
        // Five stamps a round: ISO through the cache and cold, syslog, logcat's threadtime and its ISO form.
        #expect(total == 30_000)
        // Every parser flags its times, the ISO stamps of year 0000 aside (two a round: cached and cold), whose fields
        // read as 2000.
        #expect(zeroYears > 500 && flagged == total - 2 * zeroYears)
        // The flag takes no byte of its own: a time and its line still fit an instance's 32-byte references.
        #expect(MemoryLayout<LogTime>.size <= 23 && MemoryLayout<EventRef>.size <= 32)
        // A field set after the time is made clears it too.
        var t = try #require(CompactTimeTests.parsed("2024-03-01 10:00:01.250"))
        #expect(t.secondsAreFields)
        t.hour = 11
        #expect(!t.secondsAreFields && times.pack(t) == nil)
    }
}

/// The parser's caches of whole statements answer as reading the message again would.
@Suite struct StatementCacheTests {
    /// A message as the stage sees what the parser made of it: the event's every field and the parser's note.
    static func describe(_ e: Event?, _ note: MessageParser.Note) -> String {
        let others = e?.others.map { "\($0.className)/\($0.address.map { String($0) } ?? "-")" }.joined(separator: ",") ?? ""
        return ParserFastPathTests.describe(e) + " \(e?.text ?? "-") [\(others)] \(note.unread) \(note.phase) \(note.value ?? "-") \(note.shape) "
            + "\(note.template ?? "-") \(note.title) \(note.redacted)"
    }

    /// A statement read again is read as before (`StatementCache`: the built-in dialects' statements and the free-form
    /// ones by their exact bytes): the messages of simulated captures in every dialect, with objects and UIKit's warnings,
    /// read twice by one parser (the second time from its caches), read as a parser that never saw them reads them.
    @Test func aStatementReadAgainIsReadAsBefore() {
        var events = 0
        for (k, dialect) in NavigationSimulator.Dialect.allCases.enumerated() {
            var o = NavigationSimulator.Options(seed: UInt64(60 + k))
            o.envelope = .bare
            o.dialect = dialect
            o.objects = true
            o.steps = 50
            o.mentionRate = 0.5
            let lines = NavigationSimulator.generate(o).lines.map { Array($0.utf8) }
            let twice = MessageParser()
            for pass in 0..<2 {
                for line in lines {
                    line.withUnsafeBufferPointer { b in
                        let again = twice.parse(b)
                        guard pass == 1 else { return }
                        let fresh = MessageParser()
                        let first = fresh.parse(b)
                        #expect(Self.describe(again, twice.note) == Self.describe(first, fresh.note), "\(dialect): \(String(decoding: b, as: UTF8.self))")
                        if again != nil { events += 1 }
                    }
                }
            }
        }
        #expect(events > 2_000)
    }

    /// A described object's statement of another instance (`<Home: 0x…>` with another address) is read from the
    /// statement read before with the new address (`MessageParser.describedStatements`), as a parser that never saw either reads it:
    /// the simulated captures' described statements, and hand-made ones, each read again with addresses of every length
    /// (one past what 64 bits hold among them), upper-case digits, and a description after the address that the regex
    /// reads.
    @Test func aDescribedStatementOfAnotherInstanceIsReadAsBefore() {
        var o = NavigationSimulator.Options(seed: 77)
        o.envelope = .bare
        o.dialect = .described
        o.objects = true
        o.steps = 60
        var messages = NavigationSimulator.generate(o).lines
        messages += ["<HomeViewController: 0x7fb1c8d0a200> viewDidAppear:", "<Home: 0x1> willMoveToParentViewController: <Nav: 0x2>",
                     "<Home: 0xabc; frame = (0 0)> viewDidLoad", "<Home: 0x10> viewWillDisappear: YES.", "<Home: 0x10>   dealloc",
                     "<Home: 0x10> -viewDidLoad", "<Home: 0x10> not a callback at all"]
        var r = SplitMix(seed: 9)
        let parser = MessageParser()
        var compared = 0, events = 0
        for message in messages {
            let bytes = Array(message.utf8)
            guard let x = bytes.firstIndex(of: UInt8(ascii: "x")), x > 0, bytes[x - 1] == UInt8(ascii: "0"),
                  let end = bytes[x...].firstIndex(where: { !ByteCursor.isHex($0) }) else { continue }
            for _ in 0..<6 {
                let length = 1 + r.int(17)
                var digits = (0..<length).map { _ in Array("0123456789abcdef".utf8)[r.int(16)] }
                if r.int(4) == 0 { digits = digits.map { $0 >= UInt8(ascii: "a") ? $0 - 32 : $0 } }
                let other = Array(bytes[...x]) + digits + Array(bytes[end...])
                other.withUnsafeBufferPointer { b in
                    let again = parser.parse(b)
                    let fresh = MessageParser()
                    let first = fresh.parse(b)
                    #expect(Self.describe(again, parser.note) == Self.describe(first, fresh.note), "\(String(decoding: b, as: UTF8.self))")
                    compared += 1
                    if again != nil { events += 1 }
                }
            }
        }
        #expect(compared > 300 && events > 200)
    }

    /// A slot holds one statement: another statement with the same slot takes its place, and the first is then read
    /// afresh, never answered with the second's event.
    @Test func aSlotTakenByAnotherStatementAnswersOnlyThatOne() {
        let a = Array("-[HomeViewController viewDidLoad]".utf8), b = Array("-[ListViewController dealloc]".utf8)
        let parser = MessageParser()
        let ea = a.withUnsafeBufferPointer { parser.parse($0) }!, noteA = parser.note
        let eb = b.withUnsafeBufferPointer { parser.parse($0) }!, noteB = parser.note
        var cache = StatementCache()
        var note = MessageParser.Note()
        /// What the cache answers for the message in the slot, described (nil: a miss).
        func hit(_ m: [UInt8], _ slot: Int) -> String? {
            m.withUnsafeBufferPointer { p in
                cache.lookup(slot, p.baseAddress!, p.count).map { ParserFastPathTests.describe(cache.read($0, into: &note)) }
            }
        }
        let da = ParserFastPathTests.describe(ea), db = ParserFastPathTests.describe(eb)
        #expect(da != db)
        a.withUnsafeBufferPointer { cache.insert(7, $0.baseAddress!, $0.count, ea, noteA) }
        #expect(hit(a, 7) == da)
        #expect(hit(a, 8) == nil)
        b.withUnsafeBufferPointer { cache.insert(7, $0.baseAddress!, $0.count, eb, noteB) }
        #expect(hit(a, 7) == nil)
        #expect(hit(b, 7) == db)
        a.withUnsafeBufferPointer { cache.insert(StatementCache.slotCount - 1, $0.baseAddress!, $0.count, ea, noteA) }
        #expect(hit(a, StatementCache.slotCount - 1) == da)
        #expect(hit(b, 7) == db)
        #expect(hit(b, -1) == nil)
    }

    /// A slot rewritten in place by another statement (`Entry.rewrite`) answers with that statement's event and whole note:
    /// nothing of the first stays, whether the first or the second noted a value and a template and the other none.
    @Test func aRewrittenSlotKeepsNothingOfTheStatementBefore() throws {
        var o = NavigationSimulator.Options(seed: 5)
        o.envelope = .bare
        o.dialect = .freeForm
        o.steps = 40
        let parser = MessageParser()
        parser.recordShapes = true
        var read: [(bytes: [UInt8], event: Event, note: MessageParser.Note)] = []
        for line in NavigationSimulator.generate(o).lines {
            let bytes = Array(line.utf8)
            if let e = bytes.withUnsafeBufferPointer({ parser.parse($0) }) { read.append((bytes, e, parser.note)) }
        }
        let noted = try #require(read.first { $0.note.template != nil })
        let plainBytes = Array("-[HomeViewController viewDidLoad]".utf8)
        let plainEvent = try #require(plainBytes.withUnsafeBufferPointer { parser.parse($0) })
        let plain = (bytes: plainBytes, event: plainEvent, note: parser.note)
        #expect(plain.note.template == nil && plain.note.value == nil)
        var cache = StatementCache()
        for (first, second) in [(noted, plain), (plain, noted), (noted, noted), (plain, plain)] {
            for m in [first, second] {
                m.bytes.withUnsafeBufferPointer { cache.insert(11, $0.baseAddress!, $0.count, m.event, m.note) }
                var note = MessageParser.Note()
                let k = m.bytes.withUnsafeBufferPointer { cache.lookup(11, $0.baseAddress!, $0.count) }
                let e = try #require(k.map { cache.read($0, into: &note) })
                #expect(Self.describe(e, note) == Self.describe(m.event, m.note))
            }
            let gone = first.bytes != second.bytes ? first.bytes.withUnsafeBufferPointer { cache.lookup(11, $0.baseAddress!, $0.count) } : nil
            #expect(gone == nil)
        }
    }
}
