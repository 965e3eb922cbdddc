import Dispatch
import VCLintCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What iOS's and Android's runs share: the tallies, the comparison of one capture's findings with its truth,
// the parallel run and the tables.

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

    /// Scores one capture: TP an expected finding on its line, FP a warning or error no fault predicts, FN an
    /// expected finding not reported; a mismatch is shown (with `reproduce`'s command) when `show` > 0.
    mutating func score<S: Sequence<Finding>>(expected truth: [(rule: String, line: Int)], findings: S, show: Int, reproduce: () -> String) {
        var expected = truth.map { "\($0.rule)@\($0.line)" }
        var unexpected: [String] = []
        for f in findings {
            let key = "\(f.rule)@\(f.line)"
            if let k = expected.firstIndex(of: key) {
                expected.remove(at: k)
                byRule[f.rule, default: Counts()].tp += 1
            } else if f.severity >= .warning {
                byRule[f.rule, default: Counts()].fp += 1
                unexpected.append(key)
            }
        }
        for key in expected {
            let rule = String(key[..<key.firstIndex(of: "@")!])
            byRule[rule, default: Counts()].fn += 1
        }
        if expected.isEmpty && unexpected.isEmpty {
            exact = 1
        } else if show > 0 {
            shown.append("  \(reproduce()): missed \(expected), unexpected \(unexpected)")
        }
    }
}

protocol AccuracyCase: Sendable {
    /// The index of its scenario.
    var scenario: Int { get }
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
func runAll<C: AccuracyCase>(_ cases: [C], scenarios: Int, jobs: Int, _ evaluate: @escaping @Sendable (C) -> Tally) -> [Tally] {
    let slices = min(jobs, max(1, cases.count))
    let results = Results(count: scenarios)
    DispatchQueue.concurrentPerform(iterations: slices) { j in
        var mine = [Tally](repeating: Tally(), count: scenarios)
        var k = j
        while k < cases.count {
            mine[cases[k].scenario].merge(evaluate(cases[k]))
            k += slices
        }
        results.add(mine)
    }
    return results.all
}

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

/// Precision and recall per rule and in total, then the rules below their `target`.
func ruleTable(_ total: Tally, target: (String) -> (precision: Double, recall: Double)) -> String {
    var text = column("rule", 32, left: true) + column("TP", 7) + column("FP", 7) + column("FN", 7) + column("precision %", 13) + column("recall %", 10) + "\n"
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
    var below: [String] = []
    for rule in total.byRule.keys.sorted() {
        let c = total.byRule[rule]!, t = target(rule)
        let precision = c.tp + c.fp == 0 ? 1 : Double(c.tp) / Double(c.tp + c.fp)
        let recall = c.tp + c.fn == 0 ? 1 : Double(c.tp) / Double(c.tp + c.fn)
        if precision < t.precision || recall < t.recall { below.append("\(rule) (target: precision \(Int(t.precision * 100)) %, recall \(Int(t.recall * 100)) %)") }
    }
    text += below.isEmpty ? "every rule meets its target\n\n" : "below target: " + below.joined(separator: ", ") + "\n\n"
    return text
}

/// The counts per scenario (name, whether it injects a fault, its tally), with up to `show` mismatches each.
func scenarioTable(_ rows: [(name: String, isFault: Bool, tally: Tally)], show: Int) -> String {
    var text = column("scenario", 40, left: true) + column("runs", 6) + column("faults", 8) + column("exact", 7)
        + column("TP", 6) + column("FP", 6) + column("FN", 6) + "  false findings (rule: count)\n"
    for (name, isFault, t) in rows {
        var c = Counts()
        for v in t.byRule.values { c = c + v }
        let fps = t.byRule.filter { $0.value.fp > 0 }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.fp)" }.joined(separator: ", ")
        text += column(name, 40, left: true) + column("\(t.runs)", 6) + column(isFault ? "\(t.injected)" : "–", 8)
            + column("\(t.exact)", 7) + column("\(c.tp)", 6) + column("\(c.fp)", 6) + column("\(c.fn)", 6) + "  " + fps + "\n"
        if show > 0 {
            for line in t.shown.prefix(show) { text += line + "\n" }
        }
    }
    text += "\nexact: runs whose findings (warning and error) are exactly the expected ones; a fault that found no place\n"
    text += "in a history is not counted as a fault run.\n"
    return text
}

func writeOut(_ text: String) {
    var text = text
    text.withUTF8 { buf in
        var off = 0
        while off < buf.count {
            let n = write(1, buf.baseAddress! + off, buf.count - off)
            if n <= 0 { exit(1) }
            off += n
        }
    }
}

/// How a run's seeds are named in its heading: `40 seeds`, or `40 seeds (41–80)` when the run starts past the first.
func seedLabel(_ count: Int, from first: Int) -> String {
    first == 1 ? "\(count) seeds" : "\(count) seeds (\(first)–\(first + count - 1))"
}
