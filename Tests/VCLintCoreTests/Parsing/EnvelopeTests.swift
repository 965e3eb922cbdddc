import Testing
@testable import VCLintCore

@Suite struct EnvelopeTests {
    struct Parsed {
        let format: EnvelopeFormat?
        let process: String?
        let pid: Int?
        let time: String?
        let message: String
    }

    func parse(_ line: String) -> Parsed {
        var s = line
        return s.withUTF8 { buf in
            let p = buf.baseAddress!
            guard let f = EnvelopeParser.classify(p, buf.count), let info = EnvelopeParser.parse(p, buf.count, format: f) else {
                return Parsed(format: nil, process: nil, pid: nil, time: nil, message: line)
            }
            let process = info.decodedProcess ?? info.process.map { String(decoding: UnsafeBufferPointer(rebasing: buf[$0]), as: UTF8.self) }
            let message = info.decodedMessage.map { String(decoding: $0, as: UTF8.self) }
                ?? String(decoding: UnsafeBufferPointer(rebasing: buf[info.message]), as: UTF8.self)
            return Parsed(format: info.format, process: process, pid: info.pid, time: EnvelopeParser.time(p, buf.count, info: info)?.iso, message: message)
        }
    }

    @Test func nslog() {
        let p = parse("2017-02-11 17:25:16.964 navTest[933:17086] mainViewCtrl invoke viewDidLoad")
        #expect(p.format == .nslog)
        #expect(p.process == "navTest")
        #expect(p.pid == 933)
        #expect(p.time == "2017-02-11T17:25:16.964")
        #expect(p.message == "mainViewCtrl invoke viewDidLoad")
    }

    @Test func nslogWithOffsetAndSpacesInProcessName() {
        let p = parse("2020-04-01 16:30:45.465638+0800 App Name[63209:914637] -[A viewDidLoad]")
        #expect(p.format == .nslogTZ)
        #expect(p.process == "App Name")
        #expect(p.pid == 63209)
        #expect(p.time == "2020-04-01T16:30:45.465638+08:00")
        #expect(p.message == "-[A viewDidLoad]")
    }

    @Test func oslogDefaultStyle() {
        let p = parse("2020-04-01 16:30:45.465638+0800 0x1a2b3c   Default     0x0   63209  0    App Name: (Foundation) [com.example.app:ui] HomeViewController viewDidAppear(_:)")
        #expect(p.format == .oslog)
        #expect(p.process == "App Name")
        #expect(p.pid == 63209)
        #expect(p.message == "HomeViewController viewDidAppear(_:)")
        let bare = parse("2020-04-01 16:30:45.465638+0800 0x1a2b3c   Error       0x0                  63209  0    Shop: done")
        #expect(bare.format == .oslog)
        #expect(bare.message == "done")
        #expect(parse("Timestamp                       Thread     Type        Activity             PID    TTL  ").format == .oslog)
    }

    @Test func compactStyle() {
        let p = parse("2020-04-01 16:30:45.465 Df App[63209:1a2b3c] [com.example:ui] <HomeViewController: 0x7fa1c8d0a200> viewDidLoad")
        #expect(p.format == .compact)
        #expect(p.process == "App")
        #expect(p.pid == 63209)
        #expect(p.message == "<HomeViewController: 0x7fa1c8d0a200> viewDidLoad")
        #expect(parse("Timestamp               Ty Process[PID:TID]").format == .compact)
    }

    @Test func syslogWithAndWithoutLibrary() {
        let p = parse("Apr  1 16:30:45 iPhone App[63209] <Notice>: homeCtrl invoke viewDidLoad")
        #expect(p.format == .syslog)
        #expect(p.process == "App")
        #expect(p.pid == 63209)
        #expect(p.time == "--04-01T16:30:45")
        #expect(p.message == "homeCtrl invoke viewDidLoad")
        let lib = parse("Apr 11 06:30:45 Johns-iPhone Shop(UIKitCore)[812] <Error>: Unbalanced calls")
        #expect(lib.process == "Shop")
        #expect(lib.pid == 812)
        #expect(lib.message == "Unbalanced calls")
    }

