import Testing
@testable import VCLintCore

/// An instance keeps its pending will and its last viewDidDisappear as a line ref and an 8-byte time
/// (`PackedTime`, which keeps a live controller small: docs/performance.md#memory); what is read back must
/// be the time that was set, bit for bit.
@Suite struct PackedTimeTests {
    static func instance(_ times: PackedTime.Table = PackedTime.Table()) -> Instance {
        Instance(serial: 1, entry: Instrumentation.ClassEntry(name: "A", dialect: .objcFunction, times: times),
                 address: nil, generation: 1, dialect: .objcFunction, line: 1)
    }

    @Test(arguments: [3, 11, 2024])
    func parsedTimesReadBackBitForBit(seed: UInt64) throws {
        var r = SplitMix(seed: seed)
        let times = PackedTime.Table()
        var packed = 0
        for line in 1...3_000 {
            let digits = r.int(10)
            let fraction = digits == 0 ? "" : "." + (0..<digits).map { _ in String(r.int(10)) }.joined()
            let offsets = ["", "Z", "+08:00", "-0530", "+0000", "-12:00"]
            let syslog = r.int(4) == 0
            let text = syslog
                ? "\(["Jan", "Feb", "Mar", "Dec"][r.int(4)]) \(1 + r.int(28)) \(String(format: "%02d:%02d:%02d", r.int(24), r.int(60), r.int(60)))\(fraction)"
                : String(format: "%04d-%02d-%02d %02d:%02d:%02d", 1970 + r.int(100), 1 + r.int(12), 1 + r.int(28), r.int(24), r.int(60), r.int(61))
                    + fraction + offsets[r.int(offsets.count)]
            let t = try #require(CompactTimeTests.parsed(text, syslog: syslog), "\(text)")
            if times.pack(t) != nil { packed += 1 }
            let inst = Self.instance(times)
            let will = EventRef(line: line, time: t, kind: .viewWillDisappear)
            let did = EventRef(line: line + 1, time: r.bool() ? t : nil, kind: .viewDidDisappear)
            inst.pendingWill = will
            inst.lastDidDisappear = did
            #expect(inst.pendingWill == will, "\(text)")
            #expect(inst.pendingWill?.time?.seconds.bitPattern == t.seconds.bitPattern && inst.pendingWill?.time?.iso == t.iso, "\(text)")
            #expect(inst.lastDidDisappear == did && inst.lastDidDisappear?.line == line + 1)
            inst.pendingWill = nil
            #expect(inst.pendingWill == nil && inst.lastDidDisappear == did)
        }
        // Parsed stamps pack (their seconds are their fields').
        #expect(packed == 3_000)
    }

    @Test func aTimeThatDoesNotPackIsKeptWhole() {
        let inst = Self.instance()
        // Seconds that are not what the fields give (a caller's own), and a fraction of 10 digits.
        let odd = LogTime(seconds: 12.5, year: 2024, month: 3, day: 1, hour: 10, minute: 0, second: 0,
                          fraction: 0, fractionDigits: 0, offsetMinutes: nil)
        let wide = LogTime(seconds: 0, year: 2024, month: 3, day: 1, hour: 10, minute: 0, second: 0,
                           fraction: 4_000_000_000, fractionDigits: 10, offsetMinutes: 60)
        #expect(inst.entry.times.pack(odd) == nil && inst.entry.times.pack(wide) == nil)
        let a = EventRef(line: 7, time: odd, kind: .viewWillAppear)
        inst.pendingWill = a
        #expect(inst.pendingWill == a && inst.pendingWill?.time?.seconds == 12.5)
        let b = EventRef(line: 9, time: wide, kind: .viewDidDisappear)
        inst.lastDidDisappear = b
        #expect(inst.lastDidDisappear == b && inst.pendingWill == a)
        // Packable again: the whole copy goes.
        let plain = CompactTimeTests.parsed("2024-03-01 10:00:01.250")!
        inst.pendingWill = EventRef(line: 8, time: plain, kind: .viewWillDisappear)
        #expect(inst.pendingWill?.time == plain && inst.pendingWill?.line == 8)
        #expect(inst.lastDidDisappear == b)
        inst.lastDidDisappear = nil
        #expect(inst.lastDidDisappear == nil)
    }

    /// The table remembers the seconds of the words it packed and read last (`Table`'s memo): a time reads back bit for
    /// bit whether its word is still remembered or long since replaced, and a time whose seconds are not its fields'
    /// does not pack, even right after a time with the same fields did.
    @Test func rememberedSecondsAreTheFieldsSeconds() throws {
        let times = PackedTime.Table()
        var r = SplitMix(seed: 5)
        var kept: [(word: UInt64, time: LogTime)] = []
        for _ in 0..<2_000 {
            let text = String(format: "2024-03-01 %02d:%02d:%02d.%06d+0800", r.int(24), r.int(60), r.int(60), r.int(1_000_000))
            let t = try #require(CompactTimeTests.parsed(text))
            let v = try #require(times.pack(t), "\(text)")
            #expect(times.pack(t) == v)
            var odd = t
            odd.seconds += 0.5
            #expect(times.pack(odd) == nil, "\(text)")
            kept.append((v, t))
            // Read back now, and one packed long before (its memo slot taken by others since).
            for k in [kept.count - 1, r.int(kept.count)] {
                let back = times.unpack(kept[k].word)
                #expect(back == kept[k].time && back.seconds.bitPattern == kept[k].time.seconds.bitPattern)
            }
        }
        #expect(times.count == 1)
    }

    @Test func datesAreSharedAndFew() {
        let times = PackedTime.Table()
        for s in 0..<5_000 {
            let t = CompactTimeTests.parsed(String(format: "2024-03-01 10:%02d:%02d.%03d+0800", s / 60 % 60, s % 60, s % 1000))!
            #expect(times.pack(t) != nil)
        }
        #expect(times.count == 1)
    }
}
