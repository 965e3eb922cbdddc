#!/usr/bin/env bash
# The steps of the composite GitHub Action in action.yml (kept here so that they can be tested
# outside GitHub: Tests/VCLintCoreTests/CLI/ActionTests.swift runs them with the runner's variables).
#
#   Scripts/action.sh key     prints dir=… and key=… to $GITHUB_OUTPUT: where the built vclint is
#                             cached, and the cache key (OS, architecture, Swift, vclint's sources);
#                             and release=VERSION, triple=… when the action runs pinned to its release
#                             tag on a runner that release has a binary for (else release= is empty)
#   Scripts/action.sh download  downloads that release's tarball and its .sha256 (VCLINT_RELEASE,
#                             VCLINT_TRIPLE), checks the checksum and installs its bin/vclint into
#                             $VCLINT_DIR; installed=true, or installed=false and one line saying why
#                             (then the action builds vclint from source: this step never fails)
#   Scripts/action.sh build   installs PCRE2/zlib headers if missing and builds vclint into $VCLINT_DIR
#   Scripts/action.sh run     puts vclint on the job's PATH and runs the input command (INPUT_COMMAND:
#                             lint, the default; merge; install: nothing more) with the action's inputs
#                             (INPUT_* variables); writes errors, warnings, infos, files, exit-code and
#                             report to $GITHUB_OUTPUT
#
# Inputs come in environment variables (never spliced into the script), so a path or reporter
# holding quotes or $(…) is only ever an argument.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
: "${GITHUB_OUTPUT:=/dev/stdout}"
: "${RUNNER_TEMP:=${TMPDIR:-/tmp}}"

output() { printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; }

sha() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi; }

# --- The default paths: the working directory without the action's own folder ---------------------
# Vendored as a submodule or folder of the repository it lints (tools/vclint), vclint's own Fixtures
# would be linted too (and fail the step). So the walk of `.` is split around the action's folder:
# the entries beside it and beside each folder above it, taken as vclint's walk takes them (hidden
# and git-ignored entries left out, a folder only when it holds a capture, a file only when it is
# one); vclint walks each folder itself. Bash 3 (macOS's /bin/bash) runs it.

# Whether a name is one the folder walk reads (*.log, *.txt, *.ndjson, *.jsonl, and .gz forms).
is_capture() {
    local r=1
    shopt -s nocasematch
    case $1 in *.log|*.txt|*.ndjson|*.jsonl|*.log.gz|*.txt.gz|*.ndjson.gz|*.jsonl.gz) r=0 ;; esac
    shopt -u nocasematch
    return $r
}

# Whether git ignores a path by its ignore files, tracked or not, as the walk does (no git, or no
# repository: nothing is ignored).
ignored() { git check-ignore -q --no-index -- "$1" 2>/dev/null; }

# The capture files below a folder, NUL-terminated, that are not hidden nor below a hidden folder
# (a folder it cannot read is passed by, as the walk passes it by).
captures_in() {
    find "$1" -mindepth 1 -name '.*' -prune -o \( -type f -o -type l \) \( -iname '*.log' -o -iname '*.txt' \
        -o -iname '*.ndjson' -o -iname '*.jsonl' -o -iname '*.log.gz' -o -iname '*.txt.gz' -o -iname '*.ndjson.gz' \
        -o -iname '*.jsonl.gz' \) -print0 2>/dev/null || true
}

# Whether the walk of a folder finds a capture in it: one captures_in finds that git does not
# ignore (git counts the ignored ones at once; an error, as in a submodule, ignores none).
holds_captures() {
    local all ignored_ones
    all=$(captures_in "$1" | tr -cd '\0' | wc -c)
    [[ $all -gt 0 ]] || return 1
    ignored_ones=$(captures_in "$1" | { git check-ignore --no-index --stdin -z 2>/dev/null || true; } | tr -cd '\0' | wc -c)
    [[ $all -gt $ignored_ones ]]
}

