/// One line the scanner hands to its sink, as ripgrep's searcher hands a `SinkMatch`: its bytes,
/// borrowed (valid for the call only: a sink that keeps a line copies it), its number in the input
/// and its envelope. Four words, nothing copied.
struct ScannedLine {
    /// The line's first byte and its length, without the line break (nor a CR before it). A line
    /// whose envelope the scanner found (a candidate, `learn`, `envelope`) starts at its envelope,
    /// after what a console or a web page put before it; the lines the sink reads whole (time
    /// samples, ending and context lines) start where they start.
    let start: UnsafePointer<UInt8>
    let count: Int
    /// Its number in the input, from 1.
    let number: Int
    /// Its envelope, when the scanner found it: on a candidate nil or `.bare` if it has none; set on
    /// `learn` and `envelope` lines; nil on the lines the sink reads whole.
    let format: EnvelopeFormat?

    init(_ start: UnsafePointer<UInt8>, count: Int, number: Int, format: EnvelopeFormat? = nil) {
        self.start = start
        self.count = count
        self.number = number
        self.format = format
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
}

/// Where the scanner pushes the lines it reads, as ripgrep's searcher pushes matches into a `Sink`:
/// the scanner only turns bytes into lines; what the lines mean is the sink's business. The event
/// stage is a sink (`EventStage`, on the scanner's thread), and so is the pipe that hands lines to
/// the stage on a second thread (`EventPipe`). `LogScanner` is generic over its sink, so each call
/// is static (no dynamic dispatch per candidate line).
///
/// A sink implements `candidate` and what else it needs: the other calls do nothing by default. It
/// keeps its own counts (the scanner's are `ScanStats`).
protocol LineSink: AnyObject {
    /// A line the candidate search let through: `afterEnvelope` tells whether an enveloped line came
    /// before it in the input.
    func candidate(_ line: ScannedLine, afterEnvelope: Bool)
    /// A line, event or noise, that tells how far in time its session went; sampled at offsets that
    /// do not depend on how the input was read, and the last line of each run of one process.
    func sample(_ line: ScannedLine)
    /// One of the input's last enveloped lines, in order, when the input ends: a session ends at its
    /// last timed line, whatever untimed lines (blank, continuation, a test runner's) follow it, so
    /// the lines after the last one the sink read are read now (docs/lifecycle.md#sessions).
    func ending(_ line: ScannedLine)
    /// The nearest timed line before the next candidate, which has no envelope: a `print` line
    /// belongs to the run of the enveloped lines before it (it may show a relaunch).
    func context(_ line: ScannedLine)
    /// An enveloped line (`format` set) while `contextKnown` is false: `print` lines get its process.
    func learn(_ line: ScannedLine)
    /// The first line of an envelope format (`format`) in this input (`vclint inspect` shows it).
    func envelope(_ line: ScannedLine)
    /// Whether lines without an envelope have a process to belong to; while they do, enveloped
    /// noise lines need not be offered to `learn` (the scanner only counts them).
    var contextKnown: Bool { get }
    /// No more lines. Returns once every line has been handled; later calls return at once.
    func finish()
}

extension LineSink {
    func sample(_ line: ScannedLine) {}
    func ending(_ line: ScannedLine) {}
    func context(_ line: ScannedLine) {}
    func learn(_ line: ScannedLine) {}
    func envelope(_ line: ScannedLine) {}
    /// A sink that learns no process for unenveloped lines asks for no `learn`.
    var contextKnown: Bool { true }
    func finish() {}
}
