import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// One verdict whatever surrounds the events (docs/lifecycle.md#sessions): a session ends at its last
/// timed line, so a blank line, a CRLF blank, a continuation line, an untimed noise line or a test
/// runner's line after the last event, or inserted anywhere, changes no finding; nor does a live
/// (`--follow`) run.
@Suite struct SurroundingsTests {
    /// What is added: each is untimed, so none may move a session's end.
    static let additions: [(name: String, text: String)] = [
        ("a blank line", "\n"),
        ("a CRLF blank line", "\r\n"),
        ("a continuation line", "    continuation = 1;\n"),
        ("untimed noise", "Loading resources from the bundle\n"),
        ("XCTest's lines", "Test Case '-[LoginTests testLogout]' passed (0.412 seconds).\nTest Suite 'LoginTests' passed at 2024-03-01 10:00:30.000.\n"),
        ("Swift Testing's line", "✔ Test testLogout() passed after 0.412 seconds.\n"),
    ]

    /// A finding as far as the verdict goes: the rule, where, how severe, and about whom.
    static func verdict(_ f: Finding, shift: (Int) -> Int = { $0 }) -> String {
        "\(f.rule)@\(shift(f.line)) \(f.severity) \(f.controller.instance)"
    }

    static func fixtures() -> [String] {
        // The fuzz regressions are hostile bytes, not captures (their lines are not lines of one app).
        allFixtureLogs().filter { !$0.hasPrefix("Fixtures/fuzz/") && !$0.contains("custom") }
    }

