import VCLintCore
import VCLintSimulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// vclint-loggen: writes a simulated capture (NavigationSimulator) to stdout, deterministic by seed.
//   vclint-loggen [--seed N] [--envelope nslog|nslog-tz|oslog|compact|syslog|ndjson|bare]
//                 [--dialect objc|swift|described|named|method-class|free-form] [--style-seed N] [--fault leak|missing-did-disappear|
//                 missing-did-appear|event-after-dealloc|completion-before-disappearance|stalled-push|leaked-twin|
//                 skipped-did-move|stray-after-dealloc|missing-did-disappear-at-end|missing-did-appear-at-end|deep-stack-leak]
//                 [--families F,F…] [--sessions N] [--steps N]
//                 [--noise X] [--mention-rate P] [--memory-warnings P]
//                 [--size BYTES] [--truth FILE]
// --noise: noise lines per lifecycle line (15 gives ~94% noise); --mention-rate: the share of noise lines
// that mention a callback without being one (analytics, routing); --memory-warnings: the share of
// navigation steps that are a memory warning (default 0.08).
// --size repeats simulated runs (seed, seed+1, …) until that many bytes are written; --truth writes
// the expected findings (`rule line`) of an injected fault. The free-form dialect prints every run in
// one style (an app keeps its format), drawn from --style-seed (default: the seed); it is named on stderr.
// --families adds issue 14's flows (stalled-transitions, twins, bare-child-moves, lazy-tabs, completion-at-end,
// deep-stacks, printed-relaunch; NavigationSimulator.Family); a fault of a family turns its family on. The
// property tests hold each family to the spec on its own; families combined are not checked for ambiguity.

func fail(_ message: String) -> Never {
    var m = "vclint-loggen: error: \(message)\n"
    m.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

var options = NavigationSimulator.Options(seed: 1)
var size = 0
var truthPath: String?
var styleSeed: UInt64?
var args = CommandLine.arguments.dropFirst()
while let flag = args.popFirst() {
    guard let value = args.popFirst() else { fail("\(flag) needs a value") }
    switch flag {
    case "--seed": options.seed = UInt64(value) ?? { fail("bad seed \(value)") }()
    case "--envelope": options.envelope = EnvelopeFormat(rawValue: value) ?? { fail("unknown envelope \(value)") }()
    case "--dialect": options.dialect = NavigationSimulator.Dialect(rawValue: value) ?? { fail("unknown dialect \(value)") }()
    case "--fault": options.fault = NavigationSimulator.Fault(rawValue: value) ?? { fail("unknown fault \(value)") }()
    case "--sessions": options.sessions = Int(value) ?? { fail("bad number \(value)") }()
    case "--steps": options.steps = Int(value) ?? { fail("bad number \(value)") }()
    case "--noise": options.noise = Double(value) ?? { fail("bad number \(value)") }()
    case "--mention-rate": options.mentionRate = Double(value) ?? { fail("bad number \(value)") }()
    case "--memory-warnings": options.memoryWarningRate = Double(value) ?? { fail("bad number \(value)") }()
    case "--size": size = Int(Double(value) ?? { fail("bad size \(value)") }())
    case "--truth": truthPath = value
    case "--style-seed": styleSeed = UInt64(value) ?? { fail("bad seed \(value)") }()
    case "--families":
        for name in value.split(separator: ",") {
            options.families.insert(NavigationSimulator.Family(rawValue: String(name)) ?? { fail("unknown family \(name)") }())
        }
    default: fail("unknown option \(flag)")
    }
}

func emit(_ s: String) {
    var s = s
    s.withUTF8 { buf in
        var off = 0
        while off < buf.count {
            let n = write(1, buf.baseAddress! + off, buf.count - off)
            if n <= 0 { exit(1) }
            off += n
        }
    }
}

// A fault's family stays on in every run of the capture (one app build, one behaviour).
if let family = options.fault?.family { options.families.insert(family) }

if options.dialect == .freeForm {
    var rng = SplitMix64(seed: styleSeed ?? options.seed ^ 0x5EED_F00D)
    let style = FreeFormStyle.random(&rng)
    options.style = style
    var note = "vclint-loggen: free-form style: \(style)\n"
    note.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

var written = 0
var truth = ""
var lineOffset = 0
repeat {
    let out = NavigationSimulator.generate(options)
    let text = out.text
    emit(text)
    written += text.utf8.count
    for e in out.expected { truth += "\(e.rule) \(e.line + lineOffset)\n" }
    lineOffset += out.lines.count
    options.seed &+= 1
    // The next run is a relaunch of the app: later clock, new pid.
    options.startTime = out.endTime + 60
    options.firstPID = out.nextPID
    options.logsInit = out.logsInit
    options.logsDealloc = out.logsDealloc
    options.fault = nil  // one fault per file
} while written < size

if let truthPath {
    guard let f = fopen(truthPath, "w") else { fail("\(truthPath): cannot write") }
    fputs(truth, f)
    fclose(f)
}
