import VCLintCore

/// A deterministic simulator of an app's navigation that writes the console capture vclint reads:
/// push/pop, pop to root, full-screen present/dismiss, page sheets, tab switches, child
/// controllers, cancelled swipe-backs, memory warnings and relaunches, in any envelope and dialect,
/// with noise. Every flow it writes is legal; optionally one fault is injected and the finding it
/// must cause is returned as ground truth. Used by the property tests and `vclint-loggen`.
public struct NavigationSimulator {
    public enum Dialect: String, CaseIterable, Sendable {
        case objc, swift, described, named, methodClass = "method-class"
        /// The app's own words, in `Options.style` (lifecycle.md §1).
        case freeForm = "free-form"
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

        public var rule: String {
            switch self {
            case .leak: return "leaked_controller"
            case .missingDidDisappear: return "missing_did_disappear"
            case .missingDidAppear: return "missing_did_appear"
            case .eventAfterDealloc: return "event_after_dealloc"
            case .completionBeforeDisappearance: return "completion_before_disappearance"
            }
        }
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
        public var fault: Fault?
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
        public var text: String { lines.joined(separator: "\n") + "\n" }
    }

    // MARK: - Model

    final class Controller {
        let className: String
        let address: UInt64
        var loaded = false
        init(_ c: String, _ a: UInt64) { className = c; address = a }
    }

    enum Kind: Equatable {
        case initialize, viewDidLoad, willAppear, didAppear, willDisappear, didDisappear, layout
        case willMove(parent: Bool), didMove(parent: Bool), memoryWarning, willUnload, didUnload, dealloc
        case presentBegin, presentEnd, dismissBegin, dismissEnd
        case noise(String), dictionary
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
    }

    private var rng: SplitMix64
    private let options: Options
    private var records: [Record] = []
    private var time: Double
    private var pid: Int
    private var nextAddress: UInt64 = 0x7fa1_c8d0_0000
    private var freed: [UInt64] = []
    private var live: [ObjectIdentifier: Controller] = [:]
    private let logsInit: Bool
    /// Whether the app logs `X present begin/end`, `X dismiss begin/end` in its completion blocks.
    private let logsMarkers: Bool
    /// iOS < 6 in this session: a memory warning unloads hidden views, which load again later.
    private var unloadsViews = false
    /// How the `free-form` dialect prints (`Options.style`, or drawn from the seed).
    private let style: FreeFormStyle

    public static func generate(_ options: Options) -> Output {
        var sim = NavigationSimulator(options)
        return sim.run()
    }

    init(_ options: Options) {
        self.options = options
        self.time = options.startTime
        self.pid = options.firstPID
        self.rng = SplitMix64(seed: options.seed)
        let coin = rng.next() % 2 == 0
        self.logsInit = options.logsInit ?? coin
        let markers = rng.next() % 2 == 0
        self.logsMarkers = options.dialect == .named || markers
        var styleRNG = SplitMix64(seed: options.seed ^ 0x5EED_F00D)
        self.style = options.style ?? FreeFormStyle.random(&styleRNG)
    }

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

