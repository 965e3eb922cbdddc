// The `pipeline` fuzz target: bytes → lines → events → timeline → findings → every report.
// Compiled into the VCLintCore module by Tests/Fuzz/run.sh (not part of the package); FuzzMain.swift
// holds libFuzzer's entry point and picks the target.
import Foundation

/// One custom dialect and the pattern options, so that the user-pattern paths are fuzzed too.
private let fuzzOptions: LintOptions = {
    var o = LintOptions()
    o.rules = .all
    o.timeline.ignoreClasses = [try! PCRE2Pattern("^_UI", matchLimit: CustomDialect.matchLimit, matchLimitPerByte: CustomDialect.matchLimitPerByte, depthLimit: CustomDialect.depthLimit)]
    o.timeline.persistentClasses = [try! PCRE2Pattern("^(Tab|Main)\\w*Root", matchLimit: CustomDialect.matchLimit, matchLimitPerByte: CustomDialect.matchLimitPerByte, depthLimit: CustomDialect.depthLimit)]
    o.customDialects = [try! CustomDialect(
        pattern: #"^\[Screen\] (?<class>(\w|\.)+)(?: (?<address>0x[0-9a-f]+))? (?<event>loaded|shown|hidden|freed)$"#,
        events: ["loaded": "viewDidLoad", "shown": "viewDidAppear", "hidden": "viewDidDisappear", "freed": "dealloc"])]
    return o
}()

private let chunkSizes = [256, 300, 1024, 4096, 65536, LintOptions.defaultChunkSize]

/// Aborts (libFuzzer keeps the input); two reports that should have been equal are written beside
/// the artifacts as `oracle-expected.json` and `oracle-actual.json`, to be diffed.
func fuzzFail(_ why: String, reports: (expected: String, actual: String)? = nil) -> Never {
    var message = "fuzz oracle: \(why)\n"
    if let reports {
        let dir = ".build-fuzz/artifacts/"
        if FileManager.default.createFile(atPath: dir + "oracle-expected.json", contents: Data(reports.expected.utf8)),
           FileManager.default.createFile(atPath: dir + "oracle-actual.json", contents: Data(reports.actual.utf8)) {
            message += "fuzz oracle: diff \(dir)oracle-expected.json \(dir)oracle-actual.json\n"
        }
    }
    FileHandle.standardError.write(Data(message.utf8))
    abort()
}

