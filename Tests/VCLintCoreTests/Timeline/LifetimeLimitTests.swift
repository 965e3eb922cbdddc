import Foundation
import Testing
@testable import VCLintCore

/// `lifetimes` and `lifetime_limit`: how many instances may be alive at once per class, glob or group,
/// counted per session, one finding per episode at the init that went over.
@Suite struct LifetimeLimitTests {
    static let players = "lifetimes: {groups: {Players: {max: 1, classes: [AudioPlayer, VideoPlayer]}}}"

    static func options(_ yaml: String) throws -> LintOptions {
        var options = LintOptions()
        try Configuration.parse(yaml, path: ".vclint.yml").apply(to: &options)
        return options
    }

    static func lint(_ lines: [String], _ yaml: String) throws -> FileResult {
        Linter(options: try options(yaml)).lint(text: lines.joined(separator: "\n") + "\n")
    }

    /// `10:00:0S.000 Shop[PID:200] MESSAGE`.
    static func at(_ second: Int, _ message: String, pid: Int = 100) -> String {
        "2024-03-01 10:00:\(second < 10 ? "0" : "")\(second).000 Shop[\(pid):200] \(message)"
    }

    static func limits(_ r: FileResult) -> [Finding] { r.findings.filter { $0.rule == "lifetime_limit" } }

    /// The acceptance case: an AudioPlayer is alive when a VideoPlayer is made.
    @Test func aSecondPlayerOfTheGroupAliveIsOneFindingAtItsInit() throws {
        let r = try Self.lint([
            Self.at(1, "-[AudioPlayer init]"),
            Self.at(2, "-[VideoPlayer init]"),
            Self.at(3, "-[VideoPlayer dealloc]"),
            Self.at(4, "-[AudioPlayer dealloc]"),
        ], Self.players)
        #expect(r.summary == ["lifetime_limit@2"])
        let f = try #require(r.findings.first)
        #expect(f.severity == .error)
        #expect(f.message == "VideoPlayer#1 is the 2nd instance of group Players (AudioPlayer, VideoPlayer) alive at once; the limit is 1 (alive: AudioPlayer#1 since line 1)")
        #expect(f.related.map(\.line) == [1])
        #expect(f.related.first?.note == "AudioPlayer#1 init")
    }

    /// A finding about an object names its owner (docs/output.md), found once its init is applied:
    /// here by name stem; a controller's finding has none.
    @Test func anObjectsFindingNamesItsOwner() throws {
        let r = try Self.lint([
            Self.at(1, "-[DetailViewController viewDidLoad]"),
            Self.at(2, "-[DetailViewModel init]"),
            Self.at(3, "-[DetailViewModel init]"),
            Self.at(4, "-[DetailViewController viewWillAppear:]"),
            Self.at(5, "-[DetailViewController viewDidAppear:]"),
            Self.at(6, "-[DetailViewController viewDidLoad]"),
        ], "lifetimes: {DetailViewModel: 1, DetailViewController: 1}")
        #expect(r.summary == ["lifetime_limit@3", "lifetime_limit@6"], "\(r.summary)")
        let object = try #require(Self.limits(r).first { $0.line == 3 })
        #expect(object.owner?.instance == "DetailViewController#1")
        #expect(object.owner?.className == "DetailViewController")
        #expect(Self.limits(r).first { $0.line == 6 }?.owner == nil)
        let json = JSONReporter().report(LintResult(files: [r]))
        #expect(json.contains("\"owner\""))
    }

    @Test func sequentialPlayersAreFine() throws {
        let r = try Self.lint([
            Self.at(1, "-[AudioPlayer init]"),
            Self.at(2, "-[AudioPlayer dealloc]"),
            Self.at(3, "-[VideoPlayer init]"),
            Self.at(4, "-[VideoPlayer dealloc]"),
        ], Self.players)
        #expect(r.findings.isEmpty, "\(r.summary)")
    }

