import Testing
@testable import VCLintCore
import VCLintSimulation

/// `LogcatStatement` reads by bytes what `LogcatStatementOracle` (the String-based reader it replaced) read: the same
/// event, frame class and mention for every statement spelling of docs/lifecycle.md#android-statements, the system's
/// and the event log's lines, FragmentManager's, androidx's exception, stack frames, their near misses, mutations of
/// all of them, and every line of simulated captures in every logcat format.
@Suite struct LogcatStatementEquivalenceTests {
    /// What a reader made of a message, as text (an event's every field the stage reads).
    static func describe(_ e: Event?) -> String {
        guard let e else { return "nil" }
        return "\(e.kind.rawValue) \(e.className) \(e.address.map(String.init) ?? "-") \(e.dialect)"
    }

    /// Both readers on one message and tag; the differences, if any.
    static func compare(_ message: [UInt8], tag: [UInt8]?) -> String? {
        message.withUnsafeBufferPointer { m -> String? in
            let read: (Event?, Event?)
            if let tag {
                read = tag.withUnsafeBufferPointer { t in (LogcatStatement.read(m, tag: t), LogcatStatementOracle.read(m, tag: t)) }
            } else {
                read = (LogcatStatement.read(m, tag: nil), LogcatStatementOracle.read(m, tag: nil))
            }
            var out: [String] = []
            if describe(read.0) != describe(read.1) { out.append("read: \(describe(read.0)) != \(describe(read.1))") }
            if describe(LogcatStatement.continuation(m)) != describe(LogcatStatementOracle.continuation(m)) { out.append("continuation") }
            if LogcatStatement.appFrameClass(m) != LogcatStatementOracle.appFrameClass(m) {
                out.append("frame: \(LogcatStatement.appFrameClass(m) ?? "nil") != \(LogcatStatementOracle.appFrameClass(m) ?? "nil")")
            }
            if LogcatStatement.mentionsCallback(m) != LogcatStatementOracle.mentionsCallback(m) { out.append("mention") }
            guard !out.isEmpty else { return nil }
            let text = String(decoding: message, as: UTF8.self), t = tag.map { String(decoding: $0, as: UTF8.self) } ?? "(no tag)"
            return "\(t): \(text): " + out.joined(separator: "; ")
        }
    }

    static let tags: [String?] = [
        nil, "MainActivity", "com.example.ui.DetailFragment", "LeakCanary", "Lifecykle", "LogLifeCycle", "StrictMode", "TestRunner",
        "FragmentManager", "am_on_resume_called", "wm_on_paused_called", "wm_on_create_called", "wm_on_top_resumed_lost_called",
        "am_on_called", "am_on__called", "am_on_stop_called", "ActivityManager", "ActivityTaskManager", "Zygote", "am_proc_died", "am_kill",
        "Ünïcode", "日本語", "1Tag", "_Tag", "", "a.", ".Main", "System.err", "art", "Test", "com.example.MainActivity.",
    ]

    static let decorations = ["", "⟳ ", "--> ", "[", "• ", "*** ", "  ", "🔥"]
    static let labels = [
        "", "MainActivity ", "MainActivity", "com.example.MainActivity ", "MainActivity@b8fe3a6 ", "MainActivity{a14e02b} ",
        "MainActivity [1384162984] ", "MainActivity ⇀ ", "MainActivity -> ", "MainActivity: ", "MainActivity.", "Outer$Inner ",
        "LeakCanary ", "Lifecykle ", "MainActivity@ ", "MainActivity@123456789abcdef012 ", "MainActivity {xyz} ",
        "MainActivity [12345678901234567] ", "MainActivity # ", "MainActivity | ", "_private ", "X.Y.", "screen MainActivity lifecycle ",
    ]
    static let callbacks = Array(LogcatStatement.callbacks.keys).sorted() + [
        "onCreateOptionsMenu", "onWindowFocusChanged", "oncreate", "OnCreate", "onUserLeaveHint", "ON_ANY", "onStartX", "on", "o",
    ]
    static let suffixes = [
        "", "()", "() called", "(Bundle) called", "(Context) called", " called", "called", ": savedInstanceState = null", ":1", "=1",
        " was called", " is called", " <--", " fired", "!", "...", " .!", " called.", " called!", " () called", "((x)) called", "(",
        " was skipped today", " 🎉", " ✓", " (MainActivity.kt:12)", " called twice",
    ]

