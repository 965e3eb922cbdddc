import Testing
@testable import VCLintCore
import VCLintSimulation

/// Memory follows the live controllers (docs/performance.md#memory). A removed, address-less controller
/// that no event can reach any more (older than its class's routing windows) is evicted, its leak kept as
/// an encoded observation that the session's end words. Eviction must not change a single finding: each
/// capture is linted with eviction as soon as a class has a handful of instances, and without.
@Suite struct EvictionTests {
    static func findings(_ text: String, evictionFloor: Int, live: Bool = false) -> [String] {
        var options = LintOptions()
        options.timeline.evictionFloor = evictionFloor
        options.timeline.live = live
        let result = Linter(options: options).lint(bytes: Array(text.utf8), path: "x.log")
        return result.findings.map { "\($0.line) \($0.rule) \($0.severity.rawValue) \($0.controller.instance): \($0.message)" }
    }

    /// `n` present/dismiss cycles (or sheets closed over a visible root) of an address-less
    /// controller whose dealloc is never logged, in a dialect that logs dealloc elsewhere.
    /// With `addressed`, each modal has an address of its own (`<ModalViewController: 0x…>`), and
    /// `then` adds lines after the cycles (given the modals' addresses and a line writer).
    static func cycles(_ n: Int, sheets: Bool, deallocLogged: Bool = true, gapEvery: Int = 0, addressed: Bool = false,
                       then: ((_ address: (Int) -> String, _ line: (String) -> Void, _ wait: (Int) -> Void) -> Void)? = nil) -> String {
        var out = ""
        var ms = 0
        func line(_ m: String) {
            ms += 7
            out += "2024-03-01 10:\(String(format: "%02d:%02d.%03d", ms / 60000 % 60, ms / 1000 % 60, ms % 1000)) Shop[100:200] \(m)\n"
        }
        func modal(_ k: Int) -> String { "<ModalViewController: 0x\(String(0x6000_0001_0000 + 16 * k, radix: 16))>" }
        func say(_ k: Int, _ cb: String) { line(addressed ? "\(modal(k)) \(cb)" : "-[ModalViewController \(cb)]") }
        for cb in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:"] { line("-[HomeViewController \(cb)]") }
        if deallocLogged { line("-[SplashViewController dealloc]") }
        for k in 0..<n {
            say(k, "viewDidLoad")
            if !sheets { line("-[HomeViewController viewWillDisappear:]") }
            say(k, "viewWillAppear:")
            if !sheets { line("-[HomeViewController viewDidDisappear:]") }
            say(k, "viewDidAppear:")
            say(k, "viewWillDisappear:")
            if !sheets { line("-[HomeViewController viewWillAppear:]") }
            say(k, "viewDidDisappear:")
            if !sheets { line("-[HomeViewController viewDidAppear:]") }
            if gapEvery > 0, k % gapEvery == 0 { ms += 5000 }  // some leaks confirmed, others not
        }
        then?(modal, line, { ms += $0 })
        return out
    }

    @Test(arguments: [false, true])
    func evictedLeaksAreTheLeaksOfTheLiveOnes(sheets: Bool) {
        let text = Self.cycles(700, sheets: sheets, gapEvery: 97)
        let evicting = Self.findings(text, evictionFloor: 4)
        #expect(evicting == Self.findings(text, evictionFloor: .max))
        // Every modal leaked, each at its own viewDidDisappear, named by its own generation.
        let leaks = evicting.filter { $0.contains(" leaked_controller ") }
        #expect(leaks.count == 700)
        #expect(Set(leaks.map { $0.split(separator: " ")[3] }).count == 700)
    }

    @Test func withoutDeallocNothingIsReportedAndNothingIsKeptButTheWindow() {
        let text = Self.cycles(700, sheets: false, deallocLogged: false)
        #expect(Self.findings(text, evictionFloor: 4) == Self.findings(text, evictionFloor: .max))
        #expect(Self.findings(text, evictionFloor: 4).isEmpty)
    }

    @Test func liveModeEvictsOnlyReportedLeaks() {
        let text = Self.cycles(300, sheets: true, gapEvery: 10)
        #expect(Self.findings(text, evictionFloor: 4, live: true) == Self.findings(text, evictionFloor: .max, live: true))
    }

