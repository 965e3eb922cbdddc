/// Tunables of the timeline. The rule parameters among them are set by `.vclint.yml` through
/// `Setting.all`, which names the field each lands in; a field's initial value is its default.
public struct TimelineOptions: Sendable {
    /// Seconds a removed controller may take to deallocate (configuration `leak_grace_seconds`).
    public var leakGraceSeconds: Double = 3
    /// The slow_transition threshold (configuration `slow_transition_ms`).
    public var slowTransitionMilliseconds: Double = 1000
    /// Classes whose lifecycle events are not linted (configuration `ignore_classes`).
    public var ignoreClasses: [PCRE2Pattern] = []
    /// Controllers meant to live forever: never leaks (configuration `persistent_classes`).
    public var persistentClasses: [PCRE2Pattern] = []
    /// How many instances may be alive at once, per class, glob or group (configuration `lifetimes`).
    public var lifetimes = LifetimeLimits()
    /// Live mode (`lint --follow`): leaks are decided as soon as the grace period has passed in log
    /// time, and every line's time is read (not a sample), since the input is still being written.
    public var live = false
    /// Keep the timeline (`vclint timeline`, `leaks`, `report`); lint leaves it off and pays nothing.
    public var recordTimeline = false
    /// With `recordTimeline`: keep what swimlanes draw (every callback's stamp, the state intervals,
    /// the transitions, the UIKit warnings' text). `leaks` and `inspect` turn it off: they read the
    /// sessions, a tally per class (`ClassTallies`: instances, the kinds they log, owners, removals)
    /// and the leaks, and the recording then follows the classes, not the instances.
    public var recordLanes = true
    /// With `recordTimeline`: sum the recorded instances per class (`TimelineRecording.classes`, its unjudged
    /// classes and its counts per session), which the leak report and the inspection read. `vclint timeline`
    /// draws lanes only and turns it off (400k classes: a summary each).
    public var summarizesClasses = true
    /// With `summarizesClasses`: keep them in the recording (`TimelineRecording.classes`), as the inspection reads
    /// them; `leaks` and `report` read only what the leak report needs of them, and let them go.
    public var keepsClasses = true
    /// How long a class's live list grows before out-of-reach removed instances are evicted
    /// (`SessionTimeline.evictUnreachable`); tests lower it to compare against no eviction.
    var evictionFloor = 256
    /// How many classes a session holds before those whose one controller is removed and idle are
    /// folded away (`SessionTimeline.foldIdleClasses`); tests lower it to compare against no folding.
    var classFoldFloor = 4096
    /// Tests: fold before every event (each class unfolded by its next line), to compare against no folding.
    var foldBeforeEveryEvent = false
    /// Whether the recording with lanes moves a deallocated instance's lists into the flat lists at once and lets
    /// the instance go once nothing else holds it (`TimelineRecorder.retire`); tests turn it off to compare.
    var retiresDeadLanes = true
    /// Whether the recording with lanes lets the log of a controller folded with its class go too, not only its
    /// instance (`TimelineRecorder.folded`); tests turn it off to compare the two ways.
    var foldsLaneLogs = true
    public init() {}
}
