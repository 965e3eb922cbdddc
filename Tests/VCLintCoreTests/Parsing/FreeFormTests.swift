import Testing
@testable import VCLintCore

/// Lifecycle statements in the app's own words (docs/lifecycle.md#free-form-lifecycle-statements):
/// the shapes real captures print, read without configuration, and the sentences around
/// callback names that must stay noise.
@Suite struct FreeFormTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let message: String
        let kind: EventKind
        let className: String
        var testDescription: String { message }
    }

    static let statements: [Case] = [
        // The shapes of the issue, from real captures.
        Case(message: "111-[ViewController viewDidLoad]", kind: .viewDidLoad, className: "ViewController"),
        Case(message: "[Main] viewWillAppear", kind: .viewWillAppear, className: "Main"),
        Case(message: "FirstViewController :loadView", kind: .loadView, className: "FirstViewController"),
        Case(message: "vc1 \u{2013} viewDidLoad", kind: .viewDidLoad, className: "vc1"),
        Case(message: "vc2 \u{2014} viewWillDisappear", kind: .viewWillDisappear, className: "vc2"),
        Case(message: "AMKMethodSwizzlingDemo 2 viewWillAppear", kind: .viewWillAppear, className: "AMKMethodSwizzlingDemo 2"),
        Case(message: "One ViewWillDisappear ", kind: .viewWillDisappear, className: "One"),
        Case(message: "viewWillAppear: 2 UIDeviceRGBColorSpace 1 0.5 0 1", kind: .viewWillAppear, className: MessageParser.unnamed),
        Case(message: "viewDidLoad", kind: .viewDidLoad, className: MessageParser.unnamed),
        Case(message: "-------------------------------------------------------------- ChatOneActivity ViewDidLoad", kind: .viewDidLoad, className: "ChatOneActivity"),
        Case(message: "viewWillLayoutSubviews() - Optional((162.0, 308.0, 50.0, 50.0))", kind: .viewWillLayoutSubviews, className: MessageParser.unnamed),
        Case(message: "viewDidLoad 0D2C7F77-A822-4EF7-A0DA-D4C91F71B118", kind: .viewDidLoad, className: "0D2C7F77-A822-4EF7-A0DA-D4C91F71B118"),
        // Spellings, separators, decoration, arguments.
        Case(message: "loadView()", kind: .loadView, className: MessageParser.unnamed),
        Case(message: "deinit", kind: .dealloc, className: MessageParser.unnamed),
        Case(message: "Deinit", kind: .dealloc, className: MessageParser.unnamed),
        Case(message: "LoadView", kind: .loadView, className: MessageParser.unnamed),
        Case(message: "ViewIsAppearing", kind: .viewIsAppearing, className: MessageParser.unnamed),
        Case(message: "HomeViewController viewIsAppearing(_:)", kind: .viewIsAppearing, className: "HomeViewController"),
        Case(message: "\u{1F535} HomeVC.swift:42 viewDidLoad()", kind: .viewDidLoad, className: "HomeVC"),
        Case(message: "[HomeVC.swift:42] viewDidLoad()", kind: .viewDidLoad, className: "HomeVC"),
        Case(message: "DEBUG HomeViewController viewWillAppear(_:)", kind: .viewWillAppear, className: "HomeViewController"),
        Case(message: "[INFO] Shop.HomeViewController | viewDidAppear(animated:) true", kind: .viewDidAppear, className: "HomeViewController"),
        Case(message: "\u{2022} Home -> viewDidAppear", kind: .viewDidAppear, className: "Home"),
        Case(message: "Checkout => viewDidDisappear: YES", kind: .viewDidDisappear, className: "Checkout"),
        Case(message: "Checkout :: viewDidDisappear", kind: .viewDidDisappear, className: "Checkout"),
        Case(message: "Settings, viewWillDisappear", kind: .viewWillDisappear, className: "Settings"),
        Case(message: "Settings > viewWillDisappear (null)", kind: .viewWillDisappear, className: "Settings"),
        Case(message: "*** Cart viewDidLoad ***", kind: .viewDidLoad, className: "Cart"),
        Case(message: "[Lifecycle] viewDidAppear", kind: .viewDidAppear, className: MessageParser.unnamed),
        Case(message: "[Feed] [Page 2] viewDidAppear", kind: .viewDidAppear, className: "Page 2"),
        Case(message: "viewDidAppear called", kind: .viewDidAppear, className: MessageParser.unnamed),
        Case(message: "<Shop.HomeViewController: 0x7fa1c8d0a200> - viewDidDisappear", kind: .viewDidDisappear, className: "HomeViewController"),
        Case(message: "viewDidLoad <DetailViewController: 0x600003d0c000>", kind: .viewDidLoad, className: "DetailViewController"),
        Case(message: "viewDidLoad:ViewController2", kind: .viewDidLoad, className: "ViewController2"),
        Case(message: "Calling viewDidLoad", kind: .viewDidLoad, className: MessageParser.unnamed),
        Case(message: "\u{FEFF}\u{A0}HomeViewController\u{A0}viewDidLoad\u{A0}", kind: .viewDidLoad, className: "HomeViewController"),
        Case(message: "ChildViewController willMove(toParent:) ContainerViewController", kind: .willMoveToParent, className: "ChildViewController"),
        Case(message: "ChildViewController DidMoveToParentViewController", kind: .didMoveToParent, className: "ChildViewController"),
        // A bare name after an unlabelled move is its label (a parent prints as an object or nil).
        Case(message: "---- willMoveToParentViewController: Shop.ChildViewController", kind: .willMoveToParent, className: "ChildViewController"),
        Case(message: "didMove(toParent:) ChildViewController", kind: .didMoveToParent, className: "ChildViewController"),
        Case(message: "*** WillMove: [ChildViewController]", kind: .willMoveToParent, className: "ChildViewController"),
        Case(message: "willMove(toParent:) <Shop.ContainerViewController: 0x600003d0c000>", kind: .willMoveToParent, className: MessageParser.unnamed),
        Case(message: "\u{8FDB}\u{5165} viewDidLoad", kind: .viewDidLoad, className: "\u{8FDB}\u{5165}"),
    ]

    @Test(arguments: statements)
    func statementIsRead(_ c: Case) throws {
        let parser = MessageParser()
        let e = try #require(parser.parse(c.message), "\(c.message) was not read")
        #expect(e.kind == c.kind)
        #expect(e.className == c.className)
    }

    /// Sentences around callback names, code, stack frames, two callbacks: noise, counted as
    /// lines that mention a callback (so an unread capture never looks clean).
    static let mentions: [String] = [
        "[Analytics] queued screen event viewDidAppear for HomeViewController",
        "HomeViewController viewDidAppear for analytics",
        "Calling viewDidLoad twice is bad",
        "[Debug] swizzled viewWillAppear: and dealloc on UIViewController for tracking",
        "[Memory] footprint 212 MB after didReceiveMemoryWarning from the system",
        "viewDidAppear took 35 ms",
        "HomeViewController viewDidAppear took 35 ms",
        "Screen: HomeViewController viewDidAppear",
        "override func viewDidLoad()",
        "func viewDidLoad() {",
        "- (void)viewDidLoad {",
        "[super viewDidLoad];",
        "super.viewDidLoad()",
        "__29-[ViewController viewDidLoad]_block_invoke",
        "3   MyApp   0x00003001 -[ViewController viewWillAppear:] + 145",
        "Configurator de-init",
        "re-init",
        "skipping viewDidLoad",
        "Will call viewDidLoad later",
        "viewWillAppear → viewDidAppear",
        "{\"event\": \"viewDidAppear\", \"screen\": \"Home\"}",
        "Warning: viewDidAppear was not called",
        "\u{8C03}\u{7528}viewDidLoad\u{65B9}\u{6CD5}",
        "viewDidLoad of HomeViewController finished loading data",
        "[INFO] (-[LifeCycleTestViewController viewWillDisappear:]) - Called for object <LifeCycleTestViewController: 0x8b37770>, animated = YES",
    ]

    @Test(arguments: mentions)
    func mentionStaysNoiseAndIsCounted(_ message: String) {
        let parser = MessageParser()
        #expect(parser.parse(message) == nil, "\(message) was read as an event")
        #expect(parser.note.unread, "\(message) mentions a callback: it counts as unread")
    }

    /// A view's moves are not the controller's: `willMove(toWindow:)`, `didMove(toSuperview:)`.
    @Test func viewMovesAreNotControllerMoves() {
        for m in ["willMove(toWindow:) HomeView", "BannerView didMove(toSuperview:)", "-[BannerView willMoveToSuperview:]"] {
            #expect(MessageParser().parse(m) == nil, "\(m) was read as an event")
        }
    }

    /// A callback name inside another word is not a mention.
    static let notMentions: [String] = [
        "*** -[NSObject dealloced] zombie", "MLeaksFinder: -willDealloc not called", "initialize", "preloadViews done",
        "_viewDidLoad swizzle", "viewDidLoadData", "[Router] will present login if the token expires (dismiss later)",
    ]

    @Test(arguments: notMentions)
    func wordThatContainsACallbackIsNotAMention(_ message: String) {
        let parser = MessageParser()
        #expect(parser.parse(message) == nil)
        #expect(!parser.note.unread, "\(message) does not mention a callback as a word")
    }

    /// The noise cache answers a repeated shape as the first reading did (digits aside).
    @Test func noiseShapesAnswerAsTheFirstReading() {
        let parser = MessageParser()
        for n in [7, 1234, 5, 987_654] {
            #expect(parser.parse("[Memory] footprint \(n) MB after didReceiveMemoryWarning from the system") == nil)
            #expect(parser.note.unread)
            #expect(parser.parse("[Network] GET /v2/feed?page=\(n) -> 200") == nil)
            #expect(!parser.note.unread)
        }
        // A statement is never answered from the cache: only noise is remembered.
        for n in 1...3 {
            #expect(parser.parse("AMKMethodSwizzlingDemo \(n) viewWillAppear")?.className == "AMKMethodSwizzlingDemo \(n)")
        }
    }

    // MARK: - In context (the stage)

    @Test func printedValueNamesThePageWhenTheCaptureShowsIt() throws {
        let r = try lintFixture("Fixtures/formats/value-labels.log")
        #expect(r.findings.isEmpty, "\(r.summary)")
        var o = LintOptions()
        o.timeline.recordTimeline = true
        let rec = try #require(try lintFixture("Fixtures/formats/value-labels.log", options: o).timeline)
        let classes = Set(rec.sessions.flatMap(\.instances).map(\.controller.className))
        #expect(classes == ["1 UIDeviceRGBColorSpace 1 0 0 1", "2 UIDeviceRGBColorSpace 1 0.5 0 1", MessageParser.unnamed])
    }

    /// Values that change with every line (frames, counts) are arguments: one unnamed controller.
    @Test func changingValuesAreArguments() {
        var lines: [String] = []
        for i in 0..<12 {
            lines.append("viewWillLayoutSubviews: (0.0, 0.0, \(320 + i).0, 568.0)")
            lines.append("viewDidLayoutSubviews: (0.0, 20.0, \(320 + i).0, 548.0)")
        }
        lines += ["viewWillAppear: 3 items", "viewDidAppear: 4 items"]
        var o = LintOptions()
        o.timeline.recordTimeline = true
        let r = Linter(options: o).lint(text: lines.joined(separator: "\n"))
        #expect(r.findings.isEmpty, "\(r.summary)")
        let classes = Set(r.timeline!.sessions.flatMap(\.instances).map(\.controller.className))
        #expect(classes == [MessageParser.unnamed])
    }

    /// `viewDidLoad begin` … `viewDidLoad end` is one viewDidLoad, not two (no duplicate_view_did_load).
    @Test func startAndEndOfOneCallbackAreOneEvent() throws {
        let r = try lintFixture("Fixtures/formats/begin-end-echo.log")
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(r.stats.events == 6)
        // An end without its start is the callback itself.
        let lone = lint("HomeViewController viewDidLoad\nHomeViewController viewWillAppear done\nHomeViewController viewDidAppear done\n")
        #expect(lone.stats.events == 3)
        #expect(lone.findings.isEmpty, "\(lone.summary)")
    }

    /// A flow in the app's own words gives the same findings as in a built-in dialect, and its faults.
    @Test func freeFormFlowsAreLinted() {
        let legal = """
        vc1 – viewDidLoad
        vc1 – viewWillAppear
        vc1 – viewDidAppear
        vc2 – viewDidLoad
        vc1 – viewWillDisappear
        vc2 – viewWillAppear
        vc1 – viewDidDisappear
        vc2 – viewDidAppear
        vc2 – viewWillDisappear
        vc1 – viewWillAppear
        vc2 – viewDidDisappear
        vc1 – viewDidAppear
        vc2 – deinit
        """
        #expect(lint(legal).findings.isEmpty)
        // vc2's viewDidDisappear deleted: its missing_did_disappear on its viewWillDisappear (line 9).
        let faulty = legal.split(separator: "\n").enumerated().filter { $0.offset != 10 }.map { String($0.element) }.joined(separator: "\n")
        #expect(lint(faulty).summary == ["missing_did_disappear@9"])
    }
}

