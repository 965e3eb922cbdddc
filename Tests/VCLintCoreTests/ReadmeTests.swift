import Foundation
import Testing
@testable import VCLintCore

@Suite struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test func ruleTableIsGeneratedFromTheRules() throws {
        #expect(try Self.readme().contains(RuleDocumentation.markdownTable()))
    }

    @Test func firstLinesGiveSetupAndTestCommands() throws {
        let head = try Self.readme().split(separator: "\n").prefix(7).joined(separator: "\n")
        #expect(head.contains("apt-get install -y libpcre2-dev zlib1g-dev"))
        #expect(head.contains("make install PREFIX=$HOME/.local"))
        #expect(head.contains("vclint lint Fixtures/"))
        #expect(head.contains("swift test"))
    }

    /// What the README's base-controller snippets print is recognised, with address and parent.
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