    /// Over, still over (no second finding), back within, over again: two findings, one per episode,
    /// with one fingerprint (the limit's name, not the count).
    @Test func oneFindingPerEpisode() throws {
        let r = try Self.lint([
            Self.at(0, "<Shop.DetailViewModel: 0x600001> init"),
            Self.at(1, "<Shop.DetailViewModel: 0x600002> init"),
            Self.at(2, "<Shop.DetailViewModel: 0x600003> init"),
            Self.at(3, "<Shop.DetailViewModel: 0x600002> deinit"),
            Self.at(4, "<Shop.DetailViewModel: 0x600003> deinit"),
            Self.at(5, "<Shop.DetailViewModel: 0x600004> init"),
            Self.at(6, "<Shop.DetailViewModel: 0x600004> deinit"),
            Self.at(7, "<Shop.DetailViewModel: 0x600001> deinit"),
        ], "lifetimes: {DetailViewModel: 1}")
        #expect(r.summary == ["lifetime_limit@2", "lifetime_limit@6"])
        #expect(Set(r.findings.map(\.fingerprint)).count == 1)
        #expect(r.findings.first?.message == "DetailViewModel (0x600002) is the 2nd instance of DetailViewModel alive at once; the limit is 1 (alive: DetailViewModel (0x600001) since line 1)")
    }

    /// Two details pushed one over the other: a limit on a controller class.
    @Test func aControllerClassHasItsLimit() throws {
        let push = [
            Self.at(0, "-[HomeViewController viewDidLoad]"),
            Self.at(0, "-[HomeViewController viewWillAppear:]"),
            Self.at(0, "-[HomeViewController viewDidAppear:]"),
            Self.at(1, "-[DetailViewController init]"),
            Self.at(1, "-[DetailViewController viewDidLoad]"),
            Self.at(1, "-[HomeViewController viewWillDisappear:]"),
            Self.at(1, "-[DetailViewController viewWillAppear:]"),
            Self.at(1, "-[HomeViewController viewDidDisappear:]"),
            Self.at(1, "-[DetailViewController viewDidAppear:]"),
        ]
        let second = [
            Self.at(2, "-[DetailViewController init]"),
            Self.at(2, "-[DetailViewController viewDidLoad]"),
            Self.at(2, "-[DetailViewController viewWillDisappear:]"),
            Self.at(2, "-[DetailViewController viewWillAppear:]"),
            Self.at(2, "-[DetailViewController viewDidDisappear:]"),
            Self.at(2, "-[DetailViewController viewDidAppear:]"),
            Self.at(3, "-[DetailViewController viewWillDisappear:]"),
            Self.at(3, "-[DetailViewController viewWillAppear:]"),
            Self.at(3, "-[DetailViewController viewDidAppear:]"),
            Self.at(3, "-[DetailViewController viewDidDisappear:]"),
            Self.at(3, "-[DetailViewController dealloc]"),
        ]
        let pop = [
            Self.at(4, "-[DetailViewController viewWillDisappear:]"),
            Self.at(4, "-[HomeViewController viewWillAppear:]"),
            Self.at(4, "-[HomeViewController viewDidAppear:]"),
            Self.at(4, "-[DetailViewController viewDidDisappear:]"),
            Self.at(4, "-[DetailViewController dealloc]"),
        ]
        let yaml = "lifetimes: {DetailViewController: 1}"
        let r = try Self.lint(push + second + pop, yaml)
        #expect(r.summary == ["lifetime_limit@10"])
        #expect(r.findings.first?.message.hasPrefix("DetailViewController#2 is the 2nd instance of DetailViewController alive at once; the limit is 1 (alive: DetailViewController#1 since line 4)") == true)
        // The first popped before the second is pushed: within the limit.
        let sequential = try Self.lint(push + pop + push.dropFirst(3) + pop, yaml)
        #expect(sequential.findings.isEmpty, "\(sequential.summary)")
        // The same flow without the setting: nothing to check.
        #expect(try Self.lint(push + second + pop, "").findings.isEmpty)
    }

