import Testing
@testable import VCLintCore

/// What real apps print beyond the classic shapes (docs/lifecycle.md#free-form-lifecycle-statements):
/// callback spellings, one-letter labels, titles of several words and labels redacted by the unified
/// log, each with the sentences that must stay noise.
@Suite struct FreeFormReadingTests {
    typealias Case = FreeFormTests.Case

    static let statements: [Case] = [
        // Spellings of dealloc and init (docs/lifecycle.md#callback-spellings).
        Case(message: "DEBUG HomeFlow.swift:42 CartVC => Deinit", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC deinit", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC deInit", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC Deinit", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC Dealloc", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC deallocated", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC deinitialized", kind: .dealloc, className: "CartVC"),
        Case(message: "CartVC deinit called", kind: .dealloc, className: "CartVC"),
        Case(message: "HomeViewModel is being deinitialized", kind: .dealloc, className: "HomeViewModel"),
        Case(message: "Deinit", kind: .dealloc, className: MessageParser.unnamed),
        Case(message: "CartVC Init", kind: .initialize, className: "CartVC"),
        Case(message: "CartVC initialized", kind: .initialize, className: "CartVC"),
        Case(message: "[Cart] Init", kind: .initialize, className: "Cart"),
        // One capital letter as the label, `A` and `I` included, in the statement shape.
        Case(message: "A: viewDidLoad()", kind: .viewDidLoad, className: "A"),
        Case(message: "DEBUG: A viewDidLoad", kind: .viewDidLoad, className: "A"),
        Case(message: "B viewWillAppear", kind: .viewWillAppear, className: "B"),
        Case(message: "I viewDidAppear(_:)", kind: .viewDidAppear, className: "I"),
        Case(message: "A.viewDidLoad()", kind: .viewDidLoad, className: "A"),
        Case(message: "viewDidLoad: A", kind: .viewDidLoad, className: "A"),
        Case(message: "[INFO] I -> viewWillDisappear animated: true", kind: .viewWillDisappear, className: "I"),
        // Redacted and hashed labels (docs/lifecycle.md#redacted-labels).
        Case(message: "<private> viewDidLoad", kind: .viewDidLoad, className: MessageParser.unnamed),
        Case(message: "<private>: viewWillAppear(_:)", kind: .viewWillAppear, className: MessageParser.unnamed),
        Case(message: "viewDidDisappear: <private>", kind: .viewDidDisappear, className: MessageParser.unnamed),
        Case(message: "[Lifecycle] <private> deinit", kind: .dealloc, className: MessageParser.unnamed),
        Case(message: "<mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='> viewDidLoad", kind: .viewDidLoad, className: "<mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='>"),
        Case(message: "viewDidLoad <mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='>", kind: .viewDidLoad, className: "<mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='>"),
    ]

    @Test(arguments: statements)
    func statementIsRead(_ c: Case) throws {
        let parser = MessageParser()
        let e = try #require(parser.parse(c.message), "\(c.message) was not read")
        #expect(e.kind == c.kind)
        #expect(e.className == c.className)
        #expect(parser.note.redacted == (c.message.contains("<private>")))
        #expect(parser.note.title == 0)
    }

    /// Sentences with a callback name: counted as mentions, never events.
    static let mentions: [String] = [
        "A viewDidLoad happened twice",
        "I think viewDidLoad is slow",
        "I viewDidLoad twice",
        "a viewDidLoad",
        "A Home Screen viewDidLoad",
        "The Home Screen viewDidLoad took 3 s",
        "Home screen viewDidLoad took 3 s",
        "Screen: HomeViewController viewDidAppear",
        "When Home Screen viewDidLoad",
        "Home Screen viewDidLoad again",
        "My Home Screen viewDidLoad",
        "One Two Three Four Five Six Seven viewDidLoad",
        "The viewDidLoad",
        "Before viewDidLoad",
        "Skipping viewDidAppear",
        "Override viewDidLoad",
        "about viewDidLoad",
        "viewDidAppear | Again",
        "viewDidAppear | The Ledger",
        "Ledger A viewDidLoad",
        "A Ledger Screen viewDidLoad",
        "<private> HomeViewController viewDidLoad",
        "<private> viewDidLoad <Home: 0x600003d0c000>",
        "viewDidLoad took Home Screen",
        "viewDidLoad | Home Screen Done Now Again",
        "viewDidLoad | Home Screen: 3",
        "HomeViewController viewDidLoad Home Screen",
    ]

    @Test(arguments: mentions)
    func sentenceStaysNoiseAndIsCounted(_ message: String) {
        let parser = MessageParser()
        #expect(parser.parse(message) == nil, "\(message) was read as an event")
        #expect(parser.note.unread, "\(message) mentions a callback: it counts as unread")
    }

