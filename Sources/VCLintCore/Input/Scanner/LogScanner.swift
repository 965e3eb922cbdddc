import CPCRE2
#if arch(x86_64)
import CVectorScan
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// bytes → lines: reads fixed-size chunks, finds the candidate lines (those that may carry a
/// lifecycle statement) in one pass over the buffer, and pushes lines to its sink (`LineSink`):
/// candidates, the context and time samples that give them meaning, the first line of each
/// envelope format. It builds no String and keeps no state about events: that is the sink's.
/// On x86-64 the pass is vectorised (`processVectors`: newlines, the candidate literals with Teddy,
/// envelope shapes); elsewhere, and for custom dialects' patterns, PCRE2 JIT searches the buffer.
/// Memory is the buffer, whatever the input size.
final class LogScanner<Sink: LineSink>: ByteScanning {

    private let finder: CandidateFinder
    /// Where the lines go; the scanner owns it.
    let sink: Sink
    /// `sink`, borrowed: the scanner owns it for its whole life, so handing it a line needs no
    /// reference counting (an atomic increment and decrement per candidate line otherwise).
    private let sinkRef: Unmanaged<Sink>
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var stats = ScanStats()
    /// Counts the bytes read from file descriptors (the CLI's progress line).
    @exclusivity(unchecked) var progress: ProgressCounter?
    var patternLimitHits: Int { sink.patternLimitHits }

    /// The most the buffer holds (the chunk size: a longer line is read by its head), and what it
    /// holds now: it starts small (a small capture costs a small buffer) and takes the whole chunk
    /// size once a read fills it (one step: the small buffer is the only one given back).
    private let capacity: Int
    @exclusivity(unchecked) private var size: Int
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    private static var initialSize: Int { 64 * 1024 }
    @exclusivity(unchecked) private var filled = 0
    /// The input offset of `buffer[0]`.
    @exclusivity(unchecked) private var base = 0
    /// The next input offset at which a line is sampled for its session's time.
    @exclusivity(unchecked) private var nextSample = 0
    /// Sampling interval: sessions' time is followed at least this often (in input bytes); in live
    /// mode every line's time counts (a leak is due when the grace period has passed).
    private let sampleInterval: Int
    /// A copy of the head of the line before the buffer's first (the previous chunk's last): what
    /// `joinedWithCarrier` looks back at across a read boundary.
    @exclusivity(unchecked) private var recent = RecentLines(capacity: 1)
    /// The latest timed line, however far back: a line without an envelope belongs to its run
    /// (`sendContext`).
    @exclusivity(unchecked) private var latest = LatestTimedLine()
    /// The input's last enveloped lines (kept at the end of each chunk), read when it ends.
    @exclusivity(unchecked) private var endingLines = EndingLines(capacity: LogScanner.endingLineCount)
    private static var endingLineCount: Int { 64 }
    @exclusivity(unchecked) private var skippingOverlong = false
    @exclusivity(unchecked) private var lineNumber = 0
    /// The run of one process's timed lines the input is in (`RunKey`).
    @exclusivity(unchecked) private var run = RunTracker()
    /// Lines per envelope format, by `EnvelopeFormat.index`.
    private let formatCounts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var lastEnvelope: EnvelopeFormat?

    /// Off: every line goes through the full parser (the unoptimised path the equivalence test
    /// compares against). The candidate search is only an optimisation: both must agree.
    private let prefilter: Bool
#if arch(x86_64)
    /// The vector path: built-in literals found with Teddy, custom dialects' patterns with PCRE2, and
    /// envelopes recognised by the shape of recent lines.
    private let literals = CandidateLiterals.shared
    private let customFinder: CandidateFinder?
    @exclusivity(unchecked) private var nextCustom = Int.max
    private let templates: UnsafeMutablePointer<EnvelopeTemplate>
    @exclusivity(unchecked) private var templateCount = 0
    private static var maxTemplates: Int { 4 }
    /// The bulk pass's output for one window of 32-byte blocks (64 KiB of input: stays in L1).
    private static var windowBlocks: Int { 2048 }
    private let newlineMasks: UnsafeMutablePointer<UInt32>
    private let hitMasks: UnsafeMutablePointer<UInt32>
    /// A window's line ends and verified literals, as positions in the window (see `processVectors`).
    private let lineEnds: UnsafeMutablePointer<Int32>
    private let literalHits: UnsafeMutablePointer<Int32>
    /// The window's 64-byte pairs that have fingerprint hits.
    private let hitPairList: UnsafeMutablePointer<Int32>
#endif
    /// Tests: the portable path (memchr and PCRE2) even where the vector path is built, and the
    /// numbers of the lines the candidate search let through.
    @exclusivity(unchecked) var portable = false
    @exclusivity(unchecked) var candidateLines: [Int]?