    @Test func appendingUntimedLinesChangesNoFinding() throws {
        for fixture in Self.fixtures() {
            var bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
            let before = Linter().lint(bytes: bytes, path: fixture).findings
            for (name, text) in Self.additions {
                let after = Linter().lint(bytes: bytes + Array(text.utf8), path: fixture).findings
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0) }, "\(fixture) with \(name) appended")
                // (An unread input's message counts its lines: one more now.)
                let worded = { (fs: FindingList) in fs.filter { $0.rule != "no_lifecycle_events" }.map(\.message) }
                #expect(worded(after) == worded(before), "\(fixture) with \(name) appended: the same messages")
            }
        }
    }

    /// Inserted at every third line (one position per fixture and addition, drawn from the fixture's
    /// length): the findings move with the lines, nothing else changes.
    @Test func insertingUntimedLinesChangesNoFinding() throws {
        for (k, fixture) in Self.fixtures().enumerated() {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if lines.last == [] { lines.removeLast() }
            guard lines.count > 2 else { continue }
            func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [0x0A])) + [0x0A] }
            let before = Linter().lint(bytes: joined(lines), path: fixture).findings
            for (j, (name, addition)) in Self.additions.enumerated() {
                // A `log show --style json` array has no line between its objects (`},{`): text on a line of its own
                // is inside an object and breaks it, so the object's event may lose what follows the text (its time,
                // its process: `JSONArrayTests.garbageInTheArrayIsSkipped`). White space is still JSON.
                if fixture.hasSuffix(".json"), addition.contains(where: { !$0.isWhitespace }) { continue }
                let at = (k * 7 + j * 3) % (lines.count - 1) + 1
                let added = addition.split(separator: "\n", omittingEmptySubsequences: true).count.clamped(min: 1)
                var changed = lines
                changed.insert(Array(addition.utf8.dropLast()), at: at)
                let after = Linter().lint(bytes: joined(changed), path: fixture).findings
                let shift = { (line: Int) in line > at ? line + added : line }
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0, shift: shift) },
                        "\(fixture) with \(name) inserted before line \(at + 1)")
            }
        }
    }

    /// Five of each addition before every line at once (a `print` event then sits six lines below the
    /// timed line whose run it belongs to: the look-back must not be a window of lines).
    @Test func manyUntimedLinesBeforeEveryLineChangeNoFinding() throws {
        for fixture in Self.fixtures() + ["Fixtures/fuzz/crash-62b680975c23.log"] {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if lines.last == [] { lines.removeLast() }
            func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [0x0A])) + [0x0A] }
            let before = Linter().lint(bytes: joined(lines), path: fixture).findings
            for (name, addition) in Self.additions {
                // Text inside every object of a `log show --style json` array breaks each of them (as in
                // `insertingUntimedLinesChangesNoFinding`); white space between its members is still JSON.
                if fixture.hasSuffix(".json"), addition.contains(where: { !$0.isWhitespace }) { continue }
                let block = Array(repeating: addition, count: 5).joined()
                let added = block.utf8.filter { $0 == 0x0A }.count
                var changed: [[UInt8]] = []
                for (k, line) in lines.enumerated() where k > 0 {
                    if k == 1 { changed.append(lines[0]) }
                    changed.append(Array(block.utf8.dropLast()))
                    changed.append(line)
                }
                if lines.count == 1 { changed = lines }
                let after = Linter().lint(bytes: joined(changed), path: fixture).findings
                // Line k (from 1) has (k - 1) blocks before it.
                let shift = { (line: Int) in line + (line - 1) * added }
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0, shift: shift) },
                        "\(fixture) with five of \(name) before every line")
            }
        }
    }

    /// The app relaunched after the last event (its last timed line again, with the next pid and the
    /// same time): the old session ends where it ended, so no finding changes, batch or live.
    @Test func aRelaunchAfterTheLastEventChangesNoFinding() throws {
        let envelope = try Regex(#"^(.*?[^\s\[]\[)(\d+)(:[0-9a-fA-Fx]+\] )"#)
        var checked = 0
        for fixture in Self.fixtures() {
            var bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
            let text = String(decoding: bytes, as: UTF8.self)
            // The NSLog-style envelopes: `… Process[pid:tid] message`.
            guard let lastTimed = text.split(separator: "\n").last(where: { $0.firstMatch(of: envelope) != nil && $0.first?.isNumber == true }),
                  let m = lastTimed.firstMatch(of: envelope), let pid = Int(m.output[2].substring!) else { continue }
            let relaunch = "\(m.output[1].substring!)\(pid + 1)\(m.output[3].substring!)[Launch] didFinishLaunching in 212 ms\n"
            let input = bytes + Array(relaunch.utf8)
            checked += 1
            let before = Linter().lint(bytes: bytes, path: fixture).findings.map { Self.verdict($0) }
            let after = Linter().lint(bytes: input, path: fixture).findings.map { Self.verdict($0) }
            #expect(after == before, "\(fixture) with a relaunch appended")
            let live = LiveEqualsBatchTests.problems(input, path: fixture, chunk: 97)
            #expect(live.isEmpty, "\(fixture) with a relaunch appended, --follow: \(live)")
        }
        #expect(checked >= 30)
    }

    /// Live mode reads every line's time; a batch run reads noise lines' time at sample offsets and
    /// the input's last timed lines: both end with the same findings.
    @Test func batchAndLiveAgreeWithUntimedLinesAtTheEnd() throws {
        for fixture in Self.fixtures() {
            var bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
            for (name, text) in Self.additions {
                let input = bytes + Array(text.utf8)
                let live = LiveEqualsBatchTests.problems(input, path: fixture, chunk: 97)
                #expect(live.isEmpty, "\(fixture) with \(name) appended: \(live)")
            }
        }
    }

    /// Simulated captures with a leak: the leak stays an error with untimed lines after it.
    @Test func simulatedLeaksStayErrorsWithUntimedLinesAfterThem() {
        var checked = 0
        for seed in UInt64(1)...40 {
            var o = NavigationSimulator.Options(seed: seed &* 7_919)
            o.envelope = SimulationPropertyTests.envelopes[Int(seed) % SimulationPropertyTests.envelopes.count]
            o.fault = .leak
            let out = NavigationSimulator.generate(o)
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let before = Linter().lint(text: out.text, path: "sim.log").findings.filter { $0.rule != "memory_warning" }
            for (name, text) in Self.additions {
                let after = Linter().lint(text: out.text + text, path: "sim.log").findings.filter { $0.rule != "memory_warning" }
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0) },
                        "swift run vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --fault leak, with \(name) appended")
            }
        }
        #expect(checked >= 10)
    }
}

