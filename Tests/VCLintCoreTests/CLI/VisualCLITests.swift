import Foundation
import Testing
@testable import VCLintCore

/// `vclint timeline`, `leaks` and `report` as a user or a CI job runs them.
@Suite(.serialized) struct VisualCLITests {
    let cli = CLITests()

    /// COLUMNS is removed so that the width comes from `--width` or the default.
    func run(_ args: [String], env extra: [String: String] = [:]) throws -> CLITests.Run {
        var env: [String: String?] = ["COLUMNS": nil]
        for (k, v) in extra { env[k] = v }
        return try cli.run(args, env: env)
    }

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-visual-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func helpExplainsEachCommand() throws {
        for (command, needle) in [("timeline", "chrome-trace"), ("leaks", "cannot be judged"), ("report", "self-contained")] {
            let r = try run([command, "--help"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("OVERVIEW:"))
            #expect(r.stdout.contains("Examples:"))
            #expect(r.stdout.contains("vclint \(command) "))
            #expect(r.stdout.contains("Exit codes"))
            #expect(r.stdout.contains(needle))
        }
        #expect(try run(["--help"]).stdout.contains("timeline"))
    }

    @Test func timelineTextMatchesTheLibraryAndTheGolden() throws {
        let r = try run(["timeline", "Fixtures/seeds/navtest-seed000.log"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        // Not a terminal and no COLUMNS: 100 columns, no color.
        let golden = try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/timeline/navtest-seed000.timeline.golden"), encoding: .utf8)
        #expect(r.stdout == golden)
        let narrow = try run(["timeline", "Fixtures/seeds/navtest-seed000.log"], env: ["COLUMNS": "70"])
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 70 })
        #expect(narrow.stdout != golden)
        let wide = try run(["timeline", "--width", "100", "Fixtures/seeds/navtest-seed000.log"], env: ["COLUMNS": "70"])
        #expect(wide.stdout == golden)
    }

    @Test func timelineExportsToFiles() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.json")
        let r = try run(["timeline", "--format", "chrome-trace", "--output", trace.path, "Fixtures/seeds", "Fixtures/dialects/uikit-warnings.log"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        let text = try String(contentsOf: trace, encoding: .utf8)
        try TraceChecks.validate(text)
        // 9 seed files (one session each) and the two sessions of uikit-warnings: one process each.
        #expect(text.components(separatedBy: "\"name\":\"process_name\"").count - 1 == 11)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.json"])
        let json = try run(["timeline", "--format", "json", "Fixtures/flows/leak-pop.log"])
        #expect(json.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(doc["version"] as? Int == 1)
    }

    @Test func timelineArgumentErrorsExitTwo() throws {
        for args in [["timeline", "--from", "soon", "Fixtures/seeds/navtest-seed000.log"],
                     ["timeline", "--format", "json", "--from", "3", "Fixtures/seeds/navtest-seed000.log"],
                     ["timeline", "--width", "10", "Fixtures/seeds/navtest-seed000.log"],
                     ["timeline", "--format", "svg", "Fixtures/seeds/navtest-seed000.log"],
                     ["timeline", "Fixtures/nope.log"]] {
            let r = try run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
    }

    /// `--format` of `timeline`, `leaks` and `inspect` takes the names of its view's registry: its
    /// help lists them with their summaries, and an unknown name is one line on stderr that lists
    /// them, with the one meant when it is a typo.
    @Test func formatNamesComeFromTheRegistries() throws {
        for (command, registry) in [("timeline", ViewFormats.timeline.help), ("leaks", ViewFormats.leaks.help), ("inspect", ViewFormats.inspect.help)] {
            let help = try run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains(registry), "\(command): \(help)")
        }
        for (args, said) in [(["leaks", "--format", "htm"], "unknown format 'htm' for vclint leaks; did you mean 'html'? (expected one of: text, json, markdown, html)"),
                             (["inspect", "--format", "yaml"], "unknown format 'yaml' for vclint inspect; expected one of: text, json"),
                             (["timeline", "--format", "chrome_trace"], "unknown format 'chrome_trace' for vclint timeline; did you mean 'chrome-trace'? (expected one of: text, json, chrome-trace)")] {
            let r = try run(args + ["Fixtures/flows/leak-pop.log"])
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(said), "\(args): \(r.stderr)")
        }
        let zoom = try run(["timeline", "--format", "chrome-trace", "--from", "3", "Fixtures/flows/leak-pop.log"])
        #expect(zoom.stderr.contains("--from/--to zoom the text timeline; the json and chrome-trace formats hold the whole timeline"), "\(zoom.stderr)")
    }

    @Test func leaksExitCodes() throws {
        let leak = try run(["leaks", "Fixtures/flows/leak-pop.log"])
        #expect(leak.status == 1)
        #expect(leak.stdout.contains("ProductDetailViewController: 1 leaked instance"))
        #expect(leak.stdout.contains("Fixtures/flows/leak-pop.log:26: viewDidDisappear"))
        let clean = try run(["leaks", "Fixtures/seeds/navtest-seed000.log"])
        #expect(clean.status == 0)
        #expect(clean.stdout.hasPrefix("vclint leaks: 0 confirmed leaks"))
        // An unconfirmed leak alone does not fail.
        let grace = try run(["leaks", "--leak-grace-seconds", "60", "Fixtures/flows/leak-pop.log"])
        #expect(grace.status == 0)
        #expect(grace.stdout.contains("Unconfirmed (the log ended within the grace period): 1"))
        let missing = try run(["leaks", "Fixtures/nope.log"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "vclint: error: Fixtures/nope.log: no such file or directory\n")
        for format in ["json", "markdown", "html"] {
            let r = try run(["leaks", "--format", format, "Fixtures/seeds"])
            #expect(r.status == 1, "\(format)")
            #expect(r.stdout.contains("Child1ViewController"))
        }
    }

    @Test func reportIsWrittenAtomically() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("report.html")
        let r = try run(["report", "Fixtures/flows/leak-pop.log", "--output", out.path])
        #expect(r.status == 1)  // a leak: an error finding, as lint
        #expect(r.stdout.isEmpty)
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        let clean = try run(["report", "Fixtures/seeds/navtest-seed000.log", "--output", out.path])
        #expect(clean.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.html"])
        // A run that fails leaves the previous report.
        let before = try Data(contentsOf: out)
        let failed = try run(["report", "Fixtures/nope.log", "--output", out.path])
        #expect(failed.status == 2)
        #expect(try Data(contentsOf: out) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.html"])
        let unwritable = try run(["report", "Fixtures/seeds/navtest-seed000.log", "--output", dir.appendingPathComponent("no/such/dir/r.html").path])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.split(separator: "\n").count == 1)
        #expect(try run(["report", "Fixtures/seeds/navtest-seed000.log"]).status == 2)  // --output is required
    }
}