    /// Vector loads may read this far past the data (never past the allocation).
    private static var slack: Int { 128 }

    /// `prefilter` off: every line goes to the sink as a candidate (the unoptimised path that the
    /// equivalence tests compare against); `customDialects`: their patterns' literals are candidates too.
    init(sink: Sink, chunkSize: Int = LintOptions.defaultChunkSize, customDialects: [CustomDialect] = [], prefilter: Bool = true,
         sampleInterval: Int = 64 * 1024) {
        self.sink = sink
        sinkRef = Unmanaged.passUnretained(sink)
        self.prefilter = prefilter
        self.sampleInterval = sampleInterval
        self.finder = CandidateFinder(CandidateSearch.patterns + customDialects.compactMap(\.candidatePattern))
        self.capacity = max(chunkSize, 256)
        self.size = min(self.capacity, Self.initialSize)
        self.buffer = .allocate(capacity: self.size + Self.slack)
        self.buffer.initialize(repeating: 0, count: self.size + Self.slack)
        self.formatCounts = .allocate(capacity: EnvelopeFormat.allCases.count)
        self.formatCounts.initialize(repeating: 0, count: EnvelopeFormat.allCases.count)
#if arch(x86_64)
        let custom = customDialects.compactMap(\.candidatePattern)
        self.customFinder = custom.isEmpty ? nil : CandidateFinder(custom)
        self.templates = .allocate(capacity: Self.maxTemplates)
        self.newlineMasks = .allocate(capacity: Self.windowBlocks + 1)
        self.hitMasks = .allocate(capacity: Self.windowBlocks + 1)
        self.lineEnds = .allocate(capacity: 32 * Self.windowBlocks + 2)
        self.literalHits = .allocate(capacity: 32 * Self.windowBlocks)
        self.hitPairList = .allocate(capacity: Self.windowBlocks / 2 + 1)
#endif
    }

    deinit {
        // A read error ends the input early: the sink still finishes (the pipe's thread stops).
        if !finished { sink.finish() }
        buffer.deallocate()
        formatCounts.deallocate()
#if arch(x86_64)
        templates.deinitialize(count: templateCount)
        templates.deallocate()
        newlineMasks.deallocate()
        hitMasks.deallocate()
        lineEnds.deallocate()
        literalHits.deallocate()
        hitPairList.deallocate()
#endif
    }

    /// Room for more: the buffer grows to `capacity`; a line that fills all of it is read by its
    /// head (`overlong`).
    @inline(__always)
    private func makeRoom() {
        guard filled == size else { return }
        if size < capacity { grow() } else { overlong() }
    }

    /// Grows the buffer to `capacity`, keeping its bytes.
    private func grow() {
        let grown = capacity
        let b = UnsafeMutablePointer<UInt8>.allocate(capacity: grown + Self.slack)
        b.initialize(from: buffer, count: filled)
        (b + filled).initialize(repeating: 0, count: grown + Self.slack - filled)
        buffer.deallocate()
        buffer = b
        size = grown
    }

    /// Reads a file descriptor to its end.
    func scan(fd: Int32) throws {
        var limit = ReadLimit.none
        try scan(fd: fd, limit: &limit)
    }

