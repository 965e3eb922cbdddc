import Dispatch
import VCLintCore
import VCLintSimulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// vclint-accuracy: how often vclint's findings are the simulator's ground truth. Every seed × envelope ×
// dialect (free-form included) is simulated fault-free (classic flows, then each of the simulator's flow
// families alone: the flows vclint once misread, `NavigationSimulator.Family`) and with each fault kind,
// linted in-process, and the findings compared with the expected ones:
//   TP: an expected finding reported on its line (same rule)
//   FP: a finding at severity warning or error that no fault predicts (memory_warning infos aside)
//   FN: an expected finding not reported
// It prints precision and recall per rule and in total, then the same counts per scenario.
// --objects runs the same scenarios in apps whose screens own objects (`NavigationSimulator.Options.objects`:
// view models, VIPER modules, coordinators, helpers, services), plus the objects' faults (leaked-object,
// late-object-release), and says which rules miss their targets. A rule it has never seen is counted like
// any other: its false findings, or its expected findings missed (recall 0).
//   vclint-accuracy [--objects] [--seeds N] [--first-seed N] [--jobs N] [--scenario NAME…] [--dialect NAME…] [--variant NAME…] [--show N]
// --show N prints the first N mismatching captures per scenario with the vclint-loggen command that
// rebuilds them. Run it through Benchmarks/accuracy.sh (release build).
// --platform android scores Android captures instead (AndroidAccuracy.swift): every seed × logcat format ×
// scenario (fault-free, with LeakCanary, each Android fault).

