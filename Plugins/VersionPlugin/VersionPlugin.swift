import PackagePlugin
import Foundation

/// Bakes what git says of the checkout (`git describe`, and the `origin` remote, which SARIF's rule
/// help links point into: `VCLintVersion.rulesDocumentation`) into VCLintCore at build time, so that
/// `vclint --version` and the reports say `1.0.0` on a release tag and `1.0.0+g1a2b3c4` off it
/// (`VCLintVersion`). It runs before every build, offline, and never fails one: without git, outside
/// a git checkout of vclint itself (a source archive, a folder vendored into another repository) or
/// when git says no, the description is empty and the version is the release alone. The file is
/// rewritten only when the description changes, so an unchanged checkout compiles nothing again.
@main
struct VersionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "GitDescription")
        let package = context.package.directoryURL.path(percentEncoded: false)
        let file = output.appending(path: "GitDescription.swift").path(percentEncoded: false)
        // Only a checkout whose top level is the package is asked (`--show-prefix` is empty there).
        let script = """
            d=""
            r=""
            if cd "$1" 2>/dev/null && command -v git >/dev/null 2>&1 \\
                && p=$(git rev-parse --show-prefix 2>/dev/null) && [ -z "$p" ]; then
                d=$(git describe --tags --long --always --dirty --match 'v[0-9]*' 2>/dev/null | tr -cd 'A-Za-z0-9.+-')
                r=$(git remote get-url origin 2>/dev/null | head -n 1 | tr -cd 'A-Za-z0-9._~:/@+-')
            fi
            mkdir -p "$(dirname "$2")" || exit 0
            printf '%s\\n' '// Made by the VersionPlugin at build time: git describe and the origin remote of the checkout.' \\
                "extension VCLintVersion { static let gitDescription = \\"$d\\"; static let gitRemote = \\"$r\\" }" > "$2.tmp" || exit 0
            if cmp -s "$2.tmp" "$2"; then rm -f "$2.tmp"; else mv -f "$2.tmp" "$2"; fi
            exit 0
            """
        return [.prebuildCommand(displayName: "vclint version from git describe",
                                 executable: URL(filePath: "/bin/sh"),
                                 arguments: ["-c", script, "describe", package, file],
                                 outputFilesDirectory: output)]
    }
}
