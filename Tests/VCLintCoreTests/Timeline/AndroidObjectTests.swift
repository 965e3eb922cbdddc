import Foundation
import Testing
@testable import VCLintCore

/// Android's objects and composables (docs/lifecycle.md#android-objects-and-composables): a ViewModel's lane from its
/// `init` to its `onCleared`, its owner across a recreate, constructors, `finalize` as a release, Compose effects as a
/// view's appearances, and `lifetimes` counting ViewModels until their end of use.
@Suite struct AndroidObjectTests {
    private static func at(_ t: String, _ tag: String, _ message: String, pid: Int = 7183) -> String {
        "11-28 10:00:\(t)  \(pid)  \(pid) D \(tag): \(message)"
    }

    private static let recreate = [
        at("00.000", "MainActivity", "onCreate"), at("00.010", "MainViewModel", "init"),
        at("00.020", "MainActivity", "onStart"), at("00.030", "MainActivity", "onResume"),
        at("01.000", "MainActivity", "onPause"), at("01.010", "MainActivity", "onStop"), at("01.020", "MainActivity", "onDestroy"),
        at("01.030", "MainActivity", "onCreate"), at("01.040", "MainActivity", "onStart"), at("01.050", "MainActivity", "onResume"),
    ]

    private static func recorded(_ lines: [String]) -> [RecordedInstance] {
        Array(timelineInput(text: lines.joined(separator: "\n") + "\n").timeline.sessions.first?.instances ?? [])
    }

    /// The ViewModel outlives its owner's recreate: it serves the new instance, and is cleared when that one ends.
    @Test func aViewModelServesTheInstanceItsOwnerWasRecreatedAs() throws {
        let ended = Self.recreate + [
            Self.at("02.000", "MainActivity", "onPause"), Self.at("02.010", "MainActivity", "onStop"),
            Self.at("02.015", "MainViewModel", "onCleared() called"), Self.at("02.020", "MainActivity", "onDestroy"),
        ]
        let vm = try #require(Self.recorded(ended).first { $0.controller.className == "MainViewModel" })
        #expect(vm.kind == .object)
        #expect(vm.owner?.instance == "MainActivity#2")
        #expect(vm.ownerReason == .stem)
        #expect(vm.dealloc?.line == 13)
        #expect(lint(ended.joined(separator: "\n") + "\n").findings.isEmpty)
        // Not cleared yet: it serves the latest instance, alive at the end.
        let open = try #require(Self.recorded(Self.recreate).first { $0.controller.className == "MainViewModel" })
        #expect(open.owner?.instance == "MainActivity#2")
        #expect(open.dealloc == nil)
    }

