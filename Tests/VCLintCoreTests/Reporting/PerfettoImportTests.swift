import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// The chrome trace as Perfetto's JSON importer takes it in, so that what ui.perfetto.dev shows is
/// what vclint wrote:
/// - threads are keyed by tid across the whole trace: tid 0 is the idle task ("swapper"), a tid
///   equal to a pid is that process's main thread (its track merges with the process's), and a tid
///   seen under two pids is one thread that moved;
/// - events are sorted by timestamp (stably: at equal times, in file order), and on each thread's
///   track a complete event (`X`) that begins inside an open one but ends after it is dropped
///   (slices must nest); one that begins when the open one ends closes it first.
enum PerfettoImport {
    static func problems(_ json: String) throws -> [String] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try #require(doc["traceEvents"] as? [[String: Any]])
        var problems: [String] = []
        let pids = Set(events.compactMap { $0["pid"] as? Int })
        var pidOfTID: [Int: Int] = [:]
        for e in events {
            guard let pid = e["pid"] as? Int, let tid = e["tid"] as? Int else { problems.append("event without pid or tid: \(e)"); continue }
            if tid == 0 { problems.append("pid \(pid): tid 0 is the idle task's") }
            if pids.contains(tid) { problems.append("pid \(pid): tid \(tid) is also a pid, so it merges with that process's main thread") }
            if let other = pidOfTID[tid], other != pid { problems.append("tid \(tid) is used by pids \(other) and \(pid)") }
            pidOfTID[tid] = pid
        }
        // Stable sort by timestamp, then one slice stack per thread.
        let complete = events.enumerated().filter { $0.element["ph"] as? String == "X" }
            .sorted { ($0.element["ts"] as! Int, $0.offset) < ($1.element["ts"] as! Int, $1.offset) }
        var stacks: [Int: [(ts: Int, end: Int, name: String)]] = [:]
        for (_, e) in complete {
            let tid = e["tid"] as! Int, ts = e["ts"] as! Int, dur = e["dur"] as! Int
            let name = e["name"] as? String ?? "?"
            var stack = stacks[tid] ?? []
            while let top = stack.last, top.end <= ts, !(top.ts == ts && top.end == ts && dur == 0) { stack.removeLast() }
            if let top = stack.last, ts + dur > top.end {
                problems.append("tid \(tid): \(name) [\(ts), \(ts + dur)] overlaps \(top.name) [\(top.ts), \(top.end)] and is dropped")
            } else {
                stack.append((ts, ts + dur, name))
            }
            stacks[tid] = stack
        }
        return problems
    }
}

@Suite struct PerfettoImportTests {
    /// The checker itself: it sees what the old traces did (tid 0, tid = pid, a slice out of order).
    @Test func theCheckerSeesWhatPerfettoMisreads() throws {
        let bad = """
        {"traceEvents":[
        {"name":"push","ph":"X","ts":0,"dur":10,"pid":1,"tid":0},
        {"name":"A#1","ph":"X","ts":0,"dur":5,"pid":1,"tid":1},
        {"name":"visible","ph":"X","ts":0,"dur":8,"pid":1,"tid":1}
        ]}
        """
        let found = try PerfettoImport.problems(bad)
        #expect(found.contains { $0.contains("tid 0 is the idle task's") })
        #expect(found.contains { $0.contains("tid 1 is also a pid") })
        #expect(found.contains { $0.contains("visible [0, 8] overlaps A#1 [0, 5]") })
        let good = """
        {"traceEvents":[
        {"name":"A#1","ph":"X","ts":0,"dur":10,"pid":1,"tid":2},
        {"name":"appearing","ph":"X","ts":0,"dur":4,"pid":1,"tid":2},
        {"name":"visible","ph":"X","ts":4,"dur":6,"pid":1,"tid":2}
        ]}
        """
        #expect(try PerfettoImport.problems(good).isEmpty)
    }

    @Test(arguments: allFixtureLogs())
    func everyFixtureImportsWhole(_ fixture: String) throws {
        let trace = ChromeTrace().render([try timelineInput(fixture)])
        #expect(try PerfettoImport.problems(trace) == [], "\(fixture)")
    }

    /// Many inputs and sessions in one trace: pids and tids stay apart across all of them.
    @Test func allFixturesInOneTrace() throws {
        let inputs = try allFixtureLogs().map { try timelineInput($0) }
        let trace = ChromeTrace().render(inputs)
        #expect(try PerfettoImport.problems(trace) == [])
        #expect(inputs.reduce(0) { $0 + $1.timeline.sessions.count } > 40)
    }

    /// Simulated histories of every shape, with and without faults, in every envelope.
    @Test(arguments: [nil] + NavigationSimulator.Fault.allCases.map { Optional($0) })
    func simulatedHistoriesImportWhole(_ fault: NavigationSimulator.Fault?) throws {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        for seed in UInt64(1)...16 {
            var o = NavigationSimulator.Options(seed: seed &* 7_919)
            o.envelope = EnvelopeFormat.apple[Int(seed) % EnvelopeFormat.apple.count]
            o.dialect = NavigationSimulator.Dialect.allCases[Int(seed) % NavigationSimulator.Dialect.allCases.count]
            o.fault = fault
            let text = NavigationSimulator.generate(o).text
            let file = Linter(options: options).lint(text: text, path: "sim-\(seed).log")
            let trace = ChromeTrace().render(TimelineInput.from(LintResult(files: [file])))
            #expect(try PerfettoImport.problems(trace) == [], "seed \(seed) fault \(fault?.rawValue ?? "none")")
        }
    }
}
