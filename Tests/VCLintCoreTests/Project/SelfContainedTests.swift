import Foundation
import Testing

/// The repository is whole for whoever clones it: its code, scripts, notes and documentation point at
/// its own documents in docs/, never at documents outside it or at tracker numbers that mean nothing
/// without the tracker. The one exception is the optional real-capture test (`RealCaptureTests` and its
/// `OptionalTool` entry in TestSupport.swift), which reads published captures beside the checkout.
enum SelfContained {
    /// What is scanned: these folders and files, as paths relative to the package root.
    static let folders = ["Sources", "Tests", "Scripts", "Benchmarks", "docs", ".ci", "Fixtures"]
    static let files = ["README.md", "Makefile", "action.yml"]
    /// Where a document must be named by its path from the package root (docs/ and its file name):
    /// everything but the documentation.
    static let codeRoots = ["Sources/", "Tests/", "Scripts/", "Benchmarks/", ".ci/", "action.yml", "Makefile"]

    static func isCode(_ path: String) -> Bool { codeRoots.contains { path == $0 || path.hasPrefix($0) } }

    /// Fixtures are captures, reports and configurations; only their notes (Markdown that is not an
    /// expected report) are prose that could point somewhere.
    static func isScanned(_ path: String) -> Bool {
        guard path.hasPrefix("Fixtures/") else { return true }
        return path.hasSuffix(".md") && !path.contains(".expected.")
    }

