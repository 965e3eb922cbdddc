import VCLintCore

/// A deterministic simulator of an app's navigation that writes the console capture vclint reads:
/// push/pop, pop to root, full-screen present/dismiss, page sheets, tab switches, child
/// controllers, cancelled swipe-backs, memory warnings and relaunches, in any envelope and dialect,
/// with noise. Every flow it writes is legal; optionally one fault is injected and the finding it
/// must cause is returned as ground truth. Used by the property tests and `vclint-loggen`.
///
/// `Options.families` adds flows that vclint once misread when it was scored on simulated captures
/// (stalled transitions, same-class twins, child moves that show no parent, lazily created tab roots, …;
/// the rules they exercise: docs/lifecycle.md#identity-and-sessions, docs/lifecycle.md#the-timeline):
/// each is legal, and some have faults of their own. Without families the simulator writes what it always
/// did, byte for byte: every family decision draws from the generator only when its family is on.
///
/// `Options.objects` gives the screens objects that log `init` and `deinit` (view models, VIPER modules,
/// coordinators, helpers, app-lifetime services), in flows whose owner every reading of
/// docs/development.md#objects-in-simulated-apps gives; its faults (`leakedObject`, `lateObjectRelease`) expect
/// `leaked_object` and `late_dealloc`. Off, it draws nothing either.
public struct NavigationSimulator {
    public enum Dialect: String, CaseIterable, Sendable {
        case objc, swift, described, named, methodClass = "method-class"
        /// The app's own words, in `Options.style` (docs/lifecycle.md#free-form-lifecycle-statements).
        case freeForm = "free-form"
    }

    /// Flows beyond the classic ones: the families of flows vclint once misread. All legal.
    public enum Family: String, CaseIterable, Sendable, Comparable {
        /// Every push is followed at once by another transition: often a sheet shown and dismissed, then
        /// (or alone) a presentation, a pop, a cancelled swipe-back, a child or a tab switch (what a
        /// stalled push must not swallow: `Fault.stalledPush`). The app logs completion markers.
        case stalledTransitions = "stalled-transitions"
        /// Same-class twins without addresses: a controller pushed over one of its own class, the screen
        /// just closed opened again, and pops whose `dealloc` comes between the leaving controller's
        /// viewDidDisappear and the revealed one's viewDidAppear (removed already:
        /// docs/lifecycle.md#events-no-live-instance-accepts).
        /// Faults: `leakedTwin`, `strayAfterDealloc`.
        case twins
        /// Child controllers whose `willMoveToParent`/`didMoveToParent` lines show no parent (ObjC
        /// `__func__`, Swift `#function`): the direction is inferred (docs/lifecycle.md#child-removal).
        case bareChildMoves = "bare-child-moves"
        /// Tab roots created when their tab is first shown, and (in most sessions) tab switches logged in
        /// navigation order: a switch back can read as a pop to root until the tab's top reappears, and
        /// every session ends with each such top shown again (docs/lifecycle.md#covered-is-not-removed: the
        /// reappearance reverts it, and the removal of the controllers it took along). Without addresses no
        /// two live controllers share a class then: a reappearing top is known by its state only when it
        /// has no hidden twin. With `twins` as well, no twin is made of a top that waits to reappear, and a
        /// tab switch either side of which has a twin is logged in UIKit's order.
        case lazyTabs = "lazy-tabs"
        /// The capture ends right after a completion marker: `X present end` after a presentation, or
        /// `X dismiss end` after a (possibly recursive) dismissal in an app that logs no `dealloc`.
        /// Faults: `missingDidAppearAtEnd`, `missingDidDisappearAtEnd`.
        case completionAtEnd = "completion-at-end"
        /// Stacks of 3–5 address-less controllers of one class, maybe a pop and a cancelled swipe-back,
        /// then a pop to root; in half the tab-less sessions the root is of that class too (a folder
        /// browser), so the pop to root reveals the oldest of them. Fault: `deepStackLeak`.
        case deepStacks = "deep-stacks"
        /// Each run of the app begins with a few lines of noise before its first callback, so the new
        /// pid shows first on a line without an event; in the NSLog envelopes the lifecycle lines are
        /// `print`s (no envelope), so a relaunch shows only on the noise lines (the Xcode console).
        case printedRelaunch = "printed-relaunch"

        public static func < (a: Family, b: Family) -> Bool { a.rawValue < b.rawValue }
    }

    public enum Fault: String, CaseIterable, Sendable {
        /// A popped or dismissed controller's dealloc is deleted.
        case leak
        /// A leaving controller's viewDidDisappear is deleted.
        case missingDidDisappear = "missing-did-disappear"
        /// An arriving controller's viewDidAppear is deleted.
        case missingDidAppear = "missing-did-appear"
        /// A callback is logged for a controller after its dealloc.
        case eventAfterDealloc = "event-after-dealloc"
        /// A dismiss completion is logged before the dismissed controller's viewDidDisappear.
        case completionBeforeDisappearance = "completion-before-disappearance"
        /// A pushed controller's viewDidAppear is deleted, and the next step (a sheet, a presentation,
        /// a pop, a cancelled swipe-back, a child, a tab switch) follows at once: `missing_did_appear` on
        /// its viewWillAppear, nothing else (docs/lifecycle.md#when-a-transition-is-over).
        case stalledPush = "stalled-push"
        /// A popped controller's dealloc is deleted, and later another instance of its class (no
        /// addresses) is popped with its dealloc before the revealed controller's viewDidAppear: the
        /// first one leaked (docs/lifecycle.md#generations: the dealloc goes to the instance removed most
        /// recently).
        case leakedTwin = "leaked-twin"
        /// A child's `didMoveToParent` after its addition is deleted: `child_containment` on the
        /// addition's `willMoveToParent` (also when the lines show no parent:
        /// docs/lifecycle.md#child-removal).
        case skippedDidMove = "skipped-did-move"
        /// A viewDidDisappear, viewDidAppear or viewWillDisappear right after a dealloc that no live
        /// instance of the class would accept: `event_after_dealloc` on it
        /// (docs/lifecycle.md#events-no-live-instance-accepts).
        case strayAfterDealloc = "stray-after-dealloc"
        /// The capture ends right after `X dismiss end`, and the dismissed controller's
        /// viewDidDisappear is deleted: the completion proves the transition over
        /// (docs/lifecycle.md#when-a-transition-is-over).
        case missingDidDisappearAtEnd = "missing-did-disappear-at-end"
        /// The capture ends right after `X present end`, and the presented controller's viewDidAppear
        /// is deleted.
        case missingDidAppearAtEnd = "missing-did-appear-at-end"
        /// One dealloc of a deep stack of one class, popped to root, is deleted: `leaked_controller` on
        /// the top's viewDidDisappear (its own, or the one whose removal took it along:
        /// docs/rules.md#leaked_controller).
        case deepStackLeak = "deep-stack-leak"
        /// A popped or dismissed controller's dealloc is moved to more than the grace period after its
        /// removal, in the same session, with nothing of its class (or owned by it) in between:
        /// `late_dealloc` on the moved dealloc. Live mode prints the leak when the grace passes, then
        /// its resolution (docs/lifecycle.md#live-mode).
        case lateRelease = "late-release"
        /// An object's `deinit` is deleted while its owner controller is deallocated in the log, in a
        /// capture where its class logs `deinit` elsewhere: `leaked_object` on the owner's dealloc
        /// (docs/development.md#objects-in-simulated-apps). Turns `Options.objects` on.
        case leakedObject = "leaked-object"
        /// An object's `deinit` is moved to more than the grace period after its owner's dealloc, in the
        /// same session: `late_dealloc` on the deinit. Turns `Options.objects` on.
        case lateObjectRelease = "late-object-release"

        public var rule: String {
            switch self {
            case .leak, .leakedTwin, .deepStackLeak: return "leaked_controller"
            case .missingDidDisappear, .missingDidDisappearAtEnd: return "missing_did_disappear"
            case .missingDidAppear, .stalledPush, .missingDidAppearAtEnd: return "missing_did_appear"
            case .eventAfterDealloc, .strayAfterDealloc: return "event_after_dealloc"
            case .completionBeforeDisappearance: return "completion_before_disappearance"
            case .skippedDidMove: return "child_containment"
            case .leakedObject: return "leaked_object"
            case .lateObjectRelease, .lateRelease: return "late_dealloc"
            }
        }

        /// The family whose flows the fault needs (the simulator turns it on); nil for the classic faults.
        public var family: Family? {
            switch self {
            case .leak, .missingDidDisappear, .missingDidAppear, .eventAfterDealloc, .completionBeforeDisappearance, .lateRelease: return nil
            case .leakedObject, .lateObjectRelease: return nil
            case .stalledPush: return .stalledTransitions
            case .leakedTwin, .strayAfterDealloc: return .twins
            case .skippedDidMove: return .bareChildMoves
            case .missingDidDisappearAtEnd, .missingDidAppearAtEnd: return .completionAtEnd
            case .deepStackLeak: return .deepStacks
            }
        }

