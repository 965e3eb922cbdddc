#!/usr/bin/env bash
# The README's install, tested as a new user's machine would see it: `make install PREFIX=…` builds
# the release binary and installs it with its man page and completions; the installed binary must need no Swift runtime, PCRE2 or zlib
# shared library (ldd), and must lint, inflate gzip and run a custom dialect's PCRE2 pattern from a
# clean environment: `env -i`, and (as root) a chroot that holds nothing but the binary, the C/C++
# runtime libraries ldd lists and the test captures.
#   Tests/install-test.sh [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d /tmp/vclint-install.XXXXXX)}
prefix=$work/prefix
mkdir -p "$work"

start=$(date +%s)
make install PREFIX="$prefix"
elapsed=$(( $(date +%s) - start ))
bin=$prefix/bin/vclint
[[ -x "$bin" ]] || { echo "install-test: $bin was not installed" >&2; exit 1; }
echo "install-test: make install took ${elapsed} s; $(wc -c < "$bin") bytes"

fail() { echo "install-test: FAIL: $*" >&2; exit 1; }
release=$(sed -nE 's/.*static let release = "([^"]+)".*/\1/p' Sources/VCLintCore/Support/Version.swift)

# The man page and the completions, generated from the argument parser, where man and the shells look.
for f in share/man/man1/vclint.1 share/bash-completion/completions/vclint share/zsh/site-functions/_vclint \
         share/fish/vendor_completions.d/vclint.fish; do
    [[ -s "$prefix/$f" ]] || fail "make install did not install $f"
done
grep -q '^\.Dt VCLINT 1' "$prefix/share/man/man1/vclint.1" || fail "vclint.1 is not an mdoc page of section 1"
for sub in lint timeline leaks merge explain; do
    grep -q "$sub" "$prefix/share/man/man1/vclint.1" || fail "the man page does not describe vclint $sub"
done
if command -v man >/dev/null; then
    MANPATH="$prefix/share/man" man -P cat vclint 2>/dev/null | grep -c -- "--reporter" >/dev/null || fail "man vclint does not render --reporter"
fi
if command -v bash >/dev/null; then
    bash -c "source '$prefix/share/bash-completion/completions/vclint' && complete -p vclint" >/dev/null || fail "the bash completion does not register vclint"
fi
grep -q '#compdef vclint' "$prefix/share/zsh/site-functions/_vclint" || fail "the zsh completion has no #compdef"
grep -Eq "complete -c '?vclint'? " "$prefix/share/fish/vendor_completions.d/vclint.fish" || fail "the fish completion completes no vclint"
echo "install-test: ok: man page and bash, zsh and fish completions"

# Only the C and C++ runtimes may be shared libraries.
libs=$(ldd "$bin" | awk '{print $1}')
echo "install-test: ldd: $(echo $libs)"
for lib in $libs; do
    case "$lib" in
        linux-vdso.so.*|/lib64/ld-linux-*|ld-linux-*|libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libutil.so.*) ;;
        *) fail "the installed binary needs $lib" ;;
    esac
done
readelf -d "$bin" | grep -c 'RPATH\|RUNPATH.*swift' >/dev/null && fail "the installed binary has a run path into the toolchain"

# Test inputs: a clean capture, one with a leak, the leak gzip-compressed, a custom dialect.
data=$work/data
mkdir -p "$data"
cp Fixtures/seeds/navtest-seed000.log "$data/clean.log"
cp Fixtures/seeds/navtest-missing-dealloc.log "$data/leak.log"
gzip -c Fixtures/seeds/navtest-missing-dealloc.log > "$data/leak.log.gz"
cat > "$data/screens.log" <<'LOG'
[Screen] Detail 0x7f01 loaded
[Screen] Detail 0x7f01 shown
LOG
cat > "$data/.vclint.yml" <<'YML'
dialects:
  - pattern: '^\[Screen\] (?<class>\w+)(?: (?<address>0x[0-9a-f]+))? (?<event>loaded|shown|hidden|freed)$'
    events: {loaded: viewDidLoad, shown: viewDidAppear, hidden: viewDidDisappear, freed: dealloc}
YML

# check DESCRIPTION EXPECTED-EXIT COMMAND…: runs it, compares the exit code, keeps the output in $out.
check() {
    local what=$1 want=$2
    shift 2
    set +e
    out=$("$@" 2>&1)
    local got=$?
    set -e
    [[ $got -eq $want ]] || fail "$what: exit $got, expected $want; output:
$out"
    echo "install-test: ok: $what"
}

run_suite() {  # how to run the binary (a command prefix), the data directory as it sees it
    local -a run=("${@:1:$#-1}")
    local d=${!#}
    check "--version" 0 "${run[@]}" --version
    # The release, and the commit off its tag (1.0.0+g1a2b3c4).
    [[ "$out" == "$release" || "$out" == "$release+g"* ]] || fail "--version printed '$out', not $release"
    check "a clean capture" 0 "${run[@]}" lint "$d/clean.log"
    [[ "$out" == *"0 errors, 0 warnings in 1 file"* ]] || fail "clean capture: $out"
    check "a leak" 1 "${run[@]}" lint "$d/leak.log"
    [[ "$out" == *"leaked_controller"* ]] || fail "leak: $out"
    check "a gzip capture (zlib)" 1 "${run[@]}" lint "$d/leak.log.gz" --reporter json
    [[ "$out" == *'"rule": "leaked_controller"'* ]] || fail "gzip: $out"
    check "a custom dialect (PCRE2)" 0 "${run[@]}" lint "$d/screens.log" --config "$d/.vclint.yml" --reporter json
    [[ "$out" == *'"events": 2'* ]] || fail "dialect: $out"
}

# 1. No environment at all, from a directory of its own.
(cd "$data" && run_suite env -i "$bin" "$data")

# 2. A root that holds only the binary, the libraries ldd names and the captures (needs root).
if [[ $(id -u) -eq 0 ]] && command -v chroot >/dev/null; then
    root=$work/root
    rm -rf "$root"
    mkdir -p "$root/bin" "$root/data" "$root/tmp"
    cp "$bin" "$root/bin/vclint"
    cp -a "$data/." "$root/data/"
    for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib"
    done
    echo "install-test: chroot holds: $(cd "$root" && find . -type f | sort | tr '\n' ' ')"
    # Every Linux system has /proc (the Swift runtime reads it at start); nothing else is lent.
    mkdir -p "$root/proc"
    if mount -t proc proc "$root/proc" 2>/dev/null; then
        trap 'umount "$root/proc" 2>/dev/null || true' EXIT
        run_suite env -i "$(command -v chroot)" "$root" /bin/vclint /data
        umount "$root/proc"
        trap - EXIT
    else
        echo "install-test: /proc cannot be mounted here: the chroot check is skipped (env -i only)"
    fi
else
    echo "install-test: not root: the chroot check is skipped (env -i only)"
fi
echo "install-test: passed (install ${elapsed} s)"
