/// Where the scanner pushes the lines it reads, as ripgrep's searcher pushes matches into a `Sink`:
/// the scanner only turns bytes into lines; what the lines mean is the sink's business. The event
/// stage is a sink (`EventStage`, on the scanner's thread), and so is the pipe that hands lines to
/// the stage on a second thread (`EventPipe`). `LogScanner` is generic over its sink, so each call
/// is static (no dynamic dispatch per candidate line).
///
/// Every call borrows its bytes: they are valid for the call only.
protocol LineSink: AnyObject {
    /// A line the candidate search let through, numbered `line`: `format` is its envelope (nil or
    /// `.bare`: none) and `afterEnvelope` whether an enveloped line came before it in the input.
    func candidate(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, format: EnvelopeFormat?, afterEnvelope: Bool)
    /// The nearest enveloped line before the next candidate, which has no envelope: a `print` line
    /// belongs to the run of the enveloped lines before it (it may show a relaunch).
    func context(_ p: UnsafePointer<UInt8>, _ n: Int)
    /// A line, event or noise, numbered `line`, that tells how far in time its session went;
    /// sampled at offsets that do not depend on how the input was read.
    func sample(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int)
    /// One of the input's last enveloped lines, in order, when the input ends: a session ends at its
    /// last timed line, whatever untimed lines (blank, continuation, a test runner's) follow it, so
    /// the lines after the last one the sink read are read now (docs/lifecycle.md#sessions).
    func ending(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int)
    /// An enveloped line while `contextKnown` is false: `print` lines get its process.
    func learn(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat)
    /// The first line of an envelope format in this input (`vclint inspect` shows it).
    func envelope(_ format: EnvelopeFormat, line: Int, _ p: UnsafePointer<UInt8>, _ n: Int)
    /// Whether lines without an envelope have a process to belong to; while they do, enveloped
    /// noise lines need not be offered to `learn` (the scanner only counts them).
    var contextKnown: Bool { get }
    /// No more lines. Returns once every line has been handled; later calls return at once.
    func finish()
    /// Lines on which a custom dialect's pattern hit PCRE2's limits (valid after `finish`).
    var patternLimitHits: Int { get }
}

/// What the scanner counted of one input's bytes and lines, whatever its sink.
struct ScanStats {
    var lines = 0
    var bytes = 0
    var formats: [EnvelopeFormat: Int] = [:]
    /// Lines longer than the read buffer: parsed by their head.
    var overlongLines = 0
}

/// The scanner as a reader of bytes drives it, whichever sink it feeds (`LineEndTranslator`).
protocol ByteScanning: AnyObject {
    /// Feeds bytes; chunk boundaries may fall anywhere.
    func consume(_ bytes: UnsafeRawBufferPointer)
    /// Reads a file descriptor to its end, or to `limit`.
    func scan(fd: Int32, limit: inout ReadLimit) throws
    /// Ends the input (the last line may lack its newline) and finishes the sink.
    func finish() -> ScanStats
    /// Counts the bytes read from file descriptors (the CLI's progress line).
    var progress: ProgressCounter? { get set }
    /// The sink's count of lines on which a custom dialect's pattern hit PCRE2's limits.
    var patternLimitHits: Int { get }
}

/// An input that could not be read to its end.
public enum InputReadError: Error {
    case io(Int32)
    /// A compressed input that cannot be inflated; the text says why.
    case compressed(String)
}
