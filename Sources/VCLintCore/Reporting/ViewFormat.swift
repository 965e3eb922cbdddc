/// A view of a run written in one format: what `--format` of `vclint timeline`, `leaks` and
/// `inspect` names (and, as `Reporter`, what `--reporter` names). A view is written through a
/// `ReportWriter` a piece at a time (a session, a leak, a finding, a line), never built whole as
/// one string first.
public protocol ViewFormat<Subject> {
    /// What the view shows: the timelines of the inputs, a leak report, the inspections.
    associatedtype Subject
    /// The name `--format` takes.
    static var identifier: String { get }
    /// What the format is for, in a few words, as `--format`'s help lists it.
    static var summary: String { get }
    /// Writes the whole view (ending with a newline when it is not empty) to `out`, without flushing it.
    func write(_ subject: Subject, to out: ReportWriter) throws(ReportWriteError)
}

extension ViewFormat {
    /// The view as one string (tests, small subjects).
    public func render(_ subject: Subject) -> String {
        let out = ReportWriter()
        do {
            try write(subject, to: out)
        } catch {
            preconditionFailure("a view collected in memory cannot fail to be written: \(error)")
        }
        return out.text
    }

    /// The view of `subject` as a writer, for a report file (`ReportTransaction.commit`) or stdout.
    public func writer(for subject: Subject) -> ReportWriting {
        return { out in try self.write(subject, to: out) }
    }
}

/// One format of a view: what its help says, and how a command makes it from what it was told
/// (`Context`: the timeline's width and window, the configuration a leak report records).
public struct ViewFormatEntry<Subject, Context>: Sendable {
    public let identifier: String
    public let summary: String
    public let make: @Sendable (Context) -> any ViewFormat<Subject>

    public init<F: ViewFormat>(_ type: F.Type, make: @escaping @Sendable (Context) -> F) where F.Subject == Subject {
        identifier = F.identifier
        summary = F.summary
        self.make = make
    }
}

/// The formats of one view, in the order help and errors list them; the first is the default.
/// A command's `--format` takes its names, help and validation from here.
public struct ViewFormatRegistry<Subject, Context>: Sendable {
    /// The command that writes the view (`leaks`), as an error names it.
    public let command: String
    public let entries: [ViewFormatEntry<Subject, Context>]

    public init(command: String, _ entries: [ViewFormatEntry<Subject, Context>]) {
        precondition(!entries.isEmpty, "a view has at least one format")
        self.command = command
        self.entries = entries
    }

    public var names: [String] { entries.map(\.identifier) }

    /// What the command writes when no `--format` is given.
    public var defaultName: String { entries[0].identifier }

    public func entry(named name: String) -> ViewFormatEntry<Subject, Context>? {
        entries.first { $0.identifier == name }
    }

    public func format(named name: String, context: Context) -> (any ViewFormat<Subject>)? {
        entry(named: name)?.make(context)
    }

    /// `--format`'s help: `text (swimlanes), json (the timeline as data) or chrome-trace (…).`
    public var help: String {
        ListWording.spoken(entries.map { "\($0.identifier) (\($0.summary))" }, "or") + "."
    }

    /// Why `name` is not a format of the view, in one line with the formats it has and, when a
    /// name is close to it (a typo, within two edits), that one; nil when it is one.
    public func problem(with name: String) -> String? {
        if entry(named: name) != nil { return nil }
        let expected = "expected one of: \(names.joined(separator: ", "))"
        if let suggestion = EditDistance.suggestion(for: name, among: names) {
            return "unknown format '\(name)' for vclint \(command); did you mean '\(suggestion)'? (\(expected))"
        }
        return "unknown format '\(name)' for vclint \(command); \(expected)"
    }
}

extension ViewFormatRegistry where Context == Void {
    public func format(named name: String) -> (any ViewFormat<Subject>)? {
        format(named: name, context: ())
    }
}