    /// A class without init statements: the instance's first event is where it went over.
    @Test func withoutInitTheFirstEventIsTheAnchor() throws {
        let r = try Self.lint([
            Self.at(0, "<Shop.PlayerView: 0x7001> viewDidLoad"),
            Self.at(1, "<Shop.PlayerView: 0x7002> viewDidLoad"),
            Self.at(2, "<Shop.PlayerView: 0x7002> deinit"),
            Self.at(3, "<Shop.PlayerView: 0x7001> deinit"),
        ], "lifetimes: {PlayerView: 1}")
        #expect(r.summary == ["lifetime_limit@2"])
        #expect(r.findings.first?.related.first?.note == "PlayerView (0x7001) viewDidLoad")
    }

    /// A new pid is a new session: what the old process had alive died with it.
    @Test func aRelaunchResetsTheCounts() throws {
        let lines = [
            Self.at(1, "-[AudioPlayer init]"),
            Self.at(2, "-[VideoPlayer init]", pid: 101),
            Self.at(3, "-[VideoPlayer dealloc]", pid: 101),
        ]
        #expect(try Self.lint(lines, Self.players).findings.isEmpty)
        // The same in one process: over the limit.
        let same = lines.map { $0.replacingOccurrences(of: "[101:", with: "[100:") }
        #expect(try Self.lint(same, Self.players).summary == ["lifetime_limit@2"])
    }

    /// Without addresses, a deinit goes to an instance by the timeline's usual identity.
    @Test func deallocsWithoutAddressesCountDown() throws {
        let r = try Self.lint([
            Self.at(1, "AudioPlayer init"),
            Self.at(2, "deinit AudioPlayer"),
            Self.at(3, "VideoPlayer init"),
            Self.at(4, "AudioPlayer init"),
            Self.at(5, "deinit VideoPlayer"),
            Self.at(6, "deinit AudioPlayer"),
        ], Self.players)
        #expect(r.summary == ["lifetime_limit@4"])
        #expect(r.findings.first?.message.hasPrefix("AudioPlayer#2 is the 2nd instance of group Players") == true)
    }

    /// Each limit that counts a class is judged on its own: an init that takes three over is three findings.
    @Test func everyLimitExceededIsAFinding() throws {
        let r = try Self.lint([
            Self.at(0, "<Shop.DetailViewModel: 0x600001> init"),
            Self.at(1, "<Shop.ListViewModel: 0x600002> init"),
            Self.at(2, "<Shop.DetailViewModel: 0x600003> init"),
            Self.at(3, "<Shop.DetailViewModel: 0x600003> deinit"),
        ], "lifetimes: {DetailViewModel: 1, '*ViewModel': 2, groups: {Models: {max: 2, classes: [DetailViewModel, List*]}}}")
        #expect(r.summary == ["lifetime_limit@3", "lifetime_limit@3", "lifetime_limit@3"])
        let messages = r.findings.map(\.message)
        #expect(messages.contains { $0.hasPrefix("DetailViewModel (0x600003) is the 2nd instance of DetailViewModel alive at once; the limit is 1") })
        #expect(messages.contains { $0.hasPrefix("DetailViewModel (0x600003) is the 3rd instance of the classes matching *ViewModel alive at once; the limit is 2 (alive: DetailViewModel (0x600001) since line 1, ListViewModel (0x600002) since line 2)") })
        #expect(messages.contains { $0.hasPrefix("DetailViewModel (0x600003) is the 3rd instance of group Models (DetailViewModel, List*) alive at once; the limit is 2") })
        #expect(Set(r.findings.map(\.fingerprint)).count == 3, "one fingerprint per limit")
    }

