import Foundation
import Testing
@testable import VCLintCore

/// The documentation as files: README.md and docs/*.md, read as GitHub renders them.
enum Docs {
    /// README.md and every docs/*.md, as paths relative to the package root, sorted.
    static func documents() throws -> [String] {
        let docs = packageRoot.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + names.map { "docs/" + $0 }
    }

    /// The documents whose links are checked: the documentation, and the notes beside the fixtures.
    static func linkedDocuments() throws -> [String] {
        try documents() + ["Fixtures/MANIFEST.md", "Fixtures/schemas/README.md"]
    }

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    /// A document's part between two markers is its generator's text (`generated`); with
    /// VCLINT_UPDATE_DOCS=1 the document is rewritten to it instead.
    static func expectGenerated(_ relative: String, between begin: String, and end: String, is generated: String,
                                _ failure: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = packageRoot.appendingPathComponent(relative)
        let text = try String(contentsOf: url, encoding: .utf8)
        let from = try #require(text.range(of: begin), sourceLocation: sourceLocation)
        let to = try #require(text.range(of: end), sourceLocation: sourceLocation)
        let inFile = String(text[from.upperBound..<to.lowerBound])
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_DOCS"] == "1", inFile != generated {
            try (String(text[..<from.upperBound]) + generated + String(text[to.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(inFile == generated, failure, sourceLocation: sourceLocation)
    }

    /// A document's lines outside fenced code blocks, with their 1-based line numbers.
    static func prose(_ text: String) -> [(line: Int, text: Substring)] {
        var out: [(Int, Substring)] = []
        var fence: Substring?
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let f = fence {
                if trimmed.hasPrefix(f) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix { $0 == trimmed.first }
                continue
            }
            out.append((i + 1, line))
        }
        return out
    }

    /// The anchors GitHub gives a document's headings: the heading's text as rendered (code spans and
    /// links reduced to their text), lower-cased, everything but letters, digits, spaces, `-` and `_`
    /// dropped, spaces turned into `-`; a repeated slug gets `-1`, `-2`, ….
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var out: Set<String> = []
        for (_, line) in prose(text) {
            guard line.hasPrefix("#") else { continue }
            let level = line.prefix { $0 == "#" }.count
            guard level <= 6, line.dropFirst(level).first == " " else { continue }
            let slug = slug(String(line.dropFirst(level)).trimmingCharacters(in: .whitespaces))
            let n = seen[slug, default: 0]
            seen[slug] = n + 1
            out.insert(n == 0 ? slug : "\(slug)-\(n)")
        }
        return out
    }

    static func slug(_ heading: String) -> String {
        let rendered = heading.replacing(#/\[([^\]]*)\]\([^)]*\)/#) { String($0.output.1) }.replacing("`", with: "")
        var out = ""
        for ch in rendered.lowercased() {
            if ch == " " { out.append("-") }
            else if ch == "-" || ch == "_" || ch.isLetter || ch.isNumber { out.append(ch) }
        }
        return out
    }

    /// The inline links and images of a document's prose (not those in code spans or fenced blocks).
    static func links(_ text: String) -> [(line: Int, target: String)] {
        var out: [(Int, String)] = []
        for (number, line) in prose(text) {
            let withoutCode = String(line).replacing(#/`[^`]*`/#, with: "")
            for m in withoutCode.matches(of: #/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/#) {
                out.append((number, String(m.output.1)))
            }
        }
        return out
    }
}

/// Every relative link of README.md and docs/*.md (and of the fixtures' notes) leads to a file of the
/// repository, and every `#anchor` to a heading of the file it names (as GitHub makes anchors of headings).
@Suite struct DocsLinkTests {
    @Test func everyRelativeLinkResolves() throws {
        let root = packageRoot.standardizedFileURL.path
        var checked = 0
        for document in try Docs.linkedDocuments() {
            let text = try Docs.read(document)
            let folder = packageRoot.appendingPathComponent(document).deletingLastPathComponent()
            for (line, target) in Docs.links(text) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let file = path.isEmpty ? packageRoot.appendingPathComponent(document) : folder.appendingPathComponent(path).standardizedFileURL
                #expect(file.path == root || file.path.hasPrefix(root + "/"), "\(document):\(line): \(target) leads outside the repository")
                #expect(FileManager.default.fileExists(atPath: file.path), "\(document):\(line): \(target): no such file")
                guard parts.count == 2, FileManager.default.fileExists(atPath: file.path), file.pathExtension == "md" else { continue }
                let anchors = Docs.anchors(try String(contentsOf: file, encoding: .utf8))
                #expect(anchors.contains(String(parts[1])), "\(document):\(line): \(target): no heading with that anchor")
            }
        }
        #expect(checked > 50, "the link finder found only \(checked) relative links")
    }

    /// The slug rules the link test relies on, on headings these documents use.
    @Test func slugsFollowGitHub() {
        #expect(Docs.slug("`leaked_controller`") == "leaked_controller")
        #expect(Docs.slug("When a transition is over") == "when-a-transition-is-over")
        #expect(Docs.slug("`vclint merge`: one report from many shards") == "vclint-merge-one-report-from-many-shards")
        #expect(Docs.slug("Exit codes (the CI contract)") == "exit-codes-the-ci-contract")
        #expect(Docs.anchors("# A\n## A\n```\n# not a heading\n```\n### A\n") == ["a", "a-1", "a-2"])
    }

    @Test func linksInCodeAreNotLinks() {
        let text = "See [rules](docs/rules.md#x) and `[not](a link)`.\n```\n[nor](this)\n```\n[img](a.png \"title\")\n"
        #expect(Docs.links(text).map(\.target) == ["docs/rules.md#x", "a.png"])
    }
}

/// docs/rules.md is generated from the rule descriptions (`RuleDocumentation.reference()`).
/// `VCLINT_UPDATE_DOCS=1 swift test --filter RuleReferenceTests` rewrites it; without that variable
/// this test fails while the file and the descriptions disagree.
@Suite struct RuleReferenceTests {
    static let file = packageRoot.appendingPathComponent("docs/rules.md")

    @Test func rulesReferenceIsGeneratedFromTheRules() throws {
        let generated = RuleDocumentation.reference()
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_DOCS"] == "1" {
            try generated.write(to: Self.file, atomically: true, encoding: .utf8)
        }
        let onDisk = try String(contentsOf: Self.file, encoding: .utf8)
        let (a, b) = (onDisk.split(separator: "\n", omittingEmptySubsequences: false), generated.split(separator: "\n", omittingEmptySubsequences: false))
        let firstDifference = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        let same = onDisk == generated
        #expect(same, """
            docs/rules.md differs from the rule descriptions from its line \(firstDifference + 1) on \
            (\(firstDifference < a.count ? "\"\(a[firstDifference])\"" : "end of file") on disk); run \(RuleDocumentation.updateCommand)
            """)
    }

    /// Every rule has its section, and its examples are there as written.
    @Test func everyRuleHasASectionWithItsExamples() {
        let text = RuleDocumentation.reference()
        #expect(text.contains(RuleTable.markdown(.default, configuration: nil)))
        for rule in RuleRegistry.all {
            let d = type(of: rule).description
            #expect(Docs.anchors(text).contains(d.identifier), "\(d.identifier)")
            for ex in d.triggeringExamples + d.nonTriggeringExamples { #expect(text.contains(ex), "\(d.identifier)") }
        }
    }
}

/// The flows docs/lifecycle.md shows as legal are: every `log` block under "Legal flows" is read
/// and gives no finding (a memory warning's one `memory_warning` info aside).
@Suite struct LifecycleDocTests {
    static func legalFlowExamples() throws -> [(heading: String, text: String)] {
        let text = try Docs.read("docs/lifecycle.md")
        var out: [(String, String)] = []
        var inSection = false, heading = ""
        var fence: (isLog: Bool, lines: [Substring])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let f = fence {
                if line.hasPrefix("```") {
                    if f.isLog && inSection { out.append((heading, f.lines.joined(separator: "\n") + "\n")) }
                    fence = nil
                } else {
                    fence?.lines.append(line)
                }
                continue
            }
            if line.hasPrefix("```") {
                fence = (line == "```log", [])
            } else if line.hasPrefix("#") {
                if line.prefix(while: { $0 == "#" }).count <= 3 { inSection = line == "### Legal flows" }
                heading = String(line)
            }
        }
        return out
    }

    @Test func legalFlowsGiveNoFinding() throws {
        let examples = try Self.legalFlowExamples()
        #expect(examples.count >= 8, "only \(examples.count) examples under Legal flows")
        for (heading, text) in examples {
            let r = lint(text)
            #expect(r.stats.events > 0, "\(heading): no event read")
            #expect(r.findings.filter { $0.rule != "memory_warning" }.isEmpty, "\(heading): \(r.summary)")
        }
    }
}
