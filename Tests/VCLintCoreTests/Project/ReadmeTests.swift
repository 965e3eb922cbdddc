import Foundation
import Testing
@testable import VCLintCore

@Suite struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The rule table is generated from the rules (`vclint rules --markdown`) into docs/rules.md,
    /// which the README links to (RuleReferenceTests keeps the whole file generated).
    @Test func ruleTableIsGeneratedFromTheRules() throws {
        let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(reference.contains(RuleTable.markdown(.default, configuration: nil)))
        #expect(try Self.readme().contains("](docs/rules.md)"))
    }

    /// The README is the front door: it links to every page of docs/.
    @Test func readmeLinksToEveryDocsPage() throws {
        let readme = try Self.readme()
        for page in try Docs.documents() where page.hasPrefix("docs/") {
            #expect(readme.contains("](\(page)"), "the README does not link to \(page)")
        }
    }

    @Test func firstLinesGiveSetupAndTestCommands() throws {
        let head = try Self.readme().split(separator: "\n").prefix(7).joined(separator: "\n")
        #expect(head.contains("apt-get install -y libpcre2-dev zlib1g-dev"))
        #expect(head.contains("make install PREFIX=$HOME/.local"))
        #expect(head.contains("vclint lint Fixtures/"))
        #expect(head.contains("swift test"))
    }

    /// What docs/capturing.md's base-controller snippets print is recognised, with address and parent.
    @Test func snippetOutputIsLintable() throws {
        let p = MessageParser()
        let objc = try #require(p.parse("<HomeViewController: 0x7fa1c8d0a200> viewWillAppear:"))
        #expect(objc.kind == .viewWillAppear && objc.address == 0x7fa1c8d0a200)
        let objcNil = try #require(p.parse("<ChildViewController: 0x7fa1c8d0b000> willMoveToParentViewController: (null)"))
        #expect(objcNil.parent == ParentArgument.none)
        let objcParent = try #require(p.parse("<ChildViewController: 0x7fa1c8d0b000> didMoveToParentViewController: <ContainerViewController: 0x7fa1c8d0a200>"))
        #expect(objcParent.parent == .parent("ContainerViewController"))
        let swift = try #require(p.parse("<Shop.HomeViewController: 0x600003d0c000> deinit"))
        #expect(swift.kind == .dealloc && swift.className == "HomeViewController")
        let swiftMove = try #require(p.parse("<Shop.ChildViewController: 0x600003d0c100> willMove(toParent:) nil"))
        #expect(swiftMove.kind == .willMoveToParent && swiftMove.parent == ParentArgument.none)
        let marker = try #require(p.parse("HomeViewController present end"))
        #expect(marker.kind == .presentEnd)
    }
}
