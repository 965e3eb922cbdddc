/// What the candidate search looks for: the lines that may carry a lifecycle statement.
enum CandidateSearch {
    /// Every lifecycle statement contains one of these literals; everything else is noise and costs
    /// nothing. They are split so that each pattern starts with at most two distinct bytes: PCRE2's
    /// JIT then skips ahead with SIMD instead of testing every position (4× faster in total). The
    /// vector path (`CandidateLiterals`) searches the same literals.
    /// The callback names' literals leave out their first letter, so that the capitalised spellings
    /// apps print (`ViewWillAppear`, `LoadView`) are found too (docs/lifecycle.md#callback-spellings).
    static let patterns: [PCRE2Pattern] = [
        #"iewWill|iewDid|iewIsAppearing|idMove|idReceive|illMove"#,
        #"dealloc|deinit|dismiss |Dealloc|Deinit|deInit"#,
        #"\binit|\bInit|oadView"#,
        #"present |wakeFromNib|ppeared"#,
        // SwiftUI views (docs/lifecycle.md#swiftui-views): `HomeView onAppear`, and `HomeView appeared`
        // through `ppeared` above.
        #"onAppear|onDisappear|OnAppear|OnDisappear"#,
        #"Attempt to |appearance transitions"#,
        // A test runner's lines (docs/lifecycle.md#test-boundaries): XCTest's and Swift Testing's.
        #"Test Case '|Test case '|Test Suite '"#,
        #"◇ Test|✔ Test|✘ Test|➜ Test|◇ Suite|✔ Suite|✘ Suite"#,
        // Android's callbacks in logcat (docs/lifecycle.md#android-statements), as words (`collectionView` is no
        // `onView…`); `onCreate`, `onRestore` and `onDestroy` also find `onCreateView`, `onRestoreInstanceState`
        // and `onDestroyView`.
        #"\bonCreate|\bonStart|\bonStop|\bonResume|\bonRestart|\bonRestore|\bonPause|\bonDestroy|\bonAttach|\bonDetach|\bonViewCreated|\bonViewStateRestored|\bonActivityCreated|\bonSaveInstanceState|\bonPostCreate|\bonPostResume|\bonNewIntent|\bonConfigurationChanged"#,
        // Jetpack's `Lifecycle.Event` names, the event log's tags, FragmentManager's debug lines, androidx's exception.
        #"ON_CREATE|ON_START|ON_RESUME|ON_PAUSE|ON_STOP|ON_DESTROY"#,
        // The event log's callbacks and the system's process-death lines (docs/lifecycle.md#logcat).
        #"am_on_|wm_on_|am_proc_died|am_kill"#,
        #"has died|exited due to signal"#,
        #"moveto |movefrom |LifecycleOwner"#,
        // Android's evidence (docs/lifecycle.md#android-evidence): LeakCanary's tag (its lines carry it in every format
        // with tags); without it, the lines a trace copied as text needs (box characters, `Leaking:`, section headers)
        // and a watch and the all-collected line; StrictMode's counts, `Displayed`, androidx's runner.
        #"LeakCanary|Leaking: |LEAKS|UNREACHABLE OBJECTS"#,
        #"Watching instance|garbage collected|HEAP ANALYSIS"#,
        #"retained objects|retained instances|objects retained"#,
        #"├─ |╰→ |┬───|│ "#,
        #"; instances=|Displayed |TestRunner"#,
        // The system's start requests (`START u0 {… cmp=pkg/.Cls …}`; Android 4 prints no user).
        #"START u|START {"#,
        // Android's objects and composables (docs/lifecycle.md#android-objects-and-composables): a ViewModel's end of use,
        // a release, Compose's effects (`init` and `onCreated` are found above).
        #"\bonCleared|\bonDispose|finalize"#,
        #"Activity\(\)|ViewModel\(\)"#,
        #"\bINIT"#,
        #"DisposableEffect|LaunchedEffect"#,
        // LeakCanary 1.x blocks published without their tag (`* X has leaked:`, `* GC ROOT …`, `* references …`,
        // `* leaks X instance`, `* Retaining: …`).
        #"has leaked:|GC ROOT|\* references |\* leaks |\* Retaining: "#,
    ].map { try! PCRE2Pattern($0) }

    /// The head of an over-long line that is still parsed (a lifecycle statement is far shorter).
    static let overlongHead = 64 * 1024

    /// The line for stderr when lines longer than the read buffer (`chunkSize`) were parsed by
    /// their head only: an ndjson record whose `eventMessage` comes after its head is not read, and
    /// that must not pass for a clean capture.
    static func overlongWarning(_ count: Int, chunkSize: Int, path: String) -> String {
        func size(_ n: Int) -> String {
            n >= 1 << 20 && n % (1 << 20) == 0 ? "\(n >> 20) MiB" : n % 1024 == 0 ? "\(n >> 10) KiB" : "\(n) bytes"
        }
        let buffer = max(chunkSize, 256)
        let lines = count == 1 ? "1 line" : "\(count) lines"
        return "vclint: warning: \(path): \(lines) longer than \(size(buffer)) read by \(count == 1 ? "its" : "their") first \(size(min(buffer, overlongHead))) only (the rest not linted)"
    }

    /// The literals the vector path searches for (nil where it is not built).
    static var vectorLiterals: [String]? {
#if arch(x86_64)
        return CandidateLiterals.table.map(\.0)
#else
        return nil
#endif
    }
}

/// The earliest match of several patterns, each searched once per region (leapfrogging).
final class CandidateFinder {
    private let matchers: [PCRE2Matcher]
    @exclusivity(unchecked) private var nextMatch: [Int]

    init(_ patterns: [PCRE2Pattern]) {
        matchers = patterns.map { $0.makeMatcher() }
        nextMatch = Array(repeating: -1, count: patterns.count)
    }

    /// Forgets positions: call when the buffer contents change.
    func reset() {
        for i in nextMatch.indices { nextMatch[i] = -1 }
    }

    /// The start of the first match at or after `from`, or `Int.max`.
    @inline(__always)
    func next(_ buffer: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var best = Int.max
        for i in matchers.indices {
            var m = nextMatch[i]
            if m < from {
                if from < end, matchers[i].search(buffer, length: end, from: from) == .match, let r = matchers[i].range(0) {
                    m = r.lowerBound
                } else {
                    m = Int.max
                }
                nextMatch[i] = m
            }
            if m < best { best = m }
        }
        return best
    }
}
