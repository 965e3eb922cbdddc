import Testing
@testable import VCLintCore
import VCLintSimulation

/// The readings that take threadtime's usual line at its fixed places, and the byte helpers under the logcat
/// readers, give what the general readings give: on real lines, their near misses and random edits of them.
@Suite struct LogcatFastPathTests {
    static func describe(_ f: LogcatEnvelope.Fields?) -> String {
        guard let f else { return "nil" }
        return "\(f.pid.map(String.init) ?? "-") \(f.process.map { "\($0)" } ?? "-") \(f.tag.map { "\($0)" } ?? "-") \(f.message)"
    }

    static func describe(_ t: LogTime?) -> String {
        guard let t else { return "nil" }
        return "\(t.seconds.bitPattern) \(t.iso)"
    }

    static let seeds = [
        "01-05 09:00:00.002  4000  4000 D MainActivity: onCreate() called",
        "01-05 09:00:00.038  4000  4000 W System.err: \tat com.example.app.DetailActivity.onCreate(DetailActivity.kt:73)",
        "12-31 23:59:59.999 12345 12346 I ActivityTaskManager: Displayed com.example/.MainActivity: +1s230ms",
        "02-29 00:00:00.000     1     1 E Tag﹕ message", "01-05 09:00:00.002  4000  4000 D Tag:", "01-05 09:00:00.002  4000  4000 D Tag:x: y",
        "01-05 09:00:00.002  4000  4000 D LongTagWithoutSeparatorAtAll", "01-05 09:00:00.002 u0_a12  4000  4000 D Tag: m",
        "01-05 09:00:00.002  10123  4000  4000 D Tag: uid column", "01-05 09:00:00.002 +0000  4000  4000 D Tag: zone",
        "2024-01-05 09:00:00.002  4000  4000 D Tag: with a year", "01-05 09:00:00.0021  4000  4000 D Tag: four digits",
        "01-05 09:00:00.002\t4000  4000 D Tag: tab", "01-05 09:00:00.002  4000\t4000 D Tag: tab", "01-05 09:00:00.002  4000  4000 D\tTag: t",
        "01-05 09:00:00.002  4000  4000 X Tag: no level", "01-05 09:00:00.002  4000-4000/com.example D/Tag: studio",
        "13-45 25:61:62.002  4000  4000 D Tag: out of range", "00-00 00:00:00.000  4000  4000 D Tag: zeros",
        "01-05 09:00:00.002  1234567890  4000 D Tag: ten digits", "01-05 09:00:00.002  123456789  4000 D Tag: nine digits",
        "01-05 09:00:00.002  4000  4000 D Tag : spaced", "01-05 09:00:00.002  4000  4000 D  Tag: two spaces",
        "01-05 09:00:00.002  4000  4000 D Ťäg: ünïcode", "01-05 09:00:00.002  4000  4000 D 標籤: 訊息",
    ]

    /// Random edits of the seeds (bytes replaced, removed or inserted), among them digits, separators and bytes ≥ 0x80.
    static func mutations(rounds: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix(seed: seed)
        let alphabet = Array("0123456789 -:.\tDIWEVFAX/u_aT:".utf8) + [0xEF, 0xB9, 0x95, 0xC3, 0xA9, 0xFF]
        var out: [[UInt8]] = []
        for s in seeds {
            for round in 0..<rounds {
                var b = Array(s.utf8)
                if round > 0 { rng.edit(&b, from: alphabet) }
                out.append(b)
            }
        }
        return out
    }

    /// `LogcatEnvelope.isThreadtimeStamp`'s check a byte at a time: digits and punctuation at their places.
    static func isThreadtimeStampByteByByte(_ b: [UInt8]) -> Bool {
        guard b.count > 18 else { return false }
        let punctuation: [Int: UInt8] = [2: UInt8(ascii: "-"), 5: UInt8(ascii: " "), 8: UInt8(ascii: ":"), 11: UInt8(ascii: ":"),
                                         14: UInt8(ascii: "."), 18: UInt8(ascii: " ")]
        for k in 0...18 {
            if let want = punctuation[k] {
                if b[k] != want { return false }
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[k]) {
                return false
            }
        }
        return true
    }