    /// Reads a file descriptor to its end, or to `limit`.
    func scan(fd: Int32, limit: inout ReadLimit) throws {
        while true {
            makeRoom()
            let wanted = size - filled
            let n = limit.read(fd, buffer + filled, wanted)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputReadError.io(errno)
            }
            if n == 0 { break }
            progress?.add(bytes: n)
            appended(count: n)
            // The read filled what was free: the input is large.
            if n == wanted, size < capacity { grow() }
        }
    }

    /// Feeds bytes (tests, decompressed streams); chunk boundaries may fall anywhere.
    func consume(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            makeRoom()
            while size < capacity, bytes.count - offset > size - filled { grow() }
            let n = min(size - filled, bytes.count - offset)
            (buffer + filled).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: n)
            offset += n
            appended(count: n)
        }
    }

    /// Ends the input (the last line may lack its newline) and finishes the sink.
    func finish() -> ScanStats {
        if !finished {
            finished = true
            if !skippingOverlong && filled > 0 {
                process(0, filled)
                base += filled
                filled = 0
            }
            // Where the input ends tells how far its sessions went: their last timed lines, not
            // the blank or runner's lines after them.
            endingLines.forEach { line, bytes in
                sinkRef._withUnsafeGuaranteedRef { $0.ending(bytes.baseAddress!, bytes.count, line: line) }
            }
            sinkRef._withUnsafeGuaranteedRef { $0.finish() }
            stats.lines = lineNumber
            for f in EnvelopeFormat.allCases where formatCounts[f.index] > 0 { stats.formats[f] = formatCounts[f.index] }
        }
        return stats
    }

    private func appended(count n: Int) {
        stats.bytes += n
        let start = filled
        filled += n
        if skippingOverlong {
            guard let nl = memchr(buffer + start, 0x0A, n) else { base += filled; filled = 0; return }
            let after = nl.assumingMemoryBound(to: UInt8.self) - buffer + 1
            base += after
            let rest = filled - after
            if rest > 0 { memmove(buffer, buffer + after, rest) }
            filled = rest
            skippingOverlong = false
            guard filled > 0 else { return }
            processComplete(searchFrom: 0)
            return
        }
        processComplete(searchFrom: start)
    }

    /// Processes every complete line in the buffer and keeps the unfinished tail.
    private func processComplete(searchFrom: Int) {
        guard let last = vclint_memrchr(buffer + searchFrom, 0x0A, filled - searchFrom) else { return }
        let end = last.assumingMemoryBound(to: UInt8.self) - UnsafePointer(buffer) + 1
        process(0, end)
        base += end
        let rest = filled - end
        if rest > 0 { memmove(buffer, buffer + end, rest) }
        filled = rest
    }

    /// A line longer than the buffer: parse its head, skip the rest until its newline.
    private func overlong() {
        stats.overlongLines += 1
        let head = min(filled, CandidateSearch.overlongHead)
        finder.reset()
        let cand = !prefilter || finder.next(buffer, from: 0, end: head) < head
        let (format, skip) = EnvelopeParser.locate(buffer, head)
        if let format, Self.isTimedEnvelope(format) { timedLine(0, head, skip: skip, format: format, number: lineNumber + 1) }
        line(buffer, head, format: format, skip: skip, candidate: cand, lineStart: 0)
        keepRun()
        keepLatest()
        recent.push(buffer, head)
        if Self.isTimedEnvelope(format) { endingLines.push(buffer, head, line: lineNumber) }
        base += filled
        filled = 0
        skippingOverlong = true
    }

    private func process(_ start: Int, _ end: Int) {
#if arch(x86_64)
        if prefilter, !portable, VectorLevel.v2 { return processVectors(start, end) }
#endif
        var pos = start
        finder.reset()
        var next = finder.next(buffer, from: start, end: end)
        while pos < end {
            let le: Int
            if let nl = memchr(buffer + pos, 0x0A, end - pos) {
                le = nl.assumingMemoryBound(to: UInt8.self) - buffer
            } else {
                le = end
            }
            var n = le - pos
            if n > 0, buffer[pos + n - 1] == 0x0D { n -= 1 }
            let cand = next < le || !prefilter
            let (format, skip) = EnvelopeParser.locate(buffer + pos, n)
            if let format, Self.isTimedEnvelope(format) { timedLine(pos, n, skip: skip, format: format, number: lineNumber + 1) }
            line(buffer + pos, n, format: format, skip: skip, candidate: cand, lineStart: pos)
            if cand { next = finder.next(buffer, from: le + 1, end: end) }
            if base + pos >= nextSample {
                // Noise lines carry time too: sample one line per interval of input, at offsets that
                // do not depend on how the input was chunked, so reports are the same for any reads.
                sample(buffer + pos, n, line: lineNumber)
                nextSample = base + pos - (base + pos) % sampleInterval + sampleInterval
            }
            pos = le + 1
        }
        keepRecent(start, end)
    }

    /// Keeps the last lines of `buffer[start..<end]` (whole lines, the last possibly unfinished)
    /// in `recent`, after those of earlier chunks when this one holds fewer.
    private func keepRecent(_ start: Int, _ end: Int) {
        keepRun()
        keepLatest()
        keepEnding(start, end)
        guard end > start else { return }
        var found: [(Int, Int)] = []
        found.reserveCapacity(recent.capacity)
        var e = buffer[end - 1] == 0x0A ? end - 1 : end
        while found.count < recent.capacity {
            let s = vclint_memrchr(buffer + start, 0x0A, e - start).map { $0.assumingMemoryBound(to: UInt8.self) - UnsafePointer(buffer) + 1 } ?? start
            var n = e - s
            if n > 0, buffer[s + n - 1] == 0x0D { n -= 1 }
            found.append((s, n))
            if s == start { break }
            e = s - 1
        }
        for (s, n) in found.reversed() { recent.push(buffer + s, n) }
    }

    /// A timed line numbered `number`, starting at `start` in the buffer (its envelope `skip` bytes
    /// in): when its key differs from the run's, the run's last line is read first (a sample, in
    /// line order: nothing of this line has reached the sink yet).
    @inline(__always)
    private func timedLine(_ start: Int, _ n: Int, skip: Int, format: EnvelopeFormat, number: Int) {
        latest.set(position: start, length: n)
        let p = buffer + start + skip
        guard let span = RunKey.span(p, n - skip, format: format) else { return }
        let k = p + span.lowerBound, kn = span.count
        let same = run.active && run.key.count == kn && run.key.withUnsafeBufferPointer { memcmp($0.baseAddress!, k, kn) == 0 }
        if !same {
            endRun()
            run.key.removeAll(keepingCapacity: true)
            run.key.append(contentsOf: UnsafeBufferPointer(start: k, count: kn))
            run.active = true
            run.isTemplate = false
        }
        run.line = number
        run.position = start
        run.length = n
    }

    /// The run's last line, read for its session's time (a new run begins).
    private func endRun() {
        guard run.active else { return }
        if run.position >= 0 {
            var n = run.length
            if n > 0, buffer[run.position + n - 1] == 0x0D { n -= 1 }
            sample(buffer + run.position, n, line: run.line)
        } else {
            run.head.withUnsafeBufferPointer { sample($0.baseAddress!, $0.count, line: run.line) }
        }
    }

    /// The buffer is about to move: the run's latest line is copied.
    private func keepRun() {
        guard run.active, run.position >= 0 else { return }
        run.head.removeAll(keepingCapacity: true)
        RecentLines.keepHead(buffer + run.position, run.length, in: &run.head)
        run.position = -1
    }

    /// The buffer is about to move: the latest timed line is copied (when it is not the run's, which
    /// `keepRun` copied already, it is copied once more: once per chunk at most).
    private func keepLatest() {
        guard latest.position >= 0 else { return }
        latest.head.removeAll(keepingCapacity: true)
        RecentLines.keepHead(buffer + latest.position, latest.length, in: &latest.head)
        latest.position = -1
    }

    /// Whether a line with this envelope can carry its session's time.
    @inline(__always)
    static func isTimedEnvelope(_ format: EnvelopeFormat?) -> Bool {
        guard let format else { return false }
        return format != .bare && format != .logcat
    }

    /// Keeps the last enveloped lines of `buffer[start..<end]` (numbered up to `lineNumber`) in
    /// `endingLines`, after those of earlier chunks: walking back from the end, at most as many as
    /// it holds, so the lines kept are the input's last ones however it was read.
    private func keepEnding(_ start: Int, _ end: Int) {
        guard end > start else { return }
        endingFound.removeAll(keepingCapacity: true)
        var e = buffer[end - 1] == 0x0A ? end - 1 : end
        var number = lineNumber
        while endingFound.count < endingLines.capacity {
            let s = vclint_memrchr(buffer + start, 0x0A, e - start).map { $0.assumingMemoryBound(to: UInt8.self) - UnsafePointer(buffer) + 1 } ?? start
            var n = e - s
            if n > 0, buffer[s + n - 1] == 0x0D { n -= 1 }
            if Self.isTimedEnvelope(EnvelopeParser.locate(buffer + s, n).0) { endingFound.append((s, n, number)) }
            if s == start { break }
            e = s - 1
            number -= 1
        }
        for (s, n, line) in endingFound.reversed() { endingLines.push(buffer + s, n, line: line) }
    }
    @exclusivity(unchecked) private var endingFound: [(Int, Int, Int)] = []