# Appends to `beside` the paths that cover folder $1 without its entry $2 (a path relative to $1).
beside=()
paths_beside() {
    local dir=$1 skip=$2 head rest="" e name
    head=${skip%%/*}
    [[ $skip != */* ]] || rest=${skip#*/}
    for e in "$dir"/*; do  # sorted, and without hidden entries, as the walk leaves them out
        [[ -e $e || -L $e ]] || continue  # an empty folder's * stays *
        name=${e##*/}
        if [[ $name == "$head" ]]; then
            [[ -z $rest ]] || paths_beside "$e" "$rest"
            continue
        fi
        if ignored "$e"; then continue; fi
        if [[ -L $e && -d $e ]]; then continue  # the walk does not follow links to folders
        elif [[ -d $e ]]; then
            if holds_captures "$e"; then beside+=("$e"); fi
        elif is_capture "$name"; then
            beside+=("$e")
        fi
    done
}

# The action's folder relative to the working directory, when a walk of `.` would reach it (inside
# it, with no hidden, git-ignored or linked folder on the way); empty otherwise.
action_folder_below() {
    local action work rel prefix="" part parts
    action=$(cd "${GITHUB_ACTION_PATH:-$here}" 2>/dev/null && pwd -P) || return 0
    work=$(pwd -P)
    case $action in "$work"/*) rel=${action#"$work"/} ;; *) return 0 ;; esac
    IFS=/ read -r -a parts <<< "$rel"
    for part in "${parts[@]}"; do
        prefix=${prefix:+$prefix/}$part
        if [[ $part == .* || -L ./$prefix ]] || ignored "./$prefix"; then return 0; fi
    done
    printf '%s' "$rel"
}

# --- The release binary -----------------------------------------------------------------------
# Used as OWNER/vclint@vX.Y.Z, the tag of the release this copy of the action is, the action
# downloads that release's binary instead of building vclint (seconds instead of minutes, and no
# Swift toolchain needed). action.yml passes github.action_repository and github.action_ref as
# VCLINT_ACTION_REPOSITORY and VCLINT_ACTION_REF (inside a composite action they reach a step only
# through env:). A local action (./tools/vclint: no repository), a branch or a commit, or a runner the
# release has no binary for builds vclint from source as before; so does any failure of the download.

# The version this copy of the action is: Version.swift's `static let release = "X.Y.Z"` (empty when
# that file is not there).
source_version() {
    local file=$here/Sources/VCLintCore/Support/Version.swift
    [[ -f $file ]] || return 0
    awk -F'"' '/static let release = "/ { print $2; exit }' "$file" 2>/dev/null || true
}

# This runner's platform as the release names its tarballs (Scripts/dist.sh); empty for a platform
# the release has no binary for.
release_triple() {
    case "$(uname -s)/$(uname -m)" in
        Linux/x86_64) echo x86_64-unknown-linux-gnu ;;
        Linux/aarch64|Linux/arm64) echo aarch64-unknown-linux-gnu ;;
        Darwin/*) echo universal-apple-macosx ;;  # one binary for arm64 and x86_64
    esac
}

# Downloads vclint-VERSION-TRIPLE.tar.gz and its .sha256 into folder $4, checks the checksum and
# installs the tarball's bin/vclint as $3/bin/vclint. On any failure, prints one line saying why and
# returns 1 (nothing installed). VCLINT_RELEASE_BASE_URL replaces
# https://github.com/OWNER/REPO/releases/download for the tests, which serve the files from a folder
# (a file:// URL).
install_release() {
    local version=$1 triple=$2 dir=$3 tmp=$4 base name url file err expected actual ran
    base=${VCLINT_RELEASE_BASE_URL:-https://github.com/${VCLINT_ACTION_REPOSITORY:-}/releases/download}
    name=vclint-$version-$triple
    url=$base/v$version/$name.tar.gz
    command -v curl >/dev/null || { echo "vclint: no curl to download $url with; building vclint from source instead"; return 1; }
    for file in "$name.tar.gz" "$name.tar.gz.sha256"; do
        # -f: an HTTP error fails; --retry rides over a passing fault (not a 404).
        if ! err=$(curl -fsS -L --retry 3 --connect-timeout 20 --max-time 300 -o "$tmp/$file" "$base/v$version/$file" 2>&1); then
            echo "vclint: could not download $base/v$version/$file (${err//$'\n'/ }); building vclint from source instead"
            return 1
        fi
    done
    expected=$(awk 'NR == 1 { print tolower($1) }' "$tmp/$name.tar.gz.sha256")
    actual=$(sha < "$tmp/$name.tar.gz" | awk '{ print tolower($1) }')
    if [[ ! $expected =~ ^[0-9a-f]{64}$ ]]; then
        echo "vclint: $name.tar.gz.sha256 holds no SHA-256 checksum; building vclint from source instead"
        return 1
    fi
    if [[ $actual != "$expected" ]]; then
        echo "vclint: checksum mismatch: $url has SHA-256 $actual but its .sha256 says $expected; not using it, building vclint from source instead" >&2
        return 1
    fi
    if ! tar -xzf "$tmp/$name.tar.gz" -C "$tmp" 2>/dev/null || [[ ! -f $tmp/$name/bin/vclint ]]; then
        echo "vclint: $name.tar.gz holds no $name/bin/vclint; building vclint from source instead"
        return 1
    fi
    if ! { mkdir -p "$dir/bin" && cp "$tmp/$name/bin/vclint" "$dir/bin/.vclint.tmp.$$" && chmod 0755 "$dir/bin/.vclint.tmp.$$" \
            && mv -f "$dir/bin/.vclint.tmp.$$" "$dir/bin/vclint"; }; then
        echo "vclint: could not install $dir/bin/vclint; building vclint from source instead"
        return 1
    fi
    # A binary that does not run here (a C library too old for it, say) is no better than none.
    if ! ran=$("$dir/bin/vclint" --version 2>&1); then
        rm -f "$dir/bin/vclint"
        echo "vclint: the release's vclint does not run here (${ran//$'\n'/ }); building vclint from source instead"
        return 1
    fi
    echo "vclint: installed vclint ${ran%%$'\n'*} from the release v$version ($name.tar.gz, SHA-256 $actual)"
}

case "${1:-}" in
key)
    swift_version=$(swift --version 2>/dev/null | sed -n 1p || echo "no swift")
    sources=$(cd "$here" && find Package.swift Sources Scripts/install.sh -type f | LC_ALL=C sort | xargs cat | sha | cut -c1-16)
    key="vclint-$(uname -s)-$(uname -m)-$(printf '%s' "$swift_version" | sha | cut -c1-8)-$sources"
    output dir "${HOME}/.cache/vclint-action/$key"
    output key "$key"
    # The release binary, when the action is the release it says it is and there is a binary for here.
    release="" triple=""
    version=$(source_version)
    if [[ -n "${VCLINT_ACTION_REPOSITORY:-}" && -n $version && "${VCLINT_ACTION_REF:-}" == "v$version" ]]; then
        triple=$(release_triple)
        if [[ -n $triple ]]; then
            release=$version
            echo "vclint: the action is release v$version of $VCLINT_ACTION_REPOSITORY: using its binary for $triple"
        else
            echo "vclint: release v$version has no binary for $(uname -s) $(uname -m): building vclint from source"
        fi
    fi
    output release "$release"
    output triple "$triple"
    ;;

download)
    dir=${VCLINT_DIR:?VCLINT_DIR names where to install vclint}
    tmp=$(mktemp -d "$RUNNER_TEMP/vclint-release.XXXXXX") || { echo "vclint: no temporary folder in $RUNNER_TEMP; building vclint from source instead"; output installed false; exit 0; }
    trap 'rm -rf "$tmp"' EXIT
    if install_release "${VCLINT_RELEASE:?VCLINT_RELEASE names the release}" "${VCLINT_TRIPLE:?VCLINT_TRIPLE names the platform}" "$dir" "$tmp"; then
        output installed true
    else
        output installed false
    fi
    ;;

build)
    dir=${VCLINT_DIR:?VCLINT_DIR names where to install vclint}
    if ! pkg-config --exists libpcre2-8 zlib 2>/dev/null; then
        case "$(uname -s)" in
            Linux)
                sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
                $sudo apt-get update -qq
                $sudo apt-get install -y -qq libpcre2-dev zlib1g-dev pkg-config
                ;;
            Darwin)
                brew install pcre2 pkgconf
                ;;
        esac
    fi
    "$here/Scripts/install.sh" --prefix "$dir"
    ;;

run)
    vclint=${VCLINT_BIN:-${VCLINT_DIR:?VCLINT_DIR or VCLINT_BIN names the vclint to run}/bin/vclint}
    # Later steps of the job can run vclint (inspect, leaks, merge) by name.
    if [[ -n "${GITHUB_PATH:-}" ]]; then dirname "$vclint" >> "$GITHUB_PATH"; fi
    command=${INPUT_COMMAND:-lint}
    case "$command" in
        lint|merge) ;;
        install) echo "vclint: $("$vclint" --version) is on the job's PATH"; exit 0 ;;
        *) echo "vclint: the command input is lint, merge or install, not '$command'" >&2; exit 2 ;;
    esac
    args=("$command")
    # The default paths of lint (`.`) leave out the action's own folder when it is below.
    default_paths=false
    if [[ $command == lint && $(printf '%s' "${INPUT_PATHS:-.}" | tr -d '[:space:]') =~ ^\./?$ ]]; then
        skip=$(action_folder_below)
        if [[ -n $skip ]]; then
            default_paths=true
            paths_beside . "$skip"
            echo "vclint: linting the working directory without the action's own folder, $skip"
            if [[ ${#beside[@]} -eq 0 ]]; then
                echo "vclint: error: no capture files found under . beside the action's folder $skip (give the paths input)" >&2
                output exit-code 2
                exit 2
            fi
            args+=("${beside[@]}")
        fi
    fi
    # Paths: one per line (a path may hold spaces); a line with * ? or [ is a glob, kept as it is
    # when it matches nothing (vclint then says the file is missing). None: the working directory.
    if [[ $default_paths == false ]]; then
        paths=0
        while IFS= read -r p; do
            p=${p%$'\r'}
            [[ -n "${p//[[:space:]]/}" ]] || continue
            if [[ "$p" == *[\*\?\[]* ]] && matches=$(compgen -G "$p"); then
                while IFS= read -r m; do args+=("$m"); paths=$((paths + 1)); done <<< "$matches"
            else
                args+=("$p")
                paths=$((paths + 1))
            fi
        done <<< "${INPUT_PATHS:-.}"
        [[ $paths -gt 0 ]] || args+=(.)
    fi
    set -f  # reporters are split at spaces, never globbed
    for r in ${INPUT_REPORTERS:-github-actions}; do args+=(--reporter "$r"); done
    report="$RUNNER_TEMP/vclint-action-$$.json"
    args+=(--reporter "json:$report")
    summary="$RUNNER_TEMP/vclint-action-$$.md"
    # The job summary holds every finding (infos too), up to GitHub's 1 MiB a step, which the table says it cut.
    [[ "${INPUT_JOB_SUMMARY:-true}" == true && -n "${GITHUB_STEP_SUMMARY:-}" ]] && args+=(--reporter "markdown:$summary" --infos --markdown-rows all)
    # The baseline only when it exists: on the first run there is none yet, and that is no error.
    if [[ -n "${INPUT_BASELINE:-}" ]]; then
        if [[ -f "$INPUT_BASELINE" ]]; then
            args+=(--baseline "$INPUT_BASELINE")
        else
            echo "vclint: no baseline at $INPUT_BASELINE: every finding counts (vclint baseline create writes one)"
        fi
    fi
    [[ "${INPUT_STRICT:-false}" == true ]] && args+=(--strict)
    [[ -n "${INPUT_MAX_WARNINGS:-}" ]] && args+=(--max-warnings "$INPUT_MAX_WARNINGS")
    if [[ $command == lint ]]; then
        [[ -n "${INPUT_CONFIG:-}" ]] && args+=(--config "$INPUT_CONFIG")
        [[ -n "${INPUT_SOURCE_ROOT:-}" ]] && args+=(--source-root "$INPUT_SOURCE_ROOT")
    fi
    [[ -n "${INPUT_COLOR:-}" ]] && args+=(--color "$INPUT_COLOR")
    set +e
    "$vclint" "${args[@]}"
    code=$?
    set -e
    output exit-code "$code"
    if [[ -f "$report" ]]; then
        output report "$report"
        # The counts from the JSON report's summary (python3 is on every GitHub-hosted runner).
        counts=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["error"], s["warning"], s["info"], s["files"])' "$report")
        read -r errors warnings infos files <<< "$counts"
        output errors "$errors"
        output warnings "$warnings"
        output infos "$infos"
        output files "$files"
        if [[ -f "$summary" ]]; then cat "$summary" >> "$GITHUB_STEP_SUMMARY"; rm -f "$summary"; fi
    fi
    # Exit 1 (findings) fails the step unless fail-on-findings is false; exit 2 (the run failed) always does.
    if [[ $code -eq 1 && "${INPUT_FAIL_ON_FINDINGS:-true}" == false ]]; then exit 0; fi
    exit "$code"
    ;;

*)
    echo "action.sh: expected key, download, build or run" >&2
    exit 2
    ;;
esac