    /// The statements: decoration, label, callback and what follows, every combination, under a few tags.
    static func statements() -> [String] {
        var out: [String] = []
        for d in decorations { for l in labels { for c in callbacks { for s in suffixes { out.append(d + l + c + s) } } } }
        return out
    }

    /// The other lines the readers know, and their near misses.
    static let otherLines = [
        "[0,com.example/.MainActivity,RESUME_ACTIVITY]", "[164222498,com.debug.view.MainActivity,performPause]",
        "[+5,com.debug.view.MainActivity,performPause]", "[-0,com.debug.MainActivity,x]", "[-5,com.debug.MainActivity,x]",
        "[18446744073709551615,com.a.B,x]", "[18446744073709551616,com.a.B,x]", " [ 1 , com.a.B , x ] ", "[]", "", "[,,]",
        "[0,1.5,com.a/B]", "[0,éa.B,x]", "[0,Éa.B]", "[0,com.example/.Main/Activity]",
        "[0,4242,com.example.app,0,2]", "[0,4242,com.example.app,900,empty #17]", "[0,-4242,com.example.app]", "[0,,4242,,com.x]",
        "[0, 4242 ,\tcom.example.app\t]", "[0,\u{2003}4242\u{2003},com.example.app]", "[0,4242]", "[0,0,com.x]", "[0,99999999999999999999,com.x]",
        "Process com.example.app (pid 4242) has died: fg TOP", "Process com.example.app (pid 42٣) has died", "Process com.example.app (pid 42) has died",
        "Process com.example.app (pid x) has died", "Process  (pid 7) has died", "Process com.example.app has died (pid 8)",
        "Process 4242 exited due to signal 9 (Killed)", "Process 0 exited due to signal 9", "Process x exited due to signal 9",
        "Process 4242", "Process", "Processes 4242 exited due to signal 9",
        "moveto CREATED: MainFragment{a14e02b} (c2d8991a id=0x7f0a0224)", "movefrom RESUMED: MainFragment{a14e02b}",
        "moveto CREATE_VIEW: NavHostFragment{92d8f1d} (fd92599e-4f4a id=0x7f080116)", "movefrom ATTACHED: NavHostFragment{92d8f1d}",
        "moveto ATTACHED: X{}", "moveto ATTACHED: {1}", "moveto ATTACHED:  X{1}", "  moveto   ATTACHED: X{1}", "moveto ATTACHED:",
        "moveto ATTACHED: ", "moveto DESTROYED: X{1}", "moveto : X{1}", "moveto ATTACHED X{1}", "moveto ATTACHED: com.example.X{ff}",
        "moveto ATTACHED: X{12345678901234567}", "moveto ATTACHED: X{ab１}", "moveto ATTACHED: X Y{1}", "movefromRESUMED: X{1}",
        "java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner for ChatFragment{5d1e2a3} (4c7f id=0x7f0a) when getView() is null",
        "Can't access the Fragment View's LifecycleOwner when getView() is null", "Can't access the Fragment View's LifecycleOwner for {1}",
        "        at com.google.samples.apps.iosched.ui.sessiondetail.SessionFeedbackFragment.onCreateDialog(SessionFeedbackFragment.kt:148)",
        "        at androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)", "\tat com.example.Outer$Inner.run(Outer.kt:3)",
        "\tat com.example.$Outer$Inner.run(Outer.kt:3)", "at com.example.$.run(X.kt:1)", "at run(X.kt:1)", "at .run()", "at ", "at x",
        "    at void com.example.geoquiz.MainActivity.onCreate(android.os.Bundle) (MainActivity.java:32)", "at com.google.android.gms.X.y(Z)",
        "at kotlinx.coroutines.X.y(Z)", "at com.example.日本.Main.run(Main.kt:1)", "at com.example.Main.run", "  at  com.example.Main.run()  ",
        "atcom.example.Main.run()", "at com.example.MainActivity.onCreate(MainActivity.kt:12)",
        "onSuccess请求网络数据成功 name == ww isFinishingtrue isDestroytrue", "screen MainActivity lifecycle onCreate fired",
        "com.example.space.leak.LeakActivity@b8fe3a6", "Skipped 41 frames!  The application may be doing too much work on its main thread.",
    ]

