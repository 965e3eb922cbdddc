import Testing
@testable import VCLintCore

/// Android's logcat (docs/lifecycle.md#logcat, #android-statements): every envelope, every spelling of a callback,
/// and the noise that stays noise.
@Suite struct LogcatTests {
    struct Read: Equatable {
        var pid: Int?
        var process: String?
        var tag: String?
        var message: String
    }

    static func envelope(_ line: String) -> Read? {
        var copy = line
        return copy.withUTF8 { b -> Read? in
            guard let p = b.baseAddress, let info = LogcatEnvelope.parse(p, b.count) else { return nil }
            func text(_ r: Range<Int>?) -> String? { r.map { String(decoding: UnsafeBufferPointer(rebasing: b[$0]), as: UTF8.self) } }
            return Read(pid: info.pid, process: text(info.process), tag: text(info.tag), message: text(info.message)!)
        }
    }

    @Test(arguments: [
        ("01-05 09:00:00.100  4242  4242 D SplashActivity: onCreate", Read(pid: 4242, tag: "SplashActivity", message: "onCreate")),
        ("2023-01-05 09:00:00.140  1000  4242  4243 D SplashActivity: onStart() called", Read(pid: 4242, tag: "SplashActivity", message: "onStart() called")),
        ("01-05 09:00:00.150 u0_a12  4242  4242 D SplashActivity: onResume", Read(pid: 4242, tag: "SplashActivity", message: "onResume")),
        ("01-05 09:00:00.150 +0100  4242  4242 I ActivityTaskManager: Displayed x", Read(pid: 4242, tag: "ActivityTaskManager", message: "Displayed x")),
        ("01-05 09:00:00.160 D/SplashActivity( 4242): onPause", Read(pid: 4242, tag: "SplashActivity", message: "onPause")),
        ("D/SplashActivity( 4242): onStop() called", Read(pid: 4242, tag: "SplashActivity", message: "onStop() called")),
        ("I( 4242) onDestroy:1  (SplashActivity)", Read(pid: 4242, tag: "SplashActivity", message: "onDestroy:1")),
        ("V( 4242:0x3e) HomeActivity onStart", Read(pid: 4242, message: "HomeActivity onStart")),
        ("D/HomeActivity: onCreate(Bundle) called", Read(tag: "HomeActivity", message: "onCreate(Bundle) called")),
        ("[ 01-05 09:00:00.100  4242: 4242 D/SplashActivity ] onCreate", Read(pid: 4242, tag: "SplashActivity", message: "onCreate")),
        ("2022-01-20 14:01:32.591 6937-6937/com.example.geoquiz D/MainActivity: onStart() called",
         Read(pid: 6937, process: "com.example.geoquiz", tag: "MainActivity", message: "onStart() called")),
        ("22-01-20 14:01:32.591 6937-6937/com.example.geoquiz D/MainActivity: ON_CREATE",
         Read(pid: 6937, process: "com.example.geoquiz", tag: "MainActivity", message: "ON_CREATE")),
        ("11-16 19:24:34.524    1203-1203/? D/LogLifeCycle﹕ MainActivity [1384319084] ⟳ onCreate",
         Read(pid: 1203, tag: "LogLifeCycle", message: "MainActivity [1384319084] ⟳ onCreate")),
        ("21933-21933/com.example.android.navigation I/TitleFragment: onDestroyView called",
         Read(pid: 21933, process: "com.example.android.navigation", tag: "TitleFragment", message: "onDestroyView called")),
        ("2022-12-29 04:00:18.823 30249-30321 ProfileActivity        com.google.samples.apps.sunflower    D  onCreate",
         Read(pid: 30249, process: "com.google.samples.apps.sunflower", tag: "ProfileActivity", message: "onCreate")),
        ("04-11 09:44:57.350 11757-11757/cn.hotwoo.play:remote I/MainActivity: onCreate",
         Read(pid: 11757, process: "cn.hotwoo.play:remote", tag: "MainActivity", message: "onCreate")),
    ])
    func everyFormatGivesItsPidTagAndMessage(_ line: String, _ expected: Read) {
        #expect(Self.envelope(line) == expected, "\(line)")
    }

    @Test(arguments: [
        "2017-02-11 17:25:16.964 navTest[933:17086] mainViewCtrl invoke viewDidLoad",
        "HomeViewController viewWillAppear(_:)",
        "Apr  1 16:30:40 iPhone Shop[63209] <Notice>: homeCtrl invoke viewDidLoad",
    ])
    func appleLinesAreNoLogcat(_ line: String) {
        #expect(Self.envelope(line) == nil, "\(line)")
    }

