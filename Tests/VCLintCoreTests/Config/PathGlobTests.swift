import Foundation
import Testing
@testable import VCLintCore

/// `included`/`excluded` globs and ignore files, matched as SwiftLint and ripgrep users expect.
@Suite struct PathGlobTests {
    func m(_ glob: String, _ path: String) -> Bool { PathGlob(glob).matches(path.split(separator: "/").map(String.init)) }

    @Test func starStaysWithinAName() {
        #expect(m("*.log", "a.log"))
        #expect(!m("*.log", "sub/a.log"))
        #expect(m("logs/*.log", "logs/a.log"))
        #expect(!m("logs/*.log", "logs/old/a.log"))
        #expect(m("logs/?.log", "logs/a.log"))
        #expect(m("logs/[ab].log", "logs/b.log") && !m("logs/[ab].log", "logs/c.log"))
    }

    @Test func doubleStarSpansFolders() {
        #expect(m("**/*.log", "a.log"))
        #expect(m("**/*.log", "x/y/a.log"))
        #expect(m("**/old/*.log", "old/a.log"))
        #expect(m("**/old/*.log", "logs/2024/old/a.log"))
        #expect(!m("**/old/*.log", "logs/old/deep/a.log") || m("**/old", "logs/old/deep/a.log"))
        #expect(m("logs/**", "logs/a/b/c.log"))
        #expect(m("logs/**/c.log", "logs/c.log"))
        #expect(!m("logs/**", "other/logs/a.log"))
    }

    @Test func aFolderCoversWhatIsBelowIt() {
        #expect(m("DerivedData", "DerivedData/Logs/x.log"))
        #expect(m("DerivedData/", "DerivedData/x.log"))
        #expect(m("./DerivedData/*", "DerivedData/Logs/x.log"))
        #expect(!m("Derived", "DerivedData/x.log"))
    }

    @Test func pathsRelativeToTheConfigurationsFolder() {
        #expect(PathGlob.relativeComponents("/repo/logs/a.log", to: "/repo") == ["logs", "a.log"])
        #expect(PathGlob.relativeComponents("/repo/logs/./x/../a.log", to: "/repo/") == ["logs", "a.log"])
        #expect(PathGlob.relativeComponents("/other/a.log", to: "/repo/sub") == ["..", "..", "other", "a.log"])
        let cwd = FileManager.default.currentDirectoryPath
        #expect(PathGlob.relativeComponents("logs/a.log", to: cwd) == ["logs", "a.log"])
    }

    @Test func ignoreFileLines() {
        let base = ["repo"]
        var rules = IgnoreRules()
        rules.add(IgnoreRules.parse("# comment\n\n*.tmp.log\n!keep.tmp.log\n/rootonly.log\nbuild/\ndocs/**/draft.log   \n\\#hash.log\n", base: base))
        func ignored(_ p: String, folder: Bool = false) -> Bool { rules.ignores(base + p.split(separator: "/").map(String.init), isFolder: folder) }
        #expect(ignored("a.tmp.log") && ignored("deep/b.tmp.log"))
        #expect(!ignored("keep.tmp.log"))
        #expect(ignored("rootonly.log") && !ignored("sub/rootonly.log"))
        #expect(ignored("build", folder: true) && ignored("x/build", folder: true) && !ignored("build"))
        #expect(ignored("docs/draft.log") && ignored("docs/a/b/draft.log") && !ignored("draft.log"))
        #expect(ignored("#hash.log"))
        #expect(!ignored("a.log"))
        #expect(!rules.ignores(["elsewhere", "a.tmp.log"], isFolder: false))  // outside the file's folder
    }
}
