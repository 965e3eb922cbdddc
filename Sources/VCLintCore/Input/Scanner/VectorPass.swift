#if arch(x86_64)
extension LogScanner {
    /// `process` in windows of 32-byte blocks: the window's candidate search (`VectorWindow.mark`,
    /// AVX2 where the CPU has it) gives its line ends and verified literals, and the lines are walked
    /// by their ends. A line with no verified literal that has the latest envelope's shape is only
    /// counted; any other goes to `vectorLine`.
    func processVectors(_ start: Int, _ end: Int) {
        if let customFinder {
            customFinder.reset()
            nextCustom = customFinder.next(buffer.bytes, from: start, end: end)
        }
        var lineStart = start
        /// A verified literal in the line that is still open at a window's end.
        var candidate = false
        // Noise lines with the latest envelope's shape are only counted: here, in locals, written
        // back (`flush`) before anything else looks at the counts.
        var fast = fastTemplate()
        var templateLines = 0
        /// Lines that start before this buffer index need no time sample.
        var sampleAt = samples.next - buffer.base
        @inline(__always) func flush() {
            guard templateLines > 0, fast else { return }
            let format = templates.latest.pointee.format
            lineNumber += templateLines
            formatCounts[format.index] += templateLines
            lastEnvelope = format
            templateLines = 0
        }
        let ends = window.lineEnds, found = window.literalHits
        var at = start
        while at < end {
            let blocks = min(VectorWindow.blocks, (end - at + 31) / 32)
            let (lines, hits) = window.mark(buffer.bytes, window: at, end: end, blocks: blocks)
            // The lines, by their ends; a literal belongs to the line it lies in.
            var next = 0  // the first verified literal not yet in a line
            var i = 0
            while i < lines {
                if !candidate, fast {
                    // A run of noise lines with the template's shape, up to the next literal.
                    let limit = next < hits ? at + Int(found[next]) : Int.max
                    let first = lineStart
                    let k = EnvelopeTemplate.run(templates.latest, buffer.bytes, ends: ends, from: i, to: lines, window: at, lineStart: &lineStart,
                                                 hit: limit, sampleAt: sampleAt, avx2: window.avx2)
                    if k > i {
                        templateLines += k - i
                        // The lines have the template's process and pid: one run.
                        if templates.latest.pointee.keyed { templateRun(at: k - 1 == i ? first : at + Int(ends[k - 2]) + 1, lineEnd: at + Int(ends[k - 1]),
                                                                      number: lineNumber + templateLines) }
                    }
                    i = k
                    if i == lines { break }
                }
                let lineEnd = at + Int(ends[i])
                i += 1
                var cand = candidate
                if next < hits, at + Int(found[next]) < lineEnd {
                    cand = true
                    repeat { next += 1 } while next < hits && at + Int(found[next]) < lineEnd
                }
                flush()
                vectorLine(lineStart, lineEnd, end: end, candidate: cand)
                fast = fastTemplate()
                sampleAt = samples.next - buffer.base
                candidate = false
                lineStart = lineEnd + 1
            }
            if next < hits { candidate = true }
            at += 32 * blocks
        }
        flush()
        if lineStart < end {
            vectorLine(lineStart, end, end: end, candidate: candidate)
        }
        keepRecent(start, end)
    }

    /// One line of `processVectors` (the lines that are not only counted).
    @inline(__always)
    func vectorLine(_ lineStart: Int, _ lineEnd: Int, end: Int, candidate: Bool) {
        let p = buffer.bytes + lineStart
        var n = lineEnd - lineStart
        if n > 0, p[n - 1] == .carriageReturn { n -= 1 }
        var cand = candidate
        if let customFinder, nextCustom < lineEnd {
            cand = true
            nextCustom = customFinder.next(buffer.bytes, from: lineEnd + 1, end: end)
        }
        if !cand, countsNoise(), EnvelopeTemplate.matches(templates.latest, p, n) {
            // Noise with the latest envelope: `line` would only count it.
            if templates.latest.pointee.keyed {
                templateRun(at: lineStart, lineEnd: lineEnd, number: lineNumber + 1)
            } else if EnvelopeFormat.isTimed(templates.latest.pointee.format) {
                // A JSON object's shape stops short of its `processID` (`RunKey`): looked up per line.
                // (logcat's lines are not timed: no run, no session time of the scanner's.)
                timedLine(lineStart, n, skip: 0, format: templates.latest.pointee.format, number: lineNumber + 1)
            }
            lineNumber += 1
            let format = templates.latest.pointee.format
            formatCounts[format.index] += 1
            lastEnvelope = format
        } else {
            let (format, skip, shaped) = templatedFormat(p, n)
            if EnvelopeFormat.isTimed(format) {
                if shaped, templates.latest.pointee.keyed {
                    templateRun(at: lineStart, lineEnd: lineEnd, number: lineNumber + 1)
                } else {
                    timedLine(lineStart, lineEnd - lineStart, skip: skip, format: format!, number: lineNumber + 1)
                }
            }
            line(p, n, format: format, skip: skip, candidate: cand, lineStart: lineStart)
        }
        sampleIfDue(p, n, at: lineStart)
    }
}
#endif
