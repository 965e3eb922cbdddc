// The `views` and `merge` fuzz targets: what vclint shows of a capture besides the lint report
// (`inspect`, `timeline` in every format, `leaks` in every format, the HTML `report`), and what it reads
// back from a matrix's shards (`merge`'s lint reports, `leaks`'s leak reports). Their oracle: nothing
// from the input reaches a terminal or a CI runner as a command (text outputs are inert), machine
// formats parse, and memory stays bounded (run.sh gives these targets an RSS limit).
import Foundation

/// Whether a text output is inert: no control byte but line feed and tab, no C1 control or
/// bidirectional override, and no line a GitHub runner would run (`::` at its start, `##[` in it).
func fuzzCheckInert(_ text: String, _ what: String) {
    for u in text.unicodeScalars where u != "\n" && u != "\t" && (u.value < 0x20 || TerminalText.escaped(u)) {
        fuzzFail("\(what): U+\(String(u.value, radix: 16, uppercase: true)) reached the output")
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.drop(while: { $0 == " " || $0 == "\t" || $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) }).hasPrefix("::") {
            fuzzFail("\(what): a line a runner would run as a command: \(line.prefix(80))")
        }
        if line.contains("##[") { fuzzFail("\(what): a legacy runner command in: \(line.prefix(80))") }
    }
}

func fuzzCheckJSON(_ text: String, _ what: String) {
    guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else { fuzzFail("\(what) is not JSON") }
    // A JSON document is printed on runners too: the same commands must not appear in it.
    if text.contains("##[") { fuzzFail("\(what): a legacy runner command") }
}

/// The oracle of a view's format, by its identifier: text is inert, JSON parses, Markdown holds no
/// control character; any format (HTML, one added later) holds no runner command.
func fuzzCheckView(_ text: String, command: String, format: String) {
    let what = "\(command) --format \(format)"
    switch format {
    case "text": fuzzCheckInert(text, what)
    case "json", "chrome-trace": fuzzCheckJSON(text, what)
    case "markdown":
        for u in text.unicodeScalars where u != "\n" && u != "\t" && (u.value < 0x20 || TerminalText.escaped(u)) {
            fuzzFail("\(what): U+\(String(u.value, radix: 16, uppercase: true))")
        }
    default: if text.contains("##[") { fuzzFail("\(what): a legacy runner command") }
    }
}

func fuzzViews(_ bytes: [UInt8]) -> Int32 {
    var options = LintOptions()
    options.rules = .all
    options.inspect = true
    let file = Linter(options: options).lint(bytes: bytes, path: "fuzz.log", feedSize: 1 + bytes.count / 3)
    let result = LintResult(files: [file])
    // Every format of every view, as its registry lists them.
    if let inspection = file.inspection {
        for e in ViewFormats.inspect.entries { fuzzCheckView(e.make(()).render([inspection]), command: "inspect", format: e.identifier) }
    }
    let inputs = TimelineInput.from(result)
    for e in ViewFormats.timeline.entries { fuzzCheckView(e.make(TimelineDrawing()).render(inputs), command: "timeline", format: e.identifier) }
    fuzzCheckInert(TimelineTextRenderer(width: 40, axis: .time).render(inputs), "timeline --axis time")
    let leaks = LeakReport(inputs: inputs, graceSeconds: options.timeline.leakGraceSeconds)
    for e in ViewFormats.leaks.entries {
        fuzzCheckView(e.make(RunConfiguration(options: options)).render(leaks), command: "leaks", format: e.identifier)
    }
    let html = HTMLReport(inputs: inputs, leaks: leaks).render()
    if html.contains("##[") { fuzzFail("report: a legacy runner command") }
    return 0
}

/// A shard's report as `vclint merge` and `vclint leaks` read it: refused with a reason, or read and
/// shown inert.
func fuzzMerge(_ bytes: [UInt8]) -> Int32 {
    let data = Data(bytes)
    if let loaded = try? LoadedReport.parse(data, path: "shard.json") {
        for name in ReporterRegistry.names {
            let text = ReporterRegistry.reporter(named: name, rules: .all)!.report(loaded.result)
            switch name {
            case JSONReporter.identifier, SARIFReporter.identifier: fuzzCheckJSON(text, "merge --reporter \(name)")
            case XcodeReporter.identifier: fuzzCheckInert(text, "merge --reporter xcode")
            default: break
            }
        }
    }
    if let loaded = try? LeakReport.parse(data) {
        fuzzCheckInert(LeakText().render(loaded.report), "leaks of a leak report")
        fuzzCheckJSON(LeakJSON().render(loaded.report), "leaks --format json of a leak report")
    }
    return 0
}