    private mutating func log(_ c: Controller?, _ kind: Kind, removedBy did: Int? = nil, own: Bool = false, quiet: Bool = false) {
        let step: Double = Double(pick(150)) / 1000
        // Controllers released together (a pop to root, a dismissed stack) deallocate within
        // milliseconds of each other, however deep the stack was.
        time += kind == .dealloc ? 0.001 + step / 50 : 0.005 + step
        var count = 0
        if let c { for other in live.values where other.className == c.className { count += 1 } }
        records.append(Record(controller: c, kind: kind, time: time, pid: pid, afterRemoval: did != nil,
                              removalDid: did, ownRemoval: own, liveOfClass: count))
        if kind == .dealloc, let c {
            live[ObjectIdentifier(c)] = nil
            freed.append(c.address)
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
        if chance(0.05), options.envelope != .bare, options.envelope != .ndjson {
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

    // MARK: - Navigation

    private mutating func session() {
        // Without init or addresses in the log, a new instance's viewDidLoad could be a hidden one's
        // view loading again: only unambiguous histories are simulated.
        unloadsViews = (logsInit || options.dialect == .described) && chance(0.3)
        let tabCount = [0, 2, 3][pick(3)]
        var stacks: [[Controller]]
        var current = 0
        if tabCount > 0 {
            stacks = (0..<tabCount).map { [make("Tab\($0)RootViewController")] }
        } else {
            stacks = [[make("RootViewController")]]
        }
        let first = stacks[0][0]
        load(first); log(first, .willAppear); log(first, .didAppear)
        var modals: [Controller] = []
        for _ in 0..<options.steps {
            let stack = stacks[current]
            let top = modals.last ?? stack.last!
            let r = Double(pick(1000)) / 1000
            if r < 0.22 && modals.isEmpty {
                let c = make(["DetailViewController", "ListViewController", "ItemViewController"][pick(3)])
                load(c); log(top, .willDisappear); log(c, .willAppear); dids(top, c)
                stacks[current].append(c)
            } else if r < 0.36 && stack.count > 1 && modals.isEmpty {
                let below = stack[stack.count - 2]
                load(below); log(top, .willDisappear); log(below, .willAppear)
                let did = dids(top, below)
                stacks[current].removeLast()
                log(top, .dealloc, removedBy: did, own: true)
            } else if r < 0.41 && stack.count > 2 && modals.isEmpty {
                let root = stack[0]
                load(root); log(top, .willDisappear); log(root, .willAppear)
                let did = dids(top, root)
                let gone = stack.dropFirst()
                stacks[current] = [root]
                for g in gone.reversed() { log(g, .dealloc, removedBy: did, own: g === top, quiet: g !== gone.first) }
            } else if r < 0.48 && stack.count > 1 && modals.isEmpty {
                // Interactive pop, cancelled (seed 002).
                let below = stack[stack.count - 2]
                load(below); log(top, .willDisappear); log(below, .willAppear)
                log(below, .willDisappear); log(below, .didDisappear)
                log(top, .willAppear); log(top, .didAppear)
            } else if r < 0.56 {
                let c = make(["ModalViewController", "ComposeViewController"][pick(2)])
                if logsMarkers { log(top, .presentBegin) }
                load(c); log(top, .willDisappear); log(c, .willAppear); dids(top, c)
                if logsMarkers { log(top, .presentEnd) }
                modals.append(c)
            } else if r < 0.60 && modals.count > 1 {
                // Recursive dismiss to the stack (seed 000): the modals in the middle get no callbacks
                // and go together with the top one.
                let base = stack.last!
                load(base); log(top, .willDisappear); log(base, .willAppear)
                let did = dids(top, base)
                for g in modals.reversed() { log(g, .dealloc, removedBy: did, own: g === top, quiet: g !== modals.first) }
                modals.removeAll()
            } else if r < 0.66 && !modals.isEmpty {
                let m = modals.removeLast()
                let below = modals.last ?? stack.last!
                if logsMarkers { log(m, .dismissBegin) }
                load(below); log(m, .willDisappear); log(below, .willAppear)
                let did = dids(m, below)
                if logsMarkers { log(m, .dismissEnd) }
                log(m, .dealloc, removedBy: did, own: true)
            } else if r < 0.72 {
                // iOS 13 page sheet: the presenter gets no callbacks.
                let s = make("SheetViewController")
                load(s); log(s, .willAppear); log(s, .didAppear)
                log(s, .willDisappear); log(s, .didDisappear); log(s, .dealloc)
            } else if r < 0.82 && tabCount > 0 && modals.isEmpty {
                // UITabBarController: the new tab's controller is announced first.
                let next = (current + 1 + pick(tabCount - 1)) % tabCount
                let arriving = stacks[next].last!
                load(arriving); log(arriving, .willAppear); log(top, .willDisappear); log(top, .didDisappear); log(arriving, .didAppear)
                current = next
            } else if r < 1 - options.memoryWarningRate {
                let child = make("ChildViewController")
                log(child, .willMove(parent: true)); load(child); log(child, .willAppear); log(child, .didAppear)
                log(child, .didMove(parent: true))
                log(child, .willMove(parent: false)); log(child, .willDisappear); log(child, .didDisappear)
                log(child, .didMove(parent: false)); log(child, .dealloc)
            } else {
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
        }
        time += 10
        records.append(Record(controller: nil, kind: .noise("[Sync] finished"), time: time, pid: pid))
    }

    mutating func run() -> Output {
        let sessions = options.envelope == .bare ? 1 : options.sessions
        for _ in 0..<sessions {
            session()
            pid += 1
            time += 120
            live.removeAll()
        }
        let target = options.fault.flatMap { inject($0) }
        return render(target: target)
    }

    // MARK: - Faults

    /// Applies the fault; returns the index of the record the finding points at (after the change).
    private mutating func inject(_ fault: Fault) -> Int? {
        func last(_ c: Controller, _ kind: Kind, before i: Int) -> Int? {
            var j = i - 1
            while j >= 0 {
                if records[j].controller === c, records[j].kind == kind { return j }
                j -= 1
            }
            return nil
        }
        // Only controllers that are the sole live instance of their class, so that the fault is
        // unambiguous without addresses.
        switch fault {
        case .leak:
            // Not at an address that a later controller reuses: that would prove it was freed.
            let candidates = records.indices.filter { i in isLeakCandidate(i) }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let anchor = records[i].removalDid!
            records.remove(at: i)
            return anchor
        case .missingDidDisappear:
            let candidates = records.indices.filter { i in
                records[i].kind == .dealloc && records[i].ownRemoval && records[i].liveOfClass == 1
            }
            guard !candidates.isEmpty else { return nil }
            let i = candidates[pick(candidates.count)]
            let c = records[i].controller!
            let did = records[i].removalDid!
            guard let will = last(c, .willDisappear, before: did) else { return nil }
            records.remove(at: did)
            return will
        case .missingDidAppear:
            let candidates = records.indices.filter { i in
                records[i].kind == .dealloc && records[i].ownRemoval && records[i].liveOfClass == 1
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
        }
    }

    private func isLeakCandidate(_ i: Int) -> Bool {
        let r = records[i]
        guard r.kind == .dealloc, r.removalDid != nil, r.liveOfClass == 1, let c = r.controller else { return false }
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
            default: message = Self.message(r.controller!, r.kind, dialect: options.dialect, style: style)
            }
            if i == target, let fault = options.fault { expected.append((fault.rule, lines.count + 1)) }
            lines.append(Self.envelope(message, time: r.time, pid: r.pid, format: options.envelope))
            if r.kind == .dictionary {
                lines.append("    items = 12;")
                lines.append("    state = viewDidAppear;")
                lines.append("}")
            }
        }
        return Output(lines: lines, expected: expected, endTime: time, nextPID: pid, logsInit: logsInit)
    }

    static func message(_ c: Controller, _ kind: Kind, dialect: Dialect, style: FreeFormStyle = FreeFormStyle()) -> String {
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
        case .willMove(let p): name = "willMove"; arg = p ? "<ContainerViewController: 0x600003d0c000>" : "nil"
        case .didMove(let p): name = "didMove"; arg = p ? "<ContainerViewController: 0x600003d0c000>" : "nil"
        case .memoryWarning: name = "didReceiveMemoryWarning"
        case .willUnload: name = "viewWillUnload"
        case .didUnload: name = "viewDidUnload"
        case .presentBegin: return c.className + " present begin"
        case .presentEnd: return c.className + " present end"
        case .dismissBegin: return c.className + " dismiss begin"
        case .dismissEnd: return c.className + " dismiss end"
        case .dealloc: name = "dealloc"
        case .noise, .dictionary: name = ""
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
            let parent: String? = (name == "willMove" || name == "didMove") ? arg : nil
            let spelled = style.callback(name == "init" ? "init" : name, selector: selector, swift: swiftName)
            return style.statement(c.className, callback: spelled, argument: appear ? style.argument : "", parent: parent)
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
        }
    }

    /// A JSON string literal, as `log stream --style ndjson` escapes its messages.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

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
