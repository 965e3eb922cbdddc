#!/usr/bin/env bash
# Release artifacts, for the machine this runs on (make dist):
#
#   Scripts/dist.sh                      builds dist/vclint-VERSION-TRIPLE.tar.gz, its .sha256 and
#                                        dist/vclint.artifactbundle.zip (+ .sha256) with this variant
#   Scripts/dist.sh bundle TARBALL…      dist/vclint.artifactbundle.zip with one variant per tarball
#                                        (the release workflow: every platform in one bundle)
#   Scripts/dist.sh universal A B        (macOS) one universal-apple-macosx tarball from an arm64 and
#                                        an x86_64 one, with lipo
#
# TRIPLE is x86_64-unknown-linux-gnu or aarch64-unknown-linux-gnu on Linux, arm64-apple-macosx or
# x86_64-apple-macosx on a Mac. A tarball unpacks to vclint-VERSION-TRIPLE/ with bin/vclint (the
# self-contained binary Scripts/install.sh builds), LICENSE, NOTICE, README.md, CHANGELOG.md, the
# licences of what the binary links statically (licenses/), the man page (share/man/man1/vclint.1)
# and bash, zsh and fish completions (share/…), all generated from the argument parser.
# The artifact bundle is SwiftPM's format (info.json, schemaVersion 1.0) for a binaryTarget; its
# checksum is `swift package compute-checksum dist/vclint.artifactbundle.zip`.
# Needs what Scripts/install.sh needs, plus tar, gzip and python3 (the zip); on Linux the checkout
# must be the one to release (the version comes from the built binary: 1.0.0 on a release tag).
set -euo pipefail
cd "$(dirname "$0")/.."
out=dist

temporaries=()
trap 'rm -rf ${temporaries[@]+"${temporaries[@]}"}' EXIT
temporary() { local d; d=$(mktemp -d); temporaries+=("$d"); tmp=$d; }

say() { echo "dist.sh: $*" >&2; }
die() { echo "dist.sh: $*" >&2; exit 2; }

sha256() {  # FILE → writes FILE.sha256 in sha256sum's format (HASH  NAME)
    local dir name
    dir=$(dirname "$1") name=$(basename "$1")
    if command -v sha256sum >/dev/null; then (cd "$dir" && sha256sum "$name" > "$name.sha256")
    else (cd "$dir" && shasum -a 256 "$name" > "$name.sha256"); fi
}

# The triple a tarball's name ends with (vclint-1.0.0-x86_64-unknown-linux-gnu.tar.gz).
triple_of() { basename "$1" .tar.gz | sed -E 's/^vclint-[^-]+-//'; }
version_of() { basename "$1" .tar.gz | sed -E 's/^vclint-([^-]+)-.*/\1/'; }

# A zip of DIR's contents (DIR itself as the top entry), with the executables' mode kept.
zip_dir() {  # DIR ZIP
    python3 - "$1" "$2" <<'EOF'
import os, sys, zipfile
root, target = sys.argv[1], sys.argv[2]
base = os.path.dirname(os.path.abspath(root))
with zipfile.ZipFile(target + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            info = zipfile.ZipInfo.from_file(path, os.path.relpath(os.path.abspath(path), base))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                z.writestr(info, f.read())
os.replace(target + ".tmp", target)
EOF
}

# dist/vclint.artifactbundle.zip from tarballs: each one's bin/vclint as a variant for its triple
# (a universal macOS binary serves both macOS triples).
bundle() {
    [[ $# -gt 0 ]] || die "bundle needs the tarballs to put in the bundle"
    local version work variants="" t triple v dir
    version=$(version_of "$1")
    temporary; work=$tmp
    mkdir -p "$work/vclint.artifactbundle" "$out"
    cp LICENSE "$work/vclint.artifactbundle/LICENSE"
    for t in "$@"; do
        [[ -f "$t" ]] || die "no tarball $t"
        v=$(version_of "$t") triple=$(triple_of "$t")
        [[ "$v" == "$version" ]] || die "$t is version $v, not $version"
        dir="vclint-$version-$triple"
        tar -xzf "$t" -C "$work/vclint.artifactbundle" "$dir/bin/vclint" || die "$t has no $dir/bin/vclint"
        local triples
        case "$triple" in
            universal-apple-macosx) triples='"arm64-apple-macosx", "x86_64-apple-macosx"' ;;
            *) triples="\"$triple\"" ;;
        esac
        variants+="${variants:+,
}        { \"path\": \"$dir/bin/vclint\", \"supportedTriples\": [$triples] }"
    done
    cat > "$work/vclint.artifactbundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "vclint": {
      "type": "executable",
      "version": "$version",
      "variants": [
$variants
      ]
    }
  }
}
EOF
    zip_dir "$work/vclint.artifactbundle" "$out/vclint.artifactbundle.zip"
    sha256 "$out/vclint.artifactbundle.zip"
    say "wrote $out/vclint.artifactbundle.zip ($#  variant(s), version $version)"
}