    @Test func everyStatementSpellingReadsAsBefore() {
        var failures: [String] = []
        let messages = Self.statements()
        // Each message under a tag that names the class and under one more of the tags in turn (none among them).
        var compared = 0
        for (k, m) in messages.enumerated() {
            for tag in ["MainActivity", Self.tags[k % Self.tags.count]] {
                compared += 1
                if let f = Self.compare(Array(m.utf8), tag: tag.map { Array($0.utf8) }) { failures.append(f) }
            }
        }
        #expect(compared > 300_000)
        #expect(failures.isEmpty, "\(failures.count) differences, first: \(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test func theSystemsAndToolsLinesReadAsBefore() {
        var failures: [String] = []
        for tag in Self.tags {
            for m in Self.otherLines {
                if let f = Self.compare(Array(m.utf8), tag: tag.map { Array($0.utf8) }) { failures.append(f) }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) differences, first: \(failures.prefix(20).joined(separator: "\n"))")
    }

    /// Random edits of every line above (bytes inserted, dropped, replaced, including UTF-8 and invalid bytes).
    @Test func mutatedLinesReadAsBefore() {
        var rng = SplitMix(seed: 36)
        let alphabet = Array("aZ09_.$@{}[]()<>:=!-# \t,/".utf8) + [0xC3, 0xA9, 0xE2, 0x9F, 0xB3, 0xFF, 0x80]
        let seeds = Self.otherLines + Self.statements().enumerated().compactMap { $0.offset % 97 == 0 ? $0.element : nil }
        var failures: [String] = [], compared = 0
        for line in seeds {
            for _ in 0..<12 {
                var b = Array(line.utf8)
                for _ in 0...(rng.next() % 3) {
                    let at = b.isEmpty ? 0 : Int(rng.next() % UInt64(b.count + 1))
                    let byte = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                    switch rng.next() % 3 {
                    case 0: b.insert(byte, at: at)
                    case 1 where at < b.count: b.remove(at: at)
                    default: if at < b.count { b[at] = byte } else { b.append(byte) }
                    }
                }
                let tag = Self.tags[Int(rng.next() % UInt64(Self.tags.count))]
                compared += 1
                if let f = Self.compare(b, tag: tag.map { Array($0.utf8) }) { failures.append(f) }
            }
        }
        #expect(compared > 10_000)
        #expect(failures.isEmpty, "\(failures.count) differences, first: \(failures.prefix(20).joined(separator: "\n"))")
    }

    /// Every line of simulated captures, every format and wording, LeakCanary on: each message under its own tag.
    @Test(arguments: AndroidSimulator.Format.allCases)
    func simulatedCapturesReadAsBefore(_ format: AndroidSimulator.Format) {
        var failures: [String] = [], lines = 0
        for seed in 1...6 {
            var o = AndroidSimulator.Options(seed: UInt64(seed) &* 31 &+ UInt64(AndroidSimulator.Format.allCases.firstIndex(of: format)!))
            o.format = format
            o.leakCanary = seed % 2 == 0
            o.steps = 60
            o.wording = AndroidSimulator.Wording.allCases[seed % AndroidSimulator.Wording.allCases.count]
            for line in AndroidSimulator.generate(o).lines {
                var copy = line
                copy.withUTF8 { b in
                    lines += 1
                    guard let p = b.baseAddress, let info = LogcatEnvelope.parse(p, b.count) else {
                        if let f = Self.compare(Array(b), tag: nil) { failures.append(f) }
                        return
                    }
                    let message = Array(b[info.message]), tag = info.tag.map { Array(b[$0]) }
                    if let f = Self.compare(message, tag: tag) { failures.append(f) }
                }
            }
        }
        #expect(lines > 1_000)
        #expect(failures.isEmpty, "\(failures.count) differences, first: \(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test func theByteTableFindsWhatTheDictionaryDoes() {
        for word in Self.callbacks + ["", "onCreat", "onCreatee", "ON_RESUMEX", "xnCreate", "onDestroY"] {
            var w = word
            let byBytes = w.withUTF8 { LogcatStatement.callbackBytes.value($0) }
            #expect(byBytes == LogcatStatement.callbacks[word], "\(word)")
        }
    }
}

/// LeakCanary's watch and the system's `Displayed` line read by bytes as the String-based readings read them.
@Suite struct LeakCanaryEquivalenceTests {
    static let watches = [
        "com.example.MainActivity (Activity received Activity#onDestroy() callback) with key 8d4f2e31-7c61-4a38-9d5e-0b1f6a2c3e4d",
        "android.widget.FrameLayout (com.example.DetailFragment received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks)) with key 1",
        "com.example.MainViewModel (com.example.MainViewModel received ViewModel#onCleared() callback) with key k",
        "com.example.Service (Service received Service#onDestroy() callback) with key k2",
        "com.example.Root (View#onDetachedFromWindow() callback) with key k3", "com.example.X (Activity#mDestroyed is true) with key k4",
        "com.example.Frag (Fragment#onDestroy() called) with key a b", "com.example.X with key k", "com.example.X   (r) with key k",
        "com.example.X (r) with key ", "com.example.X (r) with key\tk", "com.example.X (r) with key k\u{00A0}tail", "com.example.X (r) with key k\u{2028}x",
        "com.example.X (r) with key kéy", "two words (r) with key k", " (r) with key k", "(r) with key k", "com.example.X (r with key k",
        "com.example.X r) with key k", "com.example.X (a) (b) with key k", "com.example.X (r) with key k with key j", "with key k", "",
        "com.example.X (r)with key k", "com.example.Ünï (rëason) with key ключ",
        // Several ends of use in one reason: the first of the readers' order wins, wherever it stands.
        "com.example.X (Fragment#onDestroyView() after Activity#onDestroy()) with key k",
        "com.example.X (Service#onDestroy() ViewModel#onCleared() View#onDetachedFromWindow()) with key k",
        "com.example.X (#onDestroy() Activity# Activity#mDestroyed is true) with key k", "com.example.X (##Activity#onDestroy()#) with key k",
        "com.example.X (Fragment#onDestroy() Fragment#onDestroyView()) with key k", "com.example.X (Activity#onDestroy(Activity#) with key k",
    ]

