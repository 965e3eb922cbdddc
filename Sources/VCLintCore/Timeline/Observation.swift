/// Why a pending will-callback was judged incomplete.
public enum IncompleteReason: Sendable, Equatable {
    case deallocated(EventRef)
    case sessionEnded
    /// The transition settled and the instance then went the other way (line of that callback).
    case superseded(EventRef)
    /// A did-callback for the other direction arrived.
    case contradicted(EventRef)
}

/// A fact: what the timeline saw that one rule words (one name for one idea: an `Observation` is a
/// fact with the controller, line and time it is about). The timeline decides *that* something happened; the
/// rule decides how it is worded, at which severity, and whether it is enabled. Each kind is
/// declared beside the rule that words it (`Rule.Fact`: one rule per kind, so the map from what was
/// observed to the rule that reports it is the type system's), and is built at its emit site.
///
/// An observation is held encoded (`ObservationList`): a fact writes its fields in order and reads
/// them back in the same order (`RuleRegistryTests` round-trips every rule's example facts). A
/// struct fact declares `init(reading:)` in an extension, which keeps its memberwise initializer
/// for the emit site.
protocol Fact: Sendable {
    func write(to w: inout ObservationWriter)
    init(reading r: inout ObservationReader)
    /// Which transition it is about, if any (TransitionNaming.swift): none by default.
    static var transitionConcern: TransitionConcern { get }
}

/// A rule applies to a class only if the callback it needs is logged for that class somewhere in
/// the input (docs/lifecycle.md#instrumentation). Checked once the whole input is read.
public struct Requirement: Sendable, Equatable {
    public var className: String
    /// At least one of these kinds must be logged for the class.
    public var anyOf: [EventKind]
    /// The class must be an object class that logs its own dealloc (docs/lifecycle.md#objects):
    /// `anyOf` by the class itself, not through its dialect, and nothing but init and dealloc.
    public var object = false
}

public struct Observation: Sendable {
    /// What was observed: a fact of one rule's kind.
    var fact: any Fact
    public var controller: ControllerRef
    public var requires: Requirement?
    /// The line the finding points at (each rule documents which: `RuleDescription.anchor`).
    public var line: Int
    public var time: LogTime?
    /// The kind of the transition it is about (`Fact.transitionConcern`), once the timeline
    /// named it (docs/lifecycle.md#naming-transitions).
    public var transition: TransitionKind?

    init(_ fact: any Fact, controller: ControllerRef, requires: Requirement? = nil, line: Int, time: LogTime?,
         transition: TransitionKind? = nil) {
        self.fact = fact
        self.controller = controller
        self.requires = requires
        self.line = line
        self.time = time
        self.transition = transition
    }
}
