import VCLintCore
import VCLintSimulation

// vclint-accuracy --platform android [--seeds N] [--first-seed N] [--jobs N] [--scenario NAME…] [--format NAME…] [--show N]:
// every seed × logcat format × scenario (fault-free; fault-free with LeakCanary's watches, counts and analyses;
// each Android fault of `AndroidSimulator.Fault`), linted in process and scored as iOS's captures are. Every rule's
// target is precision 99 %, recall 98 %.

struct AndroidScenario: Sendable {
    var name: String
    var leakCanary: Bool
    var fault: AndroidSimulator.Fault?
}

struct AndroidCase: AccuracyCase {
    var scenario: Int
    var options: AndroidSimulator.Options

    var reproduce: String {
        var s = "vclint-loggen --platform android --seed \(options.seed) --envelope \(options.format.rawValue)"
        if options.leakCanary { s += " --leakcanary" }
        if let f = options.fault { s += " --fault \(f.rawValue)" }
        return s
    }
}

func androidAccuracy(_ arguments: [String]) -> Never {
    let scenarios = [AndroidScenario(name: "legal", leakCanary: false, fault: nil), AndroidScenario(name: "legal/leakcanary", leakCanary: true, fault: nil)]
        + AndroidSimulator.Fault.allCases.map { AndroidScenario(name: "fault/\($0.rawValue)", leakCanary: false, fault: $0) }
    var seedCount = 10, firstSeed = 1, jobs = 2, show = 0
    var only: Set<String> = []
    var formats = AndroidSimulator.Format.allCases
    var args = arguments[...]
    while let flag = args.popFirst() {
        guard let value = args.popFirst() else { fail("\(flag) needs a value") }
        switch flag {
        case "--seeds": seedCount = max(1, number(value))
        case "--first-seed": firstSeed = max(1, number(value))
        case "--jobs": jobs = max(1, number(value))
        case "--show": show = number(value)
        case "--scenario":
            guard scenarios.contains(where: { $0.name == value }) else { fail("unknown scenario \(value) (\(scenarios.map(\.name).joined(separator: ", ")))") }
            only.insert(value)
        case "--format":
            guard let f = AndroidSimulator.Format(rawValue: value) else { fail("unknown format \(value)") }
            formats = formats == AndroidSimulator.Format.allCases ? [f] : formats + [f]
        default: fail("unknown option \(flag) (with --platform android: --seeds, --first-seed, --jobs, --show, --scenario, --format)")
        }
    }
    var cases: [AndroidCase] = []
    for (k, scenario) in scenarios.enumerated() where only.isEmpty || only.contains(scenario.name) {
        for seed in firstSeed..<(firstSeed + seedCount) {
            for (f, format) in formats.enumerated() {
                // Different histories per format, the same for every scenario.
                var o = AndroidSimulator.Options(seed: UInt64(seed) &* 1_000 &+ UInt64(f))
                o.format = format
                o.leakCanary = scenario.leakCanary
                o.fault = scenario.fault
                cases.append(AndroidCase(scenario: k, options: o))
            }
        }
    }
    let perScenario = runAll(cases, scenarios: scenarios.count, jobs: jobs) { [show] c in
        var t = Tally()
        let out = AndroidSimulator.generate(c.options)
        let result = Linter().lint(bytes: Array(out.text.utf8), path: "sim.log")
        t.runs = 1
        if !out.expected.isEmpty { t.injected = 1 }
        t.score(expected: out.expected, findings: result.findings, show: show) { c.reproduce }
        return t
    }
    var total = Tally()
    for t in perScenario { total.merge(t) }
    var text = "vclint accuracy on simulated Android captures: \(seedLabel(seedCount, from: firstSeed)) × \(formats.count) logcat formats × "
    text += "\(only.isEmpty ? scenarios.count : only.count) scenarios = \(total.runs) captures, \(total.injected) with a fault\n\n"
    text += ruleTable(total) { _ in (0.99, 0.98) }
    text += scenarioTable(scenarios.enumerated().filter { only.isEmpty || only.contains($0.element.name) }.map { ($0.element.name, $0.element.fault != nil, perScenario[$0.offset]) }, show: show)
    writeOut(text)
    exit(0)
}