#if arch(x86_64)
    /// `process` in windows of 32-byte blocks. A bulk pass (`CandidateLiterals.masks`, AVX2 where
    /// the CPU has it) marks each block's newlines and fingerprint hits; the hits are verified and
    /// both are turned into lists of positions, so the lines are walked by one loop over their ends
    /// (no branch per block, none that depends on how many lines a block holds). A line with no
    /// verified literal that has the latest envelope's shape is only counted; any other goes to
    /// `vectorLine`.
    private func processVectors(_ start: Int, _ end: Int) {
        if let customFinder {
            customFinder.reset()
            nextCustom = customFinder.next(buffer, from: start, end: end)
        }
        var lineStart = start
        /// A verified literal in the line that is still open at a window's end.
        var candidate = false
        // Noise lines with the latest envelope's shape are only counted: here, in locals, written
        // back (`flush`) before anything else looks at the counts.
        var fast = fastTemplate()
        var templateLines = 0
        /// Lines that start before this buffer index need no time sample.
        var sampleAt = nextSample - base
        @inline(__always) func flush() {
            guard templateLines > 0, fast else { return }
            let format = templates.pointee.format
            lineNumber += templateLines
            formatCounts[format.index] += templateLines
            lastEnvelope = format
            templateLines = 0
        }
        let ends = lineEnds, found = literalHits
        var window = start
        while window < end {
            let blocks = min(Self.windowBlocks, (end - window + 31) / 32)
            literals.masks(buffer + window, blocks: blocks, newlines: newlineMasks, hits: hitMasks)
            if end - window < 32 * blocks {
                // The last block runs past the data: drop what its tail marked.
                let valid = UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(end - window - 32 * (blocks - 1))) &- 1)
                newlineMasks[blocks - 1] &= valid
                hitMasks[blocks - 1] &= valid
            }
            if blocks & 1 != 0 { newlineMasks[blocks] = 0; hitMasks[blocks] = 0 }
            let pairs = (blocks + 1) / 2
            let (lines, withHits) = Self.lineEnds(UnsafeRawPointer(newlineMasks), UnsafeRawPointer(hitMasks), pairs: pairs,
                                                  into: ends, hitPairs: hitPairList)
            // The fingerprint hits that are literals, as positions in the window (they are rare).
            var hits = 0
            let hitPairs = UnsafeRawPointer(hitMasks)
            for k in 0..<withHits {
                let b = Int(hitPairList[k])
                var h = hitPairs.load(fromByteOffset: 8 &* b, as: UInt64.self)
                while h != 0 {
                    let at = 64 &* b &+ h.trailingZeroBitCount
                    if literals.verify(buffer, at: window + at, end: end) {
                        found[hits] = Int32(truncatingIfNeeded: at)
                        hits &+= 1
                    }
                    h &= h &- 1
                }
            }
            // The lines, by their ends; a literal belongs to the line it lies in.
            var next = 0  // the first verified literal not yet in a line
            var i = 0
            while i < lines {
                if !candidate, fast {
                    // A run of noise lines with the template's shape, up to the next literal.
                    let limit = next < hits ? window + Int(found[next]) : Int.max
                    let first = lineStart
                    let k = EnvelopeTemplate.run(templates, buffer, ends: ends, from: i, to: lines, window: window, lineStart: &lineStart, hit: limit, sampleAt: sampleAt)
                    if k > i {
                        templateLines += k - i
                        // The lines have the template's process and pid: one run.
                        if templates.pointee.keyed { templateRun(at: k - 1 == i ? first : window + Int(ends[k - 2]) + 1, lineEnd: window + Int(ends[k - 1]),
                                                 number: lineNumber + templateLines) }
                    }
                    i = k
                    if i == lines { break }
                }
                let lineEnd = window + Int(ends[i])
                i += 1
                var cand = candidate
                if next < hits, window + Int(found[next]) < lineEnd {
                    cand = true
                    repeat { next += 1 } while next < hits && window + Int(found[next]) < lineEnd
                }
                flush()
                vectorLine(lineStart, lineEnd, end: end, candidate: cand)
                fast = fastTemplate()
                sampleAt = nextSample - base
                candidate = false
                lineStart = lineEnd + 1
            }
            if next < hits { candidate = true }
            window += 32 * blocks
        }
        flush()
        if lineStart < end {
            vectorLine(lineStart, end, end: end, candidate: candidate)
        }
        keepRecent(start, end)
    }

    /// A window's line ends, as positions in the window, from the bulk pass's newline masks read as
    /// 64-bit pairs, and the pairs that have fingerprint hits (`vclint_line_ends`).
    @inline(__always)
    static func lineEnds(_ newlines: UnsafeRawPointer, _ hits: UnsafeRawPointer, pairs: Int,
                         into ends: UnsafeMutablePointer<Int32>, hitPairs: UnsafeMutablePointer<Int32>) -> (lines: Int, hitPairs: Int) {
        var withHits = 0
        let lines = vclint_line_ends(newlines.assumingMemoryBound(to: UInt64.self), hits.assumingMemoryBound(to: UInt64.self),
                                     pairs, ends, hitPairs, &withHits)
        return (lines, withHits)
    }

    /// Lines that have the latest template's shape, which covers their process and pid: the last of
    /// them (numbered `number`) starts at `start`. (The key is compared only when the run may have
    /// changed since the template last spoke for it.)
    @inline(__always)
    private func templateRun(at start: Int, lineEnd: Int, number: Int) {
        if !run.isTemplate {
            let p = buffer + start
            var n = lineEnd - start
            if n > 0, p[n - 1] == 0x0D { n -= 1 }
            timedLine(start, n, skip: 0, format: templates.pointee.format, number: number)
            run.isTemplate = true
            return
        }
        run.line = number
        run.position = start
        run.length = lineEnd - start
        latest.set(position: start, length: lineEnd - start)
    }

    /// Whether a noise line with the latest envelope's template (`templates[0]`, used in place: it is
    /// too large to copy per line) needs nothing but counting (no custom dialect to search, the
    /// context process known, and the shape covers the line's run key).
    @inline(__always)
    private func fastTemplate() -> Bool {
        customFinder == nil && templateCount > 0 && contextKnown && templates.pointee.keyed
    }

    /// One line of `processVectors` (the lines that are not only counted).
    @inline(__always)
    private func vectorLine(_ lineStart: Int, _ lineEnd: Int, end: Int, candidate: Bool) {
        let p = buffer + lineStart
        var n = lineEnd - lineStart
        if n > 0, p[n - 1] == 0x0D { n -= 1 }
        var cand = candidate
        if let customFinder, nextCustom < lineEnd {
            cand = true
            nextCustom = customFinder.next(buffer, from: lineEnd + 1, end: end)
        }
        if !cand, templateCount > 0, contextKnown, EnvelopeTemplate.matches(templates, p, n) {
            // Noise with the latest envelope: `line` would only count it.
            if templates.pointee.keyed {
                templateRun(at: lineStart, lineEnd: lineEnd, number: lineNumber + 1)
            } else {
                // A JSON object's shape stops short of its `processID` (`RunKey`): looked up per line.
                timedLine(lineStart, n, skip: 0, format: templates.pointee.format, number: lineNumber + 1)
            }
            lineNumber += 1
            let format = templates.pointee.format
            formatCounts[format.index] += 1
            lastEnvelope = format
        } else {
            let (format, skip) = templatedFormat(p, n)
            if Self.isTimedEnvelope(format) {
                if skip == 0, templateCount > 0, templates.pointee.keyed, EnvelopeTemplate.matches(templates, p, n) {
                    templateRun(at: lineStart, lineEnd: lineEnd, number: lineNumber + 1)
                } else {
                    timedLine(lineStart, lineEnd - lineStart, skip: skip, format: format!, number: lineNumber + 1)
                }
            }
            line(p, n, format: format, skip: skip, candidate: cand, lineStart: lineStart)
        }
        if base + lineStart >= nextSample {
            sample(p, n, line: lineNumber)
            nextSample = base + lineStart - (base + lineStart) % sampleInterval + sampleInterval
        }
    }

    /// `EnvelopeParser.locate`, answered by a recent line's shape when the line has it.
    private func templatedFormat(_ p: UnsafePointer<UInt8>, _ n: Int) -> (EnvelopeFormat?, Int) {
        // Templates start with a digit or `{`: continuation lines (`    state = …;`, `}`) skip them.
        guard n > 0, ByteCursor.isDigit(p[0]) || p[0] == 0x7B else { return EnvelopeParser.locate(p, n) }
        for t in 0..<templateCount where EnvelopeTemplate.matches(templates + t, p, n) {
            if t > 0 { swap(&templates[0], &templates[t]); run.isTemplate = false }
            return (templates[0].format, 0)
        }
        let format = EnvelopeParser.classify(p, n)
        if format != nil, let template = EnvelopeTemplate(p, n) {
            // Most recent first; the oldest drops out.
            if templateCount == Self.maxTemplates {
                templateCount -= 1
                (templates + templateCount).deinitialize(count: 1)
            }
            if templateCount > 0 { (templates + 1).moveInitialize(from: templates, count: templateCount) }
            templates.initialize(to: template)
            templateCount += 1
            run.isTemplate = false
        }
        return (format, 0)
    }