/// The parser's shape table and statement cache answer exactly as reading the message again does.
@Suite struct ParserCacheTests {
    /// Shapes fold runs of digits (found eight bytes at a time): messages that differ only in their
    /// numbers share a key, others do not.
    @Test func shapeKeysFoldDigitRuns() {
        func key(_ s: String) -> UInt64 { var c = s; return c.withUTF8 { ShapeRoutes.key($0.baseAddress!, $0.count) } }
        #expect(key("[Memory] footprint 925 MB after didReceiveMemoryWarning") == key("[Memory] footprint 1 MB after didReceiveMemoryWarning"))
        #expect(key("page 12345678 of 9") == key("page 3 of 41"))
        #expect(key("page 3 of 41") != key("page 3 of x"))
        #expect(key("abcdefgh") != key("abcdefgi"))
        #expect(key("issue #12 closed") != key("issue ## closed") && key("a#b") != key("a1b"), "a literal # is no digit run")
        // Every byte value, at every position of a word: a digit is folded, anything else is not.
        for b in 0...255 {
            for pos in 0..<8 {
                var a = Array(repeating: UInt8(ascii: "a"), count: 16)
                a[pos] = UInt8(b)
                var z = a
                z[pos] = UInt8(ascii: "7")
                let k1 = a.withUnsafeBufferPointer { ShapeRoutes.key($0.baseAddress!, 16) }
                let k2 = z.withUnsafeBufferPointer { ShapeRoutes.key($0.baseAddress!, 16) }
                #expect((k1 == k2) == (b >= 0x30 && b <= 0x39), "byte \(b) at \(pos)")
            }
        }
    }