/// The HTML report in a real browser: headless Chromium (Debian's `chromium`, which `.ci/run`
/// installs) renders the report of multi-session captures to a PNG that is not blank, logs no
/// console message, and shows the hostile fixture's markup as text.
@Suite(.serialized) struct BrowserTests {
    static let chromium: String? = OptionalTool.onPath("chromium", "chromium-browser")

    static func exec(_ tool: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + args
        p.currentDirectoryURL = packageRoot
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// Decodes the PNG (8-bit RGB/RGBA, non-interlaced, as Chromium writes) and prints its size, the
    /// number of distinct colors and the share of pixels that are not the background.
    static let pngStats = #"""
    import struct, sys, zlib
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colors, counts = set(), {}
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 2):
            px = bytes(line[x:x + 3])
            colors.add(px)
            counts[px] = counts.get(px, 0) + 1
        prev = line
    total = sum(counts.values())
    background = max(counts.values())
    print(w, h, len(colors), round(1 - background / total, 4))
    """#

    @Test(.requires(.chromium, for: "the headless-browser test of the HTML report"),
          .requires(.python3, for: "reading the browser's screenshot"))
    func reportRendersInHeadlessChromium() throws {
        let browser = try #require(Self.chromium)
        let dir = scratchRoot.appendingPathComponent("vclint-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let html = dir.appendingPathComponent("report.html")
        let report = try VisualCLITests().run(["report", "--output", html.path, "Fixtures/dialects/uikit-warnings.log",
                                               "Fixtures/hostile/html-injection.log", "Fixtures/seeds/navtest-seed000.log"])
        #expect(report.status == 1)
        let png = dir.appendingPathComponent("shot.png")
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                     "--user-data-dir=\(dir.appendingPathComponent("profile").path)", "--enable-logging=stderr", "--v=0"]
        let shot = try Self.exec("timeout", ["120", browser] + flags + ["--screenshot=\(png.path)", "--window-size=1200,2000", html.absoluteString])
        #expect(shot.status == 0, "\(shot.err)")
        let console = shot.err.split(separator: "\n").filter { $0.contains(":CONSOLE") || $0.contains("Uncaught") }
        #expect(console.isEmpty, "console messages: \(console)")
        let stats = try Self.exec("python3", ["-c", Self.pngStats, png.path])
        #expect(stats.status == 0, "\(stats.err)")
        let fields = stats.out.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(fields.count == 4)
        if fields.count == 4 {
            #expect(fields[0] == "1200" && fields[1] == "2000")
            #expect(Int(fields[2]) ?? 0 >= 8, "distinct colors: \(fields[2])")  // text, lanes, findings: not blank
            #expect(Double(fields[3]) ?? 0 > 0.02, "non-background share: \(fields[3])")
        }
        // The DOM as the browser built it: the hostile markup is text, not elements.
        let dom = try Self.exec("timeout", ["120", browser] + flags + ["--dump-dom", html.absoluteString])
        #expect(dom.status == 0)
        #expect(dom.out.contains("Shop &lt;script&gt;alert(\"p\")&lt;/script&gt; &amp; Co"))
        #expect(!dom.out.lowercased().contains("<script"))
        #expect(dom.out.contains("<svg class=\"lanes\""))
        // The findings, each with its log excerpt, come before the timelines.
        let findings = try #require(dom.out.range(of: "<h2 id=\"findings\">"))
        let timelines = try #require(dom.out.range(of: "<h2 id=\"timelines\">"))
        #expect(findings.lowerBound < timelines.lowerBound)
        #expect(dom.out.contains("<pre class=\"log\">"))
    }

    /// The page reads like the log: an ndjson capture's excerpts show the time, process and message
    /// (not the raw record), and the findings come most severe first, whatever the inputs' order.
    @Test(.requires(.chromium, for: "the headless-browser test of the HTML report"))
    func reportReadsLikeTheLogInHeadlessChromium() throws {
        let browser = try #require(Self.chromium)
        let dir = scratchRoot.appendingPathComponent("vclint-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let html = dir.appendingPathComponent("report.html")
        // late-dealloc.log's warning comes first in input order; log-show-twin.ndjson's leak is an error.
        let report = try VisualCLITests().run(["report", "--output", html.path, "Fixtures/flows/late-dealloc.log",
                                               "Fixtures/envelopes/log-show-twin.ndjson"])
        #expect(report.status == 1)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                     "--user-data-dir=\(dir.appendingPathComponent("profile").path)"]
        let dom = try Self.exec("timeout", ["120", browser] + flags + ["--dump-dom", html.absoluteString])
        #expect(dom.status == 0)
        // The rendered text of the findings section.
        let start = try #require(dom.out.range(of: "<h2 id=\"findings\">"))
        let end = try #require(dom.out.range(of: "<h2 id=\"timelines\">"))
        let section = String(dom.out[start.upperBound..<end.lowerBound])
        let text = section.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "&quot;", with: "\"")
        #expect(text.contains("2020-04-01 16:31:01.664194+0800 Shop[63209] ProductDetailViewController viewWillDisappear(_:)"))
        #expect(!text.contains("eventMessage"), "an excerpt shows the raw ndjson record")
        let error = try #require(text.range(of: "leaked_controller"))
        let warning = try #require(text.range(of: "late_dealloc"))
        #expect(error.lowerBound < warning.lowerBound, "the error is listed before the warning")
    }
}

/// One gate for every command: `report`, `leaks` and `timeline` take `--baseline` as `lint` does,
/// and show the findings it records as baselined (greyed, counted apart), never as failing.
@Suite(.serialized) struct VisualBaselineCLITests {
    let cli = CLITests()
    static let fixture = "Fixtures/flows/leak-pop.log"  // leaked_controller@26

    /// A baseline of the fixture's findings, in a fresh folder.
    func baseline() throws -> URL {
        let dir = scratchRoot.appendingPathComponent("vclint-visual-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("baseline.json")
        let made = try cli.run(["baseline", "create", Self.fixture, "--output", file.path])
        #expect(made.status == 0, "\(made.stderr)")
        return file
    }

    @Test func leaksListsABaselinedLeakApartAndPasses() throws {
        let file = try baseline()
        let without = try cli.run(["leaks", Self.fixture])
        #expect(without.status == 1)
        let with = try cli.run(["leaks", Self.fixture, "--baseline", file.path])
        #expect(with.status == 0, "a baselined leak fails nothing")
        #expect(with.stdout.contains("0 confirmed leaks of 0 classes, 0 unconfirmed, 1 baselined,"))
        #expect(with.stdout.contains("Baselined (recorded in the baseline: known, failing nothing): 1"))
        #expect(with.stdout.contains("ProductDetailViewController#2"))
        let json = try cli.run(["leaks", Self.fixture, "--baseline", file.path, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["summary"] as? [String: Any])?["baselined"] as? Int == 1)
        let listed = object?["baselined"] as? [[String: Any]]
        #expect(listed?.first?["confirmed"] as? Bool == true)
        #expect(listed?.first?["fingerprint"] as? String != nil)
        for format in ["markdown", "html"] {
            let r = try cli.run(["leaks", Self.fixture, "--baseline", file.path, "--format", format])
            #expect(r.status == 0)
            #expect(r.stdout.contains("Baselined (recorded in the baseline: known, failing nothing)"), "\(format)")
        }
    }

    @Test func reportGreysABaselinedFindingAndPasses() throws {
        let file = try baseline()
        let page = file.deletingLastPathComponent().appendingPathComponent("report.html")
        #expect(try cli.run(["report", Self.fixture, "--output", page.path]).status == 1)
        let r = try cli.run(["report", Self.fixture, "--output", page.path, "--baseline", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<span class=\"sev-error\">0 errors</span>"))
        #expect(html.contains("1 baselined</span>: recorded in the baseline, shown greyed, failing nothing"))
        #expect(html.contains("class=\"baselined\"><td><code>"))
        #expect(html.contains("finding finding-error baselined"))
        // The report must not overwrite the baseline it reads.
        let clash = try cli.run(["report", Self.fixture, "--output", file.path, "--baseline", file.path])
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("--baseline"))
    }

    @Test func timelineMarksABaselinedFinding() throws {
        let file = try baseline()
        let text = try cli.run(["timeline", Self.fixture, "--baseline", file.path, "--width", "120"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("! line 26 error (baselined) leaked_controller"))
        let json = try cli.run(["timeline", Self.fixture, "--baseline", file.path, "--format", "json"])
        #expect(json.stdout.contains("\"baselined\":true") || json.stdout.contains("\"baselined\": true"))
        let plain = try cli.run(["timeline", Self.fixture, "--format", "json"])
        #expect(!plain.stdout.contains("baselined"))
    }

    @Test func aMissingBaselineIsOneLineAndExitTwo() throws {
        for command in ["report", "leaks", "timeline"] {
            var args = [command, Self.fixture, "--baseline", "/nonexistent/baseline.json"]
            if command == "report" { args += ["--output", "-"] }
            let r = try cli.run(args)
            #expect(r.status == 2, "\(command)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(command): \(r.stderr)")
        }
    }

    @Test func shardsKeepTheirBaselinedLeaksWhenMerged() throws {
        let file = try baseline()
        let dir = file.deletingLastPathComponent()
        let shard = dir.appendingPathComponent("leaks-1.json")
        let made = try cli.run(["leaks", Self.fixture, "--baseline", file.path, "--format", "json", "--output", shard.path])
        #expect(made.status == 0)
        let merged = try cli.run(["leaks", shard.path])
        #expect(merged.status == 0)
        #expect(merged.stdout.contains("1 baselined"))
        let refused = try cli.run(["leaks", shard.path, "--baseline", file.path])
        #expect(refused.status == 2)
    }

    /// An Android class without LeakCanary's evidence keeps its platform's words through a shard's JSON and the merge.
    @Test func anAndroidClassWithoutEvidenceSurvivesTheMerge() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-android-leaks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = dir.appendingPathComponent("leaks-1.json")
        let made = try cli.run(["leaks", "Fixtures/android/capture-57-studio-rotation-recreate-pids.log", "--format", "json", "--output", shard.path])
        #expect(made.status == 0)
        #expect(try String(contentsOf: shard, encoding: .utf8).contains("\"android\": true"))
        let merged = try cli.run(["leaks", shard.path])
        #expect(merged.status == 0)
        #expect(merged.stdout.contains("MainActivity: 4 instances, 2 ended their use (no GC evidence: add LeakCanary, or log finalize)"),
                "\(merged.stdout)")
    }

    /// The unjudged classes' heading speaks each platform's words: dealloc for iOS, a release shown for Android,
    /// both when a leak report holds both.
    @Test func theUnjudgedHeadingNamesWhatIsMissingPerPlatform() {
        let ios = LeakReport.Unjudged(className: "A", instances: 1, removedWithoutDealloc: 1, paths: ["a.log"])
        var android = ios
        android.android = true
        #expect(LeakReport.unjudgedHeading([ios]).heading == "Classes whose dealloc is not logged (a leak cannot be judged)")
        #expect(LeakReport.unjudgedHeading([]).column == "removed, never deallocated")
        #expect(LeakReport.unjudgedHeading([android]).heading == "Classes whose release is never shown (a leak cannot be judged)")
        #expect(LeakReport.unjudgedHeading([android]).column == "ended their use, never released")
        #expect(LeakReport.unjudgedHeading([ios, android]).heading.contains("dealloc is not logged or whose release is never shown"))
    }
}