    /// A ViewModel's `finalize` after its `onCleared` is its release: drawn on its lane, listed by `inspect` with the
    /// class's callbacks, inside its session's lines; `timeline` says when it was released.
    @Test func aFinalizeAfterOnClearedIsShownOnItsLane() throws {
        let lines = [
            Self.at("00.000", "MainActivity", "onCreate"), Self.at("00.010", "MainViewModel", "init"),
            Self.at("01.000", "MainActivity", "onDestroy"), Self.at("01.010", "MainViewModel", "onCleared"),
            Self.at("05.000", "MainViewModel", "finalize"),
        ]
        let vm = try #require(Self.recorded(lines).first { $0.controller.className == "MainViewModel" })
        #expect(vm.dealloc?.line == 4)
        #expect(vm.callbacks.map(\.kind) == [.initialize, .onCleared, .finalize])
        #expect(lint(lines.joined(separator: "\n") + "\n").findings.isEmpty)
        let dir = scratchRoot.appendingPathComponent("vclint-finalize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("vm.log")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let inspect = try runVCLint(["inspect", log.path], cwd: packageRoot)
        #expect(inspect.stdout.contains("lines 1–5  5 events"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("MainViewModel  1 instance, logcat: init, onCleared, finalize"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("finalize shows its releases"), "\(inspect.stdout)")
        let timeline = try runVCLint(["timeline", log.path], cwd: packageRoot)
        #expect(timeline.stdout.contains("MainViewModel#1: ended at line 4, released (finalize) at line 5"), "\(timeline.stdout)")
    }

    /// A ViewModel cleared with its owner is not moved to a later launch of the owner's class.
    @Test func aClearedViewModelKeepsTheOwnerItServed() throws {
        let lines = [
            Self.at("00.000", "MainActivity", "onCreate"), Self.at("00.010", "MainViewModel", "init"),
            Self.at("01.000", "MainViewModel", "onCleared"), Self.at("01.010", "MainActivity", "onDestroy"),
            Self.at("02.000", "MainActivity", "onCreate"),
        ]
        let vm = try #require(Self.recorded(lines).first { $0.controller.className == "MainViewModel" })
        #expect(vm.owner?.instance == "MainActivity#1")
    }

    /// `isFinishing=true` ends the owner for good: its ViewModel does not move to the class's next instance.
    @Test func aFinishingOwnerKeepsItsViewModel() throws {
        let lines = [
            Self.at("00.000", "MainActivity", "onCreate"), Self.at("00.010", "MainViewModel", "init"),
            Self.at("01.000", "MainActivity", "onDestroy isFinishing=true"), Self.at("02.000", "MainActivity", "onCreate"),
        ]
        let vm = try #require(Self.recorded(lines).first { $0.controller.className == "MainViewModel" })
        #expect(vm.owner?.instance == "MainActivity#1")
        var recreated = lines
        recreated[2] = Self.at("01.000", "MainActivity", "onDestroy isFinishing=false")
        let moved = try #require(Self.recorded(recreated).first { $0.controller.className == "MainViewModel" })
        #expect(moved.owner?.instance == "MainActivity#2")
    }

    /// A constructor line begins the instance its `onCreate` then places: one instance, not two.
    @Test func aConstructorBeginsTheInstanceItsOnCreateContinues() {
        let lines = [
            Self.at("00.000", "MainActivity", "MainActivity()"), Self.at("00.010", "MainActivity", "onCreate"),
            Self.at("00.020", "MainActivity", "onStart"), Self.at("00.030", "MainActivity", "onResume"),
            Self.at("01.000", "DetailFragment", "init"), Self.at("01.010", "DetailFragment", "onAttach"),
            Self.at("01.020", "DetailFragment", "onCreate"),
        ]
        let lanes = Self.recorded(lines).map { "\($0.controller.instance) \($0.kind.rawValue)" }
        #expect(lanes == ["MainActivity#1 controller", "DetailFragment#1 controller"])
        #expect(lint(lines.joined(separator: "\n") + "\n").findings.isEmpty)
    }

    /// `finalize` of the watched Activity releases it: the retained count is resolved, no `retained_unconfirmed`.
    @Test func aFinalizeClosesTheWatchOnItsInstance() {
        let watched = [
            Self.at("00.000", "MainActivity", "onCreate"), Self.at("01.020", "MainActivity", "onDestroy"),
            Self.at("01.030", "LeakCanary", "Watching instance of com.example.MainActivity (com.example.MainActivity received Activity#onDestroy() callback) with key k1"),
            Self.at("06.100", "LeakCanary", "Found 1 retained instances, which is less than the visible threshold of 5"),
        ]
        #expect(lint(watched.joined(separator: "\n") + "\n").summary == ["retained_unconfirmed@4"])
        let released = watched + [Self.at("07.000", "MainActivity", "finalize")]
        #expect(lint(released.joined(separator: "\n") + "\n").findings.isEmpty)
        // Another class's finalize releases nothing of it.
        let other = watched + [Self.at("07.000", "DetailActivity", "finalize")]
        #expect(lint(other.joined(separator: "\n") + "\n").summary == ["retained_unconfirmed@4"])
    }

    /// Compose effects are a view's appearances: a lane, never a finding (a second start without a dispose included).
    @Test func composeEffectsAreAViewsAppearances() throws {
        let lines = [
            Self.at("00.000", "Compose", "HomeScreen DisposableEffect started"), Self.at("00.500", "Compose", "HomeScreen LaunchedEffect(Unit) launched"),
            Self.at("01.000", "Compose", "HomeScreen onDispose"),
        ]
        let view = try #require(Self.recorded(lines).first)
        #expect(view.controller.instance == "HomeScreen#1")
        #expect(view.kind == .view)
        #expect(lint(lines.joined(separator: "\n") + "\n").findings.isEmpty)
    }

    /// `lifetimes` counts an Activity from its creation to its onDestroy: a rotation stays within a limit of 1, a second
    /// instance launched over the first goes over it at its onCreate.
    @Test func lifetimesCountAnActivityUntilItIsDestroyed() throws {
        let yaml = "lifetimes: {MainActivity: 1}"
        #expect(try LifetimeLimitTests.lint(Self.recreate, yaml).findings.isEmpty)
        let stacked = [
            Self.at("00.000", "MainActivity", "onCreate"), Self.at("00.010", "MainActivity", "onStart"),
            Self.at("00.020", "MainActivity", "onResume"), Self.at("01.000", "MainActivity", "onPause"),
            Self.at("01.010", "MainActivity", "onCreate"), Self.at("01.020", "MainActivity", "onStart"),
        ]
        let r = try LifetimeLimitTests.lint(stacked, yaml)
        #expect(r.summary == ["lifetime_limit@5"])
        let f = try #require(r.findings.first)
        #expect(f.message.hasPrefix("MainActivity#2 is the 2nd instance of MainActivity alive at once; the limit is 1 (alive: MainActivity#1 since line 1)"),
                "\(f.message)")
    }

    /// `lifetimes` counts a ViewModel from its init to its onCleared: a second one after the first was cleared is
    /// within a limit of 1, one made while the first is in use is over it.
    @Test func lifetimesCountAViewModelUntilItIsCleared() throws {
        let yaml = "lifetimes: {DetailViewModel: 1}"
        let sequential = [
            Self.at("00.000", "DetailViewModel", "init"), Self.at("01.000", "DetailViewModel", "onCleared"),
            Self.at("02.000", "DetailViewModel", "init"), Self.at("03.000", "DetailViewModel", "onCleared"),
        ]
        #expect(try LifetimeLimitTests.lint(sequential, yaml).findings.isEmpty)
        let overlapping = [
            Self.at("00.000", "DetailViewModel", "init"), Self.at("01.000", "DetailViewModel", "init"),
            Self.at("02.000", "DetailViewModel", "onCleared"), Self.at("03.000", "DetailViewModel", "onCleared"),
        ]
        #expect(try LifetimeLimitTests.lint(overlapping, yaml).summary == ["lifetime_limit@2"])
    }
}