    @Test func watchesReadAsBefore() {
        var variants = Self.watches
        for w in Self.watches { variants += [w + " ", w + "\r", "x" + w, String(w.dropLast()), String(w.dropFirst())] }
        // Heads, reasons and keys longer than a text is kept (`maxText`), cut between the bytes of a character or not.
        for pad in [0, 1, 2] {
            let long = String(repeating: "x", count: LeakCanaryReader.maxText - 2 + pad)
            variants += ["com.example.\(long)é (r) with key k", "com.example.X (\(long)é Activity#onDestroy()) with key k",
                         "com.example.X (r) with key \(long)ключ", "com.example.X (r) with key \(long)é tail"]
        }
        for text in variants {
            let t = Substring(text)
            #expect(LeakCanaryReader.watch(t, line: 7) == LeakCanaryOracle.watch(t, line: 7), "\(text)")
            #expect(LeakCanaryReader.EndOfUse(naming: t) == LeakCanaryOracle.endOfUse(naming: t), "\(text)")
        }
    }

    static let displayed = [
        "Displayed com.example/.MainActivity: +1s230ms", "Displayed com.example/com.example.MainActivity: +173ms",
        "Displayed com.example/.MainActivity for user 0: +23s157ms", "Displayed com.example/.Main: +1m2s3ms (total +2s)",
        "Displayed com.example/.Main: +5s", "Displayed com.example/.Main: +", "Displayed com.example/.Main: +ms", "Displayed com.example/.Main: 5ms",
        "Displayed com.example/.Main", "Displayed /x: +1ms", "Displayed com.example/: +1ms", "Displayed com example/.Main: +1ms",
        "Displayed com.example/.: +1ms", "Displayed com.example.Main: +1ms", "Displayed com.example/.Main: +99999999999999999ms",
        "Displayed com.example/.Main: +1x", "Displayed com.example/.Mäin: +1ms", "Displayed com.example/.Main: +1ꙮms", "Displayed x/y:+1ms: +2ms",
        "Displayed", "Displayed  com.example/.Main: +1ms", "Displayedcom.example/.Main: +1ms", "START u0 {cmp=com.example/.Main}",
    ]

    @Test func displayedLinesReadAsBefore() {
        for text in Self.displayed {
            var copy = text
            copy.withUTF8 { m in
                #expect(AndroidEvidence.displayed(m) == LeakCanaryOracle.displayed(m), "\(text)")
            }
        }
    }
}
