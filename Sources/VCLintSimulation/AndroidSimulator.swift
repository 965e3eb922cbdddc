import VCLintCore

/// A deterministic simulator of an Android app's logcat (docs/lifecycle.md#android-activities-and-fragments): a few
/// Activities (some hosting Fragments, some owning a ViewModel) in launches of one pid each, with the legal traffic of
/// docs/lifecycle.md#android-legal-orders (launches, A→B→back, rotation recreates, back-stack fragments, ViewPager pages,
/// multi-window pauses, `finish()` from `onCreate`, `onNewIntent`, `onSaveInstanceState` anywhere, host and fragment
/// callbacks interleaved), process deaths between launches and sometimes mid-flow, the system's `START` and
/// `Displayed` lines, another app's lines and noise. Optionally LeakCanary's watches, retained counts and heap
/// analyses, and androidx.test's runner lines. One callback wording and one logcat format per capture.
///
/// Every flow it writes is legal; optionally one fault (`Fault`, one per Android rule) is injected and the finding it
/// must cause is returned as ground truth, on the line the rule names (the `╰→` node of a trace, the last
/// retained count, the StrictMode line, the callback or the exception line). Used by the property tests,
/// `vclint-loggen --platform android` and `vclint-accuracy --platform android`.
public struct AndroidSimulator {
    /// The logcat formats vclint reads, one per capture.
    public enum Format: String, CaseIterable, Sendable {
        case threadtime, time, brief, process, tag, thread, long, studio
        case studioDolphin = "studio-dolphin"

        /// Whether lines carry the pid: a capture without it is one session, so it holds one launch.
        public var hasPID: Bool { self != .tag }
    }

    /// How the app prints its callbacks, one style per capture.
    public enum Wording: String, CaseIterable, Sendable {
        /// `onCreate`
        case plain
        /// `onCreate() called`
        case called
        /// `onCreate(Bundle) called`, `onStart() called`
        case bundle
        /// `ON_CREATE` (Jetpack's `Lifecycle.Event`; the callbacks it has no event for in their own name)
        case jetpack
    }

    /// One fault per Android rule (docs/lifecycle.md#android-rules, and LeakCanary's and StrictMode's: docs/lifecycle.md#leakcanary), injected once in the first launch.
    public enum Fault: String, CaseIterable, Sendable {
        case missingOnPause = "missing-on-pause"
        case missingOnStop = "missing-on-stop"
        case unbalancedAppearance = "unbalanced-appearance"
        case callbackAfterDestroy = "callback-after-destroy"
        /// `onViewCreated` on a back-stack fragment whose view was destroyed.
        case fragmentViewCallback = "fragment-view-callback"
        /// androidx's `Can't access the Fragment View's LifecycleOwner` crash.
        case fragmentViewException = "fragment-view-exception"
        case leakedActivity = "leaked-activity"
        case leakedFragment = "leaked-fragment"
        case leakedFragmentView = "leaked-fragment-view"
        /// A ViewModel kept after its `onCleared`.
        case leakedObject = "leaked-object"
        case libraryLeak = "library-leak"
        case retainedUnconfirmed = "retained-unconfirmed"
        /// StrictMode's `instances=3; limit=1` (the error form: the warning form's severity is no part of the truth).
        case lifetimeLimit = "lifetime-limit"

        /// The rule the fault must cause.
        public var rule: String {
            switch self {
            case .missingOnPause: return "missing_on_pause"
            case .missingOnStop: return "missing_on_stop"
            case .unbalancedAppearance: return "unbalanced_appearance"
            case .callbackAfterDestroy: return "callback_after_destroy"
            case .fragmentViewCallback, .fragmentViewException: return "fragment_view_after_destroy_view"
            case .leakedActivity: return "leaked_activity"
            case .leakedFragment: return "leaked_fragment"
            case .leakedFragmentView: return "leaked_fragment_view"
            case .leakedObject: return "leaked_object"
            case .libraryLeak: return "library_leak"
            case .retainedUnconfirmed: return "retained_unconfirmed"
            case .lifetimeLimit: return "lifetime_limit"
            }
        }

        /// Whether the fault is LeakCanary's evidence (the capture then carries LeakCanary's lines).
        public var needsLeakCanary: Bool {
            switch self {
            case .leakedActivity, .leakedFragment, .leakedFragmentView, .leakedObject, .libraryLeak, .retainedUnconfirmed: return true
            default: return false
            }
        }
    }

    public struct Options: Sendable {
        public var seed: UInt64
        public var format: Format = .threadtime
        /// The callback wording (nil: drawn from the seed).
        public var wording: Wording?
        /// Whether callbacks carry the instance's id (`MainActivity@1a2b3c onCreate`; nil: drawn from the seed).
        public var ids: Bool?
        /// Launches (a pid each) per run.
        public var launches = 2
        /// Navigation steps per launch.
        public var steps = 30
        /// Noise lines per lifecycle line, on average.
        public var noise = 2.0
        /// The share of noise lines that mention a callback name without being one.
        public var mentionRate = 0.25
        /// LeakCanary's lines (watches, retained counts, analyses); the leak faults turn it on.
        public var leakCanary = false
        /// androidx.test's `TestRunner` lines around each launch (nil: drawn from the seed).
        public var testRunner: Bool?
        public var startTime = 1_704_445_200.0
        public var firstPID = 4000
        public var fault: Fault?
        public init(seed: UInt64) { self.seed = seed }
    }

    public struct Output: Sendable {
        public var lines: [String]
        /// The findings the injected fault must cause: rule and 1-based line.
        public var expected: [(rule: String, line: Int)]
        public var endTime: Double
        public var nextPID: Int
        public var text: String { lines.joined(separator: "\n") + "\n" }
    }

    static let package = "com.example.app"
    static let systemPID = 1500
    static let otherPID = 3100
    static let otherPackage = "com.android.settings"

    /// One logcat entry: its message may span lines (a LeakCanary block, a crash), each printed with the envelope.
    struct Record {
        var time: Double
        var pid: Int
        var tid: Int
        var level: Character
        var tag: String
        var message: String
        var process: String
    }

    enum Kind { case activity, fragment, viewModel }

