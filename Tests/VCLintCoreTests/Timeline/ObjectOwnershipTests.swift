import Foundation
import Testing
@testable import VCLintCore

/// Objects beyond controllers (docs/lifecycle.md#objects): which classes are objects, who owns
/// them (docs/lifecycle.md#owners), and when they leak.
@Suite struct ObjectOwnershipTests {
    static func swiftLog(_ lines: [String], start: Double = 0, step: Double = 0.01) -> String {
        var t = start
        return lines.map { line -> String in
            defer { t += step }
            if line.hasPrefix("@") {
                // "@12.5 text": an explicit time in seconds after 10:00:00.
                let parts = line.dropFirst().split(separator: " ", maxSplits: 1)
                t = Double(parts[0])!
                return Self.stamp(t) + String(parts[1])
            }
            return Self.stamp(t) + line
        }.joined(separator: "\n") + "\n"
    }

    static func stamp(_ t: Double) -> String {
        let s = Int(t), ms = Int(((t - Double(s)) * 1000).rounded())
        return String(format: "2024-03-01 10:%02d:%02d.%03d Shop[100:200] ", s / 60, s % 60, ms)
    }

    /// A screen pushed over Home and popped, with `inside` logged during its setup and `after`
    /// right after its dealloc.
    static func screen(_ name: String, inside: [String] = [], after: [String] = []) -> [String] {
        ["\(name) viewDidLoad()"] + inside + [
            "HomeViewController viewWillDisappear(_:)", "\(name) viewWillAppear(_:)",
            "HomeViewController viewDidDisappear(_:)", "\(name) viewDidAppear(_:)",
            "\(name) viewWillDisappear(_:)", "HomeViewController viewWillAppear(_:)",
            "HomeViewController viewDidAppear(_:)", "\(name) viewDidDisappear(_:)",
            "\(name) deinit",
        ] + after
    }

    static let home = ["HomeViewController viewDidLoad()", "HomeViewController viewWillAppear(_:)", "HomeViewController viewDidAppear(_:)"]

    func findings(_ text: String) -> [Finding] { Array(lint(text).findings) }

    @Test func stems() {
        #expect(ObjectNames.stem("DetailViewModel") == "Detail")
        #expect(ObjectNames.stem("DetailViewController") == "Detail")
        #expect(ObjectNames.stem("DetailVC") == "Detail")
        #expect(ObjectNames.stem("DetailHostingController") == "Detail")
        #expect(ObjectNames.stem("Shop.DetailCoordinator") == "Detail")
        #expect(ObjectNames.stem("HomeScreenViewModel") == "Home")
        #expect(ObjectNames.stem("MainView.ViewModel") == "Main")
        #expect(ObjectNames.stem("MapRepresentable.Coordinator") == "MapRepresentable")
        #expect(ObjectNames.stem("ViewModel") == "")
        #expect(ObjectNames.stem("Coordinator") == "")
        #expect(ObjectNames.stem("ImageCache") == "ImageCache")
        // Stripped while something is left; titles by their words; empty parts skipped; any script.
        #expect(ObjectNames.stem("ViewViewModel") == "View")
        #expect(ObjectNames.stem("Modal Screen") == "Modal")
        #expect(ObjectNames.stem("Shop.") == "Shop")
        #expect(ObjectNames.stem("A.ViewModel.Coordinator") == "A")
        #expect(ObjectNames.stem("") == "")
        #expect(ObjectNames.stem("...") == "")
        #expect(ObjectNames.stem("Ünïcode View") == "Ünïcode")
        #expect(ObjectNames.stem("首页ViewController") == "首页")
        #expect(ObjectNames.mayBeObject("DetailViewModel"))
        #expect(!ObjectNames.mayBeObject("DetailViewController"))
        #expect(!ObjectNames.mayBeObject("Shop.SettingsVC"))
    }

    @Test func aViewModelThatGoesWithItsScreenIsFineInEitherOrder() {
        let before = Self.screen("DetailViewController", inside: ["DetailViewModel init"])
        var after = before
        after.insert("DetailViewModel deinit", at: after.count - 1)
        for lines in [before + ["DetailViewModel deinit"], after] {
            #expect(findings(Self.swiftLog(Self.home + lines + ["@20 Sync finished"])).isEmpty)
        }
    }

