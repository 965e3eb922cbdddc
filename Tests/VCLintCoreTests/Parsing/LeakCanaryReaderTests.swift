import Testing
@testable import VCLintCore

/// LeakCanary's output read as evidence (docs/lifecycle.md#leakcanary): watches, counts, analyses and
/// their traces, bounded whatever the input.
@Suite struct LeakCanaryReaderTests {
    /// Every message of `text` (one a line, as the envelope leaves it), numbered from 1, then the end.
    static func read(_ text: String) -> [LeakCanaryReader.Evidence] {
        var r = LeakCanaryReader()
        var out: [LeakCanaryReader.Evidence] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            out += r.read(line, line: k + 1)
        }
        return out + r.finish()
    }

    static func analyses(_ text: String) -> [LeakCanaryReader.Analysis] {
        read(text).compactMap { if case .analysis(let a) = $0 { return a } else { return nil } }
    }

    /// LeakCanary 2.x's whole block, as `LeakCanary` prints it (capture 58's trace).
    static let block = """
    ====================================
    HEAP ANALYSIS RESULT
    ====================================
    1 APPLICATION LEAKS

    References underlined with "~~~" are likely causes.
    Learn more at https://squ.re/leaks.

    98128 bytes retained by leaking objects
    Signature: f3f4dc33860ab6f9f13964f6a6942ee1b545
    ┬───
    │ GC Root: Global variable in native code
    │
    ├─ com.example.space.service.TimeService$TimeBinder instance
    │    Leaking: UNKNOWN
    │    ↓ TimeService$TimeBinder.this$0
    │                             ~~~~~~
    ├─ com.example.space.service.TimeService instance
    │    Leaking: NO (Service held by ActivityThread)
    │    ↓ TimeService.timeCallBack
    │                  ~~~~~~~~~~~~
    ├─ com.example.space.service.ServiceActivity$2$1 instance
    │    Leaking: UNKNOWN
    │    Anonymous class implementing com.example.space.service.TimeService$TimeCallBack
    │    ↓ ServiceActivity$2$1.this$1
    │                          ~~~~~~
    ├─ com.example.space.service.ServiceActivity$2 instance
    │    Leaking: UNKNOWN
    │    ↓ ServiceActivity$2.this$0
    │                        ~~~~~~
    ╰→ com.example.space.service.ServiceActivity instance
         Leaking: YES (ObjectWatcher was watching this because com.example.space.service.ServiceActivity received
         Activity#onDestroy() callback and Activity#mDestroyed is true)
         Retaining 98.1 kB in 1482 objects
         key = 47cfcd35-40b9-45c8-b648-f24d144cc927
         watchDurationMillis = 6906
         retainedDurationMillis = 1905
    ====================================
    1 LIBRARY LEAKS

    Leak pattern: instance field android.app.Activity$1#this$0
    Description: Android Q added a new IRequestFinishCallback$Stub class. It leaks the activity. More later.
    58 bytes retained by leaking objects
    Signature: 2f4e0f3e0c0bdbc4c5b1ab0ccb3f1a2b1a3c4d5e
    ┬───
    │ GC Root: Global variable in native code
    │
    ├─ android.app.Activity$1 instance
    │    Leaking: UNKNOWN
    │    ↓ Activity$1.this$0
    │                 ~~~~~~
    ╰→ com.example.space.MainActivity instance
         Leaking: YES (Activity#mDestroyed is true)
    ====================================
    0 UNREACHABLE OBJECTS

    An unreachable object is still in memory but LeakCanary could not find a strong reference path
    from GC roots.
    ====================================
    METADATA

    Please include this in bug reports and Stack Overflow questions.

    Build.VERSION.SDK_INT: 29
    Analysis duration: 5324 ms
    ====================================
    """

    @Test func aWholeBlock() throws {
        let found = Self.analyses(Self.block)
        try #require(found.count == 1)
        let a = found[0]
        #expect(a.line == 2)
        #expect(a.traces.count == 2)
        let app = a.traces[0]
        #expect(app.section == .application)
        #expect(app.signature == "f3f4dc33860ab6f9f13964f6a6942ee1b545")
        #expect(app.signatureLine == 10)
        #expect(app.retainedBytes == "98128 bytes")
        #expect(app.nodes.count == 5)
        #expect(app.line == 31)
        #expect(app.leaking.className == "com.example.space.service.ServiceActivity")
        #expect(app.endOfUse == .activityDestroyed)
        #expect(app.leaking.note.hasSuffix("received Activity#onDestroy() callback and Activity#mDestroyed is true"))
        #expect(app.nodes[1].note == "Service held by ActivityThread")
        #expect(app.nodes[1].leaking == .no)
        #expect(app.key == "47cfcd35-40b9-45c8-b648-f24d144cc927")
        #expect(app.retaining == "98.1 kB")
        #expect(app.watchMillis == 6906 && app.retainedMillis == 1905)
        #expect(app.chain == "GC Root: Global variable in native code → [TimeService$TimeBinder.this$0] → [TimeService.timeCallBack] → "
            + "[ServiceActivity$2$1.this$1] → [ServiceActivity$2.this$0] → ServiceActivity")
        let lib = a.traces[1]
        #expect(lib.section == .library)
        #expect(lib.pattern == "instance field android.app.Activity$1#this$0")
        #expect(lib.description == "Android Q added a new IRequestFinishCallback$Stub class.")
        #expect(lib.endOfUse == .activityDestroyed)
        #expect(a.roots().count == 2)
    }

    /// Nothing inside a block is read as anything else, and a statement between blocks is.
    @Test func insideABlock() {
        var r = LeakCanaryReader()
        _ = r.read("HEAP ANALYSIS RESULT", line: 1)
        #expect(r.isInsideBlock)
        _ = r.read("Description: Activity.onDestroyed() is called", line: 2)
        #expect(r.isInsideBlock)
        let closed = r.read("Watching instance of com.example.A (com.example.A received Activity#onDestroy() callback) with key k1", line: 3)
        #expect(!r.isInsideBlock)
        // The analysis LeakCanary announced found nothing (it still resolves the counts); then the watch.
        #expect(closed.count == 2)
        if case .analysis(let a)? = closed.first { #expect(a.traces.isEmpty) } else { Issue.record("expected the empty analysis first") }
    }

    @Test func watchesCountsAndCollection() {
        let e = Self.read("""
        Watching instance of com.example.space.service.ServiceActivity (com.example.space.service.ServiceActivity received Activity#onDestroy() callback) with key 47cfcd35
        Watching instance of com.example.Old with key abc
        Watching instance of com.example.ui.HomeFragment (com.example.ui.HomeFragment received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks)) with key v1
        Found 4 retained instances, which is less than the visible threshold of 5
        Rescheduling check for retained objects in 2000ms because found only 3 retained objects (< 5 while app visible)
        Found 2 objects retained, not dumping heap yet (app is visible & < 5 threshold)
        Check for retained objects found 3 objects, dumping the heap
        All retained objects have been garbage collected
        """)
        #expect(e == [
            .watch(.init(className: "com.example.space.service.ServiceActivity", endOfUse: .activityDestroyed,
                         reason: "com.example.space.service.ServiceActivity received Activity#onDestroy() callback", key: "47cfcd35", line: 1)),
            .watch(.init(className: "com.example.Old", endOfUse: .other, reason: "", key: "abc", line: 2)),
            .watch(.init(className: "com.example.ui.HomeFragment", endOfUse: .fragmentViewDestroyed,
                         reason: "com.example.ui.HomeFragment received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks)",
                         key: "v1", line: 3)),
            .retainedCount(4, line: 4), .retainedCount(3, line: 5), .retainedCount(2, line: 6),
            .dumpingHeap(line: 7), .allCollected(line: 8),
        ])
    }

    /// LeakCanary 2.2 printed its traces after `Found N paths …`, without the frame; a trace published
    /// alone (from a `├─` node) is an application leak too.
    @Test func unframedTraces() throws {
        let a = Self.analyses("""
         14:41:25.996 : Found 3 paths to retained objects, down to 1 after removing duplicated paths
            ╰→ source.analysis.android29.singleinstance.SingleInstanceActivity instance
                 Leaking: YES (ObjectWatcher was watching this because source.analysis.android29.singleinstance.SingleInstanceActivity received Activity#onDestroy() callback and Activity#mDestroyed is true)
        """.replacingOccurrences(of: " 14:41:25.996 : ", with: ""))
        try #require(a.count == 1)
        #expect(a[0].traces.map(\.leaking.className) == ["source.analysis.android29.singleinstance.SingleInstanceActivity"])
        let alone = Self.analyses("""
        ├─ com.amaze.filemanager.ui.fragments.AppsListFragment instance
        │    Leaking: NO (Fragment.mLifecycleRegistry.state is CREATED)
        │    ↓ AppsListFragment.rootView
        │                       ~~~~~~~~
        ╰→ androidx.constraintlayout.widget.ConstraintLayout instance
             Leaking: YES (ObjectWatcher was watching this because com.amaze.filemanager.ui.fragments.AppsListFragment received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks))
        """)
        try #require(alone.count == 1)
        let t = alone[0].traces[0]
        #expect(t.section == .application)
        #expect(t.endOfUse == .fragmentViewDestroyed)
        #expect(t.chain == "[AppsListFragment.rootView] → ConstraintLayout")
        #expect(t.line == 5)
    }

    /// A trace cut before its `╰→` node proves nothing: the analysis holds no trace.
    @Test func aCutTraceIsNothing() {
        #expect(Self.analyses("""
        HEAP ANALYSIS RESULT
        1 APPLICATION LEAKS
        ┬───
        │ GC Root: System class
        ├─ com.example.Holder class
        │    ↓ static Holder.sInstance
        """).allSatisfy { $0.traces.isEmpty })
        // Published without its frame, it is nothing at all.
        #expect(Self.analyses("""
        ┬───
        │ GC Root: System class
        ├─ com.example.Holder class
        │    ↓ static Holder.sInstance
        """).isEmpty)
    }

    /// A trace that passes through a `Leaking: YES` node another trace ends in is folded into it.
    @Test func folding() throws {
        let a = Self.analyses("""
        HEAP ANALYSIS RESULT
        2 APPLICATION LEAKS
        Signature: aaa
        ┬───
        ├─ com.example.GeneralActivity instance
        │    Leaking: YES (ObjectWatcher was watching this because com.example.GeneralActivity received Activity#onDestroy() callback)
        │    ↓ GeneralActivity.mFragments
        ├─ androidx.fragment.app.FragmentManagerImpl instance
        │    Leaking: YES (GeneralActivity↑ is leaking)
        │    ↓ FragmentManagerImpl.mNonConfig
        ╰→ androidx.fragment.app.FragmentManagerViewModel instance
             Leaking: YES (ObjectWatcher was watching this because androidx.fragment.app.FragmentManagerViewModel received ViewModel#onCleared() callback)
             key = b2205c62
        Signature: bbb
        ┬───
        │ GC Root: Thread
        ├─ com.example.Leaker class
        │    ↓ static Leaker.activity
        │                    ~~~~~~~~
        ╰→ com.example.GeneralActivity instance
             Leaking: YES (Activity#mDestroyed is true)
        """)
        try #require(a.count == 1)
        let roots = a[0].roots()
        #expect(roots.count == 1)
        #expect(roots[0].trace.signature == "bbb")
        #expect(roots[0].folded.map(\.leaking.className) == ["androidx.fragment.app.FragmentManagerViewModel"])
        #expect(a[0].traces[0].endOfUse == .viewModelCleared)
    }

    @Test func legacyBlocks() throws {
        let a = Self.analyses("""
        In com.example.leakdemo:1.0:1.
        * com.example.leakdemo.LeakActivity has leaked:
        * GC ROOT static com.example.leakdemo.Holder.sContext
        * references com.example.leakdemo.Holder.sContext
        * leaks com.example.leakdemo.LeakActivity instance
        * Retaining: 46 KB.
        """)
        try #require(a.count == 1)
        let t = a[0].traces[0]
        #expect(t.legacy)
        #expect(t.line == 5)
        #expect(t.leaking.className == "com.example.leakdemo.LeakActivity")
        #expect(t.gcRoot == "static com.example.leakdemo.Holder.sContext")
        #expect(t.nodes.map(\.className) == ["com.example.leakdemo.Holder", "com.example.leakdemo.LeakActivity"])
        #expect(t.retaining == "46 KB")
    }

    @Test func theTestLeakCanaryNames() throws {
        let a = Self.analyses("""
        helperTextHasExpectedContent(leakcanary.tests.TuPeuxPasTest) failed because application memory leaks were detected:
        ====================================
        HEAP ANALYSIS RESULT
        ====================================
        1 APPLICATION LEAKS
        ┬───
        ╰→ com.example.MainActivity instance
             Leaking: YES (Activity#mDestroyed is true)
        """)
        try #require(a.count == 1)
        #expect(a[0].test == "leakcanary.tests.TuPeuxPasTest/helperTextHasExpectedContent")
    }

    /// A million nodes, a block never closed, box characters everywhere and over-long texts: bounded.
    @Test func hostileBlocksAreBounded() throws {
        var r = LeakCanaryReader()
        _ = r.read("HEAP ANALYSIS RESULT", line: 1)
        _ = r.read("1 APPLICATION LEAKS", line: 2)
        _ = r.read("┬───", line: 3)
        let long = String(repeating: "x", count: 100_000)
        // A million nodes, one in a hundred with a reference, underlines and box characters among them.
        let lines: [Substring] = ["├─ com.example.Node instance", Substring("│    ↓ Node." + long.prefix(700)), "│ │ │ ~~~ ╰", "│    ~~~~"]
        for k in 0..<1_000_000 { _ = r.read(lines[k % 100 < 97 ? 0 : k % 100 - 96], line: 4 + k) }
        _ = r.read(Substring("╰→ com.example.\(long) instance"), line: 2_000_000)
        let out = r.finish()
        guard case .analysis(let a)? = out.first else { Issue.record("no analysis"); return }
        let t = a.traces[0]
        #expect(t.nodes.count == LeakCanaryReader.maxNodes)
        #expect(t.omittedNodes > 900_000)
        #expect(t.leaking.className.utf8.count <= LeakCanaryReader.maxText + 3)
        #expect(t.line == 2_000_000)
        #expect(t.chain.contains("more"))
        #expect(t.chain.utf8.count < 200_000)
    }
}