# The licence texts of what the release binary links statically, as the licences ask of a binary.
third_party_licences() {  # DIR
    local dir=$1 f
    mkdir -p "$dir"
    copy_first() {  # NAME CANDIDATE…
        local name=$1; shift
        for f in "$@"; do
            if [[ -f "$f" ]]; then cp "$f" "$dir/$name"; return 0; fi
        done
        say "warning: no licence text found for $name"
    }
    copy_first swift-argument-parser.txt .build/checkouts/swift-argument-parser/LICENSE.txt
    copy_first Yams.txt .build/checkouts/Yams/LICENSE
    copy_first PCRE2.txt /usr/share/doc/libpcre2-dev/copyright /usr/share/doc/libpcre2-8-0/copyright \
        "$(brew --prefix pcre2 2>/dev/null || echo /nonexistent)/LICENCE.md"
    copy_first zlib.txt /usr/share/doc/zlib1g-dev/copyright /usr/share/doc/zlib1g/copyright
    copy_first swift.txt "$(dirname "$(dirname "$(command -v swift)")")/share/swift/LICENSE.txt" \
        /usr/share/swift/LICENSE.txt .build/checkouts/swift-argument-parser/LICENSE.txt
}

build() {
    local triple stage version name
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) triple=x86_64-unknown-linux-gnu ;;
        Linux-aarch64|Linux-arm64) triple=aarch64-unknown-linux-gnu ;;
        Darwin-arm64) triple=arm64-apple-macosx ;;
        Darwin-x86_64) triple=x86_64-apple-macosx ;;
        *) die "no release triple for $(uname -s) $(uname -m)" ;;
    esac
    temporary; stage=$tmp
    # The binary, the man page and the completions, as make install lays them out.
    Scripts/install.sh --prefix "$stage/root" >&2
    version=$("$stage/root/bin/vclint" --version)
    name="vclint-$version-$triple"
    mkdir -p "$stage/$name"
    cp -R "$stage/root/bin" "$stage/root/share" "$stage/$name/"
    cp LICENSE NOTICE README.md CHANGELOG.md "$stage/$name/"
    third_party_licences "$stage/$name/licenses"
    mkdir -p "$out"
    rm -f "$out/$name.tar.gz" "$out/$name.tar.gz.sha256"
    # Owner and order fixed, so the same binary gives the same tarball listing.
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name" 2>/dev/null ||
        tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
    sha256 "$out/$name.tar.gz"
    say "wrote $out/$name.tar.gz and $out/$name.tar.gz.sha256"
    bundle "$out/$name.tar.gz"
}

universal() {
    [[ $# -eq 2 ]] || die "universal needs an arm64 and an x86_64 macOS tarball"
    command -v lipo >/dev/null || die "universal needs lipo (a Mac with Xcode's tools)"
    local version work name a
    version=$(version_of "$1")
    temporary; work=$tmp
    for a in "$@"; do tar -xzf "$a" -C "$work"; done
    name="vclint-$version-universal-apple-macosx"
    mv "$work/vclint-$version-arm64-apple-macosx" "$work/$name"
    lipo -create "$work/$name/bin/vclint" "$work/vclint-$version-x86_64-apple-macosx/bin/vclint" -output "$work/vclint.universal"
    mv "$work/vclint.universal" "$work/$name/bin/vclint"
    mkdir -p "$out"
    tar -C "$work" -czf "$out/$name.tar.gz" "$name"
    sha256 "$out/$name.tar.gz"
    say "wrote $out/$name.tar.gz"
}

case "${1:-}" in
    "") build ;;
    bundle) shift; bundle "$@" ;;
    universal) shift; universal "$@" ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '$1' (expected none, bundle or universal)" ;;
esac
