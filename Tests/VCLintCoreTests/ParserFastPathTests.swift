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
}