    /// Every scanned text file (valid UTF-8, no NUL), relative path and text, sorted by path. Build
    /// folders and git-ignored benchmark data are left out.
    static func scannedFiles() throws -> [(path: String, text: String)] {
        var paths = files
        for folder in folders {
            let root = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in walker {
                let rel = folder + "/" + url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)
                if url.lastPathComponent.hasPrefix(".build") || rel == "Benchmarks/data" {
                    walker.skipDescendants()
                    continue
                }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, isScanned(rel) else { continue }
                paths.append(rel)
            }
        }
        var out: [(String, String)] = []
        for path in paths.sorted() {
            guard let data = FileManager.default.contents(atPath: packageRoot.appendingPathComponent(path).path),
                  data.count <= 4 << 20, !data.contains(0), let text = String(data: data, encoding: .utf8) else { continue }
            out.append((path, text))
        }
        return out
    }

    /// The names of the project's documents: the pages of docs/, and names earlier documents had.
    static func documentNames() throws -> Set<String> {
        let pages = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }
        return Set(pages).union(["lifecycle", "output", "rules", "ARCHITECTURE", "STYLE"])
    }

    /// The lines (1-based) of TestSupport.swift's entry for the published captures.
    static func optionalToolEntry(_ text: String) -> ClosedRange<Int>? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("static let sharedCaptures = OptionalTool(") }),
              let end = lines[start...].firstIndex(where: { $0.contains("sharedCapturesFolder:") }) else { return nil }
        return (start + 1)...(end + 1)
    }

    /// The part of a code line that is a comment: after `//` in Swift and C, after a `#` that starts a
    /// word elsewhere (shell, YAML, Python, make), so that the `#` of a link's anchor starts none.
    static func comment(_ line: Substring, path: String) -> Substring? {
        if [".swift", ".h", ".c", ".modulemap"].contains(where: path.hasSuffix) {
            return line.range(of: "//").map { line[$0.upperBound...] }
        }
        var previous: Character = " "
        for i in line.indices {
            if line[i] == "#", previous == " " || previous == "\t" { return line[line.index(after: i)...] }
            previous = line[i]
        }
        return nil
    }

    /// The heading anchors of each docs page, read once.
    final class Anchors {
        private var cache: [String: Set<String>?] = [:]
        /// nil when the page does not exist.
        func of(_ page: String) -> Set<String>? {
            if let known = cache[page] { return known }
            let text = try? Docs.read("docs/\(page).md")
            let anchors = text.map(Docs.anchors)
            cache[page] = anchors
            return anchors
        }
    }

    // The patterns are spelled so that this file does not match them itself.
    static var outside: Regex<Substring> { #/\.\.\/shared|\bshared\/(?:spec|schemas)\b/# }
    static var sectionSign: Regex<Substring> { #/§\s*\d|\.md\b[^\n§]{0,4}§/# }
    static var trackerNumber: Regex<Substring> { #/\b[Ii]ssues?[ \t]*[0-9]+/# }
    static var styleGuide: Regex<Substring> { #/\bSTYLE\.md\b/# }
    /// A path-like word ending in `.md` (and its `#anchor`), with the character before it.
    static var documentPath: Regex<(Substring, lead: Substring?, path: Substring, name: Substring, anchor: Substring?)> {
        #/(?:^|(?<lead>[^A-Za-z0-9_.\/-]))(?<path>[A-Za-z0-9_.\/-]*?(?<name>[A-Za-z0-9_-]+)\.md)\b(?:#(?<anchor>[A-Za-z0-9_-]+))?/#
    }

    /// What is wrong with one file, as `path:line: why` lines.
    static func problems(path: String, text: String, names: Set<String>, anchors: Anchors) -> [String] {
        var out: [String] = []
        let code = isCode(path)
        let allowedOutside: ClosedRange<Int>? = path == "Tests/VCLintCoreTests/Golden/RealCaptureTests.swift" ? 1...Int.max
            : path == "Tests/VCLintCoreTests/Support/TestSupport.swift" ? optionalToolEntry(text) : nil
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let n = i + 1
            func report(_ why: String) { out.append("\(path):\(n): \(why): \(line.trimmingCharacters(in: .whitespaces))") }
            // Swift's Regex is slow; a plain search for a literal each pattern needs goes first.
            if line.contains("shared"), line.contains(outside), !(allowedOutside?.contains(n) ?? false) {
                report("points outside the repository (only the optional real-capture test may)")
            }
            if line.contains("§"), line.contains(sectionSign) {
                report("a section number of a document: name the heading as docs/NAME.md#anchor")
            }
            if line.contains("ssue"), line.contains(trackerNumber) {
                report("an issue number: say what it was about, and which docs page explains it")
            }
            if line.contains("STYLE"), line.contains(styleGuide) { report("a style guide the repository does not hold") }
            guard line.contains(".md") else { continue }
            let commentPart = code ? comment(line, path: path) : line[...]
            for m in line.matches(of: documentPath) {
                let name = String(m.output.name), whole = String(m.output.path)
                let isDocsPath = whole == "docs/\(name).md"
                // Documentation text generated from code (docs/rules.md) links its sibling pages
                // relatively, as the pages of docs/ do among themselves.
                let isRelativeLink = (code || path.hasPrefix("docs/")) && whole == "\(name).md"
                    && line[..<m.output.path.startIndex].hasSuffix("](")
                if code && names.contains(name) && !isDocsPath && !isRelativeLink {
                    report("\(whole): name a document as docs/\(name).md (with #anchor), so it is found in this repository")
                    continue
                }
                // Anchors are checked in comments (in code, a string may hold a made-up link on
                // purpose), in generated documentation and everywhere in the notes and docs.
                let inComment = commentPart.map { $0.startIndex <= m.range.lowerBound } ?? false
                guard isRelativeLink || (isDocsPath && inComment) else { continue }
                guard let headings = anchors.of(name) else {
                    report("docs/\(name).md does not exist")
                    continue
                }
                if let anchor = m.output.anchor, !headings.contains(String(anchor)) {
                    report("docs/\(name).md has no heading with the anchor #\(anchor)")
                }
            }
        }
        return out
    }
}

@Suite struct SelfContainedTests {
    @Test func nothingPointsOutsideTheRepository() throws {
        let files = try SelfContained.scannedFiles()
        #expect(files.count > 200, "only \(files.count) files scanned")
        #expect(files.contains { $0.path == ".ci/run" } && files.contains { $0.path == "Fixtures/MANIFEST.md" })
        #expect(!files.contains { $0.path.hasSuffix(".log") })
        let names = try SelfContained.documentNames()
        let anchors = SelfContained.Anchors()
        var problems: [String] = []
        for (path, text) in files {
            problems += SelfContained.problems(path: path, text: text, names: names, anchors: anchors)
        }
        #expect(problems.isEmpty, "\(problems.count) references outside the repository or to nothing:\n\(problems.joined(separator: "\n"))")
    }

    /// The checks themselves, on lines that break them (spelled in pieces, so this file stays clean).
    @Test func theChecksCatchWhatTheyAreFor() throws {
        let names = try SelfContained.documentNames()
        let anchors = SelfContained.Anchors()
        func problems(_ path: String, _ line: String) -> [String] {
            SelfContained.problems(path: path, text: "let x = 1\n" + line + "\n", names: names, anchors: anchors)
        }
        let lifecycle = "lifecycle" + ".md", sign = "§"
        let bad: [(String, String)] = [
            ("Sources/VCLintCore/X.swift", "/// Identity (\(lifecycle) \(sign)3)."),
            ("Sources/VCLintCore/X.swift", "/// Routing (\(sign)3)."),
            ("Sources/VCLintCore/X.swift", "/// See \(lifecycle)#removal."),
            ("Sources/VCLintCore/X.swift", "/// (" + "iss" + "ue 15: memory)"),
            ("Tests/VCLintCoreTests/X.swift", "/// " + "Iss" + "ue 14's families"),
            ("Benchmarks/run.sh", "# (" + "iss" + "ue6)"),
            ("Scripts/action.sh", "# as " + "STYLE" + ".md says"),
            ("Sources/VCLintCore/X.swift", "/// the spec in " + "../sha" + "red/spec"),
            ("docs/development.md", "See [the spec](../" + "../sha" + "red/spec/x.md)."),
            ("Sources/VCLintCore/X.swift", "/// (docs/lifecycle" + ".md#no-such-heading)"),
            ("Sources/VCLintCore/X.swift", "/// (docs/no-such-page" + ".md)"),
            ("Scripts/action.sh", "# the steps (docs/ci" + ".md#no-such-heading)"),
            ("Makefile", "# see output" + ".md"),
            ("Sources/VCLintCore/Rules/X.swift", "\"[removal](lifecycle" + ".md#no-such-heading)\""),
        ]
        for (path, line) in bad {
            #expect(problems(path, line).count >= 1, "not caught in \(path): \(line)")
        }
        let fine: [(String, String)] = [
            ("Sources/VCLintCore/X.swift", "/// Identity and routing (docs/lifecycle.md#identity-and-sessions)."),
            ("Sources/VCLintCore/X.swift", "/// The rule (docs/rules.md#leaked_controller), see docs/performance.md#memory."),
            ("Benchmarks/run.sh", "# own words, docs/lifecycle.md#free-form-lifecycle-statements"),
            ("docs/ci.md", "The exit code is the gate ([exit codes](output.md#exit-codes-the-ci-contract))."),
            ("Sources/VCLintCore/Rules/X.swift", "\"[sessions](lifecycle.md#sessions)\""),
            ("Tests/VCLintCoreTests/X.swift", "let text = \"See [rules](docs/rules.md#x)\""),
            ("Tests/VCLintCoreTests/X.swift", "/// README.md and Fixtures/MANIFEST.md, the shared list of patterns"),
        ]
        for (path, line) in fine {
            #expect(problems(path, line).isEmpty, "\(path): \(line): \(problems(path, line))")
        }
        // The optional real-capture test may name its folder; nothing else may.
        let entry = "    static let sharedCaptures = OptionalTool(\n        name: \"" + "../" + "shared/captures\",\n        available: x)\n    static var sharedCapturesFolder: URL { x }\n"
        #expect(SelfContained.problems(path: "Tests/VCLintCoreTests/Support/TestSupport.swift", text: entry, names: names, anchors: anchors).isEmpty)
        #expect(SelfContained.problems(path: "Tests/VCLintCoreTests/CLI/CLITests.swift", text: entry, names: names, anchors: anchors).count == 1)
    }
}