    static func statement(_ message: String, tag: String? = "MainActivity") -> String? {
        var m = message, t = tag ?? ""
        return m.withUTF8 { mb in
            t.withUTF8 { tb in
                LogcatStatement.read(mb, tag: tag == nil ? nil : tb).map { e in
                    "\(e.className) \(e.kind.rawValue)" + (e.address.map { " \($0)" } ?? "") + (e.dialect == .eventLog ? " event-log" : "")
                }
            }
        }
    }

    @Test(arguments: [
        ("onCreate", "MainActivity", "MainActivity onCreate"),
        ("onCreate()", "MainActivity", "MainActivity onCreate"),
        ("onCreate(Bundle) called", "MainActivity", "MainActivity onCreate"),
        ("onStart() called", "MainActivity", "MainActivity onStart"),
        ("onCreate called", "MainActivity", "MainActivity onCreate"),
        ("onCreate: savedInstanceState = null", "MainActivity", "MainActivity onCreate"),
        ("onDestroy:1", "MainActivity", "MainActivity onDestroy"),
        ("ON_RESUME", "MainActivity", "MainActivity onResume"),
        ("--> onPause <--", "MainActivity", "MainActivity onPause"),
        ("MainActivity ⇀ onStart", "Lifecykle", "MainActivity onStart"),
        ("pwittchen.com.androiddebugplayground.MainActivity [1384319084] ⟳ onCreate", "LogLifeCycle", "MainActivity onCreate 1384319084"),
        ("com.example.space.leak.LeakActivity@b8fe3a6 onDestroy", "Test", "LeakActivity onDestroy 193979302"),
        ("MainActivity.onPause", "Test", "MainActivity onPause"),
        ("onViewStateRestored", "com.example.ui.DetailFragment", "DetailFragment onViewStateRestored"),
        ("moveto CREATE_VIEW: NavHostFragment{92d8f1d} (fd92599e-4f4a id=0x7f080116)", "FragmentManager", "NavHostFragment onCreateView 153980701"),
        ("movefrom ATTACHED: NavHostFragment{92d8f1d} (fd92599e-4f4a id=0x7f080116)", "FragmentManager", "NavHostFragment onDetach 153980701"),
        ("[0,com.example/.MainActivity,RESUME_ACTIVITY]", "am_on_resume_called", "MainActivity onResume event-log"),
        ("[164222498,com.debug.view.MainActivity,performPause]", "wm_on_paused_called", "MainActivity onPause 164222498 event-log"),
    ])
    func callbacksInEverySpelling(_ message: String, _ tag: String, _ expected: String) {
        #expect(Self.statement(message, tag: tag) == expected, "\(message)")
    }

    @Test(arguments: [
        ("onCreateOptionsMenu", "MainActivity"),
        ("onWindowFocusChanged", "MainActivity"),
        ("    at void com.example.geoquiz.MainActivity.onCreate(android.os.Bundle) (MainActivity.java:32)", "art"),
        ("com.example.space.leak.LeakActivity@b8fe3a6", "Test"),
        // A callback glued to the id is one word with it (a fuzzed capture: the candidate search sees no callback).
        ("com.example.space.leak.LeakActivity@b8feonResume", "Test"),
        ("onSuccess请求网络数据成功 name == ww isFinishingtrue isDestroytrue", "Test"),
        ("onStart was skipped today", "MainActivity"),
        ("onCreate", "LeakCanary"),
        ("onCreate", "Lifecykle"),
        ("[164222498,com.debug.view.MainActivity,performPause]", "wm_on_top_resumed_lost_called"),
        ("moveto CREATED:", "FragmentManager"),
    ])
    func noiseStaysNoise(_ message: String, _ tag: String) {
        #expect(Self.statement(message, tag: tag) == nil, "\(message)")
    }

    /// Objects and composables (docs/lifecycle.md#android-objects-and-composables).
    @Test(arguments: [
        ("init", "MainViewModel", "MainViewModel init"),
        ("INIT", "MainViewModel", "MainViewModel init"),
        ("<init>", "MainViewModel", "MainViewModel init"),
        ("onCreated()", "MainViewModel", "MainViewModel init"),
        ("MainViewModel init", "App", "MainViewModel init"),
        ("com.example.MainViewModel@1f2e3d init", "Lifecycle", "MainViewModel init 2043453"),
        ("MainViewModel.onCleared()", "App", "MainViewModel onCleared"),
        ("onCleared() called", "MainViewModel", "MainViewModel onCleared"),
        ("onCleared", "MainViewModel", "MainViewModel onCleared"),
        ("finalize() called", "MainActivity", "MainActivity finalize"),
        ("MainActivity finalize", "App", "MainActivity finalize"),
        ("MainActivity()", "MainActivity", "MainActivity init"),
        ("com.example.DetailViewModel()", "App", "DetailViewModel init"),
        ("HomeScreen DisposableEffect started", "Compose", "HomeScreen onAppear"),
        ("HomeScreen: LaunchedEffect(Unit) launched", "Compose", "HomeScreen onAppear"),
        ("DisposableEffect", "HomeScreen", "HomeScreen onAppear"),
        ("HomeScreen onDispose", "Compose", "HomeScreen onDisappear"),
        ("onDispose()", "HomeScreen", "HomeScreen onDisappear"),
        ("onDestroy isFinishing=false", "MainActivity", "MainActivity onDestroy"),
        ("onDestroy isFinishing=true isChangingConfigurations=false", "MainActivity", "MainActivity onDestroy"),
    ])
    func objectsAndComposables(_ message: String, _ tag: String, _ expected: String) {
        #expect(Self.statement(message, tag: tag) == expected, "\(message)")
    }