/// A capture split at a line boundary into two parts read one after the other as one input: `cat a b |
/// vclint lint -`, or a file that `--follow` read when it held the first part and again once the
/// second was appended. (Files given side by side are inputs of their own, each with its sessions:
/// docs/output.md.) Where the split falls changes no finding, batch or live.
@Suite struct SplitCaptureTests {
    static func verdicts(_ fs: [Finding]) -> [String] { fs.map { "\($0.rule)@\($0.line) \($0.severity) \($0.controller.instance) \($0.message)" } }

    /// The findings of `bytes` read with a read boundary exactly at `split` (batch) and of a live run
    /// that got the two parts in two reads, against the same runs over the whole.
    static func check(_ bytes: [UInt8], splits: [Int], name: String) {
        let whole = verdicts(Array(Linter().lint(bytes: bytes, path: name).findings))
        let liveWhole = live(bytes, parts: [bytes.count])
        for split in splits where split > 0 && split < bytes.count {
            // Reads of `split` bytes: the first ends at the split.
            let batch = verdicts(Array(Linter().lint(bytes: bytes, path: name, feedSize: split).findings))
            #expect(batch == whole, "\(name) split at byte \(split), batch")
            // (Live findings stream in the order they are decided, which read boundaries may change,
            // and a leak printed before its session ended says how long it had gone on then; the
            // findings printed are the same, and the run's result is the batch run's.)
            let split = live(bytes, parts: [split, bytes.count - split])
            #expect(split.printed.sorted() == liveWhole.printed.sorted(), "\(name) split at byte \(split), --follow")
            #expect(split.result == whole, "\(name) split at byte \(split), --follow: the result")
        }
    }

    /// What a live run printed (without the messages) and its result.
    static func live(_ bytes: [UInt8], parts: [Int]) -> (printed: [String], result: [String]) {
        let live = LiveLinter(path: "split.log")
        var found: [Finding] = []
        var at = 0
        for n in parts {
            found += bytes[at..<(at + n)].withUnsafeBytes { live.consume($0) }
            at += n
        }
        let (late, result) = live.finish()
        found += late
        return (found.map { "\($0.rule)@\($0.line) \($0.severity) \($0.controller.instance)" }, verdicts(Array(result.findings)))
    }

    /// The offsets just after each line end, `count` of them spread over the input.
    static func lineSplits(_ bytes: [UInt8], count: Int) -> [Int] {
        let ends = bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        guard ends.count > count else { return ends }
        return (0..<count).map { ends[$0 * (ends.count - 1) / (count - 1)] }
    }

    @Test func splittingAFixtureAtAnyLineChangesNoFinding() throws {
        for fixture in SurroundingsTests.fixtures() {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            Self.check(bytes, splits: Self.lineSplits(bytes, count: 16), name: fixture)
        }
    }

    @Test func splittingASimulatedCaptureAtAnyLineChangesNoFinding() {
        for seed in UInt64(1)...24 {
            var o = NavigationSimulator.Options(seed: seed &* 104_729)
            o.envelope = SimulationPropertyTests.envelopes[Int(seed) % SimulationPropertyTests.envelopes.count]
            if seed % 3 == 0 { o.fault = .leak }
            let bytes = Array(NavigationSimulator.generate(o).text.utf8)
            Self.check(bytes, splits: Self.lineSplits(bytes, count: 12),
                       name: "vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue)\(seed % 3 == 0 ? " --fault leak" : "")")
        }
    }
}