    /// Messages of every length (the last bytes of a message are folded one by one or, without a
    /// digit, in one word): the same words with digit runs of other lengths share a key; a changed
    /// byte that is no digit gives another.
    @Test func shapeKeysFoldDigitRunsAtEveryLength() {
        func key(_ b: [UInt8]) -> UInt64 { b.withUnsafeBufferPointer { ShapeRoutes.key($0.baseAddress!, $0.count) } }
        var rng = SplitMix(seed: 31)
        let letters = Array("ab #:.-[]".utf8)
        var checked = 0
        for _ in 0..<4_000 {
            // Words and digit runs, the runs written twice with other lengths.
            var a: [UInt8] = [], b: [UInt8] = []
            let parts = Int(1 + rng.next() % 8)
            for _ in 0..<parts {
                if rng.next() % 3 == 0 {
                    for _ in 0..<Int(1 + rng.next() % 5) { a.append(UInt8(ascii: "0") + UInt8(rng.next() % 10)) }
                    for _ in 0..<Int(1 + rng.next() % 5) { b.append(UInt8(ascii: "0") + UInt8(rng.next() % 10)) }
                } else {
                    for _ in 0..<Int(1 + rng.next() % 9) {
                        let c = letters[Int(rng.next() % UInt64(letters.count))]
                        a.append(c)
                        b.append(c)
                    }
                }
                // (Two runs side by side are one run.)
                if let l = a.last, l &- UInt8(ascii: "0") < 10 { a.append(UInt8(ascii: "x")); b.append(UInt8(ascii: "x")) }
            }
            guard a.count <= 256, b.count <= 256 else { continue }
            #expect(key(a) == key(b), "\(String(decoding: a, as: UTF8.self)) / \(String(decoding: b, as: UTF8.self))")
            var c = a
            let i = Int(rng.next() % UInt64(c.count))
            if c[i] &- UInt8(ascii: "0") >= 10 {
                c[i] = c[i] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
                #expect(key(a) != key(c), "\(String(decoding: a, as: UTF8.self)) / \(String(decoding: c, as: UTF8.self))")
            }
            checked += 1
        }
        #expect(checked > 3_900)
    }