    @Test func aLeakedViewModelIsReportedAtItsOwnersDealloc() {
        // The first visit shows that the class logs its deinit; the second one's view model stays.
        let lines = Self.home + Self.screen("DetailViewController", inside: ["DetailViewModel init"], after: ["DetailViewModel deinit"])
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["@20 Sync finished"]
        let text = Self.swiftLog(lines)
        let all = findings(text)
        #expect(all.map(\.rule) == ["leaked_object"])
        guard let f = all.first else { return }
        let deallocLine = lines.lastIndex(of: "DetailViewController deinit")! + 1
        #expect(f.line == deallocLine)
        #expect(f.controller.instance == "DetailViewModel#2")
        #expect(f.owner?.instance == "DetailViewController#2")
        #expect(f.severity == .error)
        #expect(f.message.contains("outlived DetailViewController#2"))
        #expect(f.related.map(\.note) == ["init", "owner's removal"])
    }

    @Test func aLeakWithinTheGraceIsAnUnconfirmedWarning() {
        let lines = Self.home + Self.screen("DetailViewController", inside: ["DetailViewModel init"], after: ["DetailViewModel deinit"])
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map(\.rule) == ["leaked_object"])
        #expect(all.first?.severity == .warning)
    }

    @Test func aLateDeinitIsLateDealloc() {
        let lines = Self.home + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["@9 DetailViewModel deinit", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map(\.rule) == ["late_dealloc"])
        #expect(all.first?.line == lines.count - 1)
        #expect(all.first?.owner?.instance == "DetailViewController#1")
    }

    @Test func aClassThatNeverLogsItsDeinitCannotLeak() {
        let lines = Self.home + Self.screen("DetailViewController", inside: ["DetailViewModel init", "DetailRouter init"],
                                            after: ["DetailRouter deinit"])
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["@20 Sync finished"]
        // DetailViewModel never logs a deinit; its sibling's deinits do not make it judged.
        #expect(findings(Self.swiftLog(lines)).isEmpty)
    }

    @Test func appLifetimeObjectsAreNeverJudged() {
        // Made after Home appeared, followed by a callback that begins nothing: no setup running.
        let lines = Self.home + ["ImageCache init", "HomeViewController viewWillLayoutSubviews()"]
            + Self.screen("DetailViewController") + ["@10 ImageCache deinit", "@20 Sync finished"]
        #expect(findings(Self.swiftLog(lines)).isEmpty)
    }

    @Test func helperObjectsMadeDuringSetupBelongToTheScreen() {
        let lines = Self.home + Self.screen("DetailViewController", inside: ["PriceFormatter init"])
            + ["@5 PriceFormatter deinit", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map(\.rule) == ["late_dealloc"])
        #expect(all.first?.owner?.className == "DetailViewController")
    }

    @Test func aCoordinatorMadeBeforeItsScreenBelongsToIt() {
        // Made while Home is shown and nothing is being set up: the screen of its stem, created
        // after it, owns it.
        let lines = Self.home + ["DetailCoordinator init", "HomeViewController viewWillLayoutSubviews()"]
            + Self.screen("DetailViewController") + ["@9 DetailCoordinator deinit", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map(\.rule) == ["late_dealloc"])
        #expect(all.first?.owner?.className == "DetailViewController")
    }

    /// A Detail screen popped and deallocated late (6 s after its pop); the builder of the next Detail makes its
    /// coordinator and view model just before it, while the stem's only owner is the one on its way out. Whether the
    /// old one's deinit comes between them and the new one's first event, or after it, they are the new one's: they
    /// go with it 6 s after the old one went, and only the old controller's late dealloc is a finding.
    @Test(arguments: [true, false])
    func objectsMadeWhileTheirStemsOwnerIsLeavingAreTheNextOnes(deallocBetween: Bool) {
        var lines = Self.home + Self.screen("DetailViewController").dropLast()
        lines += ["@6 DetailCoordinator init", "DetailViewModel init"]
        if deallocBetween { lines += ["DetailViewController deinit"] }
        lines += ["DetailViewController init(nibName:bundle:)"]
        if !deallocBetween { lines += ["DetailViewController deinit"] }
        lines += ["@12 DetailViewController viewDidLoad()"] + Self.screen("DetailViewController", after: ["DetailCoordinator deinit", "DetailViewModel deinit"])
            .dropFirst() + ["@30 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map { "\($0.rule) \($0.controller.instance)" } == ["late_dealloc DetailViewController#1"], "\(all.map(\.message))")
    }

    /// Without a controller of their stem after them, an object made while its stem's owner is leaving stays its own:
    /// one that outlives it is still judged.
    @Test func objectsMadeWhileTheirStemsOwnerIsLeavingStayItsOwnWhenNoneFollows() {
        let first = Self.screen("DetailViewController", inside: ["DetailCoordinator init"], after: ["DetailCoordinator deinit"])
        let lines = Self.home + first + Self.screen("DetailViewController").dropLast()
            + ["DetailCoordinator init", "DetailViewController deinit", "[Sync] started", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map { "\($0.rule) \($0.controller.instance)" } == ["leaked_object DetailCoordinator#2"], "\(all.map(\.message))")
    }

    @Test func aVIPERBurstBelongsToTheScreenThatFollows() {
        let inits = ["ReviewsPresenter init", "ReviewsInteractor init", "ReviewsRouter init", "AuditLog init"]
        let lines = Self.home + inits + Self.screen("ReviewsScreenController") + ["@9 AuditLog deinit", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map(\.rule) == ["late_dealloc"])
        #expect(all.first?.controller.className == "AuditLog")
        #expect(all.first?.owner?.className == "ReviewsScreenController")
    }

    @Test func addresslessDeinitsGoToTheObjectWhoseOwnerWentFirst() {
        // Two details stacked, each with its view model; the lower one is popped after the upper.
        let lines = Self.home + [
            "DetailViewController viewDidLoad()", "DetailViewModel init",
            "HomeViewController viewWillDisappear(_:)", "DetailViewController viewWillAppear(_:)",
            "HomeViewController viewDidDisappear(_:)", "DetailViewController viewDidAppear(_:)",
            "DetailViewController viewDidLoad()", "DetailViewModel init",
            "DetailViewController viewWillDisappear(_:)", "DetailViewController viewWillAppear(_:)",
            "DetailViewController viewDidDisappear(_:)", "DetailViewController viewDidAppear(_:)",
            "DetailViewController viewWillDisappear(_:)", "DetailViewController viewWillAppear(_:)",
            "DetailViewController viewDidAppear(_:)", "DetailViewController viewDidDisappear(_:)",
            "DetailViewController deinit", "DetailViewModel deinit",
            "@5 DetailViewController viewWillDisappear(_:)", "HomeViewController viewWillAppear(_:)",
            "HomeViewController viewDidAppear(_:)", "DetailViewController viewDidDisappear(_:)",
            "DetailViewController deinit", "DetailViewModel deinit", "@20 Sync finished",
        ]
        #expect(findings(Self.swiftLog(lines)).isEmpty)
    }

    /// A screen popped, its helper's address-less deinit logged before its own dealloc, while an older helper of the
    /// same class lives with the screen below: the deinit is the popped screen's helper's (its owner is on its way
    /// out; the other's owner holds it), so neither helper is judged late or leaked, here or when the older one goes.
    @Test func anAddresslessDeinitBeforeItsOwnersDeallocIsThePoppedScreensObject() {
        let lines = ["HomeViewController viewDidLoad()", "ImageLoader init",
                     "HomeViewController viewWillAppear(_:)", "HomeViewController viewDidAppear(_:)"]
            + ["DetailViewController viewDidLoad()", "ImageLoader init",
               "HomeViewController viewWillDisappear(_:)", "DetailViewController viewWillAppear(_:)",
               "HomeViewController viewDidDisappear(_:)", "DetailViewController viewDidAppear(_:)",
               "DetailViewController viewWillDisappear(_:)", "HomeViewController viewWillAppear(_:)",
               "HomeViewController viewDidAppear(_:)", "DetailViewController viewDidDisappear(_:)",
               "ImageLoader deinit", "DetailViewController deinit"]
            + ["@10 Sync finished", "@12 HomeViewController viewWillDisappear(_:)", "HomeViewController viewDidDisappear(_:)",
               "HomeViewController deinit", "ImageLoader deinit", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.isEmpty, "\(all.map(\.message))")
    }

    /// Tabs with address-less twins: an item pushed in tab 2 (over another item), one pushed in tab 0 with a
    /// helper, then tab 1, then back to tab 2. The log cannot tell which item came back (the one left last is
    /// taken), and the pop that follows shows it was the other (`takeTwinsPlace`): the popped item's dealloc may
    /// be the other twin's, so the tab 0 item's helper, alive to the end, is not a leak.
    /// A tab switch in UIKit's order (the arriving tab's top announced first), a push and a pop, Swift's spellings.
    static func tabSwitch(to arriving: String, from leaving: String) -> [String] {
        ["\(arriving) viewWillAppear(_:)", "\(leaving) viewWillDisappear(_:)",
         "\(leaving) viewDidDisappear(_:)", "\(arriving) viewDidAppear(_:)"]
    }
    static func push(_ arriving: String, over below: String) -> [String] {
        ["\(below) viewWillDisappear(_:)", "\(arriving) viewWillAppear(_:)",
         "\(below) viewDidDisappear(_:)", "\(arriving) viewDidAppear(_:)"]
    }
    static func pop(_ leaving: String, to arriving: String) -> [String] {
        ["\(leaving) viewWillDisappear(_:)", "\(arriving) viewWillAppear(_:)",
         "\(leaving) viewDidDisappear(_:)", "\(arriving) viewDidAppear(_:)"]
    }

    @Test func aPopThatShowsTwinsWereToldApartWronglyJudgesNoObjectOfThem() {
        let item = "ItemViewController"
        var lines = ["Tab0RootViewController viewDidLoad()", "Tab0RootViewController viewWillAppear(_:)",
                     "Tab0RootViewController viewDidAppear(_:)", "Tab2RootViewController viewDidLoad()"]
        // A screen whose helper goes with it: the helper's class logs its deinit.
        lines += ["DetailViewController viewDidLoad()", "FormValidator init"] + Self.push("DetailViewController", over: "Tab0RootViewController")
        lines += ["DetailViewController viewWillDisappear(_:)", "Tab0RootViewController viewWillAppear(_:)",
                  "DetailViewController viewDidDisappear(_:)", "Tab0RootViewController viewDidAppear(_:)",
                  "DetailViewController deinit", "FormValidator deinit"]
        lines += Self.tabSwitch(to: "Tab2RootViewController", from: "Tab0RootViewController")
        lines += ["\(item) viewDidLoad()"] + Self.push(item, over: "Tab2RootViewController")
        lines += ["\(item) viewDidLoad()"] + Self.push(item, over: item)
        lines += Self.tabSwitch(to: "Tab0RootViewController", from: item)
        lines += ["\(item) viewDidLoad()", "FormValidator init"] + Self.push(item, over: "Tab0RootViewController")
        lines += ["Tab1RootViewController viewDidLoad()"] + Self.tabSwitch(to: "Tab1RootViewController", from: item)
        lines += Self.tabSwitch(to: item, from: "Tab1RootViewController")
        // Pop the top of tab 2, in navigation order: the leaving item first, then the one below, then its deinit.
        lines += ["\(item) viewWillDisappear(_:)", "\(item) viewWillAppear(_:)", "\(item) viewDidAppear(_:)",
                  "\(item) viewDidDisappear(_:)", "\(item) deinit", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.isEmpty, "\(all.map(\.message))")
    }

    /// Three tabs of address-less Detail screens: tab 0 holds Root, Detail, Detail; tab 2 Root, Detail, Detail (the top
    /// one with a helper); tab 1 Root, Detail. The switch from tab 1 to tab 0 shows a Detail top the log cannot tell
    /// from tab 2's (the one active last, tab 2's, is taken); tab 0's two Details are popped one by one, and only the
    /// second pop, to tab 0's root, shows whose stack it was: the whole stack was told apart wrongly, not its top alone
    /// (`takeTwinsStack`). Tab 2's Details and the helper live on until a pop to tab 2's root takes them, long after
    /// the first pops: no finding. Without the helper's deinit no controller is blamed, and the helper is not judged
    /// (which of the twins it followed out is what the log could not tell).
    static func tabsOfTwinStacks(helperDeinit: Bool) -> [String] {
        let detail = "DetailViewController"
        var lines = ["Tab0RootViewController viewDidLoad()", "Tab0RootViewController viewWillAppear(_:)", "Tab0RootViewController viewDidAppear(_:)"]
        lines += ["\(detail) viewDidLoad()"] + Self.push(detail, over: "Tab0RootViewController")
        lines += ["\(detail) viewDidLoad()"] + Self.push(detail, over: detail)
        lines += ["Tab2RootViewController viewDidLoad()"] + Self.tabSwitch(to: "Tab2RootViewController", from: detail)
        lines += ["\(detail) viewDidLoad()"] + Self.push(detail, over: "Tab2RootViewController")
        lines += ["\(detail) viewDidLoad()", "FormValidator init"] + Self.push(detail, over: detail)
        lines += ["Tab1RootViewController viewDidLoad()"] + Self.tabSwitch(to: "Tab1RootViewController", from: detail)
        lines += ["\(detail) viewDidLoad()"] + Self.push(detail, over: "Tab1RootViewController")
        lines += ["@5 \(detail) viewWillAppear(_:)", "\(detail) viewWillDisappear(_:)", "\(detail) viewDidDisappear(_:)", "\(detail) viewDidAppear(_:)"]
        lines += Self.pop(detail, to: detail) + ["\(detail) deinit"]
        lines += ["@7 \(detail) viewWillDisappear(_:)", "Tab0RootViewController viewWillAppear(_:)",
                  "\(detail) viewDidDisappear(_:)", "Tab0RootViewController viewDidAppear(_:)", "\(detail) deinit"]
        lines += ["@15 \(detail) viewWillAppear(_:)"] + ["Tab0RootViewController viewWillDisappear(_:)",
                  "Tab0RootViewController viewDidDisappear(_:)", "\(detail) viewDidAppear(_:)"]
        lines += ["@16 \(detail) viewWillDisappear(_:)", "Tab2RootViewController viewWillAppear(_:)",
                  "Tab2RootViewController viewDidAppear(_:)", "\(detail) viewDidDisappear(_:)", "\(detail) deinit"]
        lines += helperDeinit ? ["FormValidator deinit", "\(detail) deinit"] : ["\(detail) deinit"]
        return lines + ["@30 Sync finished"]
    }

    @Test func aTabSwitchThatShowedATwinStackIsFoundOutByAPopToItsRoot() {
        let all = findings(Self.swiftLog(Self.tabsOfTwinStacks(helperDeinit: true)))
        #expect(all.isEmpty, "\(all.map(\.message))")
        let leaked = findings(Self.swiftLog(Self.tabsOfTwinStacks(helperDeinit: false)))
        #expect(leaked.allSatisfy { $0.controller.className == "FormValidator" }, "\(leaked.map(\.message))")
    }

    /// Screens named by a label (`S`) that logs its init: at `Init – S`, right after a coordinator's init, S has
    /// logged nothing but an init and reads as an object; another screen's callback ends the burst; only S's
    /// viewDidLoad shows it is a controller. Its init was its first event, so the coordinator made in the burst
    /// right before it is S's, and its deinit long after S's dealloc is late.
    @Test func anObjectMadeRightBeforeALabelsInitIsThatControllersOnceItShowsItIsOne() {
        let lines = ["• Init – R", "• ViewDidLoad – R", "• ViewWillAppear – R", "• ViewDidAppear – R",
                     "• Init – ComposeCoordinator", "• Init – S", "• ViewWillDisappear – R", "• ViewDidLoad – S",
                     "• ViewWillAppear – S", "• ViewDidDisappear – R", "• ViewDidAppear – S",
                     "• ViewWillDisappear – S", "• ViewWillAppear – R", "• ViewDidDisappear – S", "• ViewDidAppear – R",
                     "• Dealloc – S", "@10 • Dealloc – ComposeCoordinator", "@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.map { "\($0.rule)@\($0.line) \($0.owner?.instance ?? "")" } == ["late_dealloc@17 S#1"], "\(all.map(\.message))")
    }

    @Test func cellViewModelsInARowAreSeparateObjects() {
        let cells = (0..<5).map { _ in "CellViewModel init" }
        let gone = (0..<5).map { _ in "CellViewModel deinit" }
        let lines = Self.home + Self.screen("ListViewController", inside: cells, after: gone) + ["@20 Sync finished"]
        let all = findings(Self.swiftLog(lines))
        #expect(all.isEmpty, "\(all.map(\.message))")
    }

    @Test func followAgreesWithBatch() {
        let lines = Self.home + Self.screen("DetailViewController", inside: ["DetailViewModel init"], after: ["DetailViewModel deinit"])
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["@20 Sync finished"]
        let bytes = Array(Self.swiftLog(lines).utf8)
        let live = LiveLinter(path: "live.log")
        var streamed: [Finding] = []
        for chunk in bytes.chunked(into: 50) { streamed += chunk.withUnsafeBytes { live.consume($0) } }
        let (late, _) = live.finish()
        streamed += late
        let batch = Linter().lint(bytes: bytes, path: "live.log")
        #expect(streamed.map { "\($0.rule)@\($0.line) \($0.owner?.instance ?? "")" } == batch.findings.map { "\($0.rule)@\($0.line) \($0.owner?.instance ?? "")" })
    }

    @Test func theLeakReportShowsTheObjectUnderItsOwner() throws {
        let lines = Self.home + ["ImageCache init", "HomeViewController viewWillLayoutSubviews()"]
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"], after: ["DetailViewModel deinit"])
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["@20 Sync finished"]
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.recordLanes = false
        let result = Linter(options: options).lint(text: Self.swiftLog(lines), path: "app.log")
        let timeline = try #require(result.timeline)
        let report = LeakReport(inputs: [TimelineInput(path: "app.log", stats: result.stats, findings: result.findings, timeline: timeline)], graceSeconds: 3)
        let text = LeakText().render(report)
        #expect(text.contains("DetailViewController#2 → DetailViewModel#2"), "\(text)")
        #expect(text.contains("App-lifetime objects (made while no screen was being set up: never judged): ImageCache"), "\(text)")
        #expect(report.confirmedCount == 1)
        let json = try JSONSerialization.jsonObject(with: Data(LeakJSON().render(report).utf8)) as! [String: Any]
        #expect(json["app_lifetime_objects"] as? [String] == ["ImageCache"])
    }

    @Test func inspectListsObjectsWithTheirOwnersAndWhy() throws {
        let run = try runVCLint(["inspect", "Fixtures/objects/mvvm-screens.log"], cwd: packageRoot)
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout
        #expect(out.contains("3 controllers, 11 objects"))
        #expect(out.contains("objects (classes that log only init and deinit: each goes with its owner)"))
        #expect(out.contains("DetailViewModel  1 instance, swift-function: init, dealloc\n      owners: DetailViewController by shared name stem ×1"))
        #expect(out.contains("PriceFormatter  1 instance, swift-function: init, dealloc\n      owners: DetailViewController by setup running ×1"))
        #expect(out.contains("ImageCache  1 instance, swift-function: init\n      owners: none (app-lifetime: never judged) ×1"))
        let json = try runVCLint(["inspect", "--format", "json", "Fixtures/objects/mvvm-screens.log"], cwd: packageRoot)
        #expect(json.stdout.contains("\"why\""), "\(json.stderr)")
    }

    @Test func threadIDs() {
        func tid(_ s: String) -> UInt64 { Array(s.utf8).withUnsafeBufferPointer { EnvelopeParser.threadID($0.baseAddress!, 0..<$0.count) } }
        #expect(tid("200") == 0x200)
        #expect(tid("1a2b3c") == 0x1a2b3c)
        #expect(tid("0x7f03") == 0x7f03)
        #expect(tid("") == 0)
        func untimed(_ s: String) -> UInt64? {
            Array(s.utf8).withUnsafeBufferPointer { EnvelopeParser.untimedNSLog($0.baseAddress!, $0.count)?.0.thread }
        }
        #expect(untimed("Shop[100:7f03] HomeViewModel init") == 0x7f03)
        #expect(untimed("[100:200] HomeViewModel init") == 0x200)
    }

    @Test func anObjectMadeOnAnotherThreadIsNotTheSetupsOwn() {
        // Detail is set up on the main thread (200); the cache is made on a background queue (7f03)
        // meanwhile, and lives on after the screen: the app's, not the screen's.
        let lines = Self.home + Self.screen("DetailViewController", inside: ["<bg>ImageCache init", "<bg>PriceFormatter init"])
            + ["@9 ImageCache deinit", "@9.5 PriceFormatter deinit", "@20 Sync finished"]
        let text = Self.swiftLog(lines).replacingOccurrences(of: "Shop[100:200] <bg>", with: "Shop[100:7f03] ")
        #expect(findings(text).isEmpty, "\(findings(text).map(\.message))")
        // The same lines on one thread: both belong to the screen, and go late.
        let one = Self.swiftLog(lines).replacingOccurrences(of: "<bg>", with: "")
        #expect(findings(one).map(\.rule) == ["late_dealloc", "late_dealloc"])
    }

    /// Markers name the class, callbacks its title: the one live controller of the stem is meant.
    @Test func aMarkerNamingTheClassOfATitledScreen() {
        let text = """
        *** Home Screen — ViewDidLoad
        *** Home Screen — ViewWillAppear (animated: true)
        *** Home Screen — ViewDidAppear (animated: true)
        ModalViewController present begin
        *** Modal Screen — ViewDidLoad
        *** Home Screen — ViewWillDisappear (animated: true)
        *** Modal Screen — ViewWillAppear (animated: true)
        *** Home Screen — ViewDidDisappear (animated: true)
        *** Modal Screen — ViewDidAppear (animated: true)
        ModalViewController present end
        ModalViewController dismiss begin
        *** Modal Screen — ViewWillDisappear (animated: true)
        *** Home Screen — ViewWillAppear (animated: true)
        *** Home Screen — ViewDidAppear (animated: true)
        ModalViewController dismiss end
        *** Modal Screen — ViewDidDisappear (animated: true)
        *** Home Screen — ViewWillLayoutSubviews
        """
        let all = findings(text + "\n")
        #expect(all.map { "\($0.rule)@\($0.line)" } == ["completion_before_disappearance@15"], "\(all.map(\.message))")
        #expect(all.first?.controller.className == "Modal Screen")
        // In order, nothing.
        var lines = text.split(separator: "\n").map(String.init)
        lines.swapAt(14, 15)
        #expect(findings(lines.joined(separator: "\n") + "\n").isEmpty)
    }

    @Test func theOwnerIsInEveryReport() throws {
        let lines = Self.home + Self.screen("DetailViewController", inside: ["DetailViewModel init"], after: ["DetailViewModel deinit"])
            + Self.screen("DetailViewController", inside: ["DetailViewModel init"]) + ["@20 Sync finished"]
        let result = Linter().lint(text: Self.swiftLog(lines), path: "app.log")
        let run = LintResult(files: [result])
        let json = JSONReporter().report(run)
        let doc = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let v = (doc["violations"] as! [[String: Any]])[0]
        let owner = v["owner"] as! [String: Any]
        #expect(owner["class"] as? String == "DetailViewController")
        #expect(owner["instance"] as? String == "DetailViewController#2")
        #expect(owner.keys.contains("address"))
        #expect(SARIFReporter().report(run).contains("\"owner\""))
        // Merged back from JSON (a shard's report), the owner is kept.
        let shard = JSONReporter(configuration: RunConfiguration(options: LintOptions())).report(run)
        let loaded = try LoadedReport.parse(Data(shard.utf8), path: "r.json")
        #expect(loaded.result.files[0].findings.first?.owner?.instance == "DetailViewController#2")
        // A controller's finding has no owner key.
        let plain = Linter().lint(text: Self.swiftLog(Self.home + ["DetailViewController viewDidAppear(_:)"]), path: "p.log")
        #expect(!JSONReporter().report(LintResult(files: [plain])).contains("\"owner\""))
    }
}