    @Test(arguments: [
        ("init failed: no network", "OkHttp"),
        ("finalize the order", "Checkout"),
        ("Disposable Effect Started", "jashwant"),
        ("onDispose", "jashwant"),
        ("cleanup onDispose", "Compose"),
        ("DetailFragment()", "App"),
        ("doWork()", "Worker"),
        ("init", "LeakCanary"),
        ("onCleared called twice for no reason", "MainViewModel"),
    ])
    func objectNoiseStaysNoise(_ message: String, _ tag: String) {
        #expect(Self.statement(message, tag: tag) == nil, "\(message)")
    }

    @Test func aStatementWithoutATagNeedsALabel() {
        #expect(Self.statement("onStart", tag: nil) == nil)
        #expect(Self.statement("HomeActivity onStart", tag: nil) == "HomeActivity onStart")
    }

    @Test func theViewMisuseExceptionNamesItsFragment() {
        #expect(Self.statement("java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner for ChatFragment{5d1e2a3} (4c7f id=0x7f0a) when getView() is null i.e., before onCreateView() or after onDestroyView()", tag: "AndroidRuntime")
                == "ChatFragment fragmentViewMisuse 97641123")
        var frame = "        at com.google.samples.apps.iosched.ui.sessiondetail.SessionFeedbackFragment.onCreateDialog(SessionFeedbackFragment.kt:148)"
        #expect(frame.withUTF8 { LogcatStatement.appFrameClass($0) } == "SessionFeedbackFragment")
        var framework = "        at androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)"
        #expect(framework.withUTF8 { LogcatStatement.appFrameClass($0) } == nil)
    }

    /// A logcat capture in every format reads as one app's lifecycle, with its sessions per pid.
    @Test func everyFormatIsReadIntoSessions() {
        let text = """
        01-05 09:00:00.100  4242  4242 D SplashActivity: onCreate
        2023-01-05 09:00:00.140  1000  4242  4242 D SplashActivity: onStart() called
        01-05 09:00:00.150 u0_a12  4242  4242 D SplashActivity: onResume: savedInstanceState = null
        01-05 09:00:00.160 D/SplashActivity( 4242): onPause
        D/SplashActivity( 4242): onStop() called
        I( 4242) onDestroy:1  (SplashActivity)
        2022-12-29 04:00:18.823 30249-30321 ProfileActivity        com.example.app    D  onCreate
        """
        let result = lint(text)
        #expect(result.findings.isEmpty, "\(result.summary)")
        #expect(result.stats.events == 7)
        #expect(result.stats.sessions == 2)
    }

    /// Interleaved pids are sessions that overlap: one pid's lines never end the other's, whether the format names the
    /// process (Android Studio) or not (threadtime: the pid alone keeps them apart).
    @Test(arguments: [("11757-11757/cn.hotwoo.play:remote I/", "11700-11700/cn.hotwoo.play I/"), ("11757 11757 I ", "11700 11700 I ")])
    func interleavedPidsAreOverlappingSessions(_ first: String, _ second: String) {
        var lines: [String] = []
        for callback in ["onCreate", "onStart", "onResume", "onPause", "onStop"] {
            lines.append("04-11 09:44:57.350 \(first)MainActivity: \(callback)")
            lines.append("04-11 09:44:57.351 \(second)MainActivity: \(callback)")
        }
        let result = lint(lines.joined(separator: "\n"))
        #expect(result.findings.isEmpty, "\(result.summary)")
        #expect(result.stats.sessions == 2)
        #expect(result.stats.controllers == 2)
    }
}

extension LogcatTests {
    /// logcat's `long` format: the header, then the message on a line of its own.
    @Test func theLongFormatReadsItsMessageBelowItsHeader() {
        let text = """
        [ 01-05 09:00:00.100  4242: 4242 D/SplashActivity ]
        onCreate

        [ 01-05 09:00:00.200  4242: 4242 D/SplashActivity ]
        onStart

        """
        let result = lint(text)
        #expect(result.findings.isEmpty, "\(result.summary)")
        #expect(result.stats.events == 2)
    }