    /// Every byte value at every place of a stamp, and random pairs of them: the word-at-a-time check says what the
    /// byte-at-a-time one says (a byte next to a digit's range, `/` and `:`, or with a digit's low half, `0xB5`, among them).
    @Test func threadtimeStampCheckIsTheByteByByteCheck() {
        let stamp = Array("12-31 23:59:59.999 4000".utf8)
        var rng = SplitMix(seed: 35)
        var cases: [[UInt8]] = [stamp, Array(stamp.prefix(19)), Array(stamp.prefix(18))]
        for k in 0...18 {
            for v in 0...255 {
                var b = stamp
                b[k] = UInt8(v)
                cases.append(b)
            }
        }
        for _ in 0..<20_000 {
            var b = stamp
            for _ in 0..<2 { b[Int(rng.next() % 19)] = UInt8(truncatingIfNeeded: rng.next()) }
            cases.append(b)
        }
        var accepted = 0
        for b in cases {
            let fast = b.withUnsafeBufferPointer { LogcatEnvelope.isThreadtimeStamp($0.baseAddress!, $0.count) }
            #expect(fast == Self.isThreadtimeStampByteByByte(b), "\(b)")
            if fast { accepted += 1 }
        }
        // The stamp itself, and each digit replaced by each digit.
        #expect(accepted >= 2 + 13 * 10)
    }

    @Test func threadtimeFieldsAreTheGeneralReadingsFields() {
        var fast = 0
        for b in Self.mutations(rounds: 800, seed: 7) {
            b.withUnsafeBufferPointer { buf in
                guard let p = buf.baseAddress else { return }
                let a = LogcatEnvelope.fields(p, buf.count), g = LogcatEnvelope.anyFields(p, buf.count)
                #expect(Self.describe(a) == Self.describe(g), "\(String(decoding: buf, as: UTF8.self))")
                if a != nil { fast += 1 }
            }
        }
        #expect(fast > 5_000)
    }

    @Test func threadtimeTimesAreTheGeneralReadingsTimes() {
        var cacheA = TimestampParser.MinuteCache(), cacheB = TimestampParser.MinuteCache()
        var read = 0
        for b in Self.mutations(rounds: 800, seed: 11) {
            b.withUnsafeBufferPointer { buf in
                guard let p = buf.baseAddress else { return }
                let a = LogcatEnvelope.time(p, buf.count, cache: &cacheA), g = LogcatEnvelope.anyTime(p, buf.count, cache: &cacheB)
                #expect(Self.describe(a) == Self.describe(g), "\(String(decoding: buf, as: UTF8.self))")
                if a != nil { read += 1 }
            }
        }
        #expect(read > 5_000)
    }

