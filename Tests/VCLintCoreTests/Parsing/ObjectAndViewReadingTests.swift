import Foundation
import Testing
@testable import VCLintCore

/// The objects of a screen and SwiftUI views (docs/lifecycle.md#beyond-view-controllers): every
/// spelling of an object's init/deinit and of a view's appearance is read with the right class,
/// a view is a value (a lane, never a finding), and the candidate search finds their lines.
@Suite struct ObjectAndViewReadingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let message: String
        let kind: EventKind
        let className: String
        var address: UInt64? = nil
        var testDescription: String { message }
    }

    static let objects: [Case] = [
        Case(message: "-[DetailViewModel init]", kind: .initialize, className: "DetailViewModel"),
        Case(message: "-[DetailViewModel dealloc]", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "-[ProfilePresenter dealloc]", kind: .dealloc, className: "ProfilePresenter"),
        Case(message: "DetailViewModel.init()", kind: .initialize, className: "DetailViewModel"),
        Case(message: "DetailViewModel init", kind: .initialize, className: "DetailViewModel"),
        Case(message: "HomeViewModel initialized", kind: .initialize, className: "HomeViewModel"),
        Case(message: "DetailViewModel deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "DetailViewModel.deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "\u{267B}\u{FE0F} DetailViewModel deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "\u{267B}\u{FE0F} ProfileCoordinator deinit", kind: .dealloc, className: "ProfileCoordinator"),
        Case(message: "deinit DetailViewModel", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "deInit MainView.ViewModel", kind: .dealloc, className: "MainView.ViewModel"),
        Case(message: "deInit FourthView.ViewModel", kind: .dealloc, className: "FourthView.ViewModel"),
        Case(message: "MapRepresentable.Coordinator deinit", kind: .dealloc, className: "MapRepresentable.Coordinator"),
        Case(message: "Coordinator deinitialized", kind: .dealloc, className: "Coordinator"),
        Case(message: "HomeViewModel is being deinitialized", kind: .dealloc, className: "HomeViewModel"),
        Case(message: "<DetailViewModel: 0x600001234560> deinit", kind: .dealloc, className: "DetailViewModel", address: 0x600001234560),
        Case(message: "<MyApp.MainView.ViewModel: 0x600001234560> deinit", kind: .dealloc, className: "MainView.ViewModel", address: 0x600001234560),
        // The app's module is stripped; a nested type keeps its enclosing type.
        Case(message: "MyApp.DetailViewModel deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "MyApp.MainView.ViewModel deinit", kind: .dealloc, className: "MainView.ViewModel"),
        Case(message: "deinit MyApp.MainView.ViewModel", kind: .dealloc, className: "MainView.ViewModel"),
        // A truncated id is not an address, and the class is still read.
        Case(message: "DetailViewModel C86... deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "DetailViewModel C86\u{2026} deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "DetailViewModel (C86...) deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "deinit DetailViewModel (C86...)", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "deinit DetailViewModel C86...", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "DetailViewModel deinit C86...", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "\u{267B}\u{FE0F} DetailViewModel 0x6000... deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "ShareCoordinator C86... init", kind: .initialize, className: "ShareCoordinator"),
        // However many digits (a capture's shapes fold runs of digits: `ShapeRoutes`).
        Case(message: "DetailViewModel 8... deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "DetailViewModel 86420... deinit", kind: .dealloc, className: "DetailViewModel"),
        Case(message: "DetailViewModel 0x6... deinit", kind: .dealloc, className: "DetailViewModel"),
        // Controllers keep what they always read as.
        Case(message: "Shop.HomeViewController viewDidLoad", kind: .viewDidLoad, className: "HomeViewController"),
        Case(message: "MyApp.Checkout.PaymentViewController deinit", kind: .dealloc, className: "PaymentViewController"),
        Case(message: "<Shop.Home: 0x7fa1c8d0a200> viewDidAppear:", kind: .viewDidAppear, className: "Home", address: 0x7fa1c8d0a200),
        Case(message: "[Lifecycle] Shop.CartVC.deinit", kind: .dealloc, className: "CartVC"),
    ]

    static let views: [Case] = [
        Case(message: "HomeView onAppear", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView onDisappear", kind: .onDisappear, className: "HomeView"),
        Case(message: "[HomeView] onDisappear()", kind: .onDisappear, className: "HomeView"),
        Case(message: "[HomeView] onAppear()", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView.onAppear", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView.onDisappear()", kind: .onDisappear, className: "HomeView"),
        Case(message: "-[HomeView onAppear]", kind: .onAppear, className: "HomeView"),
        Case(message: "\u{2705} HomeView onAppear", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView: onAppear", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView OnDisappear", kind: .onDisappear, className: "HomeView"),
        Case(message: "onAppear HomeView", kind: .onAppear, className: "HomeView"),
        Case(message: "<HomeView: 0x600001234560> onAppear", kind: .onAppear, className: "HomeView", address: 0x600001234560),
        Case(message: "MyApp.HomeView onAppear", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView appeared", kind: .onAppear, className: "HomeView"),
        Case(message: "HomeView disappeared", kind: .onDisappear, className: "HomeView"),
        Case(message: "AScene appeared", kind: .onAppear, className: "AScene"),
        Case(message: "HomeView appeared.", kind: .onAppear, className: "HomeView"),
        Case(message: "\u{2705} HomeView appeared", kind: .onAppear, className: "HomeView"),
        Case(message: "[Lifecycle] SettingsView disappeared", kind: .onDisappear, className: "SettingsView"),
        Case(message: "MyApp.HomeView appeared", kind: .onAppear, className: "HomeView"),
    ]

    @Test(arguments: objects + views)
    func statementIsRead(_ c: Case) throws {
        let parser = MessageParser()
        let e = try #require(parser.parse(c.message), "\(c.message) was not read")
        #expect(e.kind == c.kind, "\(c.message)")
        #expect(e.className == c.className, "\(c.message)")
        #expect(e.address == c.address, "\(c.message)")
    }

    /// One parser reads every spelling in turn as it reads each alone (its caches of shapes and
    /// statements change nothing).
    @Test func oneParserReadsThemAllAlike() throws {
        let parser = MessageParser()
        for c in Self.objects + Self.views + Self.objects.reversed() {
            let e = try #require(parser.parse(c.message), "\(c.message) was not read")
            #expect(e.kind == c.kind && e.className == c.className && e.address == c.address, "\(c.message)")
        }
        for m in Self.noise { #expect(parser.parse(m) == nil, "\(m)") }
    }

    /// What a controller prints with `appeared` stays what it was (noise, not even a mention), and
    /// so do sentences.
    static let noise: [String] = [
        "HomeViewController appeared", "HomeVC appeared", "DetailViewController disappeared", "MyApp.CartVC appeared",
        "It appeared", "This appeared", "keyboard appeared", "Keyboard appeared over the search field",
        "HomeView appeared after 3 s", "HomeView appeared twice", "HomeView.appeared", "HomeView appeared()",
    ]

    @Test(arguments: noise)
    func appearedSentenceIsNoise(_ message: String) {
        let parser = MessageParser()
        #expect(parser.parse(message) == nil, "\(message)")
        #expect(!parser.note.unread, "\(message) counted as a mention")
    }

    /// A sentence about `onAppear` mentions it (an unread capture never looks clean).
    @Test func onAppearInASentenceIsAMention() {
        let parser = MessageParser()
        #expect(parser.parse("[Analytics] queued screen event onAppear for HomeView") == nil)
        #expect(parser.note.unread)
    }

    /// `MainView.ViewModel` and `FourthView.ViewModel` are two classes, each with its own lane.
    @Test func nestedTypesAreClassesOfTheirOwn() throws {
        let input = timelineInput(text: """
            MainView.ViewModel init
            FourthView.ViewModel init
            deInit MainView.ViewModel
            deInit FourthView.ViewModel
            """)
        let s = try #require(input.timeline.sessions.first)
        #expect(s.instances.map(\.controller.className) == ["MainView.ViewModel", "FourthView.ViewModel"])
        #expect(s.instances.allSatisfy { $0.dealloc != nil && $0.kind == .object })
        #expect(input.findings.isEmpty)
    }

    /// The process's name is the app's module, whatever it looks like (`Shop App` → `Shop_App`).
    @Test func theProcessNameIsTheModule() throws {
        let input = timelineInput(text: """
            2024-05-02 10:15:00.100000+0200 MyApp[812:90131] MyApp.ViewModel init
            2024-05-02 10:15:00.200000+0200 MyApp[812:90131] MyApp.Coordinator init
            2024-05-02 10:15:01.100000+0200 MyApp[812:90131] ViewModel deinit
            2024-05-02 10:15:01.200000+0200 MyApp[812:90131] Coordinator deinit
            2024-05-02 10:15:02.100000+0200 Shop App[813:90131] Shop_App.ViewModel init
            2024-05-02 10:15:02.200000+0200 Shop App[813:90131] Other.ViewModel init
            """)
        let classes = input.timeline.sessions.flatMap(\.instances).map(\.controller.className)
        #expect(classes == ["ViewModel", "Coordinator", "ViewModel", "Other.ViewModel"])
        #expect(input.timeline.sessions.first?.instances.allSatisfy { $0.dealloc != nil } == true)
    }

    /// A custom dialect maps its words to `onAppear`/`onDisappear` as it maps others to init/dealloc.
    @Test func customDialectReadsViewAppearances() throws {
        let dialect = try CustomDialect(pattern: #"^SCREEN (?<event>shown|hidden|made|gone): (?<class>[\w.]+)$"#,
                                        events: ["shown": "onAppear", "hidden": "onDisappear", "made": "init", "gone": "dealloc"])
        let parser = MessageParser(custom: [dialect])
        let shown = try #require(parser.parse("SCREEN shown: HomeView"))
        #expect(shown.kind == .onAppear && shown.className == "HomeView" && shown.dialect == .custom)
        let hidden = try #require(parser.parse("SCREEN hidden: HomeView"))
        #expect(hidden.kind == .onDisappear)
        let gone = try #require(parser.parse("SCREEN gone: MainView.ViewModel"))
        #expect(gone.kind == .dealloc && gone.className == "MainView.ViewModel")
    }

    // MARK: - The timeline

    /// A view is a value: onAppear again without onDisappear, an onDisappear first, appearances
    /// after a same-named dealloc: no finding, no leak, no dealloc.
    @Test func aViewNeverGetsAFinding() throws {
        let input = timelineInput(text: """
            2024-05-02 10:15:00.000 Recipes[812:90131] HomeView onDisappear
            2024-05-02 10:15:00.100 Recipes[812:90131] HomeView onAppear
            2024-05-02 10:15:00.200 Recipes[812:90131] HomeView onAppear
            2024-05-02 10:15:00.300 Recipes[812:90131] HomeView onAppear
            2024-05-02 10:15:00.400 Recipes[812:90131] SheetView onAppear
            2024-05-02 10:15:00.500 Recipes[812:90131] SheetView onDisappear
            2024-05-02 10:15:00.600 Recipes[812:90131] SheetView onDisappear
            2024-05-02 10:15:09.000 Recipes[812:90131] [Network] idle
            """)
        #expect(input.findings.isEmpty, "\(input.findings.map(\.message))")
        let s = try #require(input.timeline.sessions.first)
        #expect(s.instances.count == 2)
        for i in s.instances {
            #expect(i.kind == .view && i.dealloc == nil && i.removal == nil)
        }
        #expect(input.timeline.leaks.isEmpty)
        // A view has no dealloc to judge: the leak report does not list it as a class it cannot judge.
        #expect(input.timeline.unjudgedClasses.isEmpty)
    }

    /// Views never count as on screen for the controllers' removal inference: the same flow with
    /// views appearing all through it gives the same findings.
    @Test func viewsDoNotChangeControllersFindings() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/flows/leak-pop.log"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var mixed: [Substring] = []
        var inserted = 0
        for (k, line) in lines.enumerated() {
            mixed.append(line)
            // A view appears (and sometimes disappears) after every third line, as a print without envelope.
            if k % 3 == 0, !line.isEmpty {
                mixed.append(k % 2 == 0 ? "BadgeView onAppear" : "BadgeView onDisappear")
                inserted += 1
            }
        }
        let plain = lint(text)
        let withViews = lint(mixed.joined(separator: "\n"))
        #expect(inserted > 5)
        #expect(!plain.findings.isEmpty)
        #expect(withViews.findings.map(\.rule) == plain.findings.map(\.rule))
        #expect(withViews.findings.map(\.controller.instance) == plain.findings.map(\.controller.instance))
        #expect(withViews.stats.events == plain.stats.events + inserted)
    }

    // MARK: - Lanes

    static let screen = """
        2024-05-02 10:15:00.100 Recipes[812:90131] DetailViewModel init
        2024-05-02 10:15:00.200 Recipes[812:90131] DetailView onAppear
        2024-05-02 10:15:00.300 Recipes[812:90131] DetailViewController viewDidLoad
        2024-05-02 10:15:01.400 Recipes[812:90131] DetailView onDisappear
        2024-05-02 10:15:01.500 Recipes[812:90131] DetailViewModel deinit
        2024-05-02 10:15:02.600 Recipes[812:90131] DetailView onAppear
        2024-05-02 10:15:03.700 Recipes[812:90131] [Network] idle
        """

    /// An object's lane runs from its init to its deinit; a view's is visible between its onAppear
    /// and its onDisappear; each lane says what it is.
    @Test func objectsAndViewsHaveLanes() throws {
        let input = timelineInput(text: Self.screen)
        let s = try #require(input.timeline.sessions.first)
        let byClass = Dictionary(uniqueKeysWithValues: s.instances.map { ($0.controller.className, $0) })
        let model = try #require(byClass["DetailViewModel"])
        #expect(model.kind == .object)
        #expect(model.dealloc?.line == 5)
        #expect(model.intervals.map(\.state) == [.loaded])
        #expect(model.intervals.first?.start.line == 1 && model.intervals.first?.end.line == 5)
        let view = try #require(byClass["DetailView"])
        #expect(view.kind == .view)
        #expect(view.dealloc == nil)
        #expect(view.intervals.map(\.state) == [.visible, .hidden, .visible])
        #expect(view.intervals.map(\.start.line) == [2, 4, 6])
        #expect(view.intervals.last?.openAtEnd == true)
        #expect(byClass["DetailViewController"]?.kind == .controller)

        let text = TimelineTextRenderer(width: 100).render([input])
        #expect(text.contains("1 controller, 1 view, 1 object"))
        #expect(text.contains("DetailViewModel#1 (object)"))
        #expect(text.contains("DetailView#1 (view)"))
        let viewLane = try #require(text.split(separator: "\n").first { $0.contains("DetailView#1 (view)") })
        #expect(viewLane.contains("#") && viewLane.contains("-") && !viewLane.contains("X"))
        let modelLane = try #require(text.split(separator: "\n").first { $0.contains("DetailViewModel#1 (object)") })
        #expect(modelLane.contains(".") && modelLane.contains("X"))

        let json = TimelineJSON().render([input])
        #expect(json.contains(#""kind":"view""#) || json.contains(#""kind": "view""#))
        let trace = try JSONSerialization.jsonObject(with: Data(ChromeTrace().render([input]).utf8)) as? [String: Any]
        let events = try #require(trace?["traceEvents"] as? [[String: Any]])
        let lives = events.filter { ($0["ph"] as? String) == "X" && ["controller", "object", "view"].contains($0["cat"] as? String ?? "") }
        #expect(Set(lives.compactMap { $0["cat"] as? String }) == ["controller", "object", "view"])
        for life in lives {
            let args = try #require(life["args"] as? [String: Any])
            #expect(args["kind"] as? String == life["cat"] as? String)
        }
        #expect(events.contains { ($0["cat"] as? String) == "state" && ($0["name"] as? String) == "visible" })

        let html = HTMLReport(inputs: [input], leaks: LeakReport(inputs: [input], graceSeconds: 3)).render()
        #expect(html.contains("DetailView#1 (view)") && html.contains("DetailViewModel#1 (object)"))
    }

    // MARK: - A capture of SwiftUI views and view models only

    /// Only onAppear/onDisappear and a view model's init/deinit: events, and no finding at all
    /// (no `no_lifecycle_events`: onAppear, onDisappear and deinit are real events).
    @Test func swiftUIOnlyCaptureIsReadAndClean() throws {
        let result = try lintFixture("Fixtures/objects/swiftui-only.log")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.stats.events == 14)
        #expect(result.stats.initializers == 4)
        let onlyViews = lint("""
            HomeView onAppear
            HomeView onDisappear
            """)
        #expect(onlyViews.findings.isEmpty)
        #expect(onlyViews.stats.events == 2)
        // Initializers alone still say nothing about a screen.
        let onlyInits = lint("DetailViewModel init\nProfileCoordinator init")
        #expect(onlyInits.findings.map(\.rule) == ["no_lifecycle_events"])
    }

    /// The candidate search finds the lines of views (`onAppear`, `appeared`, …): the same events
    /// with and without it, on the vector path and the portable one.
    @Test func candidateSearchKeepsViewLines() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/objects/swiftui-only.log"), encoding: .utf8)
            + "HomeView OnAppear\nHomeView OnDisappear\nHomeView appeared\nHomeView disappeared\nAScene Appeared\n"
        var options = LintOptions()
        let on = Linter(options: options).lint(text: text)
        options.prefilter = false
        let off = Linter(options: options).lint(text: text)
        #expect(on.stats.events == off.stats.events)
        #expect(on.stats.events == 18)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = lines.indices.filter { k in
            ["onAppear", "onDisappear", "OnAppear", "OnDisappear", "appeared", "Appeared", "init", "deInit", "deinit"].contains { lines[k].contains($0) }
        }.map { $0 + 1 }
        for portable in [false, true] {
            let found = Set(VectorScanTests.candidates(text, portable: portable, chunkSize: 4096, feed: 4096))
            for line in expected { #expect(found.contains(line), "portable \(portable): line \(line) \(lines[line - 1]) is no candidate") }
        }
    }
}
