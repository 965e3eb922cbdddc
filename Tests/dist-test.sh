#!/usr/bin/env bash
# `make dist` as the release workflow runs it, then what a user does with what it made:
#   - the tarball's checksum file verifies it, and it holds the binary, the licences, the README, the
#     changelog, the man page and the three completions under vclint-VERSION-TRIPLE/;
#   - its binary lints a fixture from a bare chroot: nothing but the unpacked tarball, the C and C++
#     runtime libraries ldd names and the capture (as root; otherwise from `env -i`);
#   - the artifact bundle's info.json validates against SwiftPM's documented format
#     (Tests/schemas/artifactbundle-info.schema.json), each variant's path is an executable in the
#     zip, SwiftPM computes its checksum, and a package that declares it as a binaryTarget runs it
#     through a command plugin, as a team that pins vclint's binary does.
# Run by .ci/run after Tests/install-test.sh (whose release build it reuses).
#   Tests/dist-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir=$PWD
fail() { echo "dist-test: FAIL: $*" >&2; exit 1; }
step() { echo "dist-test: $*"; }
work=$(mktemp -d /tmp/vclint-dist.XXXXXX)
cleanup() { umount "$work/root/proc" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

rm -rf dist
start=$(date +%s)
make dist
step "make dist took $(( $(date +%s) - start )) s"

case "$(uname -m)" in x86_64) triple=x86_64-unknown-linux-gnu ;; aarch64|arm64) triple=aarch64-unknown-linux-gnu ;; *) fail "no triple for $(uname -m)" ;; esac
tarballs=(dist/vclint-*-"$triple".tar.gz)
[[ ${#tarballs[@]} -eq 1 && -f "${tarballs[0]}" ]] || fail "dist/ has no single vclint-*-$triple.tar.gz: $(ls dist)"
tarball=${tarballs[0]}
name=$(basename "$tarball" .tar.gz)
version=${name#vclint-}; version=${version%-"$triple"}
release=$(sed -nE 's/.*static let release = "([^"]+)".*/\1/p' Sources/VCLintCore/Support/Version.swift)
[[ "$version" == "$release" || "$version" == "$release+g"* ]] || fail "the tarball's version $version is not release $release"

step "checksums"
(cd dist && sha256sum -c "$name.tar.gz.sha256") || fail "$name.tar.gz.sha256 does not verify"
(cd dist && sha256sum -c vclint.artifactbundle.zip.sha256) || fail "vclint.artifactbundle.zip.sha256 does not verify"

step "contents"
listing=$(tar -tzf "$tarball")
for f in bin/vclint LICENSE NOTICE README.md CHANGELOG.md share/man/man1/vclint.1 \
         share/bash-completion/completions/vclint share/zsh/site-functions/_vclint \
         share/fish/vendor_completions.d/vclint.fish licenses/PCRE2.txt licenses/zlib.txt licenses/Yams.txt \
         licenses/swift-argument-parser.txt; do
    grep -qx "$name/$f" <<< "$listing" || fail "the tarball has no $name/$f"
done
if grep -v "^$name/" <<< "$listing" | grep -c . >/dev/null; then fail "the tarball has entries outside $name/"; fi

step "the tarball's binary in a bare chroot"
mkdir -p "$work/root/data" "$work/root/tmp"
tar -xzf "$tarball" -C "$work/root"
bin=$work/root/$name/bin/vclint
cp Fixtures/seeds/navtest-missing-dealloc.log "$work/root/data/leak.log"
cp Fixtures/seeds/navtest-seed000.log "$work/root/data/clean.log"
for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
    mkdir -p "$work/root$(dirname "$lib")"
    cp -L "$lib" "$work/root$lib"
done
run=(env -i "$bin")
data=$work/root/data
if [[ $(id -u) -eq 0 ]] && command -v chroot >/dev/null && mkdir -p "$work/root/proc" && mount -t proc proc "$work/root/proc" 2>/dev/null; then
    run=(env -i "$(command -v chroot)" "$work/root" "/$name/bin/vclint")
    data=/data
    step "chroot holds: $(cd "$work/root" && find . -path ./proc -prune -o -type f -print | wc -l) files"
else
    step "not root or no /proc mount: the binary runs from env -i instead of a chroot"
fi
[[ "$("${run[@]}" --version)" == "$version" ]] || fail "the binary's --version is not $version"
set +e
out=$("${run[@]}" lint "$data/leak.log" 2>&1); leak=$?
clean_out=$("${run[@]}" lint "$data/clean.log" 2>&1); clean=$?
set -e
[[ $leak -eq 1 && "$out" == *"leak.log:15: error:"*"(leaked_controller)"* ]] || fail "lint of the leak exited $leak: $out"
[[ $clean -eq 0 ]] || fail "lint of the clean capture exited $clean: $clean_out"
umount "$work/root/proc" 2>/dev/null || true

step "the artifact bundle"
python3 - "$root_dir/Tests/schemas/artifactbundle-info.schema.json" dist/vclint.artifactbundle.zip "$version" "$triple" <<'EOF'
import json, stat, sys, zipfile
import jsonschema
schema_path, bundle, version, triple = sys.argv[1:]
with zipfile.ZipFile(bundle) as z:
    names = set(z.namelist())
    info = json.loads(z.read("vclint.artifactbundle/info.json"))
    jsonschema.validate(info, json.load(open(schema_path)))
    artifact = info["artifacts"]["vclint"]
    assert artifact["version"] == version, f"the bundle says version {artifact['version']}, not {version}"
    triples = [t for v in artifact["variants"] for t in v["supportedTriples"]]
    assert triple in triples, f"no variant for {triple}: {triples}"
    for v in artifact["variants"]:
        path = "vclint.artifactbundle/" + v["path"]
        assert path in names, f"{path} is not in the zip"
        mode = z.getinfo(path).external_attr >> 16
        assert mode & stat.S_IXUSR, f"{path} is not executable in the zip (mode {oct(mode)})"
print("dist-test: info.json validates; variants:", ", ".join(triples))
EOF
checksum=$(swift package compute-checksum dist/vclint.artifactbundle.zip)
[[ "$checksum" =~ ^[0-9a-f]{64}$ ]] || fail "swift package compute-checksum printed '$checksum'"
[[ "$checksum" == "$(cut -d' ' -f1 dist/vclint.artifactbundle.zip.sha256)" ]] || fail "the bundle's .sha256 is not SwiftPM's checksum"

step "a package that uses the bundle as a binaryTarget"
pkg=$work/binary-consumer
mkdir -p "$pkg/Plugins/RunVCLint"
cp dist/vclint.artifactbundle.zip "$pkg/"
cat > "$pkg/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "BinaryConsumer",
    targets: [
        .binaryTarget(name: "vclint", path: "vclint.artifactbundle.zip"),
        .plugin(name: "RunVCLint", capability: .command(intent: .custom(verb: "run-vclint", description: "vclint from the bundle")),
                dependencies: ["vclint"]),
    ]
)
SWIFT
cat > "$pkg/Plugins/RunVCLint/plugin.swift" <<'SWIFT'
import Foundation
import PackagePlugin

@main
struct RunVCLint: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let process = try Process.run(try context.tool(named: "vclint").url, arguments: arguments)
        process.waitUntilExit()
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
SWIFT
cp Fixtures/seeds/navtest-missing-dealloc.log "$pkg/leak.log"
got=$(cd "$pkg" && swift package run-vclint --version 2>&1 | tail -1)
[[ "$got" == "$version" ]] || fail "the bundle's vclint through a plugin said '$got', not $version"
set +e
out=$(cd "$pkg" && swift package run-vclint lint leak.log 2>&1); code=$?
set -e
[[ $code -ne 0 && "$out" == *"(leaked_controller)"* ]] || fail "the bundle's vclint did not find the leak (exit $code): $out"
step "passed ($name, bundle checksum $checksum)"