    /// Every line of simulated threadtime captures: the same fields and time either way.
    @Test func simulatedLinesReadAlike() {
        var lines = 0
        var cacheA = TimestampParser.MinuteCache(), cacheB = TimestampParser.MinuteCache()
        for seed in 1...4 {
            var o = AndroidSimulator.Options(seed: UInt64(seed))
            o.format = .threadtime
            o.leakCanary = true
            o.steps = 80
            for line in AndroidSimulator.generate(o).lines {
                var copy = line
                copy.withUTF8 { b in
                    guard let p = b.baseAddress else { return }
                    lines += 1
                    #expect(Self.describe(LogcatEnvelope.fields(p, b.count)) == Self.describe(LogcatEnvelope.anyFields(p, b.count)), "\(line)")
                    #expect(Self.describe(LogcatEnvelope.time(p, b.count, cache: &cacheA))
                        == Self.describe(LogcatEnvelope.anyTime(p, b.count, cache: &cacheB)), "\(line)")
                }
            }
        }
        #expect(lines > 1_000)
    }

    @Test func aWordOfEightBytesHoldsTheByteItHolds() {
        var rng = SplitMix(seed: 5)
        for _ in 0..<20_000 {
            var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let wanted: UInt8 = rng.next() % 2 == 0 ? .colon : 0xEF
            if rng.next() % 3 == 0 { bytes[Int(rng.next() % 8)] = wanted }
            // Neighbours of the byte (one more, one less) must not count.
            if rng.next() % 3 == 0 { bytes[Int(rng.next() % 8)] = wanted &+ 1 }
            let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(LogcatEnvelope.hasByte(w, wanted) == bytes.contains(wanted), "\(bytes)")
        }
    }

    /// The sets of bits say what the comparisons said: `\w` is ASCII's letters, digits and `_`; a Java name's byte also `$`.
    @Test func wordBytesAreWordsAndDollars() {
        for b in UInt8.min...UInt8.max {
            let word = ByteCursor.isDigit(b) || (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || b == .underscore
            #expect(ByteCursor.isWord(b) == word, "\(b)")
            #expect(ByteCursor.isJavaNameByte(b) == (word || b == .dollar), "\(b)")
        }
    }

    /// `LogcatStatement.find` is the first occurrence, as a naive search says, on random texts over a small alphabet.
    @Test func findIsTheFirstOccurrence() {
        var rng = SplitMix(seed: 9)
        let needles: [StaticString] = [" received ", "because ", "cmp=", ": +", "x", "ab", "aba", "Can't access the Fragment View's LifecycleOwner"]
        for _ in 0..<4_000 {
            let hay = (0..<Int(rng.next() % 40)).map { _ in Array("ab cmp=:+x".utf8)[Int(rng.next() % 10)] }
            for needle in needles {
                let n = needle.withUTF8Buffer { Array($0) }
                var naive: Int?
                if hay.count >= n.count {
                    for i in 0...(hay.count - n.count) where Array(hay[i..<(i + n.count)]) == n { naive = i; break }
                }
                let found = hay.withUnsafeBufferPointer { LogcatStatement.find($0, needle) }
                #expect(found == naive, "\(String(decoding: hay, as: UTF8.self)) \(needle)")
            }
        }
    }

    /// `ObjectNames.androidStem` by bytes against its reading by `Character`s (the one it replaced).
    @Test func anAndroidStemIsReadAsBefore() {
        func byCharacters(_ name: String) -> String {
            var last = ObjectNames.lastComponent(name)
            for suffix in ["Activity", "Fragment"] where last.hasSuffix(suffix) && last.count > suffix.count {
                last = last.dropLast(suffix.count)
                break
            }
            return ObjectNames.stem(String(last))
        }
        let names = [
            "MainActivity", "com.example.MainFragment", "Activity", "Fragment", "com.example.Activity", "MainViewModel",
            "DetailsActivityActivity", "SettingsHomepageActivity", "ÉcranActivity", "a.b.", "", "MainActivity.", ".Fragment",
            "Outer$InnerFragment", "MainActivityViewModel", "HomeScreen Activity", "com.example.ui.HomeViewModelFragment", "xActivity",
            "écranFragment", "日本Activity", "MainActivitY", "Activity.Fragment",
        ]
        for name in names { #expect(ObjectNames.androidStem(name) == byCharacters(name), "\(name)") }
    }

    @Test func recentClassesAreFoundUntilFourOthersCame() {
        let recent = RecentClasses()
        let classes = (0..<6).map { _ in AndroidClass(entry: Instrumentation().entry("X", dialect: .logcat)) }
        #expect(recent.find("A") == nil)
        recent.remember("A", classes[0])
        recent.remember("SettingsHomepageActivity", classes[1])
        #expect(recent.find("A") === classes[0])
        #expect(recent.find(String("SettingsHomepage") + "Activity") === classes[1])
        recent.remember("C", classes[2])
        recent.remember("D", classes[3])
        recent.remember("E", classes[4])  // takes A's place
        #expect(recent.find("A") == nil)
        #expect(recent.find("E") === classes[4])
        #expect(recent.find("D") === classes[3])
        #expect(recent.find("") == nil)
    }

    /// A logcat line as the stage sees what the parser made of it.
    static func describe(_ l: ParsedLine) -> String {
        let e = l.event
        return "\(l.kind) \(e.kind.rawValue) \(e.className) \(e.address.map(String.init) ?? "-") \(e.dialect) \(e.time.map { "\($0.seconds)" } ?? "-") "
            + "\(l.process ?? "-") \(l.pid.map(String.init) ?? "-") \(l.message) \(l.frame.map { "\($0)" } ?? "-") \(l.evidence.map { "\($0)" } ?? "-")"
    }

    /// A message that said nothing says nothing again (`LogcatNoise`): the lines of simulated captures in every format,
    /// read twice by one parser (the second time its noise, mentions and frames come from the cache), read as a parser
    /// that never saw them reads them.
    @Test func aMessageThatSaidNothingSaysItAgain() {
        var cached = 0
        for (k, format) in AndroidSimulator.Format.allCases.enumerated() {
            var o = AndroidSimulator.Options(seed: UInt64(40 + k))
            o.format = format
            o.leakCanary = k % 2 == 0
            o.steps = 60
            o.mentionRate = 0.5
            o.fault = AndroidSimulator.Fault.allCases[k % AndroidSimulator.Fault.allCases.count]
            let lines = AndroidSimulator.generate(o).lines.map { Array($0.utf8) }
            let twice = LineParser(customDialects: [])
            for pass in 0..<2 {
                for line in lines {
                    line.withUnsafeBufferPointer { b in
                        guard let p = b.baseAddress else { return }
                        let a = twice.parse(p, b.count, format: .logcat, afterEnvelope: false)
                        guard pass == 1 else { return }
                        let fresh = LineParser(customDialects: []).parse(p, b.count, format: .logcat, afterEnvelope: false)
                        #expect(Self.describe(a) == Self.describe(fresh), "\(format): \(String(decoding: b, as: UTF8.self))")
                        if a.kind == .none || a.kind == .unread { cached += 1 }
                    }
                }
            }
        }
        #expect(cached > 1_000)
    }

    /// `ByteKeyTable` finds what a dictionary finds: keys shorter than, as long as and longer than a word, their near
    /// misses (a byte changed, one more or one fewer) and random words.
    @Test func aByteKeyTableFindsWhatADictionaryFinds() {
        let keys = ["a", "on", "onStop", "onStart", "onCreate", "onResume", "onDetach", "onCreateView", "onCreateViews", "onViewCreated",
                    "onSaveInstanceState", "onDestroy", "onDestroyView", "onPause", "abcdefgh", "abcdefgi", "abcdefghi"]
        let dictionary = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let table = ByteKeyTable(dictionary)
        var rng = SplitMix(seed: 11)
        var probes = keys.map { Array($0.utf8) }
        for key in keys {
            var b = Array(key.utf8)
            probes.append(b + [UInt8(ascii: "x")])
            probes.append(Array(b.dropLast()))
            for _ in 0..<20 {
                b = Array(key.utf8)
                b[Int(rng.next() % UInt64(b.count))] = Array("aonSxtz0".utf8)[Int(rng.next() % 8)]
                probes.append(b)
            }
        }
        for _ in 0..<2_000 { probes.append((0..<Int(rng.next() % 14)).map { _ in Array("onStaeCrtx".utf8)[Int(rng.next() % 10)] }) }
        var found = 0
        for probe in probes {
            let value = probe.withUnsafeBufferPointer { table.value($0) }
            #expect(value == dictionary[String(decoding: probe, as: UTF8.self)], "\(String(decoding: probe, as: UTF8.self))")
            if value != nil { found += 1 }
        }
        #expect(found >= keys.count)
    }
}
