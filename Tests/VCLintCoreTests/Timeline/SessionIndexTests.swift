import Testing
@testable import VCLintCore

/// The builder's session indexes (`TimelineBuilder.setCurrent`): after every event of random logcat traffic (many pids
/// of a few processes, process deaths, relaunches of a name with another pid, the system's lines naming a package,
/// iOS lines beside them), the indexes say what a walk over the open sessions says.
@Suite struct SessionIndexTests {
    @Test func indexesFollowEverySessionChange() {
        for seed in 1...12 {
            var rng = SplitMix(seed: UInt64(seed))
            func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
            let builder = TimelineBuilder()
            let processes = ["", "com.example.app", "com.example.app:remote", "com.other"]
            let kinds: [EventKind] = [.onCreate, .onStart, .onResume, .onPause, .onStop, .onDestroy]
            for step in 0..<600 {
                let pid = 100 + pick(40)
                switch pick(10) {
                case 0:
                    builder.handle(Event(kind: .processDied, className: "", address: UInt64(pid), dialect: .logcat), process: nil, pid: nil)
                case 1:
                    let package = processes[1 + pick(3)]
                    let line = AndroidEvidence.displayed(className: "MainActivity", package: package, milliseconds: 10)
                    builder.evidence(.line(line, line: step), process: processes[pick(4)], pid: pid, time: nil)
                case 2:
                    // An iOS line: its session is keyed by process alone, and a new pid relaunches it.
                    builder.handle(Event(kind: .viewDidLoad, className: "HomeViewController", dialect: .uikit), process: "Shop", pid: pid)
                case 3:
                    // A sample line of another pid ends the process's session.
                    builder.observe(process: "Shop", pid: pid, time: nil)
                default:
                    builder.handle(Event(kind: kinds[pick(kinds.count)], className: "MainActivity", dialect: .logcat),
                                   process: processes[pick(4)], pid: pid)
                }
                #expect(builder.indexesAgree, "seed \(seed), step \(step)")
                if !builder.indexesAgree { break }
            }
            _ = builder.finish()
            #expect(builder.indexesAgree)
        }
    }
}
