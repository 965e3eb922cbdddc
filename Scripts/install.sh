#!/usr/bin/env bash
# Builds a self-contained release binary of vclint and installs it as PREFIX/bin/vclint, with its man
# page (PREFIX/share/man/man1/vclint.1) and bash, zsh and fish completions
# (PREFIX/share/bash-completion/completions/vclint, PREFIX/share/zsh/site-functions/_vclint,
# PREFIX/share/fish/vendor_completions.d/vclint.fish), all generated from the argument parser.
#
#   Scripts/install.sh [--prefix DIR]     (default: $PREFIX, else /usr/local)
#   make install PREFIX=DIR               (the same)
#
# On Linux the binary carries the Swift runtime and Foundation (--static-swift-stdlib) and, where the
# system packages ship their static archives (Debian's libpcre2-dev and zlib1g-dev do), PCRE2 and
# zlib: it needs nothing beyond the C and C++ runtimes every distribution has, so it can be copied to
# a machine without Swift. On macOS the Swift runtime and zlib are part of the system; PCRE2 is
# linked statically when Homebrew's pcre2 has its archive.
# Needs: a Swift 6 toolchain, PCRE2 and zlib headers (apt-get install libpcre2-dev zlib1g-dev, or
# brew install pcre2 pkgconf).
set -euo pipefail

prefix=${PREFIX:-/usr/local}
while [[ $# -gt 0 ]]; do
    case "$1" in
        --prefix) [[ $# -ge 2 ]] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (expected --prefix DIR)" >&2; exit 2 ;;
    esac
done
[[ -n "$prefix" ]] || { echo "install.sh: empty prefix" >&2; exit 2; }

cd "$(dirname "$0")/.."
command -v swift >/dev/null || { echo "install.sh: swift is not on PATH (a Swift 6 toolchain is needed to build vclint)" >&2; exit 2; }
if command -v pkg-config >/dev/null && ! pkg-config --exists libpcre2-8 2>/dev/null; then
    echo "install.sh: PCRE2 is missing: apt-get install libpcre2-dev zlib1g-dev (Debian, Ubuntu) or brew install pcre2 pkgconf (macOS)" >&2
    exit 2
fi

flags=(-c release --product vclint)
# PCRE2 and zlib statically: SwiftPM reads their pkg-config files and puts the system's library
# directory first on the linker's search path, where the shared libraries win. For each library
# whose archive exists, a pkg-config file of our own (found first through PKG_CONFIG_PATH) names a
# directory that holds only the archive, so -lpcre2-8 and -lz resolve to it.
static_dir=$PWD/.build/static-libs
rm -rf "$static_dir"
mkdir -p "$static_dir/pkgconfig"
link_static() {  # pkg-config package, library name
    local pc libdir
    pc="$(pkg-config --variable=pcfiledir "$1" 2>/dev/null || true)/$1.pc"
    libdir=$(pkg-config --variable=libdir "$1" 2>/dev/null || true)
    if [[ -f "$pc" && -n "$libdir" && -f "$libdir/lib$2.a" ]]; then
        ln -sf "$libdir/lib$2.a" "$static_dir/lib$2.a"
        sed -E "s|^Libs:.*|Libs: -L$static_dir -l$2|" "$pc" > "$static_dir/pkgconfig/$1.pc"
        echo "install.sh: linking $2 statically ($libdir/lib$2.a)"
    else
        echo "install.sh: no static lib$2.a found; linking $2 dynamically"
    fi
}
case "$(uname -s)" in
    Linux)
        flags+=(--static-swift-stdlib)
        link_static libpcre2-8 pcre2-8
        link_static zlib z
        ;;
    Darwin)
        link_static libpcre2-8 pcre2-8   # zlib ships with macOS
        ;;
esac
export PKG_CONFIG_PATH="$static_dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
flags+=(-Xlinker -L"$static_dir")

swift build "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/vclint"
mkdir -p "$prefix/bin"
# Replaced atomically: a running vclint keeps its old binary.
cp "$binary" "$prefix/bin/.vclint.tmp.$$"
# Symbols and debug information are a fifth of the binary; the installed copy goes without them.
if [[ "$(uname -s)" == Linux ]] && command -v strip >/dev/null; then strip "$prefix/bin/.vclint.tmp.$$"; fi
chmod 0755 "$prefix/bin/.vclint.tmp.$$"
mv -f "$prefix/bin/.vclint.tmp.$$" "$prefix/bin/vclint"

# The man page, from the argument parser's description of every command: swift-argument-parser's
# generate-manual tool (what its `swift package generate-manual` plugin runs), over the binary just
# built. The completion scripts come from the binary itself.
swift build -c release --product generate-manual >/dev/null
manual_dir=$(mktemp -d)
trap 'rm -rf "$manual_dir"' EXIT
"$(swift build -c release --product generate-manual --show-bin-path)/generate-manual" "$binary" \
    --output-directory "$manual_dir" --section 1 --authors "the vclint authors" >/dev/null
[[ -s "$manual_dir/vclint.1" ]] || { echo "install.sh: generate-manual wrote no vclint.1" >&2; exit 2; }
install_file() {  # SOURCE DESTINATION: replaced atomically, mode 0644
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2.tmp.$$" && chmod 0644 "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2"
}
install_file "$manual_dir/vclint.1" "$prefix/share/man/man1/vclint.1"
"$binary" --generate-completion-script bash > "$manual_dir/vclint.bash"
"$binary" --generate-completion-script zsh > "$manual_dir/_vclint"
"$binary" --generate-completion-script fish > "$manual_dir/vclint.fish"
install_file "$manual_dir/vclint.bash" "$prefix/share/bash-completion/completions/vclint"
install_file "$manual_dir/_vclint" "$prefix/share/zsh/site-functions/_vclint"
install_file "$manual_dir/vclint.fish" "$prefix/share/fish/vendor_completions.d/vclint.fish"

echo "install.sh: installed $prefix/bin/vclint ($("$prefix/bin/vclint" --version), $(($(wc -c < "$prefix/bin/vclint") / 1048576)) MiB), its man page and bash, zsh and fish completions under $prefix/share"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "install.sh: $prefix/bin is not on PATH; add it: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