    /// Words that only contain a callback name are not spellings of it.
    @Test func wordsThatContainACallbackAreNotCallbacks() {
        for m in ["CartVC dealloced", "MLeaksFinder: -willDealloc not called", "CartVC deinitializer", "reinit", "CartVC initializing",
                  "ChildViewController diDMove(toParent:)"] {
            let parser = MessageParser()
            #expect(parser.parse(m) == nil, "\(m) was read as an event")
        }
    }

    /// Only a callback name's first letter may change case: `diDMove` is no mention (the candidate
    /// search would not show it the line, and the unread counts would depend on that search).
    @Test func onlyTheFirstLetterOfACallbackChangesCase() {
        for (m, unread) in [("ChildViewController diDMove(toParent:)", false), ("ChildViewController WILLMOVE", false),
                            ("ChildViewController DidMove happened twice", true), ("the willMove took 3 s", true)] {
            let parser = MessageParser()
            #expect(parser.parse(m) == nil, "\(m)")
            #expect(parser.note.unread == unread, "\(m)")
        }
    }

    /// A title of several words is a candidate label; the capture decides (`title` is its key).
    @Test func titleIsACandidate() throws {
        for (m, name) in [("Home Screen | viewDidLoad", "Home Screen"), ("B ViewController viewWillAppear(_:)", "B ViewController"),
                          ("Product List - viewDidAppear", "Product List"), ("[Lifecycle] Shop Home Screen: viewDidLoad()", "Shop Home Screen")] {
            let parser = MessageParser()
            let e = try #require(parser.parse(m), "\(m)")
            #expect(e.className == name)
            #expect(parser.note.title != 0, "\(m) is a title")
        }
        // Up to six words, a lone letter first of two, and one word a sentence would use alone.
        for (m, name) in [("One Two Three Four viewDidLoad", "One Two Three Four"),
                          ("Vault Ledger Quarterly Tax Export Screen | viewWillAppear(_:)", "Vault Ledger Quarterly Tax Export Screen"),
                          ("A Ledger viewDidLoad", "A Ledger"), ("I HostingView: viewWillAppear(_:)", "I HostingView"),
                          ("About viewDidAppear", "About"), ("Test: viewDidLoad()", "Test"), ("[Lifecycle] Events | deinit", "Events"),
                          ("Screens viewWillDisappear animated: true", "Screens")] {
            let parser = MessageParser()
            let e = try #require(parser.parse(m), "\(m)")
            #expect(e.className == name)
            #expect(parser.note.title != 0, "\(m) is a title")
        }
        // After the callback (docs/lifecycle.md#labels), words a sentence would use included.
        for (m, name) in [("viewDidLoad | Home Screen", "Home Screen"), ("viewWillAppear(_:) - Other Thing", "Other Thing"),
                          ("viewDidAppear: Home Screen View", "Home Screen View"), ("viewDidAppear | Now", "Now"),
                          ("viewWillAppear(_:) - Vault Ledger Quarterly Tax Export Screen", "Vault Ledger Quarterly Tax Export Screen")] {
            let parser = MessageParser()
            let e = try #require(parser.parse(m), "\(m)")
            #expect(e.className == name)
            #expect(parser.note.title != 0, "\(m) is a title")
        }
        // The same title in its frame gives one key whatever the callback's spelling and arguments.
        let parser = MessageParser()
        _ = parser.parse("Home Screen | viewDidLoad()")
        let a = parser.note.title
        _ = parser.parse("Home Screen | viewWillAppear(_:) animated: true")
        #expect(parser.note.title == a)
        _ = parser.parse("Home Screen - viewWillAppear(_:)")
        #expect(parser.note.title != a, "another frame is another shape")
        _ = parser.parse("Cart Screen | viewWillAppear(_:)")
        #expect(parser.note.title != a)
    }

    // MARK: - In context

    static func classes(_ text: String) -> Set<String> {
        var o = LintOptions()
        o.timeline.recordTimeline = true
        let r = Linter(options: o).lint(text: text)
        return Set(r.timeline!.sessions.flatMap(\.instances).map(\.controller.className))
    }

    @Test func titleRepeatedWithAnotherCallbackIsALabel() {
        let r = lint("Home Screen | viewDidLoad\nHome Screen | viewWillAppear\nHome Screen | viewDidAppear\n")
        #expect(r.stats.events == 3)
        #expect(r.stats.unrecognized == 0)
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(Self.classes("Home Screen | viewDidLoad\nHome Screen | viewWillAppear\n") == ["Home Screen"])
    }

