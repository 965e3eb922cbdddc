import Testing
@testable import VCLintCore

/// The hand-written reading of `-[Class method:] rest` must give exactly what the `objc` regex gives,
/// on real shapes and on mutations of them (categories, dotted classes, odd whitespace, bytes ≥ 0x80).
@Suite struct ParserFastPathTests {
    static func describe(_ e: Event?) -> String {
        guard let e else { return "nil" }
        return "\(e.kind) \(e.className) \(e.address.map { String($0, radix: 16) } ?? "-") \(e.parent) \(e.dialect)"
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
        var rng = SplitMix(seed: 3)
        let fast = MessageParser(), slow = MessageParser()
        slow.objcFastPath = false
        var compared = 0, events = 0
        for seed in seeds {
            for round in 0..<600 {
                var bytes = Array(seed.utf8)
                if round > 0 {
                    for _ in 0..<Int(1 + rng.next() % 3) {
                        let i = Int(rng.next() % UInt64(bytes.count))
                        switch rng.next() % 3 {
                        case 0: bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                        case 1: if bytes.count > 3 { bytes.remove(at: i) }
                        default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
                        }
                    }
                }
                let (a, b) = bytes.withUnsafeBufferPointer { (fast.parse($0), slow.parse($0)) }
                #expect(Self.describe(a) == Self.describe(b), "\(String(decoding: bytes, as: UTF8.self))")
                compared += 1
                if a != nil { events += 1 }
            }
        }
        #expect(compared == seeds.count * 600)
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
        var rng = SplitMix(seed: 11)
        let fast = MessageParser(), slow = MessageParser()
        slow.twoWordFastPath = false
        var compared = 0, events = 0
        for seed in seeds {
            for round in 0..<500 {
                var bytes = Array(seed.utf8)
                if round > 0 {
                    for _ in 0..<Int(1 + rng.next() % 3) {
                        let i = Int(rng.next() % UInt64(bytes.count))
                        switch rng.next() % 3 {
                        case 0: bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                        case 1: if bytes.count > 3 { bytes.remove(at: i) }
                        default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
                        }
                    }
                }
                let (a, b) = bytes.withUnsafeBufferPointer { (fast.parse($0), slow.parse($0)) }
                #expect(Self.describe(a) == Self.describe(b), "\(String(decoding: bytes, as: UTF8.self))")
                compared += 1
                if a != nil { events += 1 }
            }
        }
        #expect(compared == seeds.count * 500)
        #expect(events > 1_000)
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
                     "1999-12-31 23:59:60+14:00"]
        let alphabet = Array("0123456789:-.,+ TZ".utf8)
        var rng = SplitMix(seed: 5)
        var cache = TimestampParser.MinuteCache()
        var compared = 0, parsed = 0
        for _ in 0..<20_000 {
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
        #expect(compared == 20_000)
        #expect(parsed > 5_000)
    }
}
