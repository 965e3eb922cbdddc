/// The product's name and version, as `--version`, the reports and the leak reports print them.
///
/// vclint follows semantic versioning (docs/output.md#stability-and-versions). A release bumps
/// `release` here, gives CHANGELOG.md its section and is tagged `vX.Y.Z`; the build then says
/// exactly `release`. Any other build says which commit it is as semver build metadata:
/// `1.0.0+g1a2b3c4` off the tag, `1.0.0+g1a2b3c4.dirty` with uncommitted changes (from
/// `gitDescription`, which the VersionPlugin writes at build time from `git describe`).
public enum VCLintVersion {
    public static let name = "vclint"
    /// The release this source is, or is on the way to.
    public static let release = "1.0.0"
    /// The version of this build.
    public static let version = describe(release: release, git: gitDescription)

    /// The version for `git describe --tags --long --always --dirty` output `git` (empty when git was
    /// not asked or said nothing): `release` on the clean tag `v` + `release`, else `release` with the
    /// commit (and `.dirty`) as build metadata.
    static func describe(release: String, git: String) -> String {
        var text = Substring(git)
        let dirty = text.hasSuffix("-dirty")
        if dirty { text = text.dropLast("-dirty".count) }
        // `TAG-N-gHASH` (a tag is reachable) or `HASH` alone (--always).
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let hash: Substring
        if parts.count >= 3, parts[parts.count - 1].hasPrefix("g"), parts[parts.count - 2].allSatisfy(\.isNumber) {
            hash = parts[parts.count - 1].dropFirst()
            let tag = parts.dropLast(2).joined(separator: "-")
            if tag == "v" + release, parts[parts.count - 2] == "0", !dirty { return release }
        } else {
            hash = text
        }
        guard !hash.isEmpty, hash.allSatisfy(\.isHexDigit) else { return release }
        return "\(release)+g\(hash)" + (dirty ? ".dirty" : "")
    }

    /// The rule reference's path in the repository.
    static let rulesPage = "docs/rules.md"

    /// docs/rules.md of this release in the repository this build came from (its `origin` remote),
    /// which SARIF's `helpUri` points into; nil when the build knows no such repository.
    public static let rulesDocumentation = documentationPage(remote: gitRemote, release: release)

    /// The page for `remote` (`https://github.com/o/vclint.git`, `git@github.com:o/vclint.git`,
    /// `ssh://git@gitlab.example.com/team/vclint`): GitHub's and GitLab's page of docs/rules.md at the
    /// tag `v` + `release`. A URL's user and password never reach it. Nil for any other form (a
    /// local path, a host that names no owner and repository).
    static func documentationPage(remote: String, release: String) -> String? {
        var text = Substring(remote)
        var host: Substring, path: Substring
        if let scheme = text.range(of: "://") {
            guard ["https", "http", "ssh", "git"].contains(text[..<scheme.lowerBound].lowercased()) else { return nil }
            text = text[scheme.upperBound...]
            guard let slash = text.firstIndex(of: "/") else { return nil }
            host = text[..<slash]
            path = text[text.index(after: slash)...]
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        } else if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            // scp-like: `git@host:owner/repo.git`.
            host = text[..<colon]
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            path = text[text.index(after: colon)...]
        } else {
            return nil
        }
        if path.hasSuffix(".git") { path = path.dropLast(4) }
        while path.hasSuffix("/") { path = path.dropLast() }
        let parts = path.split(separator: "/")
        guard !host.isEmpty, parts.count >= 2, !parts.contains(".."), host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        let blob = host.lowercased() == "github.com" ? "blob" : "-/blob"
        return "https://\(host)/\(parts.joined(separator: "/"))/\(blob)/v\(release)/" + rulesPage
    }

}
