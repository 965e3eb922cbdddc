import Testing
@testable import VCLintCore

/// `vclint --version` and the reports: the release on its clean tag, the commit anywhere else, and
/// the release alone when git said nothing (a source archive, no git, a folder in another repository).
@Suite struct VersionTests {
    @Test(arguments: [
        ("", "1.0.0"),
        ("v1.0.0-0-g1a2b3c4", "1.0.0"),
        ("v1.0.0-0-g1a2b3c4-dirty", "1.0.0+g1a2b3c4.dirty"),
        ("v1.0.0-3-g1a2b3c4", "1.0.0+g1a2b3c4"),
        ("v0.9.0-12-gdeadbee", "1.0.0+gdeadbee"),
        ("v1.0.0-rc-1-0-gabcdef0", "1.0.0+gabcdef0"),
        ("1a2b3c4", "1.0.0+g1a2b3c4"),
        ("1a2b3c4-dirty", "1.0.0+g1a2b3c4.dirty"),
        // Nothing that is not a commit reaches the version.
        ("not a hash", "1.0.0"),
        ("-dirty", "1.0.0"),
    ])
    func describe(_ git: String, _ expected: String) {
        #expect(VCLintVersion.describe(release: "1.0.0", git: git) == expected)
    }

    /// The build's version is the release, or the release with build metadata (semantic versioning).
    @Test func buildVersionIsTheRelease() {
        let version = VCLintVersion.version
        #expect(version == VCLintVersion.release || version.hasPrefix(VCLintVersion.release + "+g"), "\(version)")
        #expect(VCLintVersion.release.split(separator: ".").count == 3)
        #expect(VCLintVersion.release.split(separator: ".").allSatisfy { $0.allSatisfy(\.isNumber) })
    }
}