    /// The word test for digits is exact: every pair of byte values side by side, at every place in a word (a borrow
    /// out of one byte must not make the next look like a digit), and random words, against a byte-by-byte look.
    @Test func aWordHasADigitExactlyWhenOneOfItsBytesIs() {
        func look(_ w: UInt64) -> Bool { (0..<8).contains { (w >> UInt64(8 * $0)) & 0xFF &- 0x30 < 10 } }
        for a in 0...255 {
            for b in 0...255 {
                for at in stride(from: 0, to: 56, by: 8) {
                    let w = 0x6161_6161_6161_6161 & ~(0xFFFF << UInt64(at)) | UInt64(a | b << 8) << UInt64(at)
                    #expect(MessageKeys.hasDigit(w) == look(w), "bytes \(a), \(b) at \(at / 8)")
                }
            }
        }
        var rng = SplitMix(seed: 7)
        for _ in 0..<100_000 {
            let w = rng.next()
            #expect(MessageKeys.hasDigit(w) == look(w))
        }
    }

    /// One pass gives each message's keys: whether it has a byte ≥ 0x80 (at any place, messages of every length), a
    /// statement cache's slot for its exact bytes (the same for the same bytes, within the cache), and a shape key
    /// only up to 256 bytes.
    @Test func messageKeysSayWhatEachLookSays() {
        var rng = SplitMix(seed: 11)
        var high = 0
        for n in 0...300 {
            for round in 0..<8 {
                var m = (0..<n).map { _ in UInt8(0x20 + rng.next() % 0x5F) }
                if round % 2 == 1, n > 0 { m[Int(rng.next() % UInt64(n))] = UInt8(0x80 + rng.next() % 0x80) }
                let copy = m
                let k = m.withUnsafeBufferPointer { MessageKeys($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, n) }
                let again = copy.withUnsafeBufferPointer { MessageKeys($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, n) }
                #expect(k.high == m.contains { $0 >= 0x80 }, "length \(n)")
                if k.high { high += 1 }
                #expect(k.slot == again.slot && k.shape == again.shape)
                if n <= 256 {
                    #expect((0..<StatementCache.slotCount).contains(k.slot) && k.shape != 0 && k.shape & 3 == 0)
                } else {
                    #expect(k.slot == -1 && k.shape == 0)
                }
            }
        }
        #expect(high == 300 * 4)
    }