    @Test func logShowSyslogStyle() {
        let p = parse("2020-04-01 16:30:45.465638+0800  localhost App Name[63209]: (UIKitCore) [com.apple.UIKit:Presentation] Unbalanced calls")
        #expect(p.process == "Name")  // host and process are both words here; the pid is what matters
        #expect(p.pid == 63209)
        #expect(p.message == "Unbalanced calls")
        let q = parse("2020-04-01 16:30:45.465638+0800  localhost Shop[63209]: <HomeViewController: 0x1> viewDidLoad")
        #expect(q.process == "Shop")
        #expect(q.message == "<HomeViewController: 0x1> viewDidLoad")
    }

    @Test func ndjson() {
        let p = parse(#"{"timestamp" : "2020-04-01 16:30:45.465638+0800", "processID" : 63209, "threadID" : 914637, "eventMessage" : "viewDidLoad:ViewController2 \u2026 \"x\"", "processImagePath" : "/private/var/containers/Bundle/Application/X/App Name.app/App Name", "nested": {"a": [1, {"b": "}"}]}}"#)
        #expect(p.format == .ndjson)
        #expect(p.process == "App Name")
        #expect(p.pid == 63209)
        #expect(p.time == "2020-04-01T16:30:45.465638+08:00")
        #expect(p.message == "viewDidLoad:ViewController2 … \"x\"")
    }

    /// Keys are matched in place; one spelled with an escape is decoded first. Values keep their
    /// escapes' meaning wherever they fall among plain runs.
    @Test func ndjsonEscapesInKeysAndValues() throws {
        let line = #"{"\u0065ventMessage":"a\"b\\c\u00e9\/d","process\u0049D":7,"processID":"x","timestamp":"2020-04-01 16:30:45.465638+0800","process":"Shop","eventMessageX":"no"}"#
        let fields = try #require(Array(line.utf8).withUnsafeBufferPointer { NDJSONLine.parse($0.baseAddress!, $0.count) })
        #expect(fields.eventMessage.map { String(decoding: $0, as: UTF8.self) } == "a\"b\\cé/d")
        #expect(fields.processID == 7)  // the string value of the second `processID` is skipped
        #expect(fields.process.map { String(decoding: $0, as: UTF8.self) } == "Shop")
        let empty = try #require(Array(#"{"eventMessage":"","threadID":5}"#.utf8).withUnsafeBufferPointer { NDJSONLine.parse($0.baseAddress!, $0.count) })
        #expect(empty.eventMessage == [] && empty.threadID == 5)
    }

    /// What a long object keeps for its time sample reads back as the same process, pid and time.
    @Test func ndjsonTimeCarrier() throws {
        let long = #"{"eventMessage":"\#(String(repeating: "n", count: 5000))","processImagePath":"\/App\/Sh\"op","timestamp":"2020-04-01 16:30:45.465638+0800","processID":63209,"threadID":3}"#
        let fields = try #require(Array(long.utf8).withUnsafeBufferPointer { NDJSONLine.parse($0.baseAddress!, $0.count) })
        let carrier = fields.timeCarrier
        #expect(carrier.count < 200)
        let back = try #require(carrier.withUnsafeBufferPointer { NDJSONLine.parse($0.baseAddress!, $0.count) })
        #expect(back.timestamp == fields.timestamp && back.processID == 63209 && back.threadID == 3)
        #expect(back.processImagePath == fields.processImagePath && back.eventMessage == [])
        let p = parse(String(decoding: carrier, as: UTF8.self))
        #expect(p.pid == 63209 && p.process == "Sh\"op" && p.time == "2020-04-01T16:30:45.465638+08:00")
    }

    @Test func malformedJSONIsNotAnEnvelope() {
        #expect(parse(#"{"eventMessage": "unterminated"#).format == nil)
        #expect(parse(String(repeating: "[", count: 100_000)).format == nil)
        let deep = String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        #expect(parse(deep).format == .ndjson)  // skipped iteratively, no recursion
    }

    @Test func bareAndContinuationLines() {
        #expect(parse("HomeViewController viewWillAppear(_:)").format == nil)
        #expect(parse("    \"state\" = viewDidAppear;").format == nil)
        #expect(parse("2017-02-11 not a time").format == nil)
        #expect(parse("Apr is a month").format == nil)
    }
}

/// The NSLog envelope cache gives what parsing from scratch gives, line after line, whatever the
/// line before was: same or another process, pid or thread, brackets in the name, no space after
/// `]`, lines that end at or inside the cached bytes, timestamps of other lengths.
@Suite struct NSLogCacheTests {
    static func describe(_ info: EnvelopeInfo?) -> String {
        guard let info else { return "nil" }
        return "\(info.format) \(info.process.map { "\($0)" } ?? "-") \(info.pid.map { "\($0)" } ?? "-") \(info.message) \(info.isMetadata) "
            + "\(info.thread) \(info.tag.map { "\($0)" } ?? "-") \(info.time?.iso ?? "-") \(info.decodedProcess ?? "-") \(info.decodedMessage?.count ?? -1)"
    }