    /// The count is what the log shows: without any logged dealloc, the second player is over the
    /// limit (the configuration asked), once.
    @Test func withoutLoggedDeallocsTheCountIsWhatTheLogShows() throws {
        let r = try Self.lint([Self.at(1, "-[AudioPlayer init]"), Self.at(2, "-[VideoPlayer init]"), Self.at(3, "-[AudioPlayer init]"),
                                  Self.at(4, "-[HomeViewController viewDidLoad]")], Self.players)
        #expect(r.summary == ["lifetime_limit@2"])
    }

    /// An instance whose address another class took is gone (its dealloc was not logged): not counted.
    @Test func aForgottenInstanceIsNotCounted() throws {
        let r = try Self.lint([
            Self.at(1, "<Shop.AudioPlayer: 0x1000> init"),
            Self.at(2, "<Shop.Cache: 0x1000> init"),
            Self.at(3, "<Shop.VideoPlayer: 0x2000> init"),
            Self.at(4, "<Shop.VideoPlayer: 0x2000> deinit"),
        ], Self.players)
        #expect(r.findings.isEmpty, "\(r.summary)")
    }

    /// Many alive: the message names a few and counts the rest; the related lines are a few.
    @Test func manyAliveAreNamedAFew() throws {
        var lines = (1...12).map { Self.at($0, "<Shop.ProfileCoordinator: 0x\(String(0x1000 + $0, radix: 16))> init") }
        lines.append(Self.at(13, "<Shop.ProfileCoordinator: 0x1001> deinit"))
        let r = try Self.lint(lines, "lifetimes: {'*Coordinator': 11}")
        #expect(r.summary == ["lifetime_limit@12"])
        let f = try #require(r.findings.first)
        #expect(f.message.hasSuffix("the limit is 11 (alive: ProfileCoordinator (0x1001) since line 1, ProfileCoordinator (0x1002) since line 2, ProfileCoordinator (0x1003) since line 3, 8 more)"), "\(f.message)")
        #expect(f.related.map(\.line) == [1, 2, 3, 4])
    }

    /// `lint --follow` prints the same finding, as soon as the init is read.
    @Test func batchAndFollowAgree() throws {
        let text = [
            Self.at(1, "-[AudioPlayer init]"),
            Self.at(2, "-[VideoPlayer init]"),
            Self.at(3, "-[VideoPlayer dealloc]"),
            Self.at(4, "-[AudioPlayer dealloc]"),
            Self.at(5, "-[VideoPlayer init]"),
            Self.at(6, "-[AudioPlayer init]"),
            Self.at(7, "-[AudioPlayer dealloc]"),
        ].joined(separator: "\n") + "\n"
        let options = try Self.options(Self.players)
        let batch = Linter(options: options).lint(text: text)
        let live = LiveLinter(path: "live.log", options: options)
        var streamed: [Finding] = []
        for chunk in Array(text.utf8).chunked(into: 37) { streamed += chunk.withUnsafeBytes { live.consume($0) } }
        let (late, result) = live.finish()
        streamed += late
        func key(_ f: Finding) -> String { "\(f.rule)@\(f.line) \(f.message) \(f.fingerprint)" }
        #expect(batch.summary == ["lifetime_limit@2", "lifetime_limit@6"])
        #expect(streamed.map(key) == batch.findings.map(key))
        #expect(result.findings.map(key) == batch.findings.map(key))
    }

    // MARK: - The setting