/// A relaunch after noise (docs/lifecycle.md#sessions): the old session ends at its process's last
/// timed line before the relaunch, however much noise it logged after its last event, read whole or
/// in small pieces, batch or `--follow`.
@Suite struct RelaunchAfterNoiseTests {
    /// `Shop` pops a second detail screen that it never releases (the first one logs its `deinit`),
    /// logs `noise` lines of its own over `noiseSeconds` after the removal, and is relaunched (a new
    /// pid) 20 s after the removal. Returns the capture and the line of the removal.
    /// In `style`'s envelope: NSLog's (`nslog-tz`), `log show`'s default (`oslog`: the events on the
    /// main thread, the noise on another thread with another type and activity), `syslog`'s (whole
    /// seconds, a library before the pid on the noise lines), `log show --style ndjson`'s (the pid a
    /// member near the object's end, after the message) or `--style json`'s (one member a line: the
    /// pid on a line of its own, after the message's).
    /// `padding` lengthens each noise line by that many bytes; `relaunch` false ends the capture
    /// with the noise.
    static func capture(noiseSeconds: Double, noise: Int = 120, style: EnvelopeFormat = .nslogTZ, padding: Int = 0,
                        relaunch: Bool = true) -> (text: String, removal: Int) {
        var entries: [(s: Double, pid: Int, message: String)] = []
        func log(_ s: Double, _ pid: Int, _ message: String) { entries.append((s, pid, message)) }
        log(1.0, 63209, "HomeViewController viewDidLoad()")
        log(1.1, 63209, "HomeViewController viewWillAppear(_:)")
        log(1.3, 63209, "HomeViewController viewDidAppear(_:)")
        var at = 2.0
        for _ in 0..<2 {
            log(at, 63209, "ProductDetailViewController init(nibName:bundle:)")
            log(at + 0.1, 63209, "ProductDetailViewController viewDidLoad()")
            log(at + 0.2, 63209, "HomeViewController viewWillDisappear(_:)")
            log(at + 0.3, 63209, "ProductDetailViewController viewWillAppear(_:)")
            log(at + 0.6, 63209, "HomeViewController viewDidDisappear(_:)")
            log(at + 0.7, 63209, "ProductDetailViewController viewDidAppear(_:)")
            log(at + 2.0, 63209, "ProductDetailViewController viewWillDisappear(_:)")
            log(at + 2.1, 63209, "HomeViewController viewWillAppear(_:)")
            log(at + 2.5, 63209, "ProductDetailViewController viewDidDisappear(_:)")
            log(at + 2.6, 63209, "HomeViewController viewDidAppear(_:)")
            at += 4
        }
        log(4.7, 63209, "ProductDetailViewController deinit")
        entries.insert(entries.removeLast(), at: 13)
        let removal = entries.count - 2  // the second detail's viewDidDisappear (0-based)
        let removedAt = at - 4 + 2.5
        for k in 1...noise {
            log(removedAt + 0.1 + (noiseSeconds - 0.1) * Double(k) / Double(noise), 63209,
                "[Network] GET https://api.shop.example.com/v2/products/\(48_000 + k) -> 200 (163 ms)\(String(repeating: "x", count: padding))")
        }
        if relaunch {
            log(removedAt + 20, 63388, "[Network] reachability: wifi")
            log(removedAt + 20.1, 63388, "HomeViewController viewDidLoad()")
            log(removedAt + 20.2, 63388, "HomeViewController viewWillAppear(_:)")
            log(removedAt + 20.4, 63388, "HomeViewController viewDidAppear(_:)")
        }
        let (lines, messageLines) = render(entries, style: style)
        return (lines.joined(separator: "\n") + "\n", messageLines[removal])
    }

