#!/usr/bin/env bash
# vclint as a team takes it: a versioned SwiftPM dependency. Makes a git repository of this checkout
# (its tracked and untracked, not ignored, files as they are in the work tree) tagged with the release
# version, and a throwaway package that depends on it by file:// URL `from: "X.Y.Z"`. Checks that the
# package resolves and builds (SwiftPM refuses unsafe flags in a versioned dependency), that its own
# code can `import VCLintCore` and lint a fixture through the library, that the executable product
# runs and says the release version, and that the command plugin (`swift package vclint …`) lints,
# failing as vclint fails. Run by .ci/run (a debug and, for the plugin, a release build of vclint as a
# dependency: about six minutes on 2 cores).
#   Tests/package-test.sh [--keep]      (--keep: leave the work folder and print its path)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keep=false
[[ "${1:-}" == --keep ]] && keep=true
work=$(mktemp -d "${TMPDIR:-/tmp}/vclint-package-test.XXXXXX")
$keep || trap 'rm -rf "$work"' EXIT
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }
step() { echo "package-test: $*"; }

version=$(sed -nE 's/.*static let release = "([^"]+)".*/\1/p' "$root/Sources/VCLintCore/Support/Version.swift")
[[ -n "$version" ]] || fail "no release version in Sources/VCLintCore/Support/Version.swift"

step "a tagged repository of the checkout (v$version)"
mkdir -p "$work/vclint"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [[ -e "$f" ]] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$work/vclint")
git -C "$work/vclint" init -q
git -C "$work/vclint" add -A
git -C "$work/vclint" -c user.name=vclint -c user.email=vclint@localhost -c commit.gpgsign=false commit -qm "vclint $version"
git -C "$work/vclint" -c tag.gpgsign=false tag "v$version"

step "a package that depends on it from: \"$version\""
mkdir -p "$work/consumer/Sources/Consumer"
cat > "$work/consumer/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "file://$work/vclint", from: "$version")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "VCLintCore", package: "vclint")]),
    ]
)
EOF
cat > "$work/consumer/Sources/Consumer/main.swift" <<'EOF'
import Foundation
import VCLintCore

// Lints the capture named on the command line through the library and prints one line per finding.
let path = CommandLine.arguments[1]
let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
let result = Linter().lint(bytes: bytes, path: path)
for finding in result.findings {
    print("\(finding.line) \(finding.rule)")
}
print("vclint \(VCLintVersion.version): \(result.findings.count) finding(s) in \(result.stats.lines) lines")
EOF
cp "$root/Fixtures/seeds/navtest-missing-dealloc.log" "$work/consumer/leak.log"
cp "$root/Fixtures/seeds/navtest-seed000.log" "$work/consumer/clean.log"
cd "$work/consumer"

step "swift build (resolves vclint $version by version)"
swift build 2>&1 | tail -3
grep -q "\"version\" : \"$version\"" Package.resolved || fail "Package.resolved does not pin vclint $version: $(cat Package.resolved)"

step "import VCLintCore: lint a fixture through the library"
out=$(swift run -q Consumer leak.log)
echo "$out"
grep -qx "15 leaked_controller" <<< "$out" || fail "the library did not find the leak at line 15"
grep -q "^vclint $version: 1 finding(s)" <<< "$out" || fail "the library's version is not $version or the count is off"

step "the executable product"
[[ "$(swift run -q vclint --version)" == "$version" ]] || fail "swift run vclint --version is not $version"
set +e
swift run -q vclint lint clean.log > run-clean.out 2>&1; clean=$?
swift run -q vclint lint leak.log > run-leak.out 2>&1; leak=$?
set -e
[[ $clean -eq 0 ]] || fail "vclint lint clean.log exited $clean: $(cat run-clean.out)"
[[ $leak -eq 1 ]] || fail "vclint lint leak.log exited $leak: $(cat run-leak.out)"
grep -q "leak.log:15: error: .*(leaked_controller)" run-leak.out || fail "no leaked_controller in: $(cat run-leak.out)"

step "the command plugin: swift package vclint"
set +e
swift package vclint lint clean.log > plugin-clean.out 2>&1; clean=$?
swift package vclint lint leak.log > plugin-leak.out 2>&1; leak=$?
swift package vclint lint missing.log > plugin-missing.out 2>&1; missing=$?
set -e
cat plugin-leak.out
# SwiftPM fails the command on any exit but 0 and names vclint's code: 1 findings, 2 a failed run.
[[ $clean -eq 0 ]] || fail "swift package vclint lint clean.log exited $clean: $(cat plugin-clean.out)"
[[ $leak -ne 0 ]] || fail "swift package vclint lint leak.log exited 0"
grep -q "leak.log:15: error: .*(leaked_controller)" plugin-leak.out || fail "the plugin's output has no leaked_controller"
grep -q "exit code 1" plugin-leak.out || fail "SwiftPM does not say vclint exited 1 on findings: $(cat plugin-leak.out)"
[[ $missing -ne 0 ]] || fail "swift package vclint lint missing.log exited 0"
grep -q "exit code 2" plugin-missing.out || fail "SwiftPM does not say vclint exited 2 on a failed run: $(cat plugin-missing.out)"
grep -q "vclint: error: missing.log" plugin-missing.out || fail "vclint's own line is missing: $(cat plugin-missing.out)"
explained=$(swift package vclint explain leaked_controller 2>&1)
grep -q "^leaked_controller: " <<< "$explained" || fail "swift package vclint explain printed no rule: $explained"
[[ "$(swift package vclint --version 2>/dev/null | tail -1)" == "$version" ]] || fail "the plugin's vclint is not $version"
echo "package-test: through the plugin: clean exit $clean, leak exit $leak, unreadable exit $missing (SwiftPM's codes)"
step "passed"
$keep && echo "package-test: work folder kept: $work"
exit 0