func fail(_ message: String) -> Never {
    var m = "vclint-accuracy: error: \(message)\n"
    m.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func number(_ s: String) -> Int {
    guard let n = Int(s) else { fail("bad number \(s)") }
    return n
}

typealias Family = NavigationSimulator.Family
typealias Fault = NavigationSimulator.Fault

struct Scenario: Sendable {
    var name: String
    var families: Set<Family>
    var fault: Fault?
}

/// The options after the program's name, `--platform` taken out.
var arguments = Array(CommandLine.arguments.dropFirst())
if let k = arguments.firstIndex(of: "--platform") {
    guard k + 1 < arguments.count, ["ios", "android"].contains(arguments[k + 1]) else { fail("--platform is ios or android") }
    let platform = arguments[k + 1]
    arguments.removeSubrange(k...(k + 1))
    if platform == "android" { androidAccuracy(arguments) }
}

let objects = arguments.contains("--objects")
let scenarios: [Scenario] = [Scenario(name: "legal", families: [], fault: nil)]
    + Family.allCases.map { Scenario(name: "legal/\($0.rawValue)", families: [$0], fault: nil) }
    + Fault.allCases.filter { objects || !$0.needsObjects }.map { Scenario(name: "fault/\($0.rawValue)", families: [], fault: $0) }

var seedCount = 10
/// The first seed of the run (`--first-seed`, 1 by default): a sweep past the usual seeds need not run them again.
var firstSeed = 1
var jobs = 2
var only: Set<String> = []
var show = 0
var dialects = NavigationSimulator.Dialect.allCases
/// Free-form captures are also printed in each variant of their drawn style: callbacks spelled `Init`/`Deinit`,
/// one-letter labels, titles of two words before or after the callback, and labels redacted by the unified
/// log (`<private>`). A redacted capture names no controller: its ground truth is one `redacted_labels`
/// finding at its first statement and nothing else, so it runs in the legal scenarios only. (Declared
/// before the options are read: a global of this file is set where its line runs.)
var variants = FreeFormStyle.Variant.allCases
var args = arguments[...]
while let flag = args.popFirst() {
    if flag == "--objects" { continue }
    guard let value = args.popFirst() else { fail("\(flag) needs a value") }
    switch flag {
    case "--seeds": seedCount = max(1, number(value))
    case "--first-seed": firstSeed = max(1, number(value))
    case "--jobs": jobs = max(1, number(value))
    case "--scenario":
        guard scenarios.contains(where: { $0.name == value }) else { fail("unknown scenario \(value) (\(scenarios.map(\.name).joined(separator: ", ")))") }
        only.insert(value)
    case "--show": show = number(value)
    case "--dialect":
        guard let d = NavigationSimulator.Dialect(rawValue: value) else { fail("unknown dialect \(value)") }
        dialects = dialects == NavigationSimulator.Dialect.allCases ? [d] : dialects + [d]
    case "--variant":
        guard let v = FreeFormStyle.Variant(rawValue: value) else { fail("unknown variant \(value) (\(FreeFormStyle.Variant.allCases.map(\.rawValue).joined(separator: ", ")))") }
        variants = variants == FreeFormStyle.Variant.allCases ? [v] : variants + [v]
    default: fail("unknown option \(flag)")
    }
}

struct Case: AccuracyCase {
    var scenario: Int
    var options: NavigationSimulator.Options
    /// The free-form variant (`FreeFormStyle.Variant`) of the style drawn from the seed.
    var variant: FreeFormStyle.Variant = .drawn
}


let envelopes = EnvelopeFormat.apple
var cases: [Case] = []
for (k, scenario) in scenarios.enumerated() where only.isEmpty || only.contains(scenario.name) {
    for seed in firstSeed..<(firstSeed + seedCount) {
        for (e, envelope) in envelopes.enumerated() {
            for (d, dialect) in dialects.enumerated() {
                // Different histories per envelope and dialect, the same for every scenario.
                var o = NavigationSimulator.Options(seed: UInt64(seed) &* 1_000 &+ UInt64(e * 10 + d))
                o.envelope = envelope
                o.dialect = dialect
                o.families = scenario.families
                o.fault = scenario.fault
                o.objects = objects
                guard dialect == .freeForm else {
                    cases.append(Case(scenario: k, options: o))
                    continue
                }
                var styleRNG = SplitMix64(seed: o.seed ^ 0x5EED_F00D)
                let drawn = FreeFormStyle.random(&styleRNG)
                for v in variants where v != .redacted || scenario.fault == nil {
                    o.style = v == .drawn ? nil : v.apply(to: drawn)
                    cases.append(Case(scenario: k, options: o, variant: v))
                }
            }
        }
    }
}

func reproduce(_ c: Case) -> String {
    let o = c.options
    var s = "vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --dialect \(o.dialect.rawValue)"
    if c.variant != .drawn { s += " --free-form-style \(c.variant.rawValue)" }
    if !o.families.isEmpty { s += " --families " + o.families.sorted().map(\.rawValue).joined(separator: ",") }
    if o.objects { s += " --objects" }
    if let f = o.fault { s += " --fault \(f.rawValue)" }
    return s
}

func evaluate(_ c: Case, show: Int) -> Tally {
    var t = Tally()
    var out = NavigationSimulator.generate(c.options)
    if c.variant == .redacted {
        // Nothing names a controller: the capture's one finding is that.
        let first = out.lines.firstIndex { $0.contains("<private>") }
        out.expected = first.map { [("redacted_labels", $0 + 1)] } ?? []
    }
    let result = Linter().lint(bytes: Array(out.text.utf8), path: "sim.log")
    t.runs = 1
    if !out.expected.isEmpty { t.injected = 1 }
    if c.options.fault != nil, out.expected.isEmpty { return t }  // nowhere to inject it in this history
    t.score(expected: out.expected, findings: result.findings, show: show) { reproduce(c) }
    return t
}

let perScenario = runAll(cases, scenarios: scenarios.count, jobs: jobs) { [show] in evaluate($0, show: show) }

var text = ""
var total = Tally()
for t in perScenario { total.merge(t) }
text += "vclint accuracy on simulated captures\(objects ? " of apps with objects" : ""): \(seedLabel(seedCount, from: firstSeed)) × \(envelopes.count) envelopes × \(dialects.count) dialects × "
text += "\(only.isEmpty ? scenarios.count : only.count) scenarios (free-form in \(variants.count) style variants: \(variants.map(\.rawValue).joined(separator: ", "))) = \(total.runs) captures, \(total.injected) with a fault\n\n"
/// The targets: the objects' rules (the simulator's late_dealloc is an object's) precision 98 %, recall 95 %;
/// every other rule 99 % and 98 %. A rule with no expected finding has no recall to miss.
text += ruleTable(total) { $0 == "leaked_object" || $0 == "late_dealloc" ? (0.98, 0.95) : (0.99, 0.98) }
text += scenarioTable(scenarios.enumerated().filter { only.isEmpty || only.contains($0.element.name) }.map { ($0.element.name, $0.element.fault != nil, perScenario[$0.offset]) }, show: show)
writeOut(text)