    /// The entries' lines in `style`, and the line (1-based) of each entry's message.
    static func render(_ entries: [(s: Double, pid: Int, message: String)], style: EnvelopeFormat) -> (lines: [String], messageLines: [Int]) {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        func time(_ s: Double) -> String {
            let ms = Int((s * 1000).rounded())
            let m = ms / 60_000, sec = (ms / 1000) % 60, frac = ms % 1000
            let f = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
            return "2020-04-01 16:\(two(30 + m)):\(two(sec)).\(f)000+0800"
        }
        var lines: [String] = []
        var messageLines: [Int] = []
        let path = "\\/private\\/var\\/containers\\/Bundle\\/Application\\/6F1B2A4C\\/Shop.app\\/Shop"
        for (k, (s, pid, message)) in entries.enumerated() {
            let noise = message.hasPrefix("[")
            switch style {
            case .oslog:
                let columns = noise ? "0x2f3a     Info        0x1f4e               " : "0x1a2b3c   Default     0x0                  "
                lines.append("\(time(s)) \(columns)\(pid)  0    Shop: \(noise ? "(CFNetwork) " : "")\(message)")
            case .syslog:
                let whole = Int(s)
                lines.append("Apr  1 16:\(two(30 + whole / 60)):\(two(whole % 60)) iPhone Shop\(noise ? "(CFNetwork)" : "")[\(pid)] <Notice>: \(message)")
            case .ndjson:
                lines.append(#"{"traceID":\#(3_618_502_788_670_228 + k),"eventMessage":"\#(message)","threadID":\#(noise ? 914_702 : 914_637),"# +
                             #""processImagePath":"\#(path)","timestamp":"\#(time(s))","processID":\#(pid),"timezoneName":""}"#)
            case .json:
                lines.append(k == 0 ? "[{" : "},{")
                lines.append(#"  "traceID" : \#(3_618_502_788_670_228 + k),"#)
                lines.append(#"  "eventMessage" : "\#(message)","#)
                messageLines.append(lines.count)
                lines.append(#"  "threadID" : \#(noise ? 914_702 : 914_637),"#)
                lines.append(#"  "processImagePath" : "\#(path)","#)
                lines.append(#"  "timestamp" : "\#(time(s))","#)
                lines.append(#"  "processID" : \#(pid),"#)
                lines.append(#"  "timezoneName" : """#)
                continue
            default:
                lines.append("\(time(s)) Shop[\(pid):9146] \(message)")
            }
            messageLines.append(lines.count)
        }
        if style == .json { lines.append("}]") }
        return (lines, messageLines)
    }

    /// The leak findings of a batch run, read with `chunkSize` and fed in pieces of `feed` bytes.
    static func batch(_ text: String, chunkSize: Int, feed: Int?, prefilter: Bool = true) -> [String] {
        var options = LintOptions()
        options.chunkSize = chunkSize
        options.prefilter = prefilter
        return Linter(options: options).lint(bytes: Array(text.utf8), path: "relaunch.log", feedSize: feed).findings
            .map { "\($0.rule)@\($0.line) \($0.severity)" }
    }

    /// The same, live: fed in pieces of `feed` bytes.
    static func live(_ text: String, feed: Int) -> [String] {
        let live = LiveLinter(path: "relaunch.log")
        var found: [Finding] = []
        for piece in Array(text.utf8).chunked(into: feed) { found += piece.withUnsafeBytes { live.consume($0) } }
        found += live.finish().late
        return found.map { "\($0.rule)@\($0.line) \($0.severity)" }
    }

    /// Whole, and in small pieces (chunks just longer than the lines: a JSON object's line is longer
    /// than a smaller chunk, whose lines are read only by their heads).
    static func readings(_ style: EnvelopeFormat) -> [(chunkSize: Int, feed: Int?)] {
        let json = style == .ndjson || style == .json
        return [(LintOptions.defaultChunkSize, nil), (json ? 600 : 256, 97), (1024, 1), (json ? 700 : 300, 4096)]
    }

    @Test(arguments: [(5.0, Severity.error), (1.5, Severity.warning)], [EnvelopeFormat.nslogTZ, .oslog, .syslog, .ndjson, .json])
    func leakBeforeARelaunchAfterNoise(noise: (seconds: Double, severity: Severity), style: EnvelopeFormat) {
        let (text, removal) = Self.capture(noiseSeconds: noise.seconds, style: style)
        let severity = noise.severity
        let expected = ["leaked_controller@\(removal) \(severity)"]
        for (chunkSize, feed) in Self.readings(style) {
            #expect(Self.batch(text, chunkSize: chunkSize, feed: feed) == expected, "batch, chunks of \(chunkSize), fed \(feed ?? 0)")
            #expect(Self.batch(text, chunkSize: chunkSize, feed: feed, prefilter: false) == expected,
                    "every line parsed, chunks of \(chunkSize), fed \(feed ?? 0)")
        }
        for feed in [1, 61, 4096] {
            #expect(Self.live(text, feed: feed) == expected, "--follow, fed \(feed)")
        }
    }

    /// The old process's noise interleaved with another process's lines, and followed by untimed
    /// lines, before the relaunch: still its last timed line.
    @Test(arguments: [EnvelopeFormat.nslogTZ, .oslog, .syslog, .ndjson])
    func noiseAmongOtherProcessesAndUntimedLines(style: EnvelopeFormat) {
        let (text, removal) = Self.capture(noiseSeconds: 5, style: style)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        let swaps = switch style {
        case .oslog: [("63209  0    Shop: (CFNetwork) [Network]", "7001  0    ShopWidget: [Timeline]")]
        case .syslog: [("Shop(CFNetwork)[63209] <Notice>: [Network]", "ShopWidget[7001] <Notice>: [Timeline]")]
        case .ndjson: [(#""eventMessage":"[Network]"#, #""eventMessage":"[Timeline]"#), (#"Shop.app\/Shop""#, #"ShopWidget.appex\/ShopWidget""#),
                       (#""processID":63209"#, #""processID":7001"#)]
        default: [("Shop[63209:9146] [Network]", "ShopWidget[7001:12] [Timeline]")]
        }
        var mixed: [String] = []
        for (k, line) in lines.enumerated() {
            mixed.append(line)
            // After each noise line: the widget's line at the same time, then a continuation.
            if k > removal, line.contains(swaps[0].0), style != .ndjson || line.contains(swaps[2].0) {
                mixed.append(swaps.reduce(line) { $0.replacingOccurrences(of: $1.0, with: $1.1) })
                mixed.append("    continuation = 1;")
            }
        }
        #expect(mixed.count > lines.count + 200, "\(style)")
        let at = removal  // nothing inserted before the removal
        let expected = ["leaked_controller@\(at) error"]
        let joined = mixed.joined(separator: "\n") + "\n"
        for (chunkSize, feed) in Self.readings(style) {
            #expect(Self.batch(joined, chunkSize: chunkSize, feed: feed) == expected, "batch, chunks of \(chunkSize), fed \(feed ?? 0)")
        }
        #expect(Self.live(joined, feed: 61) == expected, "--follow")
    }

    /// A JSON object longer than the scanner keeps of a line (members in any order, read only
    /// whole) is the old process's last line before a relaunch, or the input's last before a blank
    /// line: its time still counts when the buffer has moved on past it.
    @Test(arguments: [EnvelopeFormat.ndjson, .json], [true, false])
    func longObjectsLastInARun(style: EnvelopeFormat, relaunch: Bool) {
        let (text, removal) = Self.capture(noiseSeconds: 5, noise: 12, style: style, padding: 6000, relaunch: relaunch)
        let expected = ["leaked_controller@\(removal) error"]
        for (chunkSize, feed) in [(LintOptions.defaultChunkSize, nil), (16_384, 97), (9000, 1)] as [(Int, Int?)] {
            #expect(Self.batch(text + "\n", chunkSize: chunkSize, feed: feed) == expected, "batch, chunks of \(chunkSize), fed \(feed ?? 0)")
        }
    }

    @Test func theFixture() throws {
        let result = try lintFixture("Fixtures/flows/relaunch-after-noise.log")
        #expect(result.findings.map { "\($0.rule)@\($0.line) \($0.severity)" } == ["leaked_controller@26 error"])
        #expect(result.findings.first?.message.contains("went on 5.0 s") == true, "\(result.findings.first?.message ?? "")")
    }
}

private extension Int {
    func clamped(min lower: Int) -> Int { Swift.max(self, lower) }
}