    struct Instance {
        var className: String
        var kind: Kind
        var address: Int
        var state: State = .created
        var hasView = false
        var host: Int?
        /// An Activity's fragments: its container's back stack (the last one shown; the others without a view) and its pages.
        var stack: [Int] = []
        var pages: [Int] = []
        var page = 0
        var viewModel: Int?
        /// An Activity whose content is a composable that logs its `DisposableEffect`.
        var composed = false
    }

    enum State { case created, started, resumed, paused, stopped, destroyed }

    /// The app: which Activity hosts what.
    struct ActivitySpec {
        var name: String
        var fragments: [String] = []
        /// The fragment its container's back stack pushes (each host its own class: two live instances of one
        /// class without ids would leave vclint to guess which one a callback is for).
        var pushed: String?
        var pages: [String] = []
        var viewModel: String?
    }

    static let main = ActivitySpec(name: "MainActivity", fragments: ["HomeFragment"], pushed: "SearchFragment", viewModel: "MainViewModel")
    static let detail = ActivitySpec(name: "DetailActivity", fragments: ["DetailFragment"], pushed: "RelatedFragment", viewModel: "DetailViewModel")
    /// Opened only by the order faults' scripts: its first instance in the session, so the faulty callback can
    /// only be for the live instance (without ids, a callback that no live instance accepts goes to an
    /// instance destroyed before: `callback_after_destroy`, docs/lifecycle.md#android-identity).
    static let profile = ActivitySpec(name: "ProfileActivity", fragments: ["ProfileFragment"], pushed: "EditProfileFragment")
    static let settings = ActivitySpec(name: "SettingsActivity")
    static let gallery = ActivitySpec(name: "GalleryActivity", pages: ["PhotosPageFragment", "AlbumsPageFragment", "VideosPageFragment"])
    static let router = ActivitySpec(name: "RouterActivity")
    static let specs: [String: ActivitySpec] = [main.name: main, detail.name: detail, settings.name: settings, gallery.name: gallery, router.name: router,
                                                 profile.name: profile]

    let options: Options
    let wording: Wording
    let ids: Bool
    let testRunner: Bool
    let leakCanary: Bool
    /// LeakCanary before 2.5 says `Signature:`, later `Leak fingerprint:`.
    let fingerprintWord: String
    var rng: SplitMix64
    var records: [Record] = []
    var expected: [(rule: String, record: Int, subline: Int)] = []
    var instances: [Instance] = []
    /// The task's Activities, bottom first.
    var task: [Int] = []
    var time: Double
    var pid: Int
    var nextAddress: Int
    /// LeakCanary: watches open since the last resolution, and whether a retained count awaits one.
    var openWatches: [(className: String, key: String, reason: String)] = []
    var countOpen = false
    var otherState = 0
    var testNumber = 0
    var faultDone = false

    init(_ options: Options) {
        self.options = options
        var r = SplitMix64(seed: options.seed ^ 0xA2D2_01D5)
        wording = options.wording ?? Wording.allCases[Int(r.next() % UInt64(Wording.allCases.count))]
        ids = options.ids ?? (r.next() % 3 == 0)
        testRunner = options.testRunner ?? (r.next() % 2 == 0)
        leakCanary = options.leakCanary || options.fault?.needsLeakCanary == true
        fingerprintWord = r.next() % 2 == 0 ? "Signature" : "Leak fingerprint"
        rng = SplitMix64(seed: options.seed)
        time = options.startTime
        pid = options.firstPID
        nextAddress = Int(truncatingIfNeeded: (options.seed &* 0x9E37_79B9) & 0x0FFF_FFFF) | 0x1000_0000
    }

    /// One run: `options.launches` launches of the app, each in a new pid.
    public static func generate(_ options: Options) -> Output {
        var sim = AndroidSimulator(options)
        return sim.run()
    }

    mutating func run() -> Output {
        let launches = options.format.hasPID ? max(1, options.launches) : 1
        for n in 0..<launches {
            launch(first: n == 0, last: n == launches - 1)
            pid += 1 + pick(40)
            time += 20 + Double(pick(40))
        }
        return render()
    }

    // MARK: drawing