        /// Whether the fault is an object's (the simulator turns `Options.objects` on for it).
        public var needsObjects: Bool { self == .leakedObject || self == .lateObjectRelease }

        /// The faults of the first simulator, which need no family and no objects.
        public static let classic: [Fault] = allCases.filter { $0.family == nil && !$0.needsObjects }
        /// The objects' faults.
        public static let objectFaults: [Fault] = allCases.filter(\.needsObjects)
    }

    public struct Options: Sendable {
        public var seed: UInt64
        public var envelope: EnvelopeFormat = .nslogTZ
        public var dialect: Dialect = .objc
        public var sessions = 2
        public var steps = 30
        /// Average noise lines per lifecycle line.
        public var noise = 2.0
        /// Share of noise lines that mention a callback without being one.
        public var mentionRate = 0.25
        /// Share of steps that are a memory warning (each is an info finding: a report holds them all).
        public var memoryWarningRate = 0.08
        /// Where the capture's clock and pids start (a long capture is several runs in a row).
        public var startTime = 1_700_000_000.0
        public var firstPID = 4000
        /// Whether controllers log `init` (nil: decided by the seed). One app build logs the same
        /// callbacks in every run, so runs put in one capture must agree.
        public var logsInit: Bool?
        /// Whether controllers log `dealloc` (nil: yes, unless the `completionAtEnd` family ends the
        /// capture with a dismissal, which needs an app that does not).
        public var logsDealloc: Bool?
        public var fault: Fault?
        /// The families of flows to add (a fault's own family is added).
        public var families: Set<Family> = []
        /// Screens own objects that log `init` and `deinit` in the capture's dialect
        /// (docs/development.md#objects-in-simulated-apps): view models made during their screen's setup, VIPER modules and
        /// coordinators made in a burst right before their screen, helpers without the screen's name,
        /// app-lifetime services that never go, and classes that never log `deinit`. Off, nothing is
        /// drawn for them: the capture is what it was without objects, byte for byte. An object fault
        /// turns it on. (The redacted free-form style prints no objects: a `<private>` label names no class.)
        public var objects = false
        /// The `free-form` dialect's style (nil: drawn from the seed).
        public var style: FreeFormStyle?
        public init(seed: UInt64) { self.seed = seed }
    }

    public struct Output: Sendable {
        public var lines: [String]
        /// The finding the injected fault must cause (rule, 1-based line); empty for legal logs.
        public var expected: [(rule: String, line: Int)]
        /// Where a following run continues: after this clock, with a new pid.
        public var endTime: Double
        public var nextPID: Int
        public var logsInit: Bool
        public var logsDealloc: Bool
        public var text: String { lines.joined(separator: "\n") + "\n" }
    }

    // MARK: - Model

    enum State { case hidden, appearing, visible, disappearing }

    final class Controller {
        let className: String
        let address: UInt64
        var loaded = false
        var alive = true
        /// Where it stands in the appearance cycle (which stray callback its class's live instances accept).
        var state = State.hidden
        var appearedEver = false
        /// The controllers that were new when they appeared over it (the `lazyTabs` reading of
        /// docs/lifecycle.md#covered-is-not-removed).
        var coveredBy: [Controller] = []
        // Objects (`Options.objects`).
        /// An object rather than a controller: it logs `init` and `deinit` only.
        var isObject = false
        /// An object's owner controller (nil: an app-lifetime service).
        var owner: Controller?
        /// A controller's first record is logged (its setup has begun), and when (a serial number).
        var begun = false
        var begunAt = 0
        /// A controller's first viewDidAppear is logged (its setup is over).
        var setupDone = false
        /// A controller's setup objects are made; its VIPER module is.
        var objectsMade = false
        var moduleMade = false
        init(_ c: String, _ a: UInt64) { className = c; address = a }
    }

    enum Kind: Equatable {
        case initialize, viewDidLoad, willAppear, didAppear, willDisappear, didDisappear, layout
        case willMove(parent: Bool), didMove(parent: Bool), memoryWarning, willUnload, didUnload, dealloc
        case presentBegin, presentEnd, dismissBegin, dismissEnd
        case noise(String), dictionary
        /// An object's `init` and `deinit` (`Options.objects`).
        case objectInit, objectDeinit
    }

    /// A navigation step (what a record was logged for).
    enum Step: Equatable {
        case launch, push, pop, popToRoot, cancel, present, recursiveDismiss, dismiss, sheet, tab, child, memoryWarning
        case deep, revisit, ending
    }

    struct Record {
        var controller: Controller?
        var kind: Kind
        var time: Double
        var pid: Int
        /// Set on the dealloc of a controller that was popped or dismissed.
        var afterRemoval = false
        /// For such a dealloc: the viewDidDisappear that removed it (its own, or for the middle of a
        /// pop to root the top controller's), and whether it was its own.
        var removalDid: Int?
        var ownRemoval = false
        /// How many live instances its class had when this record was made.
        var liveOfClass = 0
        /// The step it belongs to: its serial number in the capture and its kind.
        var step = 0
        var stepKind = Step.launch
        /// A move printed without its parent argument.
        var bareMove = false
        /// A dealloc logged before the revealed controller's viewDidAppear.
        var early = false
        /// For a dealloc: the states of the class's other live instances then.
        var twinStates: [State] = []
        /// For a dealloc of a deep stack whose root is of the stacked controllers' class, without
        /// addresses: the pop to root reveals a controller the log cannot tell from the one above
        /// it, so a pop to root that leaked one of them reads as a pop to the one above the root.
        var revealsTwin = false
    }

    private var rng: SplitMix64
    private let options: Options
    private let families: Set<Family>
    private var records: [Record] = []
    /// The deep stack being built sits on a root of its class, without addresses (`Record.revealsTwin`).
    private var deepStackOverTwin = false
    private var time: Double
    private var pid: Int
    private var nextAddress: UInt64 = 0x7fa1_c8d0_0000
    private var freed: [UInt64] = []
    private var live: [ObjectIdentifier: Controller] = [:]
    private let logsInit: Bool
    private let logsDealloc: Bool
    /// Whether the app logs `X present begin/end`, `X dismiss begin/end` in its completion blocks.
    private let logsMarkers: Bool
    /// iOS < 6 in this session: a memory warning unloads hidden views, which load again later.
    private var unloadsViews = false
    /// How the `free-form` dialect prints (`Options.style`, or drawn from the seed).
    private let style: FreeFormStyle
    /// `completionAtEnd`: whether the capture ends with a dismissal (else with a presentation).
    private let endsWithDismissal: Bool
    /// `printedRelaunch` in an NSLog envelope: lifecycle lines are printed without an envelope.
    private let printsLifecycle: Bool

    // The session's navigation state.
    private var stacks: [[Controller]] = []
    private var current = 0
    private var modals: [Controller] = []
    private var tabCount = 0
    /// This session's tab switches announce the leaving controller first (navigation order).
    private var navigationOrderTabs = false
    private var step = 0
    private var stepKind = Step.launch
    /// `twins`: the class of the controller popped last.
    private var lastPopped: String?
    /// `lazyTabs`: tops whose tab switch read as a pop (docs/lifecycle.md#what-a-log-cannot-tell) and that
    /// have not appeared since.
    private var poppedByReading: [Controller] = []

    // Objects (`Options.objects`).
    private let objects: Bool
    /// The live objects, oldest first.
    private var liveObjects: [Controller] = []
    private var nextObjectAddress: UInt64 = 0x6000_02a4_0000
    /// Serial numbers of controllers' first records.
    private var begunCount = 0
    /// What each screen class is built with in this run, drawn at its first instance.
    private var architectures: [String: Architecture] = [:]
    /// The services made in this session.
    private var services: Set<String> = []

    public static func generate(_ options: Options) -> Output {
        var sim = NavigationSimulator(options)
        return sim.run()
    }

    init(_ options: Options) {
        self.options = options
        var families = options.families
        if let f = options.fault?.family { families.insert(f) }
        self.families = families
        self.time = options.startTime
        self.pid = options.firstPID
        self.rng = SplitMix64(seed: options.seed)
        let coin = rng.next() % 2 == 0
        self.logsInit = options.logsInit ?? coin
        let markers = rng.next() % 2 == 0
        self.logsMarkers = options.dialect == .named || markers
            || families.contains(.stalledTransitions) || families.contains(.completionAtEnd)
        var styleRNG = SplitMix64(seed: options.seed ^ 0x5EED_F00D)
        self.style = options.style ?? FreeFormStyle.random(&styleRNG)
        if families.contains(.completionAtEnd) {
            // Ending with a dismissal needs an app that logs no dealloc: the capture stops before it.
            let dismissal = rng.next() % 2 == 0 && options.logsDealloc != true
            self.endsWithDismissal = dismissal
            self.logsDealloc = options.logsDealloc ?? !dismissal
        } else {
            self.endsWithDismissal = false
            self.logsDealloc = options.logsDealloc ?? true
        }
        self.printsLifecycle = families.contains(.printedRelaunch) && (options.envelope == .nslog || options.envelope == .nslogTZ)
        // A redacted label (`<private> init`) names no class: such an app prints no objects a reader could know.
        self.objects = (options.objects || options.fault?.needsObjects == true)
            && !(options.dialect == .freeForm && style.naming == .redacted)
    }