    @Test func theSettingCompilesInOrder() throws {
        let o = try Self.options("lifetimes: {DetailViewModel: 1, '*Coordinator': 4, groups: {Players: {max: 1, classes: [AudioPlayer, VideoPlayer]}}}")
        let limits = o.timeline.lifetimes.limits
        #expect(limits.map(\.name) == ["*Coordinator", "DetailViewModel", "Players"])
        #expect(limits.map(\.scope) == [.glob, .class, .group])
        #expect(limits.map(\.max) == [4, 1, 1])
        #expect(o.timeline.lifetimes.applying(to: "ProfileCoordinator") == [0])
        #expect(o.timeline.lifetimes.applying(to: "VideoPlayer") == [2])
        #expect(o.timeline.lifetimes.applying(to: "Coordinator2").isEmpty)
        #expect(try Self.options("").timeline.lifetimes.isEmpty)
        let table = RuleTable.text(o, configuration: "c.yml")
        #expect(table.contains("[lifetimes: *Coordinator: 4, DetailViewModel: 1, groups: {Players: {max: 1, classes: [AudioPlayer, VideoPlayer]}}*]"))
        #expect(RuleTable.text(LintOptions(), configuration: nil).contains("checks only the limits lifetimes sets. [lifetimes: none]"))
    }

    @Test func badValuesNameTheirKey() {
        let e = YAMLErrorTests()
        #expect(e.error("lifetimes: {DetailViewModel: 0}") == "cfg.yml:1:1: lifetimes.DetailViewModel: expected a whole number of instances, at least 1")
        #expect(e.error("lifetimes:\n  DetailViewModel: 1.5\n") == "cfg.yml:2:3: lifetimes.DetailViewModel: expected a whole number of instances, at least 1")
        #expect(e.error("lifetimes: {A: two}") == "cfg.yml:1:1: lifetimes.A: expected a whole number of instances, at least 1")
        #expect(e.error("lifetimes: {A: true}") == "cfg.yml:1:1: lifetimes.A: expected a whole number of instances, at least 1")
        #expect(e.error("lifetimes: [A]") == "cfg.yml:1:1: lifetimes: expected a mapping of class names, globs and groups to how many instances may be alive at once")
        #expect(e.error("lifetimes: {groups: [A]}") == "cfg.yml:1:1: lifetimes.groups: expected a mapping of group names to {max, classes}")
        #expect(e.error("lifetimes: {groups: {P: 1}}") == "cfg.yml:1:1: lifetimes.groups.P: expected {max, classes}")
        #expect(e.error("lifetimes: {groups: {P: {max: 1, classes: [A], mx: 2}}}") == "cfg.yml:1:1: lifetimes.groups.P.mx: unknown key (expected max, classes)")
        #expect(e.error("lifetimes: {groups: {P: {max: 1}}}") == "cfg.yml:1:1: lifetimes.groups.P.classes: a group needs classes: a list of class names or globs")
        #expect(e.error("lifetimes: {groups: {P: {max: 1, classes: []}}}") == "cfg.yml:1:1: lifetimes.groups.P.classes: a group needs classes: a list of class names or globs, none empty")
        #expect(e.error("lifetimes: {groups: {P: {classes: [A]}}}") == "cfg.yml:1:1: lifetimes.groups.P.max: a group needs max: how many of its instances may be alive at once")
        #expect(e.error("lifetimes: {groups: {P: {max: -1, classes: [A]}}}") == "cfg.yml:1:1: lifetimes.groups.P.max: expected a whole number of instances, at least 1")
        #expect(e.error("lifetime_limit: {severity: warning, lifetimes: {A: 2}}") == "no error")
    }

    /// A bad value is a configuration error: exit 2 and one stderr line naming the key.
    @Test func aBadValueStopsTheRun() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-lifetimes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "lifetimes:\n  groups:\n    Players: {max: 0, classes: [AudioPlayer]}\n".write(to: dir.appendingPathComponent(".vclint.yml"), atomically: true, encoding: .utf8)
        try (Self.at(1, "-[AudioPlayer init]") + "\n").write(to: dir.appendingPathComponent("a.log"), atomically: true, encoding: .utf8)
        let r = try CLITests().run(["lint", "a.log"], cwd: dir)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("vclint: error: "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("/.vclint.yml:2:3: lifetimes.groups.Players.max: expected a whole number of instances, at least 1\n"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func theOrdinals() {
        #expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(LifetimeLimitRule.ordinal) == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"])
    }
}