    mutating func chance(_ p: Double) -> Bool { Double(rng.next() % 10_000) / 10_000 < p }
    mutating func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(max(n, 1))) }
    mutating func tick(_ lo: Int = 2, _ hi: Int = 120) { time += Double(lo + pick(hi - lo + 1)) / 1000 }

    mutating func uuid() -> String {
        func hex(_ v: UInt64, _ n: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: max(0, n - s.count)) + s.suffix(n)
        }
        let a = rng.next(), b = rng.next()
        return hex(a >> 32, 8) + "-" + hex((a >> 16) & 0xFFFF, 4) + "-4" + hex(a & 0xFFF, 3) + "-a" + hex(b >> 52, 3) + "-" + hex(b & 0xFFFF_FFFF_FFFF, 12)
    }

    // MARK: records

    @discardableResult
    mutating func emit(_ tag: String, _ message: String, level: Character = "D", pid p: Int? = nil, tid: Int? = nil, process: String? = nil) -> Int {
        let owner = p ?? pid
        let proc = process ?? (owner == pid ? Self.package : owner == Self.systemPID ? "system_process" : Self.otherPackage)
        records.append(Record(time: time, pid: owner, tid: tid ?? owner, level: level, tag: tag, message: message, process: proc))
        return records.count - 1
    }

    mutating func system(_ tag: String, _ message: String) { emit(tag, message, level: "I", pid: Self.systemPID, tid: Self.systemPID + 20 + pick(30)) }

    /// A callback as this app prints it: its tag and message.
    func statement(_ i: Instance, _ callback: String) -> (tag: String, message: String) {
        let spelled = Self.spell(callback, wording)
        let qualified = i.kind == .fragment ? Self.package + ".ui." + i.className : Self.package + "." + i.className
        if ids {
            let id = String(i.address, radix: 16)
            return ("Lifecycle", (i.kind == .fragment ? i.className + "{" + id + "}" : qualified + "@" + id) + " " + spelled)
        }
        if options.format == .thread { return (i.className, i.className + " " + spelled) }  // thread prints no tag
        return (i.className, spelled)
    }

    static func spell(_ callback: String, _ wording: Wording) -> String {
        switch wording {
        case .plain: return callback
        case .called: return callback + "() called"
        case .bundle:
            switch callback {
            case "onCreate", "onSaveInstanceState", "onRestoreInstanceState", "onPostCreate": return callback + "(Bundle) called"
            case "onAttach": return callback + "(Context) called"
            case "onNewIntent": return callback + "(Intent) called"
            default: return callback + "() called"
            }
        case .jetpack:
            let events = ["onCreate": "ON_CREATE", "onStart": "ON_START", "onResume": "ON_RESUME", "onPause": "ON_PAUSE", "onStop": "ON_STOP", "onDestroy": "ON_DESTROY"]
            return events[callback] ?? callback
        }
    }

    /// Logs `callback` of instance `k` (and its noise); the record's index.
    @discardableResult
    mutating func log(_ k: Int, _ callback: String) -> Int {
        tick()
        let s = statement(instances[k], callback)
        let r = emit(s.tag, s.message)
        noise()
        return r
    }

    mutating func noise() {
        var n = 0
        while n < 12, chance(options.noise / (options.noise + 1)) {
            n += 1
            tick(1, 40)
            noiseLine()
        }
        if chance(0.04) { otherApp() }
    }

    mutating func noiseLine() {
        let cls = ["MainActivity", "DetailActivity", "SettingsActivity", "GalleryActivity"][pick(4)]
        if chance(options.mentionRate) {
            switch pick(9) {
            case 0: emit("System.err", "\tat \(Self.package).\(cls).onCreate(\(cls).kt:\(20 + pick(80)))", level: "W")
            case 1: emit("art", "    at void \(Self.package).\(cls).onResume() (\(cls).java:\(30 + pick(50)))", level: "I")
            case 2: emit(cls, "onCreateOptionsMenu")
            case 3: emit(cls, "onWindowFocusChanged hasFocus=\(chance(0.5))")
            case 4: emit("Test", "\(Self.package).\(cls)@\(String(0xb000000 + pick(0xfffff), radix: 16))", level: "E")
            case 5: emit("Repository", "onSuccess loaded \(pick(40)) items isFinishingfalse isDestroyedfalse")
            case 6: emit(cls, "onUserLeaveHint")
            case 7: emit(cls, "onTrimMemory level=\([5, 10, 15, 20, 40][pick(5)])", level: "I")
            default: emit("Analytics", "screen_view sent for \(cls) after onResume", level: "I")
            }
            return
        }
        switch pick(8) {
        case 0: emit("OkHttp", "--> GET https://api.example.com/v1/feed?page=\(pick(9))")
        case 1: emit("OkHttp", "<-- 200 OK https://api.example.com/v1/feed (\(40 + pick(400))ms)")
        case 2: emit("Choreographer", "Skipped \(30 + pick(60)) frames!  The application may be doing too much work on its main thread.", level: "I")
        case 3: emit("EGL_emulation", "eglMakeCurrent: 0xe3405ae0: ver 3 0 (tinfo 0xe3403b70)", tid: pid + 31)
        case 4: emit("zygote64", "Background concurrent copying GC freed \(10_000 + pick(9_000))(1138KB) AllocSpace objects, 5(100KB) LOS objects, 49% free, 3MB/7MB, paused 41us total 112.004ms", level: "I", tid: pid + 7)
        case 5: emit("ViewRootImpl", "[\(cls)] dispatchDetachedFromWindow")
        case 6: emit("Glide", "Load failed for https://img.example.com/\(pick(999)).jpg with size [1080x720]", level: "W", tid: pid + 40 + pick(5))
        default: system("InputDispatcher", "channel 'a1b2c3 \(Self.package)/\(Self.package).\(cls) (server)' ~ Channel is unrecoverably broken and will be disposed!")
        }
    }

    /// Another app's Activity, in its own pid, going round its legal lifecycle (not in a format without pids, where
    /// it would join the app's one session; drawn all the same, so that every format shows one history).
    mutating func otherApp() {
        let order = ["onCreate", "onStart", "onResume", "onPause", "onStop", "onDestroy"]
        tick(1, 30)
        guard options.format.hasPID else { return }
        let label = options.format == .thread ? "SettingsHomepageActivity " : ""  // thread prints no tag
        emit("SettingsHomepageActivity", label + order[otherState], pid: Self.otherPID)
        otherState = (otherState + 1) % order.count
    }

    // MARK: instances

    mutating func make(_ name: String, _ kind: Kind, host: Int? = nil) -> Int {
        nextAddress = ((nextAddress &* 1_103_515_245 &+ 12_345) & 0x0FFF_FFFF) | 0x0100_0000
        instances.append(Instance(className: name, kind: kind, address: nextAddress, host: host))
        return instances.count - 1
    }

    /// One phase's callback of host `a` and of `fragments`, in either order (docs/lifecycle.md#android-legal-orders: no order between
    /// classes is checked); the fragments move to `state`.
    mutating func phase(_ a: Int, _ callback: String, fragments: [Int], to state: State, host: Bool = true) {
        let hostFirst = chance(0.5)
        if hostFirst, host { log(a, callback) }
        for f in fragments {
            log(f, callback)
            set(f, state)
        }
        if !hostFirst, host { log(a, callback) }
    }

    /// The fragments of Activity `a` that are shown (with a view): the container's top and every page.
    func shown(_ a: Int) -> [Int] {
        var out: [Int] = []
        if let top = instances[a].stack.last { out.append(top) }
        return out + instances[a].pages
    }

    /// The fragments that are resumed with their host: the container's top and the current page.
    func resumable(_ a: Int) -> [Int] {
        var out: [Int] = []
        if let top = instances[a].stack.last { out.append(top) }
        if !instances[a].pages.isEmpty { out.append(instances[a].pages[instances[a].page]) }
        return out
    }

    mutating func set(_ k: Int, _ s: State) { instances[k].state = s }

    /// A fragment's add up to its restored view state.
    mutating func attach(_ f: Int) {
        log(f, "onAttach"); log(f, "onCreate"); log(f, "onCreateView"); log(f, "onViewCreated")
        instances[f].hasView = true
        if chance(0.3) { log(f, "onActivityCreated") }
        log(f, "onViewStateRestored")
    }

    /// A new instance of Activity `name` from `onCreate` to `onResume`, with its fragments and ViewModel.
    @discardableResult
    mutating func create(_ name: String, restoredFrom old: Int? = nil) -> Int {
        let spec = Self.specs[name]!
        if old == nil {
            system("ActivityTaskManager", "START u0 {cmp=\(Self.package)/.\(name)} from uid 10123")
        }
        let a = make(name, .activity)
        log(a, "onCreate")
        if let vmName = spec.viewModel {
            if let old, let vm = instances[old].viewModel {
                instances[a].viewModel = vm  // a ViewModel survives the recreate
            } else {
                let vm = make(vmName, .viewModel, host: a)
                instances[a].viewModel = vm
                tick()
                emitVM(vm, "init")
            }
        }
        for f in spec.fragments { instances[a].stack.append(make(f, .fragment, host: a)) }
        for p in spec.pages { instances[a].pages.append(make(p, .fragment, host: a)) }
        // Fragments reach their view during the host's onStart; one phase's callbacks come in either order.
        for f in shown(a) { attach(f) }
        phase(a, "onStart", fragments: shown(a), to: .started)
        set(a, .started)
        if old != nil, chance(0.7) { log(a, "onRestoreInstanceState") }
        if chance(0.3) { log(a, "onPostCreate") }
        phase(a, "onResume", fragments: resumable(a), to: .resumed)
        set(a, .resumed)
        if chance(0.2) { log(a, "onPostResume") }
        tick(40, 400)
        system("ActivityTaskManager", "Displayed \(Self.package)/.\(name): +\(80 + pick(600))ms")
        // Some screens are composables that log their effect: a view's appearance, never a finding.
        if chance(0.3) {
            instances[a].composed = true
            tick()
            emit("Compose", "\(Self.screen(name)) DisposableEffect started")
            noise()
        }
        return a
    }

    /// The composable an Activity shows (`MainActivity`: `MainScreen`).
    static func screen(_ activity: String) -> String {
        (activity.hasSuffix("Activity") ? String(activity.dropLast("Activity".count)) : activity) + "Screen"
    }

    mutating func emitVM(_ vm: Int, _ callback: String) {
        let i = instances[vm]
        let spelled = callback == "onCleared" && (wording == .called || wording == .bundle) ? "onCleared() called" : callback
        if ids {
            emit("Lifecycle", Self.package + "." + i.className + "@" + String(i.address, radix: 16) + " " + spelled)
        } else {
            emit(i.className, options.format == .thread ? i.className + " " + spelled : spelled)
        }
        noise()
    }

    /// `onSaveInstanceState` of `k` (and its shown fragments), where this app's target API puts it.
    mutating func save(_ a: Int) {
        log(a, "onSaveInstanceState")
        for f in shown(a) where chance(0.5) { log(f, "onSaveInstanceState") }
    }

    mutating func pause(_ a: Int, skipHost: Bool = false) {
        phase(a, "onPause", fragments: resumable(a).filter { instances[$0].state == .resumed }, to: .paused, host: !skipHost)
        set(a, .paused)
    }

    mutating func resume(_ a: Int) {
        phase(a, "onResume", fragments: resumable(a), to: .resumed)
        set(a, .resumed)
    }

    /// `onStop` (and the fragments'), with `onSaveInstanceState` after it (API 28+) or before it, or not at all.
    mutating func stop(_ a: Int, save saving: Bool, skipHost: Bool = false) {
        let place = saving ? pick(2) : 2
        if place == 0 { save(a) }
        phase(a, "onStop", fragments: shown(a).filter { instances[$0].state != .stopped }, to: .stopped, host: !skipHost)
        set(a, .stopped)
        if place == 1 { save(a) }
    }

    mutating func restart(_ a: Int) {
        log(a, "onRestart")
        phase(a, "onStart", fragments: shown(a), to: .started)
        set(a, .started)
        resume(a)
    }

    /// `onDestroy` of a stopped Activity and its fragments; `finishing` clears its ViewModel. LeakCanary watches each.
    mutating func destroy(_ a: Int, finishing: Bool, skipHost: Bool = false) {
        if instances[a].composed {
            instances[a].composed = false
            tick()
            emit("Compose", "\(Self.screen(instances[a].className)) onDispose")
        }
        let hostFirst = chance(0.5)
        if hostFirst, !skipHost { log(a, "onDestroy") }
        for f in instances[a].stack + instances[a].pages {
            if instances[f].hasView {
                log(f, "onDestroyView")
                instances[f].hasView = false
                watchView(f)
            }
            log(f, "onDestroy"); log(f, "onDetach"); set(f, .destroyed)
            watch(f, "Fragment#onDestroy()")
        }
        if !hostFirst, !skipHost { log(a, "onDestroy") }
        set(a, .destroyed)
        watch(a, "Activity#onDestroy()")
        if finishing, let vm = instances[a].viewModel {
            tick()
            emitVM(vm, "onCleared")
            set(vm, .destroyed)
            watch(vm, "ViewModel#onCleared()")
        }
        // Without LeakCanary an app may log its release (with it, a release would close the watches its faults need).
        if !leakCanary, !skipHost, chance(0.3) {
            tick(200, 2000)
            log(a, "finalize")
        }
    }

    // MARK: LeakCanary

    func qualified(_ k: Int) -> String {
        instances[k].kind == .fragment ? Self.package + ".ui." + instances[k].className : Self.package + "." + instances[k].className
    }

    /// `Watching instance of …` on the main thread, after an end of use; returns its key.
    @discardableResult
    mutating func watch(_ k: Int, _ callback: String) -> String {
        guard leakCanary else { return "" }
        let key = uuid()
        let name = qualified(k)
        tick(1, 5)
        let reason = "\(name) received \(callback) callback"
        emit("LeakCanary", "Watching instance of \(name) (\(reason)) with key \(key)")
        openWatches.append((name, key, reason))
        return key
    }

    @discardableResult
    mutating func watchView(_ f: Int) -> String {
        guard leakCanary else { return "" }
        let key = uuid()
        tick(1, 5)
        let reason = "\(qualified(f)) received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks)"
        emit("LeakCanary", "Watching instance of android.widget.FrameLayout (\(reason)) with key \(key)")
        openWatches.append(("android.widget.FrameLayout", key, reason))
        return key
    }

    var analysisTID: Int { pid + 150 }

    /// One of LeakCanary's three retained-count wordings (each says `n` is below the threshold of 5), on its own thread.
    @discardableResult
    mutating func retainedCount(_ n: Int) -> Int {
        tick(2000, 5000)
        let text: String
        switch pick(3) {
        case 0: text = "Found \(n) retained instances, which is less than the visible threshold of 5"
        case 1: text = "Rescheduling check for retained objects in 2000ms because found only \(n) retained objects (< 5 while app visible)"
        default: text = "Found \(n) objects retained, not dumping heap yet (app is visible & < 5 threshold)"
        }
        countOpen = true
        return emit("LeakCanary", text, tid: analysisTID)
    }

    mutating func collected() {
        tick(1000, 3000)
        emit("LeakCanary", "All retained objects have been garbage collected", tid: analysisTID)
        countOpen = false
        openWatches = []
    }

    /// Legal LeakCanary traffic after a step: open watches sometimes counted, a count always resolved later
    /// (collected, or a heap dump whose analysis finds them unreachable).
    mutating func leakCanaryStep() {
        guard leakCanary else { return }
        if countOpen {
            if chance(0.5) { return }
            if chance(0.2) { unreachableAnalysis() } else { collected() }
        } else if !openWatches.isEmpty, chance(0.3) {
            retainedCount(min(openWatches.count, 4))
        }
    }

    /// Before a session ends: no retained count stays open in a fault-free capture.
    mutating func resolveCounts() {
        if countOpen { collected() }
    }

    static let frame = "===================================="

    mutating func metadata() -> [String] {
        [Self.frame, "METADATA", "", "Please include this in bug reports and Stack Overflow questions.", "",
         "Build.VERSION.SDK_INT: \(29 + pick(5))", "Build.MANUFACTURER: Google", "LeakCanary version: 2.\(9 + pick(5))",
         "App process name: \(Self.package)", "Stats: LruCache[maxSize=3000,hits=\(4000 + pick(5000)),misses=\(50_000 + pick(40_000)),hitRate=6%]",
         "Analysis duration: \(2000 + pick(6000)) ms", "Heap dump file path: /data/user/0/\(Self.package)/cache/leakcanary/heap.hprof",
         "Heap dump timestamp: \(Int(time * 1000))", Self.frame]
    }

    static let unreachableIntro = ["An unreachable object is still in memory but LeakCanary could not find a strong reference path", "from GC roots."]
    static let libraryIntro = ["A Library Leak is a leak caused by a known bug in 3rd party code that you do not have control over.",
                               "See https://square.github.io/leakcanary/fundamentals-how-leakcanary-works/#4-categorizing-leaks"]

    mutating func dumpLine() {
        tick(2000, 5000)
        emit("LeakCanary", "Check for retained objects found \(max(1, openWatches.count)) objects, dumping the heap", tid: analysisTID)
    }

    /// A legal heap analysis: no leak, the watched objects unreachable (being collected).
    mutating func unreachableAnalysis() {
        dumpLine()
        let objects = openWatches.prefix(3)
        var lines = [Self.frame, "HEAP ANALYSIS RESULT", Self.frame, "0 APPLICATION LEAKS", "", Self.frame, "0 LIBRARY LEAKS", ""]
        lines += Self.libraryIntro + [Self.frame, "\(objects.count) UNREACHABLE OBJECTS", ""] + Self.unreachableIntro
        for o in objects {
            lines += ["", "\(o.className) instance", "\u{200B}  Leaking: YES (ObjectWatcher was watching this because \(o.reason))", "\u{200B}  key = \(o.key)"]
        }
        lines += metadata()
        tick(3000, 9000)
        emit("LeakCanary", lines.joined(separator: "\n"), tid: analysisTID)
        countOpen = false
        openWatches = []
    }

    /// A trace's node lines: `├─ C instance`, its `Leaking:` line, then `↓ Owner.field` underlined when a suspect.
    static func node(_ className: String, what: String = "instance", leaking: String, field: String?, suspect: Bool, extra: [String] = []) -> [String] {
        var lines = ["├─ \(className) \(what)", "│    Leaking: \(leaking)"] + extra.map { "│    " + $0 }
        if let field {
            let arrow = "│    ↓ " + field
            lines.append(arrow)
            if suspect, let dot = field.lastIndex(of: ".") {
                let column = arrow.count - field.distance(from: dot, to: field.endIndex) + 1
                lines.append("│" + String(repeating: " ", count: column - 1) + String(repeating: "~", count: field.distance(from: dot, to: field.endIndex) - 1))
            }
        }
        return lines
    }

    /// A 2.x heap analysis with one trace in `section` ending in `leaking`; the index of its `╰→` line in the block.
    mutating func leakAnalysis(library: Bool, root: String, nodes: [[String]], leaking: String, reason: String, key: String) -> (lines: [String], arrow: Int) {
        var lines = [Self.frame, "HEAP ANALYSIS RESULT", Self.frame]
        var trace: [String] = []
        if library {
            trace += ["Leak pattern: instance field android.app.Activity$1#this$0",
                      "Description: Android Q added a new IRequestFinishCallback$Stub class. Android uses instances of a subclass of this class to remotely invoke Activity#finish(). The Activity keeps a reference to it, which leaks the Activity."]
        }
        let bytes = 2000 + pick(90_000)
        trace += ["\(bytes) bytes retained by leaking objects", "\(fingerprintWord): \(hex40())", "┬───", "│ GC Root: \(root)", "│"]
        for n in nodes { trace += n }
        let arrow = trace.count
        trace += ["╰→ \(leaking) instance", "\u{200B}     Leaking: YES (\(reason))",
                  "\u{200B}     Retaining \(bytes / 1000).\(pick(10)) kB in \(100 + pick(900)) objects", "\u{200B}     key = \(key)",
                  "\u{200B}     watchDurationMillis = \(5000 + pick(3000))", "\u{200B}     retainedDurationMillis = \(pick(3000))"]
        let arrowLine: Int
        if library {
            lines += ["0 APPLICATION LEAKS", "", Self.frame, "1 LIBRARY LEAKS", ""] + Self.libraryIntro + [""]
            arrowLine = lines.count + arrow
            lines += trace
        } else {
            lines += ["1 APPLICATION LEAKS", "", "References underlined with \"~~~\" are likely causes.", "Learn more at https://squ.re/leaks.", ""]
            arrowLine = lines.count + arrow
            lines += trace + [Self.frame, "0 LIBRARY LEAKS", ""] + Self.libraryIntro
        }
        lines += [Self.frame, "0 UNREACHABLE OBJECTS", ""] + Self.unreachableIntro + metadata()
        return (lines, arrowLine)
    }

    mutating func hex40() -> String {
        var s = ""
        while s.count < 40 { s += String(rng.next() >> 4, radix: 16) }
        return String(s.prefix(40))
    }

    /// The count, the dump and the analysis of a leak whose trace ends in `leaking`: the expected finding on its `╰→` line.
    mutating func reportLeak(_ fault: Fault, library: Bool = false, root: String, nodes: [[String]], leaking: String, reason: String) {
        let key = openWatches.last { $0.className == leaking }?.key ?? uuid()
        tick(200, 900)
        // Below LeakCanary's threshold of 5 it counts and waits; at 5 or more it dumps at once.
        if openWatches.count < 5 { retainedCount(openWatches.count) }
        dumpLine()
        let block = leakAnalysis(library: library, root: root, nodes: nodes, leaking: leaking, reason: reason, key: key)
        tick(3000, 9000)
        let r = emit("LeakCanary", block.lines.joined(separator: "\n"), tid: analysisTID)
        expected.append((fault.rule, r, block.arrow))
        countOpen = false
        openWatches = []
    }

    // MARK: the flow

    mutating func launch(first: Bool, last: Bool) {
        let test = testRunner ? "testFlow\(testNumber)(\(Self.package).NavigationTest)" : nil
        testNumber += 1
        if let test { tick(); emit("TestRunner", "started: \(test)", level: "I", tid: pid + 19) }
        task = [create("MainActivity")]
        let faultStep = first && options.fault != nil ? max(1, options.steps / 3) : -1
        var ended = false
        for step in 0..<options.steps {
            if step == faultStep, let fault = options.fault {
                ended = inject(fault)
                faultDone = true
                if ended { break }
                continue
            }
            perform()
            leakCanaryStep()
        }
        if !ended { end(test: test, last: last) }
    }

    /// One legal navigation step on the top Activity.
    mutating func perform() {
        let top = task.last!
        let r = pick(100)
        let hasContainer = Self.specs[instances[top].className]?.pushed != nil
        switch r {
        case 0..<22:
            if task.count < 4 {
                let next = ["DetailActivity", "SettingsActivity", "GalleryActivity"].filter { n in !task.contains { instances[$0].className == n } }
                if let name = next.isEmpty ? nil : next[pick(next.count)] { open(name); return }
            }
            back()
        case 22..<40: if task.count > 1 { back() } else { multiWindow(top) }
        case 40..<50: rotate()
        case 50..<60: if hasContainer { backStack(top) } else { multiWindow(top) }
        case 60..<68:
            if !instances[top].pages.isEmpty { swipe(top) } else { home(top) }
        case 68..<76: multiWindow(top)
        case 76..<82: home(top)
        case 82..<87: router(top)
        case 87..<91:
            pause(top); log(top, "onNewIntent"); resume(top)
        case 91..<94: log(top, "onConfigurationChanged")
        default:
            for _ in 0..<(1 + pick(3)) { tick(); noiseLine() }
        }
    }

    mutating func open(_ name: String) {
        let a = task.last!
        pause(a)
        let b = create(name)
        stop(a, save: chance(0.8))
        task.append(b)
    }

    /// Back from the top Activity (it finishes) to the one below.
    mutating func back() {
        guard task.count > 1 else { return }
        let b = task.removeLast(), a = task.last!
        pause(b)
        restart(a)
        stop(b, save: false)
        destroy(b, finishing: true)
    }

    mutating func rotate() {
        let a = task.removeLast()
        pause(a)
        stop(a, save: true)
        destroy(a, finishing: false)
        task.append(create(instances[a].className, restoredFrom: a))
    }

    mutating func multiWindow(_ a: Int) {
        pause(a)
        for _ in 0..<pick(3) { tick(); noiseLine() }
        resume(a)
    }

    mutating func home(_ a: Int) {
        pause(a)
        stop(a, save: chance(0.9))
        tick(500, 4000)
        restart(a)
    }

    /// `finish()` from `onCreate`: `onCreate, onDestroy`, the caller paused meanwhile.
    mutating func router(_ a: Int) {
        pause(a)
        system("ActivityTaskManager", "START u0 {cmp=\(Self.package)/.RouterActivity} from uid 10123")
        let r = make("RouterActivity", .activity)
        log(r, "onCreate")
        log(r, "onDestroy"); set(r, .destroyed)
        watch(r, "Activity#onDestroy()")
        resume(a)
    }

    /// A ViewPager swipe: the current page pauses, the next one (started, offscreen) resumes.
    mutating func swipe(_ a: Int) {
        let pages = instances[a].pages
        guard instances[a].state == .resumed, !pages.isEmpty else { return }
        let from = pages[instances[a].page]
        let to = (instances[a].page + 1 + pick(pages.count - 1)) % pages.count
        log(from, "onPause"); set(from, .started)
        instances[a].page = to
        log(pages[to], "onResume"); set(pages[to], .resumed)
    }

    /// The container's back stack: push a SearchFragment over the shown one, or pop it.
    mutating func backStack(_ a: Int) {
        if instances[a].stack.count == 1 { push(a) } else { pop(a) }
    }

    mutating func push(_ a: Int) {
        let old = instances[a].stack.last!
        log(old, "onPause"); log(old, "onStop"); log(old, "onDestroyView")
        instances[old].hasView = false; set(old, .stopped)
        watchView(old)
        let f = make(Self.specs[instances[a].className]!.pushed!, .fragment, host: a)
        instances[a].stack.append(f)
        attach(f)
        log(f, "onStart"); log(f, "onResume"); set(f, .resumed)
    }

    @discardableResult
    mutating func pop(_ a: Int) -> Int {
        let f = instances[a].stack.removeLast()
        log(f, "onPause"); log(f, "onStop"); log(f, "onDestroyView")
        instances[f].hasView = false
        watchView(f)
        log(f, "onDestroy"); log(f, "onDetach"); set(f, .destroyed)
        watch(f, "Fragment#onDestroy()")
        let back = instances[a].stack.last!
        log(back, "onCreateView"); log(back, "onViewCreated"); instances[back].hasView = true
        log(back, "onViewStateRestored"); log(back, "onStart"); log(back, "onResume"); set(back, .resumed)
        return f
    }

    /// The launch's end: the app finished by back presses, sent home, or killed in any state, then the process dies.
    mutating func end(test: String?, last: Bool) {
        switch pick(3) {
        case 0:
            while task.count > 1 { back() }
            let a = task.removeLast()
            pause(a); stop(a, save: false); destroy(a, finishing: true)
        case 1:
            let a = task.last!
            pause(a); stop(a, save: chance(0.9))
        default: break  // killed mid-flow
        }
        resolveCounts()
        if let test { tick(); emit("TestRunner", "finished: \(test)", level: "I", tid: pid + 19) }
        die(last: last)
    }

    mutating func die(last: Bool) {
        guard options.format.hasPID, !last || chance(0.5) else { return }
        tick(200, 3000)
        switch pick(3) {
        case 0: system("ActivityManager", "Process \(Self.package) (pid \(pid)) has died: fg TOP")
        case 1: system("ActivityManager", "Process \(Self.package) (pid \(pid)) has died: cch+15 CEM")
        default: emit("Zygote", "Process \(pid) exited due to signal 9 (Killed)", level: "I", pid: 612, tid: 612, process: "zygote64")
        }
    }

    // MARK: faults

    /// Brings the task back to MainActivity, with its container showing HomeFragment only.
    mutating func toMain() -> Int {
        while task.count > 1 { back() }
        let m = task.last!
        if instances[m].stack.count > 1 { pop(m) }
        return m
    }

    /// Runs the fault's script at the first launch's fault step; true when the script ended the launch.
    mutating func inject(_ fault: Fault) -> Bool {
        let m = toMain()
        func target(_ r: Int, _ subline: Int = 0) { expected.append((fault.rule, r, subline)) }
        switch fault {
        case .missingOnPause:
            open("ProfileActivity")
            let p = task.removeLast()
            multiWindow(p)  // the class logs onPause
            pause(p, skipHost: true)
            restart(m)
            target(log(p, "onStop"))
            stop(p, save: false, skipHost: true)
            destroy(p, finishing: true)
        case .missingOnStop:
            open("ProfileActivity")
            let p = task.last!
            home(p)  // the class logs onStop
            task.removeLast()
            pause(p)
            restart(m)
            stop(p, save: false, skipHost: true)
            target(log(p, "onDestroy"))
            destroy(p, finishing: true, skipHost: true)
        case .unbalancedAppearance:
            open("ProfileActivity")
            let p = task.last!
            multiWindow(p)  // the class logs onPause
            tick(300, 900)
            target(log(p, "onResume"))
            back()
        case .callbackAfterDestroy:
            open("ProfileActivity")
            let p = task.last!
            back()
            tick(200, 800)
            target(log(p, ["onPause", "onStop", "onResume"][pick(3)]))
        case .fragmentViewCallback:
            open("ProfileActivity")
            let p = task.last!
            push(p)
            tick(100, 600)
            target(log(instances[p].stack[0], "onViewCreated"))
            pop(p)
            back()
        case .fragmentViewException:
            open("ProfileActivity")
            let p = task.last!
            push(p)
            tick(300, 2000)
            let f = instances[p].stack[0]
            let named = chance(0.5)
            let exception = "java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner"
                + (named ? " for ProfileFragment{\(String(instances[f].address, radix: 16))} (\(uuid()) id=0x7f0a0224)" : "")
                + " when getView() is null i.e., before onCreateView() or after onDestroyView()"
            let crash = ["FATAL EXCEPTION: main", "Process: \(Self.package), PID: \(pid)", exception,
                         "\tat androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)",
                         "\tat \(Self.package).ui.ProfileFragment.onAvatarLoaded(ProfileFragment.kt:\(40 + pick(60)))",
                         "\tat \(Self.package).ui.ProfileFragment.access$onAvatarLoaded(ProfileFragment.kt:1)",
                         "\tat android.os.Handler.handleCallback(Handler.java:938)"]
            target(emit("AndroidRuntime", crash.joined(separator: "\n"), level: "E"), 2)
            resolveCounts()
            die(last: false)
            return true
        case .leakedActivity, .libraryLeak:
            open("SettingsActivity")
            back()
            let name = Self.package + ".SettingsActivity"
            let reason = "ObjectWatcher was watching this because \(name) received Activity#onDestroy() callback and Activity#mDestroyed is true"
            if fault == .libraryLeak {
                reportLeak(fault, library: true, root: "Global variable in native code",
                           nodes: [Self.node("android.app.Activity$1", leaking: "UNKNOWN", field: "Activity$1.this$0", suspect: true,
                                             extra: ["Anonymous subclass of android.app.IRequestFinishCallback$Stub"])],
                           leaking: name, reason: reason)
            } else {
                reportLeak(fault, root: "System class",
                           nodes: [Self.node("\(Self.package).SessionManager", what: "class", leaking: "NO (a class is never leaking)", field: "static SessionManager.listener", suspect: true),
                                   Self.node("\(Self.package).SettingsActivity$onCreate$1", leaking: "UNKNOWN", field: "SettingsActivity$onCreate$1.this$0", suspect: true,
                                             extra: ["Anonymous class implementing \(Self.package).SessionManager$Listener"])],
                           leaking: name, reason: reason)
            }
        case .leakedFragment:
            push(m)
            pop(m)
            let name = Self.package + ".ui.SearchFragment"
            reportLeak(fault, root: "Input or output parameters in native code",
                       nodes: [Self.node("\(Self.package).SearchHistory", what: "class", leaking: "NO (a class is never leaking)", field: "static SearchHistory.observers", suspect: false),
                               Self.node("java.util.ArrayList", leaking: "UNKNOWN", field: "ArrayList[0]", suspect: true),
                               Self.node("\(Self.package).ui.SearchFragment$observer$1", leaking: "UNKNOWN", field: "SearchFragment$observer$1.this$0", suspect: true)],
                       leaking: name, reason: "ObjectWatcher was watching this because \(name) received Fragment#onDestroy() callback")
        case .leakedFragmentView:
            push(m)
            let name = Self.package + ".ui.HomeFragment"
            reportLeak(fault, root: "Local variable in native code",
                       nodes: [Self.node("\(Self.package).MainActivity", leaking: "NO (Activity#mDestroyed is false)", field: "MainActivity.mFragments", suspect: false),
                               Self.node(name, leaking: "NO (Fragment.mLifecycleRegistry.state is CREATED)", field: "HomeFragment.rootView", suspect: true)],
                       leaking: "android.widget.FrameLayout",
                       reason: "ObjectWatcher was watching this because \(name) received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks)")
            pop(m)
        case .leakedObject:
            open("DetailActivity")
            back()
            let name = Self.package + ".DetailViewModel"
            reportLeak(fault, root: "System class",
                       nodes: [Self.node("\(Self.package).Repository", what: "class", leaking: "NO (a class is never leaking)", field: "static Repository.INSTANCE", suspect: false),
                               Self.node("\(Self.package).Repository", leaking: "NO (Repository↑ is not leaking)", field: "Repository.callbacks", suspect: true),
                               Self.node("java.util.ArrayList", leaking: "UNKNOWN", field: "ArrayList[0]", suspect: false),
                               Self.node("\(Self.package).DetailViewModel$callback$1", leaking: "UNKNOWN", field: "DetailViewModel$callback$1.this$0", suspect: true)],
                       leaking: name, reason: "ObjectWatcher was watching this because \(name) received ViewModel#onCleared() callback")
        case .retainedUnconfirmed:
            open("SettingsActivity")
            back()
            retainedCount(min(openWatches.count, 4))
            tick(1000, 3000)
            target(retainedCount(min(openWatches.count, 4)))
            let a = task.last!
            pause(a); stop(a, save: true)
            die(last: false)
            return true
        case .lifetimeLimit:
            // StrictMode counts the instances after its own GC: three DetailActivity alive, one allowed.
            open("DetailActivity")
            tick(300, 900)
            let name = Self.package + ".DetailActivity"
            let text = "class \(name); instances=3; limit=1\nandroid.os.StrictMode$InstanceCountViolation: class \(name); instances=3; limit=1\n"
                + "\tat android.os.StrictMode.trackActivity(StrictMode.java:2149)"
            target(emit("StrictMode", text, level: "E"))
            back()
        }
        return false
    }

    // MARK: rendering

    mutating func render() -> Output {
        var lines: [String] = []
        var firstLine: [Int] = []
        firstLine.reserveCapacity(records.count)
        for r in records {
            firstLine.append(lines.count)
            let messages = r.message.split(separator: "\n", omittingEmptySubsequences: false)
            if options.format == .long {
                // One header, the message's lines under it, a blank line after.
                lines.append("[ " + Self.clock(r.time) + " " + Self.pad(r.pid, 5) + ":" + Self.pad(r.tid, 5) + " " + String(r.level) + "/" + Self.padRight(r.tag, 8) + " ]")
                for m in messages { lines.append(String(m)) }
                lines.append("")
                continue
            }
            for m in messages { lines.append(Self.line(r, String(m), format: options.format)) }
        }
        var truth: [(rule: String, line: Int)] = []
        for e in expected {
            let header = options.format == .long ? 1 : 0
            truth.append((e.rule, firstLine[e.record] + header + e.subline + 1))
        }
        return Output(lines: lines, expected: truth, endTime: time, nextPID: pid)
    }

    /// `MM-DD HH:MM:SS.mmm` of `time` (UTC).
    static func clock(_ time: Double) -> String {
        let whole = Int(time)
        let millis = Int((time - Double(whole)) * 1000)
        let day = whole / 86_400 - 19_723  // days since 2024-01-01
        let (month, dayOfMonth) = monthDay(day)
        return pad(month, 2, "0") + "-" + pad(dayOfMonth, 2, "0") + " " + pad(whole / 3600 % 24, 2, "0") + ":" + pad(whole / 60 % 60, 2, "0") + ":"
            + pad(whole % 60, 2, "0") + "." + pad(millis, 3, "0")
    }

    static func monthDay(_ dayOfYear: Int) -> (Int, Int) {
        let lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var d = max(0, dayOfYear) % 366
        for (m, n) in lengths.enumerated() {
            if d < n { return (m + 1, d + 1) }
            d -= n
        }
        return (12, 31)
    }

    /// One line of `r`'s message in `format`.
    static func line(_ r: Record, _ m: String, format: Format) -> String {
        let level = String(r.level)
        switch format {
        case .threadtime: return clock(r.time) + " " + pad(r.pid, 5) + " " + pad(r.tid, 5) + " " + level + " " + r.tag + ": " + m
        case .time: return clock(r.time) + " " + level + "/" + r.tag + "(" + pad(r.pid, 5) + "): " + m
        case .brief: return level + "/" + r.tag + "(" + pad(r.pid, 5) + "): " + m
        case .process: return level + "(" + pad(r.pid, 5) + ") " + m + "  (" + r.tag + ")"
        case .tag: return level + "/" + r.tag + ": " + m
        case .thread: return level + "(" + pad(r.pid, 5) + ":" + pad(r.tid, 5) + ") " + m
        case .studio: return "2024-" + clock(r.time) + " " + String(r.pid) + "-" + String(r.tid) + "/" + r.process + " " + level + "/" + r.tag + ": " + m
        case .studioDolphin:
            return "2024-" + clock(r.time) + " " + padRight(String(r.pid) + "-" + String(r.tid), 11) + " " + padRight(r.tag, 23) + " "
                + padRight(r.process, 36) + " " + level + "  " + m
        case .long: return m  // rendered with its header by `render`
        }
    }

    static func pad(_ v: Int, _ width: Int, _ fill: Character = " ") -> String {
        let t = String(v)
        return t.count >= width ? t : String(repeating: fill, count: width - t.count) + t
    }

    static func padRight(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
