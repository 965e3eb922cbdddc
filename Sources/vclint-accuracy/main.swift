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
//   vclint-accuracy [--objects] [--seeds N] [--jobs N] [--scenario NAME…] [--dialect NAME…] [--variant NAME…] [--show N]
// --show N prints the first N mismatching captures per scenario with the vclint-loggen command that
// rebuilds them. Run it through Benchmarks/accuracy.sh (release build).

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

let objects = CommandLine.arguments.dropFirst().contains("--objects")
let scenarios: [Scenario] = [Scenario(name: "legal", families: [], fault: nil)]
    + Family.allCases.map { Scenario(name: "legal/\($0.rawValue)", families: [$0], fault: nil) }
    + Fault.allCases.filter { objects || !$0.needsObjects }.map { Scenario(name: "fault/\($0.rawValue)", families: [], fault: $0) }

var seedCount = 10
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
var args = CommandLine.arguments.dropFirst()
while let flag = args.popFirst() {
    if flag == "--objects" { continue }
    guard let value = args.popFirst() else { fail("\(flag) needs a value") }
    switch flag {
    case "--seeds": seedCount = max(1, number(value))
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

struct Counts: Sendable {
    var tp = 0, fp = 0, fn = 0
    static func + (a: Counts, b: Counts) -> Counts { Counts(tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn) }
}

/// One scenario's tally.
struct Tally: Sendable {
    var runs = 0
    var injected = 0
    var exact = 0
    var byRule: [String: Counts] = [:]
    var shown: [String] = []

    mutating func merge(_ o: Tally) {
        runs += o.runs
        injected += o.injected
        exact += o.exact
        for (r, c) in o.byRule { byRule[r, default: Counts()] = byRule[r, default: Counts()] + c }
        shown += o.shown
    }
}

struct Case: Sendable {
    var scenario: Int
    var options: NavigationSimulator.Options
    /// The free-form variant (`FreeFormStyle.Variant`) of the style drawn from the seed.
    var variant: FreeFormStyle.Variant = .drawn
}


let envelopes = EnvelopeFormat.apple
var cases: [Case] = []
for (k, scenario) in scenarios.enumerated() where only.isEmpty || only.contains(scenario.name) {
    for seed in 1...max(1, seedCount) {
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
    var expected = out.expected.map { "\($0.rule)@\($0.line)" }
    var unexpected: [String] = []
    for f in result.findings {
        let key = "\(f.rule)@\(f.line)"
        if let k = expected.firstIndex(of: key) {
            expected.remove(at: k)
            t.byRule[f.rule, default: Counts()].tp += 1
        } else if f.severity >= .warning {
            t.byRule[f.rule, default: Counts()].fp += 1
            unexpected.append(key)
        }
    }
    for key in expected {
        let rule = String(key[..<key.firstIndex(of: "@")!])
        t.byRule[rule, default: Counts()].fn += 1
    }
    if expected.isEmpty && unexpected.isEmpty {
        t.exact = 1
    } else if show > 0 {
        t.shown.append("  \(reproduce(c)): missed \(expected), unexpected \(unexpected)")
    }
    return t
}

/// The tallies of the jobs, merged under a queue.
final class Results: @unchecked Sendable {
    private let queue = DispatchQueue(label: "vclint-accuracy.results")
    private var tallies: [Tally]
    init(count: Int) { tallies = [Tally](repeating: Tally(), count: count) }
    func add(_ mine: [Tally]) { queue.sync { for (k, t) in mine.enumerated() { tallies[k].merge(t) } } }
    var all: [Tally] { queue.sync { tallies } }
}

// Cases are split in interleaved slices, one per job.
func runAll(_ cases: [Case], jobs: Int, show: Int) -> [Tally] {
    let slices = min(jobs, max(1, cases.count))
    let results = Results(count: scenarios.count)
    DispatchQueue.concurrentPerform(iterations: slices) { j in
        var mine = [Tally](repeating: Tally(), count: scenarios.count)
        var k = j
        while k < cases.count {
            mine[cases[k].scenario].merge(evaluate(cases[k], show: show))
            k += slices
        }
        results.add(mine)
    }
    return results.all
}
let perScenario = runAll(cases, jobs: jobs, show: show)

func pct(_ a: Int, _ b: Int) -> String {
    guard b > 0 else { return "    –" }
    let v = Double(a) / Double(b) * 100
    let t = String(Int((v * 10).rounded()))
    let whole = t.dropLast(), frac = t.suffix(1)
    let s = (whole.isEmpty ? "0" : String(whole)) + "." + frac
    return String(repeating: " ", count: max(0, 5 - s.count)) + s
}

func column(_ s: String, _ width: Int, left: Bool = false) -> String {
    let pad = String(repeating: " ", count: max(0, width - s.count))
    return left ? s + pad : pad + s
}

var text = ""
var total = Tally()
for t in perScenario { total.merge(t) }
text += "vclint accuracy on simulated captures\(objects ? " of apps with objects" : ""): \(seedCount) seeds × \(envelopes.count) envelopes × \(dialects.count) dialects × "
text += "\(only.isEmpty ? scenarios.count : only.count) scenarios (free-form in \(variants.count) style variants: \(variants.map(\.rawValue).joined(separator: ", "))) = \(total.runs) captures, \(total.injected) with a fault\n\n"
text += column("rule", 32, left: true) + column("TP", 7) + column("FP", 7) + column("FN", 7) + column("precision %", 13) + column("recall %", 10) + "\n"
var sum = Counts()
for rule in total.byRule.keys.sorted() {
    let c = total.byRule[rule]!
    if c.tp + c.fp + c.fn == 0 { continue }
    sum = sum + c
    text += column(rule, 32, left: true) + column("\(c.tp)", 7) + column("\(c.fp)", 7) + column("\(c.fn)", 7)
        + column(pct(c.tp, c.tp + c.fp), 13) + column(pct(c.tp, c.tp + c.fn), 10) + "\n"
}
text += column("total", 32, left: true) + column("\(sum.tp)", 7) + column("\(sum.fp)", 7) + column("\(sum.fn)", 7)
    + column(pct(sum.tp, sum.tp + sum.fp), 13) + column(pct(sum.tp, sum.tp + sum.fn), 10) + "\n\n"

/// The targets: the objects' rules (the simulator's late_dealloc is an object's) precision 98 %, recall 95 %;
/// every other rule 99 % and 98 %. A rule with no expected finding has no recall to miss.
func target(_ rule: String) -> (precision: Double, recall: Double) {
    rule == "leaked_object" || rule == "late_dealloc" ? (0.98, 0.95) : (0.99, 0.98)
}
var below: [String] = []
for rule in total.byRule.keys.sorted() {
    let c = total.byRule[rule]!, t = target(rule)
    let precision = c.tp + c.fp == 0 ? 1 : Double(c.tp) / Double(c.tp + c.fp)
    let recall = c.tp + c.fn == 0 ? 1 : Double(c.tp) / Double(c.tp + c.fn)
    if precision < t.precision || recall < t.recall { below.append("\(rule) (target: precision \(Int(t.precision * 100)) %, recall \(Int(t.recall * 100)) %)") }
}
text += below.isEmpty ? "every rule meets its target\n\n" : "below target: " + below.joined(separator: ", ") + "\n\n"

text += column("scenario", 40, left: true) + column("runs", 6) + column("faults", 8) + column("exact", 7)
    + column("TP", 6) + column("FP", 6) + column("FN", 6) + "  false findings (rule: count)\n"
for (k, s) in scenarios.enumerated() where only.isEmpty || only.contains(s.name) {
    let t = perScenario[k]
    var c = Counts()
    for v in t.byRule.values { c = c + v }
    let fps = t.byRule.filter { $0.value.fp > 0 }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.fp)" }.joined(separator: ", ")
    text += column(s.name, 40, left: true) + column("\(t.runs)", 6) + column(s.fault == nil ? "–" : "\(t.injected)", 8)
        + column("\(t.exact)", 7) + column("\(c.tp)", 6) + column("\(c.fp)", 6) + column("\(c.fn)", 6) + "  " + fps + "\n"
    if show > 0 {
        for line in t.shown.prefix(show) { text += line + "\n" }
    }
}
text += "\nexact: runs whose findings (warning and error) are exactly the expected ones; a fault that found no place\n"
text += "in a history is not counted as a fault run.\n"
text.withUTF8 { buf in
    var off = 0
    while off < buf.count {
        let n = write(1, buf.baseAddress! + off, buf.count - off)
        if n <= 0 { exit(1) }
        off += n
    }
}