    /// A crash in the `long` format: one header, the message's lines under it unindented, androidx's exception among them.
    @Test func theViewMisuseExceptionUnderALongHeader() {
        let text = """
        [ 01-05 09:00:00.100  4242: 4242 D/FeedFragment ]
        onDestroyView

        [ 01-05 09:00:01.000  4242: 4242 E/AndroidRuntime ]
        FATAL EXCEPTION: main
        Process: com.example.app, PID: 4242
        java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner when getView() is null i.e., before onCreateView() or after onDestroyView()
        \tat androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)
        \tat com.example.app.ui.FeedFragment.onFeedLoaded(FeedFragment.kt:50)

        """
        #expect(lint(text).summary == ["fragment_view_after_destroy_view@7"])
    }

    /// A crash as Android Studio copies it: androidx's exception on an indented line, the fragment from the first app frame.
    @Test func theViewMisuseExceptionInACrashCopy() {
        let text = """
        2021-08-31 11:33:56.398 5615-5615/com.example.app E/AndroidRuntime: FATAL EXCEPTION: main
            Process: com.example.app, PID: 5615
            java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner when getView() is null i.e., before onCreateView() or after onDestroyView()
                at androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)
                at com.example.app.ui.FeedFragment.onViewCreated(FeedFragment.kt:48)
        """
        let result = lint(text)
        #expect(result.summary == ["fragment_view_after_destroy_view@3"])
        #expect(result.findings.first?.controller.className == "FeedFragment")
    }
}

extension LogcatTests {
    /// A process-death line ends its pid's session without a finding, and the pid coming back is a new session.
    @Test(arguments: [
        "01-05 09:00:02.000  1500  1520 I ActivityManager: Process com.example.app (pid 4242) has died: fg TOP",
        "01-05 09:00:02.000  1500  1520 I am_proc_died: [0,4242,com.example.app,0,2]",
        "01-05 09:00:02.000  1500  1520 I am_kill: [0,4242,com.example.app,900,empty #17]",
        "01-05 09:00:02.000   612   612 I Zygote: Process 4242 exited due to signal 9 (Killed)",
    ])
    func processDeathEndsTheSession(_ death: String) {
        let text = """
        01-05 09:00:00.100  4242  4242 D MainActivity: onCreate
        01-05 09:00:00.140  4242  4242 D MainActivity: onStart
        01-05 09:00:00.150  4242  4242 D MainActivity: onResume
        \(death)
        01-05 09:00:03.100  4242  4242 D MainActivity: onStart
        01-05 09:00:03.150  4242  4242 D MainActivity: onResume
        01-05 09:00:04.000  4242  4242 D MainActivity: onPause
        01-05 09:00:04.100  4242  4242 D MainActivity: onStop
        """
        let result = lint(text)
        #expect(result.findings.isEmpty, "\(result.summary)")
        #expect(result.stats.sessions == 2)
        #expect(result.stats.events == 7)
    }
}

extension LogcatTests {
    /// Android prints no dealloc: an Activity destroyed and never collected, one alive at the end, one cut in the middle
    /// of its pause claim no leak, and no iOS rule (`leaked_controller`, `missing_did_*`, `late_dealloc`) sees them,
    /// with every rule on.
    @Test func noIOSRuleSeesAnAndroidInstance() {
        let text = """
        01-05 09:00:00.100  4242  4242 D MainActivity: onCreate
        01-05 09:00:00.140  4242  4242 D MainActivity: onStart
        01-05 09:00:00.150  4242  4242 D MainActivity: onResume
        01-05 09:00:01.000  4242  4242 D MainActivity: onPause
        01-05 09:00:01.100  4242  4242 D DetailActivity: onCreate
        01-05 09:00:01.140  4242  4242 D DetailActivity: onStart
        01-05 09:00:01.150  4242  4242 D DetailActivity: onResume
        01-05 09:00:01.500  4242  4242 D MainActivity: onStop
        01-05 09:00:02.000  4242  4242 D DetailActivity: onPause
        01-05 09:00:02.100  4242  4242 D MainActivity: onRestart
        01-05 09:00:02.140  4242  4242 D MainActivity: onStart
        01-05 09:00:02.150  4242  4242 D MainActivity: onResume
        01-05 09:00:02.500  4242  4242 D DetailActivity: onStop
        01-05 09:00:02.600  4242  4242 D DetailActivity: onDestroy
        01-05 09:01:00.000  4242  4242 D MainActivity: onPause
        """
        let result = lint(text, rules: .all, grace: 0)
        #expect(result.findings.isEmpty, "\(result.summary)")
        #expect(result.stats.controllers == 2)
    }
}