    /// A parser that has seen a capture answers every line as a fresh parser does.
    @Test func cachedAnswersEqualFreshOnes() {
        let lines = [
            "[Main] viewWillAppear", "[Setting] viewDidAppear", "[Main] viewWillAppear", "vc1 – viewDidLoad", "vc2 – viewDidLoad",
            "[Memory] footprint 925 MB after didReceiveMemoryWarning from the system", "[Memory] footprint 12 MB after didReceiveMemoryWarning from the system",
            "AMKMethodSwizzlingDemo 1 viewWillAppear", "AMKMethodSwizzlingDemo 22 viewWillAppear", "viewWillAppear: 2 UIDeviceRGBColorSpace 1 0.5 0 1",
            "viewWillAppear: 3 UIDeviceRGBColorSpace 1 0.5 0 1", "<Home: 0x7f01> viewDidLoad", "<Home: 0x7f02> viewDidLoad",
            "HomeViewController viewDidLoad begin", "HomeViewController viewDidLoad end", "[Router] will present login", "[Main] viewWillAppear",
        ]
        let warm = MessageParser()
        for _ in 0..<3 {
            for l in lines {
                let fresh = MessageParser()
                let (a, b) = (warm.parse(l), fresh.parse(l))
                #expect(ParserFastPathTests.describe(a) == ParserFastPathTests.describe(b), "\(l)")
                #expect(warm.note.unread == fresh.note.unread && warm.note.phase == fresh.note.phase && warm.note.value == fresh.note.value, "\(l)")
            }
        }
    }
}

/// The learner's wait is bounded whatever the capture: lines are held back at most `LabelLearner.limit`
/// lines, and every line is delivered, in order, by the end.
@Suite struct LabelLearnerBoundsTests {
    @Test func holdsAtMostItsLimitAndLosesNothing() {
        // One value repeated with a single callback: the capture never shows whether it is a label.
        var lines = ["viewDidLoad: 1 UIDeviceRGBColorSpace 1 0 0 1"]
        for i in 0..<(LabelLearner.limit + 500) { lines.append(i % 2 == 0 ? "[Feed] viewWillAppear" : "[Feed] viewDidAppear") }
        lines.append("[Feed] viewWillDisappear")
        let r = lint(lines.joined(separator: "\n"))
        #expect(r.stats.events == lines.count)
        #expect(!r.findings.contains { $0.rule != "unbalanced_appearance" }, "\(r.summary.prefix(5))")
    }

    @Test func manyDistinctShapesStayBounded() {
        var lines: [String] = []
        for i in 0..<3000 { lines.append("viewDidLoad: tag\(i)x \(i) Page") }
        let r = lint(lines.joined(separator: "\n"))
        #expect(r.stats.events == 3000)
    }
}