#endif

    /// Whether the sink has a process for unenveloped lines.
    @inline(__always)
    private var contextKnown: Bool { sinkRef._withUnsafeGuaranteedRef { $0.contextKnown } }

    /// One line: `format` is its envelope, which starts `skip` bytes in (after what a console or a web
    /// page put before it); `lineStart` is where the line starts in the buffer.
    @inline(__always)
    private func line(_ line: UnsafePointer<UInt8>, _ length: Int, format: EnvelopeFormat?, skip: Int, candidate: Bool, lineStart: Int) {
        let p = line + skip, n = length - skip
        lineNumber += 1
        let hadEnvelope = lastEnvelope != nil
        if let format {
            if formatCounts[format.index] == 0 {
                let number = lineNumber
                sinkRef._withUnsafeGuaranteedRef { $0.envelope(format, line: number, p, n) }
            }
            formatCounts[format.index] += 1
            lastEnvelope = format
            // `print` lines get the process of the enveloped lines around them: learn it from the
            // first enveloped line, event or not.
            if format != .bare, !contextKnown { learn(p, n, format: format) }
        } else {
            formatCounts[(lastEnvelope ?? .bare).index] += 1
        }
        if candidate {
            candidateLines?.append(lineNumber)
            // A message that its envelope left empty is on this line (Xamarin prints
            // `…App[1315:14103] ` and the message on a line of its own): read it in that envelope.
            if format == nil || format == .bare, hadEnvelope, let (carrier, joined) = joinedWithCarrier(lineStart, p, n) {
                joined.withUnsafeBufferPointer { j in
                    let number = lineNumber
                    sinkRef._withUnsafeGuaranteedRef { $0.candidate(j.baseAddress!, j.count, line: number, format: carrier, afterEnvelope: true) }
                }
                return
            }
            // An indented line without an envelope after enveloped ones continues the previous
            // message (the stage drops it): not worth a trip to the sink.
            if format == nil || format == .bare, hadEnvelope, n > 0, p[0] == 0x20 || p[0] == 0x09 { return }
            if format == nil || format == .bare, hadEnvelope { sendContext() }
            let number = lineNumber
            sinkRef._withUnsafeGuaranteedRef { $0.candidate(p, n, line: number, format: format, afterEnvelope: hadEnvelope) }
        }
    }

    /// The line before the one starting at `lineStart` in the buffer (or the last line of the
    /// previous chunk), when it is an envelope whose message is empty: its format, and its envelope
    /// followed by this line, to be read as one line.
    private func joinedWithCarrier(_ lineStart: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> (EnvelopeFormat, [UInt8])? {
        if lineStart > 0 {
            // An envelope whose message is empty ends in `]` (NSLog) or `:` (os_log, syslog).
            var k = lineStart - 1
            while k > 0, buffer[k - 1] == 0x20 || buffer[k - 1] == 0x09 || buffer[k - 1] == 0x0D { k -= 1 }
            guard k > 0, buffer[k - 1] == 0x5D || buffer[k - 1] == 0x3A else { return nil }
            var e = lineStart - 1
            if e > 0, buffer[e - 1] == 0x0D { e -= 1 }
            let s = e > 0 ? (vclint_memrchr(buffer, 0x0A, e).map { $0.assumingMemoryBound(to: UInt8.self) - UnsafePointer(buffer) + 1 } ?? 0) : 0
            return Self.joined(UnsafeBufferPointer(start: buffer + s, count: e - s), p, n)
        }
        guard recent.count > 0 else { return nil }
        return recent.withLine(0) { Self.joined($0, p, n) }
    }

    /// `prev`'s envelope followed by the line `p`, when `prev` is an envelope with an empty message.
    private static func joined(_ prev: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ n: Int) -> (EnvelopeFormat, [UInt8])? {
        // An envelope whose message is empty ends in `]` (NSLog) or `:` (os_log, syslog).
        var last = prev.count
        while last > 0, prev[last - 1] == 0x20 || prev[last - 1] == 0x09 { last -= 1 }
        guard last > 0, prev[last - 1] == 0x5D || prev[last - 1] == 0x3A, let base = prev.baseAddress else { return nil }
        let (format, skip) = EnvelopeParser.locate(base, prev.count)
        guard let format, format != .bare, format != .ndjson, format != .logcat else { return nil }
        guard let info = EnvelopeParser.parse(base + skip, prev.count - skip, format: format), !info.isMetadata,
              TextScalars.trimmed(base + skip, info.message).isEmpty else { return nil }
        var joined = [UInt8](UnsafeBufferPointer(start: base + skip, count: info.message.lowerBound))
        if joined.last != 0x20 { joined.append(0x20) }
        joined.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        return (format, joined)
    }

    /// A `print` line belongs to the run of the timed line before it, however many untimed lines
    /// (blank, continuation, runner's, other prints) come between: when the app printed its lifecycle
    /// and only other lines show a relaunch (a new pid), that line ends the old session before the
    /// print is read, and it tells how far the session went. The latest timed line goes to the sink,
    /// which reads it only if the candidate is an event (so that the report does not depend on which
    /// lines the candidate search let through).
    private func sendContext() {
        guard latest.active else { return }
        if latest.position >= 0 {
            var n = latest.length
            if n > 0, buffer[latest.position + n - 1] == 0x0D { n -= 1 }
            context(buffer + latest.position, n)
        } else {
            guard !latest.head.isEmpty else { return }
            latest.head.withUnsafeBufferPointer { context($0.baseAddress!, $0.count) }
        }
    }

    private func context(_ p: UnsafePointer<UInt8>, _ n: Int) {
        sinkRef._withUnsafeGuaranteedRef { $0.context(p, n) }
    }

    private func learn(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat) {
        sinkRef._withUnsafeGuaranteedRef { $0.learn(p, n, format: format) }
    }

    /// A line that tells how far in time its session went (the sink keeps the lines' time).
    private func sample(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) {
        sinkRef._withUnsafeGuaranteedRef { $0.sample(p, n, line: line) }
    }
}