    @Test func titleAfterTheCallbackRepeatedIsALabel() {
        let text = "viewDidLoad | Home Screen\nviewWillAppear | Home Screen\nviewDidAppear | Home Screen\nviewDidLoad | Other Thing\n"
        let r = lint(text)
        #expect(r.stats.events == 3)
        #expect(r.stats.unrecognized == 1, "a title seen with one callback is a sentence")
        #expect(Self.classes(text) == ["Home Screen"])
    }

    @Test func titleSeenOnceIsASentence() {
        let r = lint("The Home Screen viewDidLoad took 3 s\nPayment Sheet Ready | viewDidAppear\nHomeViewController viewDidLoad\n")
        #expect(r.stats.events == 1)
        #expect(r.stats.unrecognized == 2)
        #expect(r.stats.firstUnrecognized == 1)
        // The same title with one callback only, however often: a sentence.
        let same = lint("Payment Sheet Ready | viewDidAppear\nPayment Sheet Ready | viewDidAppear\n")
        #expect(same.stats.events == 0)
        #expect(same.stats.unrecognized == 2)
        #expect(same.findings.map(\.rule) == ["no_lifecycle_events"])
    }

    /// A word a sentence would use is a label when the capture repeats it with two callbacks; seen
    /// with one, a sentence (docs/lifecycle.md#labels).
    @Test func commonWordRepeatedWithAnotherCallbackIsALabel() throws {
        let text = "Test viewDidLoad\nTest viewWillAppear\nTest viewDidAppear\nabout viewDidAppear\nAbout viewDidAppear\n"
        let r = lint(text)
        #expect(r.stats.events == 3)
        #expect(r.stats.unrecognized == 2, "`About` with one callback and `about` are sentences")
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(Self.classes(text) == ["Test"])
        let once = lint("About viewDidAppear\n")
        #expect(once.stats.events == 0 && once.stats.unrecognized == 1)
        #expect(once.findings.map(\.rule) == ["no_lifecycle_events"])
        // Words only a sentence or code holds never are, however often.
        let never = lint("Before viewDidLoad\nBefore viewWillAppear\nSkipping viewDidLoad\nSkipping viewWillAppear\nHomeViewController viewDidLoad\n")
        #expect(never.stats.events == 1 && never.stats.unrecognized == 4)
        let c = try lintFixture("Fixtures/formats/common-word-labels.log")
        #expect(c.findings.isEmpty, "\(c.summary)")
        #expect(c.stats.events == 18)
        #expect(c.stats.unrecognized == 4)
    }

    /// A completion marker named by a title waits for the capture to use the title as a label, in any frame.
    @Test func markerWithATitleIsReadOnceTheTitleIsALabel() throws {
        let text = """
        Vault Ledger | viewDidLoad
        Vault Ledger | viewWillAppear
        Vault Ledger | viewDidAppear
        Vault Ledger dismiss begin
        Vault Ledger | viewWillDisappear
        Vault Ledger | viewDidDisappear
        Vault Ledger dismiss end
        Quote Sheet dismiss end
        Quote Sheet dismiss begin
        """
        let r = lint(text)
        #expect(r.stats.events == 7)
        #expect(r.stats.unrecognized == 2, "markers alone never confirm a title")
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(Self.classes(text) == ["Vault Ledger"])
        let parser = MessageParser()
        let e = try #require(parser.parse("Vault Ledger Quarterly dismiss end"))
        #expect(e.kind == .dismissEnd && e.className == "Vault Ledger Quarterly" && parser.note.title != 0)
        #expect(parser.parse("the ledger dismiss end") == nil)
        // The dismissal's marker before its controller disappeared: the finding a one-word name gives.
        let early = lint("Vault Ledger | viewDidLoad\nVault Ledger | viewWillAppear\nVault Ledger | viewDidAppear\nVault Ledger dismiss begin\nVault Ledger | viewWillDisappear\nVault Ledger dismiss end\nVault Ledger | viewDidDisappear\n")
        let word = lint("Ledger | viewDidLoad\nLedger | viewWillAppear\nLedger | viewDidAppear\nLedger dismiss begin\nLedger | viewWillDisappear\nLedger dismiss end\nLedger | viewDidDisappear\n")
        #expect(early.summary == word.summary)
        #expect(!word.findings.isEmpty)
        let f = try lintFixture("Fixtures/formats/title-markers.log")
        #expect(f.findings.isEmpty, "\(f.summary)")
        #expect(f.stats.events == 16 && f.stats.unrecognized == 1)
    }