func fuzzPipeline(_ bytes: [UInt8]) -> Int32 {
    let size = bytes.count
    // Read sizes and chunk sizes come from the input, so boundaries fall everywhere.
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes.prefix(64) { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    var options = fuzzOptions
    options.chunkSize = chunkSizes[Int(h % UInt64(chunkSizes.count))]
    let linter = Linter(options: options)
    let feed = 1 + Int((h >> 8) % 4097)
    let a = linter.lint(bytes: bytes, path: "fuzz.log", feedSize: feed)
    let b = linter.lint(bytes: bytes, path: "fuzz.log")

    // Oracles: line numbers are physical lines; where the read boundaries fall changes nothing.
    if a.stats.bytes != size { fuzzFail("bytes \(a.stats.bytes) != \(size)") }
    if a.stats.lines != b.stats.lines || a.stats.events != b.stats.events { fuzzFail("stats depend on read size: \(a.stats.lines)/\(a.stats.events) vs \(b.stats.lines)/\(b.stats.events)") }
    // Lines as the scanner sees them: classic Mac line ends (a lone CR) are translated first.
    var ends = LineEndTranslator()
    var text: [UInt8] = []
    bytes.withUnsafeBytes { ends.pass($0) { text += $0 } }
    ends.finish { text += $0 }
    if text.count != size { fuzzFail("line-end translation changed the byte count: \(text.count) != \(size)") }
    let expectedLines = text.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } + (text.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
    if a.stats.lines != expectedLines { fuzzFail("lines \(a.stats.lines) != \(expectedLines)") }
    let ka = a.findings.map { "\($0.rule)@\($0.line)" }, kb = b.findings.map { "\($0.rule)@\($0.line)" }
    if ka != kb { fuzzFail("findings depend on read size: \(ka) vs \(kb)") }
    for f in a.findings {
        // An empty input has no line; a finding about the whole input (no_lifecycle_events) names line 1.
        let last = max(a.stats.lines, 1)
        if f.line < 1 || f.line > last { fuzzFail("\(f.rule) points at line \(f.line) of \(a.stats.lines)") }
        for r in f.related where r.line < 1 || r.line > last { fuzzFail("\(f.rule) relates line \(r.line) of \(a.stats.lines)") }
    }

    // Surroundings (docs/lifecycle.md#sessions): a session ends at its last timed line, so a blank line
    // or a CRLF blank appended changes no finding (rule, line, severity, message). The one exception
    // is an input whose line ends are not decided by its own bytes: a short classic Mac capture (CRs,
    // no LF) is read as plain LF text once an LF is appended, so its lines are other lines.
    if ends.mode != .classic {
        func verdicts(_ r: FileResult) -> [String] {
            // An unread input's message counts its lines, and a blank appended after a newline is one more.
            r.findings.map { "\($0.rule)@\($0.line) \($0.severity) " + ($0.rule == "no_lifecycle_events" ? "" : $0.message) }
        }
        let before = verdicts(b)
        for (name, blank) in [("a blank line", [UInt8(0x0A)]), ("a CRLF blank line", [UInt8(0x0D), 0x0A])] {
            let after = verdicts(linter.lint(bytes: bytes + blank, path: "fuzz.log", feedSize: feed))
            if after != before { fuzzFail("\(name) appended changed the findings: \(before) vs \(after)") }
        }
    }

    // The candidate search (the vector scanner on x86-64) only skips lines that cannot be events:
    // parsing every line must give the same report.
    var everyLine = options
    everyLine.prefilter = false
    let c = Linter(options: everyLine).lint(bytes: bytes, path: "fuzz.log")
    let jc = JSONReporter().report(LintResult(files: [c], seconds: 0))
    if JSONReporter().report(LintResult(files: [a], seconds: 0)) != jc {
        fuzzFail("the candidate search changed the report", reports: (JSONReporter().report(LintResult(files: [a], seconds: 0)), jc))
    }
    // The events on a second thread, handed over in small batches: the same report.
    var piped = options
    piped.pipelined = true
    piped.pipeBatch = EventPipe.BatchSize(bytes: 256, records: 3, scannerParsesEvery: 2)
    let d = Linter(options: piped).lint(bytes: bytes, path: "fuzz.log", feedSize: 1021)
    let ja = JSONReporter().report(LintResult(files: [a], seconds: 0)), jd = JSONReporter().report(LintResult(files: [d], seconds: 0))
    if ja != jd { fuzzFail("the events thread changed the report", reports: (ja, jd)) }

    let result = LintResult(files: [a], seconds: 0)
    for name in ReporterRegistry.names {
        let text = ReporterRegistry.reporter(named: name, rules: options.rules)!.report(result)
        if !text.isEmpty && !text.hasSuffix("\n") { fuzzFail("\(name) report does not end with a newline") }
        if name == JSONReporter.identifier || name == SARIFReporter.identifier {
            guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else { fuzzFail("\(name) report is not JSON") }
        }
    }
    return 0
}

/// The `logcat` target: each line of the input becomes the message of a logcat line (Android Studio's layout or
/// threadtime's, which is read at its fixed places; the layout, the tag, the pid and the thread from the line's first
/// byte: LeakCanary's, StrictMode's, the runner's, the system's, an Activity's or a Fragment's), so that mutations reach
/// LeakCanary's blocks, the evidence and the Activity and Fragment machine rather than the envelope; then the
/// pipeline's oracles.
func fuzzLogcat(_ bytes: [UInt8]) -> Int32 {
    let tags = ["LeakCanary", "LeakCanary", "StrictMode", "TestRunner", "ActivityTaskManager", "MainActivity", "HomeFragment", "FragmentManager"]
    var out: [UInt8] = []
    var k = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let first = Int(line.first ?? 0)
        let pid = 100 + (first >> 6), tid = first & 1 == 0 ? pid : pid + 7
        let clock = "16:\(10 + k / 60_000 % 50):\(10 + k / 1000 % 50).\(100 + k % 900)"
        let tag = tags[first % tags.count]
        out += Array((first & 8 == 0 ? "2021-04-28 \(clock) \(pid)-\(tid)/com.example D/\(tag): " : "04-28 \(clock)  \(pid)  \(tid) D \(tag): ").utf8)
        out += line
        out.append(0x0A)
        k += 1
    }
    return fuzzPipeline(out)
}