extension EnvelopeFormat {
    var index: Int {
        switch self {
        case .nslog: return 0
        case .nslogTZ: return 1
        case .oslog: return 2
        case .compact: return 3
        case .syslog: return 4
        case .ndjson: return 5
        case .bare: return 6
        case .logcat: return 7
        case .json: return 8
        }
    }
}

/// The last few lines of an input (their first `headBytes`), newest first, in reused storage.
struct RecentLines {
    let capacity: Int
    private var lines: [[UInt8]]
    /// Index of the newest line in `lines`.
    private var newest = 0
    private(set) var count = 0
    static let headBytes = 4096

    init(capacity: Int) {
        self.capacity = capacity
        lines = Array(repeating: [], count: capacity)
    }

    mutating func push(_ p: UnsafePointer<UInt8>, _ n: Int) {
        newest = (newest + 1) % capacity
        lines[newest].removeAll(keepingCapacity: true)
        lines[newest].append(contentsOf: UnsafeBufferPointer(start: p, count: min(n, Self.headBytes)))
        count = min(count + 1, capacity)
    }

    /// Appends what a timed line's time sample needs to `kept`: its first `headBytes`, or, for a
    /// longer JSON object (whose members are in any order and which reads only whole), the members
    /// that tell its process, pid and time, as a short object of their own.
    static func keepHead(_ p: UnsafePointer<UInt8>, _ n: Int, in kept: inout [UInt8]) {
        if n > headBytes, p[0] == 0x7B, let object = NDJSONLine.parse(p, n) {
            kept.append(contentsOf: object.timeCarrier)
            return
        }
        kept.append(contentsOf: UnsafeBufferPointer(start: p, count: min(n, headBytes)))
    }

    /// The k-th newest line (0: the newest), borrowed for `body`.
    func withLine<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard k < count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return lines[(newest - k + capacity) % capacity].withUnsafeBufferPointer(body)
    }
}