    @Test func longTitlesAndALetterTitle() throws {
        let r = try lintFixture("Fixtures/formats/long-titles.log")
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(r.stats.events == 13)
        #expect(r.stats.unrecognized == 2)
        var o = LintOptions()
        o.timeline.recordTimeline = true
        let rec = try #require(try lintFixture("Fixtures/formats/long-titles.log", options: o).timeline)
        #expect(Set(rec.sessions.flatMap(\.instances).map(\.controller.className))
                == ["A ViewController", "Order History List Screen", "Account Settings Privacy Data Export Screen"])
    }

    /// The lines after a title wait with it, so the timeline sees every event in order.
    @Test func titleLinesKeepTheirOrder() {
        let text = """
        Home Screen | viewDidLoad
        HomeViewController viewDidLoad
        HomeViewController viewWillAppear
        Home Screen | viewWillAppear
        HomeViewController viewDidAppear
        Home Screen | viewDidAppear
        """
        let r = lint(text)
        #expect(r.stats.events == 6)
        #expect(r.findings.isEmpty, "\(r.summary)")
        // The same, fed a byte at a time and in chunks: the same report.
        let whole = Linter().lint(bytes: Array(text.utf8), path: "t.log")
        for feed in [1, 7, 64] {
            let fed = Linter().lint(bytes: Array(text.utf8), path: "t.log", feedSize: feed)
            #expect(fed.stats.events == whole.stats.events && fed.findings.map(\.line) == whole.findings.map(\.line))
        }
    }

    /// Many distinct titles, each seen once, stay bounded and lose no other event.
    @Test func manyTitlesSeenOnceStayBounded() {
        var lines: [String] = []
        for i in 0..<(LabelLearner.limit + 300) {
            lines.append("Screen Number\(i) | viewDidLoad")
            lines.append(i % 2 == 0 ? "[Feed] viewWillAppear" : "[Feed] viewDidAppear")
        }
        let r = lint(lines.joined(separator: "\n"))
        #expect(r.stats.events == LabelLearner.limit + 300)
        #expect(r.stats.unrecognized == LabelLearner.limit + 300)
        #expect(r.stats.firstUnrecognized == 1)
    }

    @Test func redactedLabelsAreTheUnnamedControllerAndOneFinding() throws {
        let r = try lintFixture("Fixtures/formats/redacted-labels.log")
        #expect(r.findings.map(\.rule) == ["redacted_labels"], "\(r.summary)")
        #expect(r.findings.first?.line == 1)
        #expect(r.findings.first?.severity == .warning)
        let message = try #require(r.findings.first?.message)
        #expect(message.contains("10 lifecycle statements"), "\(message)")
        #expect(message.contains("privacy: .public"))
        #expect(r.stats.redacted == 10 && r.stats.firstRedacted == 1)
        var o = LintOptions()
        o.timeline.recordTimeline = true
        let rec = try #require(try lintFixture("Fixtures/formats/redacted-labels.log", options: o).timeline)
        let classes = Set(rec.sessions.flatMap(\.instances).map(\.controller.className))
        #expect(classes == [MessageParser.unnamed, "<mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='>"])
        #expect(!classes.contains("private") && !classes.contains("hash"))
    }

    /// What nothing tells apart is not judged: a redacted capture's unnamed controller gives no finding.
    @Test func redactedUnnamedControllerIsNotJudged() {
        let text = """
        <private> viewDidLoad
        <private> viewWillAppear
        <private> viewDidAppear
        <private> viewDidAppear
        """
        #expect(lint(text).findings.map(\.rule) == ["redacted_labels"])
        // Without redaction the same flow is judged.
        #expect(lint(text.replacingOccurrences(of: "<private> ", with: "")).findings.map(\.rule) == ["unbalanced_appearance"])
    }

    @Test func redactedControllerInAUIKitWarningIsUnknown() throws {
        let e = try #require(MessageParser().parse("Attempt to present <private> on <private> whose view is not in the window hierarchy!"))
        #expect(e.kind == .uikitPresentationConflict)
        #expect(e.className == MessageParser.unknown)
    }

    @Test func inspectExplainsRedactedLabels() throws {
        var o = LintOptions()
        o.inspect = true
        o.timeline.recordTimeline = true
        let r = try lintFixture("Fixtures/formats/redacted-labels.log", options: o)
        let text = InspectionText().render([try #require(r.inspection)])
        #expect(text.contains("10 statements had a redacted label"), "\(text)")
        #expect(text.contains("privacy: .public"))
    }

    /// The candidate search lets the new spellings through: the same events with and without it.
    @Test func newSpellingsAreCandidates() {
        let text = "CartVC Init\nCartVC ViewDidLoad\nCartVC Deinit\nCartVC deInit\nCartVC deinitialized\nCartVC deallocated\nCartVC initialized\n"
        var off = LintOptions()
        off.prefilter = false
        let with = Linter().lint(bytes: Array(text.utf8), path: "t.log")
        let without = Linter(options: off).lint(bytes: Array(text.utf8), path: "t.log")
        #expect(with.stats.events == 7)
        #expect(with.stats.events == without.stats.events)
    }
}