    private func has(_ f: Family) -> Bool { families.contains(f) }
    private mutating func chance(_ p: Double) -> Bool { Double(rng.next() % 10_000) / 10_000 < p }
    private mutating func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(max(n, 1))) }

    private mutating func make(_ className: String) -> Controller {
        let address: UInt64
        if !freed.isEmpty, options.dialect == .described, chance(0.3) {
            address = freed.remove(at: pick(freed.count))  // a freed address is reused
        } else {
            nextAddress += 0x200
            address = nextAddress
        }
        let c = Controller(className, address)
        live[ObjectIdentifier(c)] = c
        if logsInit { log(c, .initialize) }
        return c
    }

    private mutating func log(_ c: Controller?, _ kind: Kind, removedBy did: Int? = nil, own: Bool = false, quiet: Bool = false,
                              bareMove: Bool = false, early: Bool = false) {
        if objects, let c, !c.isObject, !c.begun, kind != .dealloc { begin(c) }
        if kind == .dealloc, !logsDealloc, let c {
            // The app does not log it; the controller is gone all the same (and its address is not reused).
            c.alive = false
            live[ObjectIdentifier(c)] = nil
            if objects { for o in releaseBefore(c) { release(o) } }
            return
        }
        // Objects that go before their owner's dealloc is logged; the others go right after it.
        let after = objects && kind == .dealloc && c != nil ? releaseBefore(c!) : []
        let step: Double = Double(pick(150)) / 1000
        // Controllers released together (a pop to root, a dismissed stack) deallocate within
        // milliseconds of each other, however deep the stack was.
        time += kind == .dealloc ? 0.001 + step / 50 : 0.005 + step
        var count = 0
        if let c { for other in live.values where other.className == c.className { count += 1 } }
        var record = Record(controller: c, kind: kind, time: time, pid: pid, afterRemoval: did != nil,
                            removalDid: did, ownRemoval: own, liveOfClass: count, step: self.step, stepKind: stepKind,
                            bareMove: bareMove, early: early)
        record.revealsTwin = kind == .dealloc && stepKind == .deep && deepStackOverTwin
        if let c {
            switch kind {
            case .willAppear: c.state = .appearing
            case .didAppear: c.state = .visible
            case .willDisappear: c.state = .disappearing
            case .didDisappear: c.state = .hidden
            case .dealloc:
                c.alive = false
                live[ObjectIdentifier(c)] = nil
                freed.append(c.address)
                if !families.isEmpty {
                    for other in live.values where other.className == c.className { record.twinStates.append(other.state) }
                }
            default: break
            }
        }
        records.append(record)
        if objects, let c {
            for o in after { release(o) }
            if kind == .didAppear { c.setupDone = true }
            if kind == .viewDidLoad, !c.objectsMade { setupObjects(c) }
        }
        if case .noise = kind { return }
        if kind == .dictionary || quiet { return }
        // Noise between lifecycle lines.
        var k = options.noise
        while k > 0 {
            if chance(min(k, 1)) { noiseLine() }
            k -= 1
        }
    }

    /// Noise an app's console is made of. `#` becomes a number. Most lines are plain app and system
    /// chatter; a few mention lifecycle callbacks without being one (analytics, routing, memory).
    private static let noiseTexts = [
        "[Network] GET https://api.example.com/v2/feed?page=# -> 200 (# ms)",
        "[Network] POST https://api.example.com/v2/events -> 204 (# ms, # bytes)",
        "[Image] decoded #x# thumbnail in # ms (cache miss)",
        "CoreData: annotation: fetch request took # ms, # rows",
        "[Sync] merged # records, # conflicts",
        "Reachability: network changed to wifi (# ms since last change)",
        "[Auth] access token refreshed, expires in # s",
        "[Player] buffered #% of item #",
        "[Cache] evicted # entries (# KB)",
        "nw_connection_receive_internal_block_invoke [C#] Receive failed with error \"Software caused connection abort\"",
        "[BoringSSL] boringssl_metrics_log_metric_block_invoke(#) Failed to log metrics",
        "[Feed] prefetching rows #..# for the visible range",
        "Task <#-A1B2-C3D4> HTTP load failed, # bytes (error code: -1005 [4:-4])",
    ]
    private static let mentionTexts = [
        "[Analytics] queued screen event viewDidAppear for HomeViewController",
        "[Router] will present login if the token expires (dismiss later)",
        "[Memory] footprint # MB after didReceiveMemoryWarning from the system",
        "[Debug] swizzled viewWillAppear: and dealloc on UIViewController for tracking",
    ]

    private mutating func noiseText() -> String {
        let template = chance(options.mentionRate) ? Self.mentionTexts[pick(Self.mentionTexts.count)] : Self.noiseTexts[pick(Self.noiseTexts.count)]
        guard template.contains("#") else { return template }
        var out = ""
        out.reserveCapacity(template.utf8.count + 8)
        for ch in template {
            if ch == "#" { out += String(pick(1000)) } else { out.append(ch) }
        }
        return out
    }

    private mutating func noiseLine() {
        // A noisy app logs more lines in the same time: the noise between two callbacks takes about as
        // long whatever its amount (else deep pops would stretch over seconds and read as late deallocs).
        time += Double(pick(80)) / 1000 / max(1, options.noise / 2)
        if chance(0.05), options.envelope != .bare, options.envelope != .ndjson, options.envelope != .json {
            records.append(Record(controller: nil, kind: .dictionary, time: time, pid: pid))
        } else {
            records.append(Record(controller: nil, kind: .noise(noiseText()), time: time, pid: pid))
        }
    }

    /// Logs both did-callbacks in either order; returns the index of the leaving one's.
    @discardableResult
    private mutating func dids(_ leaving: Controller, _ arriving: Controller) -> Int {
        var index = 0
        if chance(0.5) {
            log(leaving, .didDisappear)
            index = lastIndex(leaving, .didDisappear)
            log(arriving, .didAppear)
        } else {
            log(arriving, .didAppear)
            log(leaving, .didDisappear)
            index = lastIndex(leaving, .didDisappear)
        }
        return index
    }

    private func lastIndex(_ c: Controller, _ kind: Kind) -> Int {
        var j = records.count - 1
        while j >= 0 {
            if records[j].controller === c, records[j].kind == kind { return j }
            j -= 1
        }
        return 0
    }

    private mutating func load(_ c: Controller) {
        if !c.loaded { c.loaded = true; log(c, .viewDidLoad) }
    }

    // MARK: - Objects (docs/development.md#objects-in-simulated-apps)

    /// What a screen class is built with.
    enum Architecture: CaseIterable { case plain, mvvm, viper, coordinator }

    /// Helpers named after no screen, made during a screen's setup (owned by it: the setup running).
    static let helperClasses = ["ImageLoader", "FormValidator", "PriceFormatter", "ScrollTracker", "KeyboardObserver"]
    /// App-lifetime objects: made outside any setup, never released.
    static let serviceClasses = ["NetworkService", "ImageCache", "AnalyticsService"]

    /// Whether a class logs its `deinit`: one app build logs the same callbacks in every run, so it is a
    /// property of the class (stores, the keyboard observer and the services log only `init`: they can
    /// never leak in a reader's eyes).
    static func logsDeinit(_ className: String) -> Bool {
        !(className.hasSuffix("Store") || className == "KeyboardObserver" || serviceClasses.contains(className))
    }

    /// `DetailViewController` → `Detail`, the name its objects share.
    public static func stem(_ className: String) -> String {
        className.hasSuffix("ViewController") ? String(className.dropLast("ViewController".count)) : className
    }

    /// Some controller's setup (its first record to its first viewDidAppear) is running.
    private var setupRunning: Bool { live.values.contains { $0.begun && !$0.setupDone } }

    /// Before a controller's first record: its VIPER module or coordinator in one burst, when no live
    /// controller shares its stem and no setup is running (then every reading of ownership gives it
    /// this controller: the first of its stem created after them, and the burst right before its first event).
    private mutating func begin(_ c: Controller) {
        let architecture: Architecture
        if let a = architectures[c.className] {
            architecture = a
        } else {
            let r = pick(10)
            architecture = r < 2 ? .plain : r < 6 ? .mvvm : r < 8 ? .viper : .coordinator
            architectures[c.className] = architecture
        }
        if architecture == .viper || architecture == .coordinator, !setupRunning,
           !live.values.contains(where: { $0 !== c && $0.className == c.className }) {
            let stem = Self.stem(c.className)
            let names = architecture == .viper ? ["Presenter", "Interactor", "Router"] : ["Coordinator"]
            for n in names { makeObject(stem + n, owner: c, quiet: true) }
            if architecture == .viper { c.moduleMade = true }
        }
        c.begun = true
        begunCount += 1
        c.begunAt = begunCount
    }

    /// After a controller's first viewDidLoad, during its setup: its view model (and store), its VIPER
    /// module when no burst made it, helpers. Only when it is the latest begun of the setups running, so that
    /// the setup and the stem name the same owner.
    private mutating func setupObjects(_ c: Controller) {
        c.objectsMade = true
        guard c.begun, !c.setupDone, !live.values.contains(where: { $0 !== c && $0.begun && !$0.setupDone && $0.begunAt > c.begunAt })
        else { return }
        let stem = Self.stem(c.className)
        switch architectures[c.className] ?? .plain {
        case .plain: break
        case .mvvm, .coordinator:
            makeObject(stem + "ViewModel", owner: c, quiet: false)
            if chance(0.3) { makeObject(stem + "Store", owner: c, quiet: false) }
        case .viper:
            if !c.moduleMade {
                c.moduleMade = true
                for n in ["Presenter", "Interactor", "Router"] { makeObject(stem + n, owner: c, quiet: false) }
            }
        }
        if chance(0.35) {
            // Two classes (an initializer chain logs `init` twice in a row for one object).
            let first = pick(Self.helperClasses.count)
            makeObject(Self.helperClasses[first], owner: c, quiet: false)
            if chance(0.5) { makeObject(Self.helperClasses[(first + 1 + pick(Self.helperClasses.count - 1)) % Self.helperClasses.count], owner: c, quiet: false) }
        }
    }

    private mutating func makeObject(_ className: String, owner: Controller?, quiet: Bool) {
        nextObjectAddress += 0x40
        let o = Controller(className, nextObjectAddress)
        o.isObject = true
        o.owner = owner
        liveObjects.append(o)
        objectRecord(o, .objectInit, quiet: quiet)
    }

    /// At `c`'s dealloc: its objects that log `deinit` before it (a class's only live instance, or with
    /// addresses: else a reader gives an address-less `deinit` to the oldest instance), and returns those
    /// that log it after.
    private mutating func releaseBefore(_ c: Controller) -> [Controller] {
        var after: [Controller] = []
        for o in liveObjects where o.owner === c {
            guard Self.logsDeinit(o.className) else {
                liveObjects.removeAll { $0 === o }
                continue
            }
            let alone = options.dialect == .described || liveObjects.filter({ $0.className == o.className }).count == 1
            if alone, chance(0.35) { release(o) } else { after.append(o) }
        }
        return after
    }

    private mutating func release(_ o: Controller) {
        liveObjects.removeAll { $0 === o }
        o.alive = false
        // An app that logs no controller's dealloc logs no object's deinit either (one logging helper).
        if logsDealloc, Self.logsDeinit(o.className) { objectRecord(o, .objectDeinit, quiet: true) }
    }

    /// An object's record: within milliseconds of the previous line (released objects go with their owner).
    private mutating func objectRecord(_ o: Controller, _ kind: Kind, quiet: Bool) {
        time += 0.001 + Double(pick(150)) / 1000 / 50
        let count = liveObjects.filter { $0.className == o.className }.count
        records.append(Record(controller: o, kind: kind, time: time, pid: pid, liveOfClass: count, step: step, stepKind: stepKind))
        if quiet { return }
        var k = options.noise
        while k > 0 {
            if chance(min(k, 1)) { noiseLine() }
            k -= 1
        }
    }

    // MARK: - Navigation

    private mutating func session(last: Bool) {
        // Without init or addresses in the log, a new instance's viewDidLoad could be a hidden one's
        // view loading again: only unambiguous histories are simulated. (Nor in an app that does not log
        // dealloc: the controllers it released look alive.)
        unloadsViews = logsDealloc && (logsInit || options.dialect == .described) && chance(0.3)
        tabCount = [0, 2, 3][pick(3)]
        if has(.lazyTabs) {
            if tabCount == 0 { tabCount = 2 + pick(2) }
            navigationOrderTabs = chance(0.7)
        }
        if has(.printedRelaunch) {
            // The app's start-up chatter: the new pid shows first on lines without an event.
            stepKind = .launch
            for _ in 0...pick(3) { noiseLine() }
        }
        current = 0
        modals = []
        poppedByReading = []
        lastPopped = nil
        stepKind = .launch
        if tabCount > 0 {
            if has(.lazyTabs) {
                // A tab's root is made when the tab is first shown.
                stacks = [[make("Tab0RootViewController")]] + Array(repeating: [], count: tabCount - 1)
            } else {
                stacks = (0..<tabCount).map { [make("Tab\($0)RootViewController")] }
            }
        } else if has(.deepStacks), chance(0.5) {
            // The whole stack of one class, its root included (a folder browser): a pop to root
            // reveals the oldest of them.
            stacks = [[make("ArticleViewController")]]
        } else {
            stacks = [[make("RootViewController")]]
        }
        let first = stacks[0][0]
        load(first); log(first, .willAppear); log(first, .didAppear)
        first.appearedEver = true
        var forced: [Step] = []
        for _ in 0..<options.steps {
            let stack = stacks[current]
            let r = Double(pick(1000)) / 1000
            var next = Self.classify(r, stack: stack.count, modals: modals.count, tabs: tabCount, memoryWarningRate: options.memoryWarningRate)
            if !forced.isEmpty {
                next = forced.removeFirst()
            } else if has(.deepStacks), modals.isEmpty, chance(0.15) {
                next = .deep
            } else if has(.twins), modals.isEmpty, chance(0.15) {
                next = .revisit
            }
            // Children are told apart by their state only; one released without a logged dealloc
            // would look like a child added again.
            if next == .child, !logsDealloc { next = .sheet }
            perform(next)
            if next == .push, has(.stalledTransitions) {
                // Another transition at once: for a controller outside the push (a sheet, a child, a
                // tab) or for the pushed one (presenting over it, popping it, a swipe-back cancelled).
                // Often a sheet first, and then one of the others (what a stalled push must not swallow).
                let followers: [Step] = [.sheet, .present, .pop, .cancel, .child] + (tabCount > 0 ? [.tab] : [])
                forced = chance(0.5) ? [.sheet, followers[1 + pick(followers.count - 1)]] : [followers[pick(followers.count)]]
            }
        }
        if has(.lazyTabs) { showTabsReadAsPopped() }
        if last, has(.completionAtEnd) {
            ending()
            return
        }
        time += 10
        records.append(Record(controller: nil, kind: .noise("[Sync] finished"), time: time, pid: pid))
    }

    /// The classic simulator's choice of step for a draw `r`.
    static func classify(_ r: Double, stack: Int, modals: Int, tabs: Int, memoryWarningRate: Double) -> Step {
        if r < 0.22 && modals == 0 { return .push }
        if r < 0.36 && stack > 1 && modals == 0 { return .pop }
        if r < 0.41 && stack > 2 && modals == 0 { return .popToRoot }
        if r < 0.48 && stack > 1 && modals == 0 { return .cancel }
        if r < 0.56 { return .present }
        if r < 0.60 && modals > 1 { return .recursiveDismiss }
        if r < 0.66 && modals > 0 { return .dismiss }
        if r < 0.72 { return .sheet }
        if r < 0.82 && tabs > 0 && modals == 0 { return .tab }
        if r < 1 - memoryWarningRate { return .child }
        return .memoryWarning
    }

    private mutating func perform(_ s: Step) {
        step += 1
        stepKind = s
        if objects, [Step.pop, .cancel, .dismiss, .recursiveDismiss, .memoryWarning].contains(s), !setupRunning, chance(0.3) {
            // A service made lazily, outside any screen's setup, and followed by a callback of a
            // controller already there: owned by none (docs/development.md#objects-in-simulated-apps).
            let name = Self.serviceClasses[pick(Self.serviceClasses.count)]
            if !services.contains(name) {
                services.insert(name)
                makeObject(name, owner: nil, quiet: false)
            }
        }
        switch s {
        case .push: push()
        case .pop: pop()
        case .popToRoot: popToRoot()
        case .cancel: cancelledPop()
        case .present: present()
        case .recursiveDismiss: recursiveDismiss()
        case .dismiss: dismiss()
        case .sheet: sheet()
        case .tab: switchTab(to: (current + 1 + pick(tabCount - 1)) % tabCount)
        case .child: child()
        case .memoryWarning: memoryWarning()
        case .deep: deepStack()
        case .revisit: revisit()
        case .launch, .ending: break
        }
    }

    private var top: Controller { modals.last ?? stacks[current].last! }

    private static let pushClasses = ["DetailViewController", "ListViewController", "ItemViewController"]
    private static let screenClasses = pushClasses + ["SearchViewController", "ProfileViewController", "SettingsViewController",
        "CartViewController", "OrderViewController", "ReviewViewController", "GalleryViewController", "MapViewController",
        "ChatViewController", "InboxViewController", "HelpViewController", "AboutViewController", "FilterViewController"]

    private mutating func push(className: String? = nil) {
        let top = self.top
        var name = className ?? Self.pushClasses[pick(3)]
        if className == nil, has(.lazyTabs), options.dialect != .described {
            // A top whose tab switch read as a pop is known again by its state only when no other live
            // controller of its class is hidden (docs/lifecycle.md#generations): without addresses, one
            // screen class per live controller.
            let taken = Set(live.values.map(\.className))
            if taken.contains(name) {
                name = Self.screenClasses.first { !taken.contains($0) } ?? "Screen\(live.count)ViewController"
            }
        }
        if className == nil, has(.twins) {
            let k = pick(10)
            if k < 5, Self.pushClasses.contains(top.className), !waitsToReappear(top.className) {
                name = top.className  // over one of its own class (a related item's detail)
            } else if k < 8, let again = lastPopped, !waitsToReappear(again) {
                name = again  // the screen just closed, opened again
            }
        }
        let c = make(name)
        load(c); log(top, .willDisappear); log(c, .willAppear); dids(top, c)
        stacks[current].append(c)
        covered(top, by: c, leavingStays: true)
    }

    /// `early`: the dealloc comes before the revealed controller's viewDidAppear (nil: as `twins` draws).
    private mutating func pop(early: Bool? = nil) {
        let stack = stacks[current]
        let top = stack.last!, below = stack[stack.count - 2]
        lastPopped = top.className
        load(below); log(top, .willDisappear); log(below, .willAppear)
        covered(top, by: below, leavingStays: false)
        if early ?? (has(.twins) && chance(0.6)) {
            // The popped controller is released before the revealed one has appeared: removed as soon
            // as it has disappeared (docs/lifecycle.md#events-no-live-instance-accepts).
            log(top, .didDisappear)
            let did = lastIndex(top, .didDisappear)
            stacks[current].removeLast()
            log(top, .dealloc, removedBy: did, own: true, early: true)
            log(below, .didAppear)
            return
        }
        let did = dids(top, below)
        stacks[current].removeLast()
        log(top, .dealloc, removedBy: did, own: true)
    }

    private mutating func popToRoot() {
        let stack = stacks[current]
        let top = stack.last!, root = stack[0]
        load(root); log(top, .willDisappear); log(root, .willAppear)
        let did = dids(top, root)
        covered(top, by: root, leavingStays: false)
        let gone = stack.dropFirst()
        stacks[current] = [root]
        for g in gone.reversed() { log(g, .dealloc, removedBy: did, own: g === top, quiet: g !== gone.first) }
    }

    /// Interactive pop, cancelled (seed 002).
    private mutating func cancelledPop() {
        let stack = stacks[current]
        let top = stack.last!, below = stack[stack.count - 2]
        load(below); log(top, .willDisappear); log(below, .willAppear)
        log(below, .willDisappear); log(below, .didDisappear)
        log(top, .willAppear); log(top, .didAppear)
    }

    /// `final`: the capture ends with its completion marker.
    private mutating func present(final: Bool = false) {
        let top = self.top
        let c = make(["ModalViewController", "ComposeViewController"][pick(2)])
        if logsMarkers { log(top, .presentBegin) }
        load(c); log(top, .willDisappear); log(c, .willAppear); dids(top, c)
        if logsMarkers { log(top, .presentEnd, quiet: final) }
        modals.append(c)
        covered(top, by: c, leavingStays: true)
    }

    /// Recursive dismiss to the stack (seed 000): the modals in the middle get no callbacks and go
    /// together with the top one.
    private mutating func recursiveDismiss(final: Bool = false) {
        let top = self.top
        let base = stacks[current].last!
        // The classic simulator logs no markers here; the completionAtEnd family does.
        let markers = logsMarkers && has(.completionAtEnd)
        if markers { log(top, .dismissBegin) }
        load(base); log(top, .willDisappear); log(base, .willAppear)
        let did = dids(top, base)
        if markers { log(top, .dismissEnd, quiet: final) }
        covered(top, by: base, leavingStays: false)
        for g in modals.reversed() { log(g, .dealloc, removedBy: did, own: g === top, quiet: g !== modals.first) }
        modals.removeAll()
    }

    private mutating func dismiss(final: Bool = false) {
        let m = modals.removeLast()
        let below = modals.last ?? stacks[current].last!
        if logsMarkers { log(m, .dismissBegin) }
        load(below); log(m, .willDisappear); log(below, .willAppear)
        let did = dids(m, below)
        if logsMarkers { log(m, .dismissEnd, quiet: final) }
        covered(m, by: below, leavingStays: false)
        log(m, .dealloc, removedBy: did, own: true)
    }

    /// iOS 13 page sheet: the presenter gets no callbacks.
    private mutating func sheet() {
        let s = make("SheetViewController")
        load(s); log(s, .willAppear); log(s, .didAppear)
        log(s, .willDisappear); log(s, .didDisappear); log(s, .dealloc)
    }

    private mutating func switchTab(to next: Int) {
        let top = self.top
        if stacks[next].isEmpty { stacks[next] = [make("Tab\(next)RootViewController")] }
        let arriving = stacks[next].last!
        // In navigation order a switch may read as a pop (`lazyTabs`), and `top` is then known again by its state
        // only: not while a twin of either side lives (`twins`), which the log cannot tell from it (the arriving
        // one's twin may be right below `top`); UIKit's order then.
        let twinned = has(.lazyTabs) && has(.twins) && (hasTwin(top) || hasTwin(arriving))
        if navigationOrderTabs, !twinned {
            load(arriving); log(top, .willDisappear); log(arriving, .willAppear); dids(top, arriving)
            covered(top, by: arriving, leavingStays: true)
        } else {
            // UITabBarController: the new tab's controller is announced first.
            load(arriving); log(arriving, .willAppear); log(top, .willDisappear); log(top, .didDisappear); log(arriving, .didAppear)
            appeared(arriving)
        }
        current = next
    }

    private mutating func child() {
        let child = make("ChildViewController")
        let bare = has(.bareChildMoves)
        log(child, .willMove(parent: true), bareMove: bare); load(child); log(child, .willAppear); log(child, .didAppear)
        log(child, .didMove(parent: true), bareMove: bare)
        log(child, .willMove(parent: false), bareMove: bare); log(child, .willDisappear); log(child, .didDisappear)
        log(child, .didMove(parent: false), bareMove: bare); log(child, .dealloc)
    }

    private mutating func memoryWarning() {
        let top = self.top
        log(top, .memoryWarning)
        if unloadsViews {
            // Every hidden controller gets the warning and unloads its view (iOS < 6).
            var hidden = stacks.enumerated().flatMap { i, st in i == current && modals.isEmpty ? Array(st.dropLast()) : st }
            hidden += modals.dropLast()
            // Without addresses, two hidden instances of one class unloading are told apart by
            // order only: unload only a class's sole live instance then.
            for h in hidden where h.loaded && h !== top
                && (options.dialect == .described || live.values.filter({ $0.className == h.className }).count == 1) {
                log(h, .memoryWarning); log(h, .willUnload); log(h, .didUnload)
                h.loaded = false
            }
        }
    }

    /// `twins`: a screen opened and closed, then opened and closed again, the second one released
    /// before the revealed controller has appeared.
    private mutating func revisit() {
        var name = Self.pushClasses[pick(3)]
        if waitsToReappear(name) {
            // Its twin would take the reappearance of the top read as popped (`waitsToReappear`).
            guard let free = Self.pushClasses.first(where: { !waitsToReappear($0) }) else { return }
            name = free
        }
        push(className: name)
        pop()
        if chance(0.5) { sheet() }
        push(className: name)
        pop(early: true)
    }

    /// `deepStacks`: 3–5 controllers of one class pushed in a row, maybe one popped and a swipe-back
    /// cancelled, then a pop to root.
    private mutating func deepStack() {
        deepStackOverTwin = stacks[current][0].className == "ArticleViewController" && options.dialect != .described
        for _ in 0..<(3 + pick(3)) { push(className: "ArticleViewController") }
        if chance(0.4) { pop() }
        if chance(0.4) { cancelledPop() }
        popToRoot()
    }

    /// `completionAtEnd`: the capture's last step, whose completion marker is its last line.
    private mutating func ending() {
        step += 1
        stepKind = .ending
        guard endsWithDismissal else {
            present(final: true)
            return
        }
        if modals.isEmpty {
            present()
            if chance(0.5) { present() }
        }
        if modals.count > 1, chance(0.5) { recursiveDismiss(final: true) } else { dismiss(final: true) }
    }

    // MARK: - Covering (docs/lifecycle.md#covered-is-not-removed), for `lazyTabs`

    /// A transition announced by the leaving controller: as the timeline reads it
    /// (docs/lifecycle.md#evidence-of-removal), `leaving` is removed when
    /// `arriving` was covered by it (a pop: everything stacked between goes too), or covered when
    /// `arriving` is new. `leavingStays`: it is not really removed (a push, a presentation, a tab switch).
    private mutating func covered(_ leaving: Controller, by arriving: Controller, leavingStays: Bool) {
        guard has(.lazyTabs) else { return }
        if Self.isCovered(arriving, by: leaving) {
            // Read as a pop: a top that stays was not removed, which only its reappearance shows.
            if leavingStays { poppedByReading.append(leaving) }
            arriving.coveredBy.removeAll()
        } else if !arriving.appearedEver {
            leaving.coveredBy.append(arriving)
        }
        appeared(arriving)
    }

    /// `lazyTabs` with `twins`: whether a live top of this class waits to reappear after a tab switch read as a
    /// pop. Without addresses, a twin made meanwhile could be the one a later reappearance is taken for
    /// (docs/lifecycle.md#generations: a hidden controller still in its stack before one that was removed), so
    /// the simulator makes none: the capture would not say what was leaked.
    private func waitsToReappear(_ className: String) -> Bool {
        has(.lazyTabs) && options.dialect != .described && poppedByReading.contains { $0.alive && $0.className == className }
    }

    /// Whether another live controller has `c`'s class (without addresses, a twin).
    private func hasTwin(_ c: Controller) -> Bool {
        options.dialect != .described && live.values.contains { $0 !== c && $0.className == c.className }
    }

    private mutating func appeared(_ c: Controller) {
        c.appearedEver = true
        if has(.lazyTabs) { poppedByReading.removeAll { $0 === c } }
    }

    /// Whether `arriving` is below `leaving`: reachable through what covered it, live controllers only.
    static func isCovered(_ arriving: Controller, by leaving: Controller) -> Bool {
        var seen: [ObjectIdentifier] = [ObjectIdentifier(arriving)]
        var queue = [arriving]
        while let node = queue.popLast() {
            for above in node.coveredBy where above.alive {
                if above === leaving { return true }
                if seen.contains(ObjectIdentifier(above)) { continue }
                seen.append(ObjectIdentifier(above))
                queue.append(above)
            }
        }
        return false
    }

    /// Shows again every tab top whose switch read as a pop, so that no reading outlives the session
    /// (each switch back may be read as a pop in turn; each reading clears a covering, so this ends).
    private mutating func showTabsReadAsPopped() {
        var rounds = 0
        while let p = poppedByReading.first, rounds < 64 {
            rounds += 1
            step += 1
            stepKind = .tab
            while !modals.isEmpty { dismiss() }
            guard let k = stacks.firstIndex(where: { $0.last === p }), k != current else {
                poppedByReading.removeFirst()
                continue
            }
            switchTab(to: k)
        }
    }

    mutating func run() -> Output {
        let sessions = options.envelope == .bare ? 1 : options.sessions
        for s in 0..<sessions {
            session(last: s == sessions - 1)
            for stack in stacks { for c in stack { c.coveredBy = [] } }  // no reference cycles outlive the run
            pid += 1
            time += 120
            live.removeAll()
            liveObjects.removeAll()  // killed with the process
            services.removeAll()
        }
        let target = options.fault.flatMap { inject($0) }
        return render(target: target)
    }

    // MARK: - Faults

    private func last(_ c: Controller, _ kind: Kind, before i: Int) -> Int? {
        var j = i - 1
        while j >= 0 {
            if records[j].controller === c, records[j].kind == kind { return j }
            j -= 1
        }
        return nil
    }

    private func first(_ c: Controller, _ kind: Kind, after i: Int) -> Int? {
        var j = i + 1
        while j < records.count {
            if records[j].controller === c, records[j].kind == kind { return j }
            j += 1
        }
        return nil
    }

    /// Whether a rule that needs a did-callback applies to a class once one of its records of that callback is
    /// removed (docs/lifecycle.md#instrumentation): the class still logs the callback, or it logs the other
    /// did-callback and other classes log this one (one logger for every class, as the simulator's apps have).
    private struct Instrumented {
        var own: [String: Int] = [:], sibling: Set<String> = [], total = 0

        init(_ records: [Record], _ kind: Kind) {
            let other: Kind = kind == .didAppear ? .didDisappear : .didAppear
            for r in records {
                guard let c = r.controller else { continue }
                if r.kind == kind {
                    own[c.className, default: 0] += 1
                    total += 1
                } else if r.kind == other {
                    sibling.insert(c.className)
                }
            }
        }

        /// Whether the class logs the callback in another record than the one removed.
        func stillLogs(_ className: String) -> Bool { own[className, default: 0] > 1 }

        func afterRemovingOne(of className: String) -> Bool {
            let left = own[className, default: 0] - 1
            return left > 0 || sibling.contains(className) && total - 1 - left > 0
        }
    }

    /// Applies the fault; returns the index of the record the finding points at (after the change).
    private mutating func inject(_ fault: Fault) -> Int? {
        // Only controllers that are the sole live instance of their class, so that the fault is
        // unambiguous without addresses (the twins' faults say why theirs are unambiguous).
        switch fault {
        case .leak:
            // Not at an address that a later controller reuses: that would prove it was freed.
            let candidates = records.indices.filter { i in records[i].liveOfClass == 1 && isLeakCandidate(i) }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let anchor = records[i].removalDid!
            records.remove(at: i)
            return anchor
        case .missingDidDisappear:
            // Its absence is a finding only where the rule applies to the class (`Instrumented`).
            let instrumented = Instrumented(records, .didDisappear)
            let candidates = records.indices.filter { i in
                records[i].kind == .dealloc && records[i].ownRemoval && records[i].liveOfClass == 1
                    && instrumented.afterRemovingOne(of: records[i].controller!.className)
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let c = records[i].controller!
            let did = records[i].removalDid!
            guard let will = last(c, .willDisappear, before: did) else { return nil }
            records.remove(at: did)
            return will
        case .missingDidAppear:
            let instrumented = Instrumented(records, .didAppear)
            let candidates = records.indices.filter { i in
                records[i].kind == .dealloc && records[i].ownRemoval && records[i].liveOfClass == 1
                    && instrumented.afterRemovingOne(of: records[i].controller!.className)
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let c = records[i].controller!
            // The first appearance of the controller, when it was pushed or presented.
            guard let firstWill = records.firstIndex(where: { $0.controller === c && $0.kind == .willAppear }),
                  let did = records[firstWill...].firstIndex(where: { $0.controller === c && $0.kind == .didAppear }) else { return nil }
            records.remove(at: did)
            return firstWill
        case .completionBeforeDisappearance:
            // The completion moves to just before the dismissed controller's viewDidDisappear.
            let candidates = records.indices.filter { i in
                records[i].kind == .dismissEnd && records[i].liveOfClass == 1 && last(records[i].controller!, .didDisappear, before: i) != nil
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let did = last(records[i].controller!, .didDisappear, before: i)!
            var r = records.remove(at: i)
            r.time = records[did].time
            records.insert(r, at: did)
            return did
        case .eventAfterDealloc:
            let candidates = records.indices.filter { records[$0].kind == .dealloc && records[$0].liveOfClass == 1 }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            var r = records[i]
            r.kind = .layout
            r.time += 0.01
            records.insert(r, at: i + 1)
            return i + 1
        case .stalledPush:
            // The pushed controller's viewWillAppear, when the next step follows in the same run.
            let candidates = records.indices.filter { i in
                let r = records[i]
                guard r.kind == .willAppear, r.stepKind == .push, r.liveOfClass == 1,
                      let next = records[(i + 1)...].first(where: { $0.step > r.step && $0.controller != nil }) else { return false }
                return next.pid == r.pid && next.step == r.step + 1
                    && [Step.sheet, .present, .pop, .cancel, .child, .tab].contains(next.stepKind)
            }
            guard !candidates.isEmpty else { return nil }
            let will = candidates[pick(candidates.count)]
            guard let did = first(records[will].controller!, .didAppear, after: will) else { return nil }
            // The rule needs viewDidAppear logged for the class somewhere else
            // (docs/lifecycle.md#instrumentation): a class whose only appearance stalled says nothing about it.
            guard Instrumented(records, .didAppear).stillLogs(records[will].controller!.className) else { return nil }
            records.remove(at: did)
            return will
        case .leakedTwin:
            // Unambiguous by docs/lifecycle.md#generations: the later twin's dealloc goes to the instance
            // removed most recently, which is the later twin, removed by its viewDidDisappear even before
            // the pop settles.
            let candidates = records.indices.filter { i in
                let r = records[i]
                guard r.kind == .dealloc, r.ownRemoval, [Step.pop, .dismiss, .revisit].contains(r.stepKind),
                      isLeakCandidate(i), let c = r.controller else { return false }
                return records[(i + 1)...].contains { later in
                    later.pid == r.pid && later.kind == .dealloc && later.early && later.controller !== c
                        && later.controller?.className == c.className
                }
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let anchor = records[i].removalDid!
            records.remove(at: i)
            return anchor
        case .skippedDidMove:
            let candidates = records.indices.filter { records[$0].kind == .didMove(parent: true) && records[$0].liveOfClass == 1 }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            guard let will = last(records[i].controller!, .willMove(parent: true), before: i) else { return nil }
            records.remove(at: i)
            return will
        case .strayAfterDealloc:
            // The callback goes to the instance active most recently, the one that just died, when no
            // live instance of its class is in a state that accepts it
            // (docs/lifecycle.md#events-no-live-instance-accepts).
            var candidates: [(index: Int, kind: Kind)] = []
            for i in records.indices where records[i].kind == .dealloc {
                let twins = records[i].twinStates
                var kinds: [Kind] = []
                if !twins.contains(.disappearing) { kinds.append(.didDisappear) }
                if !twins.contains(.appearing) { kinds.append(.didAppear) }
                if !twins.contains(.visible) && !twins.contains(.appearing) { kinds.append(.willDisappear) }
                for k in kinds { candidates.append((i, k)) }
            }
            guard !candidates.isEmpty else { return nil }
            let (i, kind) = candidates[pick(candidates.count)]
            var r = records[i]
            r.kind = kind
            r.time = i + 1 < records.count ? min(r.time + 0.0005, max(r.time, records[i + 1].time)) : r.time + 0.0005
            r.twinStates = []
            records.insert(r, at: i + 1)
            return i + 1
        case .missingDidDisappearAtEnd:
            guard let end = records.last, end.kind == .dismissEnd, let c = end.controller,
                  let did = last(c, .didDisappear, before: records.count - 1),
                  let will = last(c, .willDisappear, before: did),
                  Instrumented(records, .didDisappear).afterRemovingOne(of: c.className) else { return nil }
            records.remove(at: did)
            return will
        case .missingDidAppearAtEnd:
            guard let end = records.last, end.kind == .presentEnd,
                  let will = records.indices.last(where: { records[$0].kind == .willAppear && records[$0].stepKind == .ending }),
                  let did = first(records[will].controller!, .didAppear, after: will),
                  Instrumented(records, .didAppear).afterRemovingOne(of: records[will].controller!.className) else { return nil }
            records.remove(at: did)
            return will
        case .leakedObject:
            // No later deinit of its class in the session: it would be read as this object's, late.
            let candidates = records.indices.filter { i in
                guard ownedObjectDeinit(i) != nil else { return false }
                return !deinitOfClass(records[i].controller!.className, in: (i + 1)..<records.count, pid: records[i].pid)
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let dealloc = ownedObjectDeinit(i)!
            records.remove(at: i)
            return dealloc > i ? dealloc - 1 : dealloc
        case .lateObjectRelease:
            // Moved to the first line of the session more than the grace period (3 s, and a margin that
            // whole-second envelopes such as syslog's still show: 4.5 s) after the owner's dealloc; no
            // deinit of its class in between. Only with every line timed.
            guard options.envelope != .bare, !printsLifecycle else { return nil }
            var moves: [(from: Int, to: Int, time: Double)] = []
            for i in records.indices {
                guard let dealloc = ownedObjectDeinit(i) else { continue }
                let r = records[i], due = records[dealloc].time + 4.5
                guard let to = records[(max(i, dealloc) + 1)...].firstIndex(where: { $0.pid == r.pid && $0.time > due }) else { continue }
                guard !deinitOfClass(r.controller!.className, in: (i + 1)..<to, pid: r.pid) else { continue }
                moves.append((i, to, max(records[to - 1].time, due)))
            }
            return moveOne(of: moves)
        case .lateRelease:
            // As for an object's (above): 4.5 s after the removal's viewDidDisappear, every line timed.
            guard options.envelope != .bare, !printsLifecycle else { return nil }
            var moves: [(from: Int, to: Int, time: Double)] = []
            for i in records.indices where records[i].ownRemoval && records[i].liveOfClass == 1 && isLeakCandidate(i) {
                let r = records[i], c = r.controller!, due = records[r.removalDid!].time + 4.5
                guard let to = records[(i + 1)...].firstIndex(where: { $0.pid == r.pid && $0.time > due }) else { continue }
                // Nothing its dealloc could go to instead, and no object of its whose deinit would come first.
                guard !records[(i + 1)..<to].contains(where: { $0.controller?.className == c.className || $0.controller?.owner === c })
                else { continue }
                moves.append((i, to, max(records[to - 1].time, due)))
            }
            return moveOne(of: moves)
        case .deepStackLeak:
            let candidates = records.indices.filter { i in
                records[i].stepKind == .deep && records[i].controller?.className == "ArticleViewController" && !records[i].revealsTwin
                    && isLeakCandidate(i)
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let anchor = records[i].removalDid!
            records.remove(at: i)
            return anchor
        }
    }

    /// Moves one record of `moves` (drawn from the seed) to just before `to`, at `time`; its new index
    /// (nil when there is none to move).
    private mutating func moveOne(of moves: [(from: Int, to: Int, time: Double)]) -> Int? {
        guard !moves.isEmpty else { return nil }
        let m = moves[pick(moves.count)]
        var r = records.remove(at: m.from)
        r.time = m.time
        let at = m.to - 1  // the records after `from` moved up one
        records.insert(r, at: at)
        return at
    }

    /// For an owned object's `deinit` at `i` whose owner's dealloc is logged and whose class logs `deinit`
    /// elsewhere in the capture: the index of the owner's dealloc.
    private func ownedObjectDeinit(_ i: Int) -> Int? {
        let r = records[i]
        guard r.kind == .objectDeinit, let o = r.controller, let owner = o.owner,
              let dealloc = records.firstIndex(where: { $0.controller === owner && $0.kind == .dealloc }),
              records.indices.contains(where: { $0 != i && records[$0].kind == .objectDeinit && records[$0].controller?.className == o.className })
        else { return nil }
        // A reader must give that dealloc to the owner: with addresses, as its class's only live instance,
        // or as the one controller a pop, a dismissal, a sheet or a child removes (not one of several of
        // its class released together, by a pop to root or a recursive dismissal).
        let d = records[dealloc]
        guard options.dialect == .described || d.liveOfClass == 1 || [Step.pop, .dismiss, .revisit, .sheet, .child].contains(d.stepKind)
        else { return nil }
        return dealloc
    }

    /// Whether an address-less `deinit` of `className` comes in `range` of the session `pid`: a reader gives
    /// it to the live instance whose owner was deallocated first (docs/development.md#objects-in-simulated-apps), which would be
    /// the object whose own `deinit` the fault took away or moved.
    private func deinitOfClass(_ className: String, in range: Range<Int>, pid: Int) -> Bool {
        guard options.dialect != .described else { return false }  // addresses tell them apart (never reused)
        return records[range].contains { $0.pid == pid && $0.kind == .objectDeinit && $0.controller?.className == className }
    }

    /// A dealloc after a removal, at an address that no later controller reuses (that would prove it was freed).
    private func isLeakCandidate(_ i: Int) -> Bool {
        let r = records[i]
        guard r.kind == .dealloc, r.removalDid != nil, let c = r.controller else { return false }
        guard options.dialect == .described else { return true }
        for later in records[(i + 1)...] where later.controller !== c && later.controller?.address == c.address {
            return false
        }
        return true
    }

    // MARK: - Rendering

    private func render(target: Int?) -> Output {
        var lines: [String] = []
        var expected: [(rule: String, line: Int)] = []
        if options.envelope == .oslog {
            lines.append("Timestamp                       Thread     Type        Activity             PID    TTL  ")
        }
        for (i, r) in records.enumerated() {
            let message: String
            switch r.kind {
            case .noise(let text): message = text
            case .dictionary: message = "response: {"
            default: message = Self.message(r.controller!, r.kind, dialect: options.dialect, style: style, bareMove: r.bareMove)
            }
            if options.envelope == .json {
                // `log show --style json`: one object a record, the finding on its eventMessage line.
                lines.append(i == 0 ? "[{" : "},{")
                if i == target, let fault = options.fault { expected.append((fault.rule, lines.count + 2)) }
                lines.append(contentsOf: Self.envelope(message, time: r.time, pid: r.pid, format: .json).split(separator: "\n").map(String.init))
                if i == records.count - 1 { lines.append("}]") }
                continue
            }
            if i == target, let fault = options.fault { expected.append((fault.rule, lines.count + 1)) }
            if printsLifecycle, r.controller != nil {
                lines.append(message)  // print(): no envelope
            } else {
                lines.append(Self.envelope(message, time: r.time, pid: r.pid, format: options.envelope))
            }
            if r.kind == .dictionary {
                lines.append("    items = 12;")
                lines.append("    state = viewDidAppear;")
                lines.append("}")
            }
        }
        return Output(lines: lines, expected: expected, endTime: time, nextPID: pid, logsInit: logsInit, logsDealloc: logsDealloc)
    }

    /// `bareMove`: a move printed without its parent argument (ObjC `__func__`, Swift `#function`).
    static func message(_ c: Controller, _ kind: Kind, dialect: Dialect, style: FreeFormStyle = FreeFormStyle(), bareMove: Bool = false) -> String {
        if kind == .objectInit || kind == .objectDeinit { return objectMessage(c, initialize: kind == .objectInit, dialect: dialect, style: style) }
        let name: String
        var arg = ""
        switch kind {
        case .initialize: name = "init"
        case .viewDidLoad: name = "viewDidLoad"
        case .willAppear: name = "viewWillAppear"
        case .didAppear: name = "viewDidAppear"
        case .willDisappear: name = "viewWillDisappear"
        case .didDisappear: name = "viewDidDisappear"
        case .layout: name = "viewDidLayoutSubviews"
        case .willMove(let p): name = "willMove"; arg = bareMove ? "" : p ? "<ContainerViewController: 0x600003d0c000>" : "nil"
        case .didMove(let p): name = "didMove"; arg = bareMove ? "" : p ? "<ContainerViewController: 0x600003d0c000>" : "nil"
        case .memoryWarning: name = "didReceiveMemoryWarning"
        case .willUnload: name = "viewWillUnload"
        case .didUnload: name = "viewDidUnload"
        case .presentBegin: return style.markerName(c.className, dialect == .freeForm) + " present begin"
        case .presentEnd: return style.markerName(c.className, dialect == .freeForm) + " present end"
        case .dismissBegin: return style.markerName(c.className, dialect == .freeForm) + " dismiss begin"
        case .dismissEnd: return style.markerName(c.className, dialect == .freeForm) + " dismiss end"
        case .dealloc: name = "dealloc"
        case .noise, .dictionary, .objectInit, .objectDeinit: name = ""
        }
        let selector: String = {
            switch name {
            case "init": return "initWithNibName:bundle:"
            case "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear": return name + ":"
            case "willMove": return "willMoveToParentViewController:"
            case "didMove": return "didMoveToParentViewController:"
            default: return name
            }
        }()
        let swiftName: String = {
            switch name {
            case "init": return "init(nibName:bundle:)"
            case "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear": return name + "(_:)"
            case "willMove", "didMove": return name + "(toParent:)"
            case "dealloc": return "deinit"
            default: return name + "()"
            }
        }()
        let suffix = arg.isEmpty ? "" : " " + arg
        switch dialect {
        case .objc: return "-[" + c.className + " " + selector + "]" + suffix
        case .swift: return c.className + " " + swiftName + suffix
        case .described:
            let address = String(c.address, radix: 16)
            return "<" + c.className + ": 0x" + address + "> " + selector + suffix
        case .named:
            if name == "dealloc" { return c.className + " .......dealloc......." }
            var method = selector
            if method.hasSuffix(":"), arg.isEmpty { method.removeLast() }
            return c.className + " invoke " + method + suffix
        case .methodClass:
            var m = selector
            if let colon = m.firstIndex(of: ":") { m = String(m[..<colon]) }
            return m + ":" + c.className + suffix
        case .freeForm:
            let appear = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"].contains(name)
            let parent: String? = (name == "willMove" || name == "didMove") && !bareMove ? arg : nil
            let spelled = style.callback(name == "init" ? "init" : name, selector: selector, swift: swiftName)
            return style.statement(c.className, callback: spelled, argument: appear ? style.argument : "", parent: parent)
        }
    }

    /// An object's `init` or `deinit` as the app that logs its controllers so prints it: `-[DetailViewModel
    /// init]`, `DetailViewModel.init()` and `DetailViewModel deinit`, `<DetailViewModel: 0x…> dealloc`, … In
    /// the free-form dialect, in the style's label, separator and spelling, always by class (an app that
    /// names its screens by letter or title prints its objects' types).
    static func objectMessage(_ o: Controller, initialize: Bool, dialect: Dialect, style: FreeFormStyle) -> String {
        let name = o.className
        switch dialect {
        case .objc: return "-[" + name + (initialize ? " init]" : " dealloc]")
        case .swift: return initialize ? name + ".init()" : name + " deinit"
        case .described: return "<" + name + ": 0x" + String(o.address, radix: 16) + (initialize ? "> init" : "> dealloc")
        case .named: return initialize ? name + " invoke init" : name + " .......dealloc......."
        case .methodClass: return (initialize ? "init:" : "dealloc:") + name
        case .freeForm:
            var s = style
            s.naming = .className
            let spelled = initialize ? s.callback("init", selector: "init", swift: "init()") : s.callback("dealloc", selector: "dealloc", swift: "deinit")
            return s.statement(name, callback: spelled, argument: "", parent: nil)
        }
    }

    /// `message` in `format`'s envelope, at `time` (seconds since 1970, printed as 2024-03-01 in UTC+8's
    /// clock) from process `pid`.
    public static func envelope(_ message: String, time: Double, pid: Int, format: EnvelopeFormat) -> String {
        let whole = Int(time)
        let micros = Int((time - Double(whole)) * 1_000_000)
        let clock: String = pad(whole / 3600 % 24, 2) + ":" + pad(whole / 60 % 60, 2) + ":" + pad(whole % 60, 2)
        let millis: String = "2024-03-01 " + clock + "." + pad(micros / 1000, 3)
        let precise: String = "2024-03-01 " + clock + "." + pad(micros, 6) + "+0800"
        let p = String(pid)
        switch format {
        case .nslog: return millis + " Shop[" + p + ":51413] " + message
        case .nslogTZ: return precise + " Shop App[" + p + ":51413] " + message
        case .oslog: return precise + " 0x1a2b3c   Default     0x0                  " + p + "  0    Shop: [com.example.shop:lifecycle] " + message
        case .compact: return millis + " Df Shop[" + p + ":1a2b3c] " + message
        case .syslog: return "Mar  1 " + clock + " iPhone Shop[" + p + "] <Notice>: " + message
        case .ndjson:
            let escaped = jsonString(message)
            let head: String = "{\"timestamp\":\"" + precise + "\",\"processID\":" + p + ",\"threadID\":51413,"
            return head + "\"eventType\":\"logEvent\",\"eventMessage\":" + escaped + ",\"processImagePath\":\"/var/containers/Bundle/Application/X/Shop.app/Shop\"}"
        case .bare: return message
        case .logcat: return millis + "  " + p + "  " + p + " D Shop: " + message
        case .json:
            // The members of one object as `log show --style json` prints them, one a line (the
            // eventMessage second, the time after it, a nested backtrace), without its braces.
            let members: [String] = [
                "  \"traceID\" : " + String(Int(time * 1000) % 1_000_000_007) + ",",
                "  \"eventMessage\" : " + jsonString(message) + ",",
                "  \"eventType\" : \"logEvent\",",
                "  \"backtrace\" : {\n    \"frames\" : [\n      {\n        \"imageOffset\" : 40000,",
                "        \"imageUUID\" : \"A1D6C3E0-7F2B-3B19-9E44-51C0D8F2A6B7\"\n      }\n    ]\n  },",
                "  \"processImagePath\" : \"\\/var\\/containers\\/Bundle\\/Application\\/X\\/Shop.app\\/Shop\",",
                "  \"timestamp\" : \"" + precise + "\",",
                "  \"processID\" : " + p + ",",
                "  \"threadID\" : 51413,",
                "  \"messageType\" : \"Default\"",
            ]
            return members.joined(separator: "\n")
        }
    }

    /// A JSON string literal, as `log stream --style ndjson` escapes its messages (the reports' escaping).
    static func jsonString(_ s: String) -> String { JSONValue.string(s).serialized() }

    static func pad(_ v: Int, _ width: Int) -> String {
        let t = String(v)
        return t.count >= width ? t : String(repeating: "0", count: width - t.count) + t
    }
}

/// A small, fast, deterministic generator (SplitMix64): the same seed gives the same log everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