    /// `EnvelopeParser.read` (one envelope read into, line after line) gives what `parse` gives, and leaves the envelope
    /// as it was for a line without one.
    @Test func cachedEnvelopesEqualFreshOnes() {
        let seeds = ["2020-04-01 16:30:45.465638+0800 App Name[63209:914637] -[A viewDidLoad]",
                     "2020-04-01 16:30:45.465638+0800 App Name[63209:914637] x",
                     "2020-04-01 16:30:45.4+0800 App Name[63209:914637] x",
                     "2017-02-11 17:25:16.964 navTest[933:17086] mainViewCtrl invoke viewDidLoad",
                     "2017-02-11 17:25:16.964 navTest[933:17086]", "2017-02-11 17:25:16.964 nav[1]Test[933:1a] y",
                     "2017-02-11 17:25:16.964 navTest[933:17086]x y", "2017-02-11 17:25:16.964  navTest[933:17086] z",
                     "2024-03-01T22:13:28+0000 host App(Lib)[12]: syslog style",
                     #"{"eventMessage":"-[A viewDidLoad]","processImagePath":"/x/App Name","processID":63209,"threadID":9}"#]
        let alphabet = Array("0123456789[]: xA.+".utf8)
        var rng = SplitMix(seed: 21)
        var cache = EnvelopeParser.NSLogCache(), readCache = EnvelopeParser.NSLogCache()
        var out = EnvelopeInfo(format: .bare, message: 0..<0)
        var compared = 0, parsed = 0
        for _ in 0..<20_000 {
            var bytes = Array(seeds[Int(rng.next() % UInt64(seeds.count))].utf8)
            switch rng.next() % 4 {
            case 0:
                let i = 24 + Int(rng.next() % UInt64(bytes.count - 24))
                bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            case 1: bytes = Array(bytes.prefix(30 + Int(rng.next() % UInt64(bytes.count - 29))))
            default: break
            }
            bytes.withUnsafeBufferPointer { b in
                let p = b.baseAddress!
                guard let format = EnvelopeParser.classify(p, b.count), format != .bare else { return }
                let fresh = EnvelopeParser.parse(p, b.count, format: format)
                let cached = EnvelopeParser.parse(p, b.count, format: format, cache: &cache)
                #expect(Self.describe(fresh) == Self.describe(cached), "\(String(decoding: bytes, as: UTF8.self))")
                let before = Self.describe(out)
                let read = EnvelopeParser.read(p, b.count, format: format, cache: &readCache, into: &out)
                #expect(Self.describe(read ? out : nil) == Self.describe(fresh), "\(String(decoding: bytes, as: UTF8.self))")
                if !read { #expect(Self.describe(out) == before) }
                if fresh != nil { parsed += 1 }
                compared += 1
            }
        }
        #expect(compared > 15_000)
        #expect(parsed > 10_000)
    }
}
