/// Every `.vclint.yml` setting, in the order the reference, the starter, the JSON report's
/// `configuration` and `merge`'s comparison list them (and the "unknown key" error names them).
///
/// A new setting, with its flag if it has one, is one entry here: its key, kind, the rules whose
/// findings it changes, the `LintOptions` field it lands in (whose initial value is its default), its
/// meaning, its starter line and, optionally, its command-line flag. The parser, the report, `merge`,
/// `vclint rules`, the starter, docs/configuration.md and the flag (its parsing, checks and help) follow.
extension Setting {
    public static let all: [Setting] = [
        Setting("disabled_rules", .ruleIDs, lands: .ruleSwitch,
                "rules that do not run",
                starter: .off("[memory_warning]")),
        Setting("opt_in_rules", .ruleIDs, lands: .ruleSwitch,
                "opt-in rules that run (off by default, e.g. slow_transition)",
                starter: .off("[slow_transition]")),
        Setting("leak_grace_seconds", .number(SettingRange.leakGraceSeconds, unit: "seconds"),
                rules: ["leaked_controller", "leaked_object", "late_dealloc", "missing_did_appear", "missing_did_disappear", "child_containment"],
                lands: \.timeline.leakGraceSeconds,
                "seconds a popped, dismissed or removed controller may take to deallocate before it counts as leaked; a later dealloc is a late one",
                starter: .on("3"), flag: "leak-grace-seconds"),
        Setting("slow_transition_ms", .number(SettingRange.slowTransitionMilliseconds, unit: "milliseconds"), rules: ["slow_transition"], lands: .options(\.timeline.slowTransitionMilliseconds),
                "milliseconds from a will-callback to its did-callback (viewWillAppear to viewDidAppear, or the disappearing pair) above which slow_transition reports the transition",
                starter: .off("800")),
        Setting("ignore_classes", .patterns, lands: .options(\.timeline.ignoreClasses),
                "classes whose lifecycle events are not linted, such as UIKit's own (^UI, ^_UI)",
                starter: .on("['^UI', '^_UI']")),
        Setting("persistent_classes", .patterns, lands: .options(\.timeline.persistentClasses),
                "controllers meant to live forever (tab roots, singletons), never reported as leaks",
                starter: .off("['^MainTabBarController$', 'Coordinator$']")),
        Setting("lifetimes", .lifetimes, rules: ["lifetime_limit"], lands: .options(\.timeline.lifetimes),
                "how many instances may be alive at once in a session, per class name, per glob of class names ('*Coordinator') or per named group under groups ({max, classes}); lifetime_limit checks nothing without it",
                starter: .off("{DetailViewModel: 1, '*Coordinator': 4, groups: {Players: {max: 1, classes: [AudioPlayer, VideoPlayer]}}}")),
        Setting("included", .globs, lands: .fileSelection,
                "when a folder is linted, only the files matching one of these, relative to this file's folder (`*` stays within a name, `**` spans folders)",
                starter: .off("['captures/**', 'logs/*.log']")),
        Setting("excluded", .globs, lands: .fileSelection,
                "when a folder is linted, the files matching one of these are skipped (globs as for included)",
                starter: .off("['DerivedData/**', '**/old/*.log']")),
        Setting("dialects", .dialects, lands: .options(\.customDialects),
                "the app's own log formats, on top of the built-in ones: a PCRE2 pattern with named groups class and event (address optional), and events mapping each captured event text to an event kind (viewDidLoad, viewDidAppear, dealloc, …)",
                starter: .off(#"[{pattern: '^\[Screen\] (?<class>\w+)(?: (?<address>0x[0-9a-f]+))? (?<event>shown|hidden|freed)$', events: {shown: viewDidAppear, hidden: viewDidDisappear, freed: dealloc}}]"#)),
        Setting("location", .location, lands: \.location, display: true,
                "where a finding is located: log (its log line) or source (its controller's class declaration under --source-root, when found, the log line becoming a related location), for Xcode and editors to show it in the controller's file",
                starter: .off("source"), flag: "location"),
    ]
}

/// The ranges of the numeric settings (and of their flags, which their kind reads). Beyond them a value
/// means nothing (a grace period longer than a day outlasts any capture) and only risks arithmetic on
/// times and counts that no capture reaches.
public enum SettingRange {
    /// `leak_grace_seconds`: up to a day.
    public static let leakGraceSeconds: ClosedRange<Double> = 0...86_400
    /// `slow_transition_ms`: up to an hour.
    public static let slowTransitionMilliseconds: ClosedRange<Double> = 0...3_600_000
}