    /// A removed controller with an address is evicted too: its address brings it back when it is
    /// heard from again, and the findings are those of a run that keeps every controller.
    @Test(arguments: [false, true])
    func evictedControllersWithAnAddressComeBackByIt(live: Bool) {
        let text = Self.cycles(700, sheets: false, gapEvery: 97, addressed: true) { modal, line, wait in
            line("\(modal(3)) dealloc")                       // late: a late_dealloc, not a leak
            line("\(modal(5)) viewWillAppear:")               // presented again: not removed after all
            line("\(modal(5)) viewDidAppear:")
            line("<OtherViewController: \(modal(7).split(separator: " ")[1]) viewDidLoad")  // another object at its address
            line("\(modal(9)) viewDidLoad")                   // a view loaded again
            line("\(modal(9)) viewWillDisappear:")            // a will in the state it was left in
            wait(1_000)
            line("\(modal(699)) dealloc")                     // within the grace: nothing
            line("\(modal(11)) dealloc")
        }
        let evicting = Self.findings(text, evictionFloor: 4, live: live)
        #expect(evicting == Self.findings(text, evictionFloor: .max, live: live))
        // Live mode prints a leak as soon as its grace passes; the late dealloc, the reappearance and
        // the other object at its address resolve it, so the result is the batch run's.
        #expect(evicting.contains { $0.contains("late_dealloc") && $0.contains("ModalViewController#4:") })
        #expect(!evicting.contains { $0.contains("leaked_controller") && $0.contains("ModalViewController#6:") })
        #expect(evicting.contains { $0.contains("duplicate_view_did_load") && $0.contains("(first at line 86)") })
        #expect(evicting.filter { $0.contains(" leaked_controller ") }.count == 695)
        if live { #expect(evicting == Self.findings(text, evictionFloor: .max, live: false)) }
    }

    @Test func evictedControllersWithAnAddressCostNoInstance() throws {
        var options = TimelineOptions()
        options.evictionFloor = 4
        let builder = TimelineBuilder(options: options)
        let scanner = LogScanner(sink: EventStage(builder: builder, customDialects: []))
        Array(Self.cycles(500, sheets: true, addressed: true).utf8).withUnsafeBytes { scanner.consume($0) }
        let session = try #require(builder.openSessions.first)
        #expect(session.existingClass("ModalViewController")!.live.count <= 2 * SessionTimeline.routingWindow)
        #expect(session.identity.evicted.count >= 500 - 2 * SessionTimeline.routingWindow)
        _ = scanner.finish()
    }

    /// A live controller or object is one allocation of 168 bytes (docs/performance.md#memory):
    /// malloc serves it in 176, where 8 bytes more would take 192.
    @Test func anInstanceIsOneSmallAllocation() {
        #if os(Linux)
        let inst = Instance(serial: 1, entry: Instrumentation.ClassEntry(name: "HomeViewController", dialect: .objcFunction),
                            address: 0x1000, generation: 1, dialect: .objcFunction, line: 1)
        let bytes = withExtendedLifetime(inst) { mallocUsableSize(Unmanaged.passUnretained(inst).toOpaque()) }
        #expect(bytes <= 168, "an Instance takes \(bytes) bytes")
        #endif
    }

    /// Simulated apps of every family, long enough that classes outgrow their routing windows.
    @Test(arguments: NavigationSimulator.Family.allCases)
    func simulatedFindingsDoNotDependOnEviction(_ family: NavigationSimulator.Family) {
        for seed in UInt64(1)...6 {
            var o = NavigationSimulator.Options(seed: seed)
            o.families = [family]
            o.steps = 400
            o.sessions = 1
            o.logsDealloc = seed % 2 == 0
            o.fault = seed == 3 ? NavigationSimulator.Fault.allCases.first { $0.family == family } : nil
            let text = NavigationSimulator.generate(o).text
            #expect(Self.findings(text, evictionFloor: 2) == Self.findings(text, evictionFloor: .max), "seed \(seed)")
        }
    }
}

#if os(Linux)
/// glibc's (and the sanitizers'): the bytes an allocation can hold.
@_silgen_name("malloc_usable_size") private func mallocUsableSize(_ p: UnsafeMutableRawPointer?) -> Int
#endif
