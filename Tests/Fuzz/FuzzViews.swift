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

func fuzzViews(_ bytes: [UInt8]) -> Int32 {
    var options = LintOptions()
    options.rules = .all
    options.inspect = true
    let file = Linter(options: options).lint(bytes: bytes, path: "fuzz.log", feedSize: 1 + bytes.count / 3)
    let result = LintResult(files: [file])
    if let inspection = file.inspection {
        fuzzCheckInert(InspectionReport.text([inspection]), "inspect")
        fuzzCheckJSON(InspectionReport.json([inspection]), "inspect --format json")
    }
    let inputs = TimelineInput.from(result)
    fuzzCheckInert(TimelineTextRenderer(width: 100).render(inputs), "timeline")
    fuzzCheckInert(TimelineTextRenderer(width: 40, axis: .time).render(inputs), "timeline --axis time")
    fuzzCheckJSON(TimelineJSON.render(inputs), "timeline --format json")
    fuzzCheckJSON(ChromeTrace.render(inputs), "timeline --format chrome-trace")
    let leaks = LeakReport(inputs: inputs, graceSeconds: options.timeline.leakGraceSeconds)
    fuzzCheckInert(leaks.text(), "leaks")
    fuzzCheckJSON(leaks.json(), "leaks --format json")
    let markdown = leaks.markdown()
    for u in markdown.unicodeScalars where u != "\n" && u != "\t" && (u.value < 0x20 || TerminalText.escaped(u)) {
        fuzzFail("leaks --format markdown: U+\(String(u.value, radix: 16, uppercase: true))")
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
        fuzzCheckInert(loaded.report.text(), "leaks of a leak report")
        fuzzCheckJSON(loaded.report.json(), "leaks --format json of a leak report")
    }
    return 0
}
