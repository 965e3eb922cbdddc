import ArgumentParser
import VCLintCore
import VCLintSimulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a simulated capture (`NavigationSimulator`) to stdout, the same bytes for the same options:
/// the test suite's property tests, `Benchmarks/run.sh` and `Benchmarks/accuracy.sh` read these.
struct LogGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vclint-loggen",
        abstract: "Write a simulated iOS console capture or Android logcat to standard output, deterministic by seed.",
        discussion: """
            Each run is an app session of push/pop, present/dismiss, sheets, tabs and child controllers, \
            in one envelope and dialect, with noise lines in between. With --fault one fault is injected \
            into the first run and --truth writes the findings vclint must report (`RULE LINE` per line). \
            --size repeats runs (seed, seed+1, …, each a relaunch with a later clock and a new pid) until \
            that many bytes are written. A `bare` capture (print output) cannot show a relaunch, so there \
            --size makes one longer run instead (more steps, held in memory: at most 256 MiB).

            --platform android writes an Android app's logcat instead (AndroidSimulator): Activities, Fragments and \
            ViewModels in launches of one pid each (A→B→back, rotations, back stacks, ViewPager pages, multi-window \
            pauses, process deaths), in one logcat format (--envelope) and one callback wording per capture, with \
            LeakCanary's lines (--leakcanary, or a leak fault) and the Android faults. The `tag` format shows no pid: \
            its capture is one launch, which --size makes longer.

            Examples:
              vclint-loggen --seed 7 --envelope oslog --dialect swift --fault leak --truth truth.txt > capture.log
              vclint-loggen --seed 1 --noise 15 --mention-rate 0.05 --size 1e9 > 1gib.log
              vclint-loggen --seed 3 --dialect swift --objects --fault leaked-object --truth truth.txt > capture.log
              vclint-loggen --platform android --seed 5 --envelope studio --fault missing-on-stop --truth truth.txt > logcat.txt
            """)

    @Option(help: ArgumentHelp("The app whose capture is written.", valueName: "ios|android"),
            transform: { try choice(Platform(rawValue: $0), $0, Platform.allCases.map(\.rawValue)) })
    var platform: Platform = .ios

    @Option(help: "The generator's seed: the same seed and options give the same bytes.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The envelope around each line (iOS, default nslog-tz: \(EnvelopeFormat.allCases.map(\.rawValue).joined(separator: "|")); Android, default threadtime: \(AndroidSimulator.Format.allCases.map(\.rawValue).joined(separator: "|"))).",
                               valueName: "format"),
            transform: { try choice(EnvelopeChoice(rawValue: $0), $0, EnvelopeChoice.names) })
    var envelope: EnvelopeChoice?

    @Option(name: .customLong("dialect"), help: ArgumentHelp("How lifecycle lines are worded (free-form: an app's own words, one style per capture; mixed: each run in the next dialect, every one in turn).",
                               valueName: DialectChoice.names.joined(separator: "|")),
            transform: { try choice(DialectChoice(rawValue: $0), $0, DialectChoice.names) })
    var dialectOption: DialectChoice?
    var dialect: DialectChoice { dialectOption ?? .one(.objc) }

    @Option(help: "The seed of the free-form dialect's style (default: drawn from --seed); the style is named on stderr.")
    var styleSeed: UInt64?

    @Option(help: ArgumentHelp("A variant of the drawn free-form style: callbacks spelled Init/Deinit, one-letter labels, titles of two words, or labels redacted by the unified log (<private>: the truth is then one redacted_labels finding).",
                               valueName: FreeFormStyle.Variant.allCases.map(\.rawValue).joined(separator: "|")),
            transform: { try choice(FreeFormStyle.Variant(rawValue: $0), $0, FreeFormStyle.Variant.allCases.map(\.rawValue)) })
    var freeFormStyle: FreeFormStyle.Variant = .drawn

    @Option(name: .customLong("fault"), help: ArgumentHelp("Inject one fault in the first run (iOS: its family is turned on; \(NavigationSimulator.Fault.allCases.map(\.rawValue).joined(separator: "|")); Android: \(AndroidSimulator.Fault.allCases.map(\.rawValue).joined(separator: "|"))).",
                               valueName: "fault"),
            transform: { name in
                let ios = NavigationSimulator.Fault.allCases.map(\.rawValue)
                let names = ios + AndroidSimulator.Fault.allCases.map(\.rawValue).filter { !ios.contains($0) }
                return try choice(names.contains(name) ? name : nil, name, names)
            })
    var faultName: String?
    /// The iOS fault named by --fault.
    var fault: NavigationSimulator.Fault? { platform == .ios ? faultName.flatMap(NavigationSimulator.Fault.init(rawValue:)) : nil }

    @Option(help: ArgumentHelp("Comma-separated families of legal flows to add.",
                               valueName: NavigationSimulator.Family.allCases.map(\.rawValue).joined(separator: ",")),
            transform: { value in
                var set: Set<NavigationSimulator.Family> = []
                for name in value.split(separator: ",", omittingEmptySubsequences: false) {
                    set.insert(try choice(NavigationSimulator.Family(rawValue: String(name)), String(name), NavigationSimulator.Family.allCases.map(\.rawValue)))
                }
                return set
            })
    var families: Set<NavigationSimulator.Family> = []

    @Flag(help: "Screens own objects that log init and deinit (view models, VIPER modules, coordinators, helpers, app-lifetime services); leaked-object and late-object-release turn it on.")
    var objects = false

    @Option(help: "App sessions (launches) per run.")
    var sessions = 2

    @Option(help: "Navigation steps per session.")
    var steps = 30

    @Option(help: "Noise lines per lifecycle line, on average (15 gives about 94 % noise).")
    var noise = 2.0

    @Option(help: "The share of noise lines that mention a callback name without being one (analytics, routing).")
    var mentionRate = 0.25

    @Option(name: .customLong("memory-warnings"), help: "The share of navigation steps that are a memory warning (iOS; default 0.08).")
    var memoryWarningsOption: Double?
    var memoryWarnings: Double { memoryWarningsOption ?? 0.08 }

    @Option(help: ArgumentHelp("Android: how callbacks are worded (default: drawn from --seed).", valueName: AndroidSimulator.Wording.allCases.map(\.rawValue).joined(separator: "|")),
            transform: { try choice(AndroidSimulator.Wording(rawValue: $0), $0, AndroidSimulator.Wording.allCases.map(\.rawValue)) })
    var wording: AndroidSimulator.Wording?

    @Flag(help: "Android: LeakCanary's watches, retained counts and heap analyses (a leak fault turns it on).")
    var leakcanary = false

    @Option(help: ArgumentHelp("Repeat runs until this many bytes are written (1e9 is accepted).", valueName: "bytes"),
            transform: { value in
                guard let d = Double(value), d >= 0, d < 1e15 else { throw ValidationError("bad size \(value)") }
                return Int(d)
            })
    var size = 0

    @Option(help: ArgumentHelp("Write the expected findings of the injected fault here (`RULE LINE` per line).", valueName: "file"))
    var truth: String?

    /// The largest `--size` of a `bare` capture (its one run is built in memory before it is written).
    static let bareSizeLimit = 256 << 20

    func validate() throws {
        if sessions < 1 { throw ValidationError("--sessions must be 1 or more") }
        if steps < 0 { throw ValidationError("--steps must be 0 or more") }
        for (name, v) in [("--noise", noise), ("--mention-rate", mentionRate), ("--memory-warnings", memoryWarnings)] where !(v >= 0) || !v.isFinite {
            throw ValidationError("\(name) must be a number 0 or more")
        }
        if mentionRate > 1 || memoryWarnings > 1 { throw ValidationError("--mention-rate and --memory-warnings are shares between 0 and 1") }
        if dialect == .mixed, freeFormStyle == .redacted {
            throw ValidationError("--free-form-style redacted words a whole capture's labels <private>: not with --dialect mixed")
        }
        switch platform {
        case .ios:
            if case .logcat(let f) = envelope {
                throw ValidationError("--envelope \(f.rawValue) is an Android logcat format: use --platform android, or one of \(EnvelopeFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let faultName, NavigationSimulator.Fault(rawValue: faultName) == nil {
                throw ValidationError("--fault \(faultName) is an Android fault: use --platform android, or one of \(NavigationSimulator.Fault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if wording != nil || leakcanary { throw ValidationError("--wording and --leakcanary are Android's: use --platform android") }
        case .android:
            if case .apple(let e) = envelope, e != .logcat {
                throw ValidationError("--envelope \(e.rawValue) is an iOS envelope: with --platform android use one of \(AndroidSimulator.Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let faultName, AndroidSimulator.Fault(rawValue: faultName) == nil {
                throw ValidationError("--fault \(faultName) is an iOS fault: with --platform android use one of \(AndroidSimulator.Fault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if dialectOption != nil || styleSeed != nil || freeFormStyle != .drawn || !families.isEmpty || objects || memoryWarningsOption != nil {
                throw ValidationError("--dialect, --style-seed, --free-form-style, --families, --objects and --memory-warnings are iOS's: not with --platform android")
            }
        }
    }

    func run() throws {
        if platform == .android { return try runAndroid() }
        var options = NavigationSimulator.Options(seed: seed)
        if case .apple(let e) = envelope { options.envelope = e }
        let envelope = options.envelope
        options.dialect = dialect.forRun(0)
        options.fault = fault
        options.families = families
        options.objects = objects || fault?.needsObjects == true  // in every run of the capture
        options.sessions = sessions
        options.steps = steps
        options.noise = noise
        options.mentionRate = mentionRate
        options.memoryWarningRate = memoryWarnings
        // A fault's family stays on in every run of the capture (one app build, one behaviour).
        if let family = fault?.family { options.families.insert(family) }
        if dialect.uses(.freeForm) {
            var rng = SplitMix64(seed: styleSeed ?? seed ^ 0x5EED_F00D)
            let style = freeFormStyle.apply(to: FreeFormStyle.random(&rng))
            options.style = style
            Self.write("vclint-loggen: free-form style: \(style)\n", to: 2)
        }

        if envelope == .bare, size > 0 {
            // print() output has no pid: runs written one after the other would read as one session in
            // which the new launch's controllers meet the old one's, a flow no reader can decide. One
            // run of one session instead, with as many steps as the size takes (measured on a first run).
            guard size <= Self.bareSizeLimit else {
                throw ValidationError("--size with --envelope bare writes one run held in memory: at most \(Self.bareSizeLimit) bytes")
            }
            let probe = NavigationSimulator.generate(options).text.utf8.count
            if probe < size, options.steps > 0 {
                options.steps = Int((Double(options.steps) * Double(size) / Double(max(probe, 1)) * 1.05).rounded(.up))
            }
        }

        var written = 0
        var expected = ""
        var lineOffset = 0
        var runs = 0
        repeat {
            let out = NavigationSimulator.generate(options)
            let text = out.text
            guard Self.write(text, to: 1) else { throw ExitCode(1) }
            written += text.utf8.count
            if dialect == .one(.freeForm), freeFormStyle == .redacted {
                // No statement names its controller: the capture's one finding says so.
                if expected.isEmpty, let first = out.lines.firstIndex(where: { $0.contains("<private>") }) {
                    expected = "redacted_labels \(first + 1 + lineOffset)\n"
                }
            } else {
                for e in out.expected { expected += "\(e.rule) \(e.line + lineOffset)\n" }
            }
            lineOffset += out.lines.count
            options.seed &+= 1
            // The next run is a relaunch of the app: later clock, new pid.
            options.startTime = out.endTime + 60
            options.firstPID = out.nextPID
            options.logsInit = out.logsInit
            options.logsDealloc = out.logsDealloc
            options.fault = nil  // one fault per file
            runs += 1
            options.dialect = dialect.forRun(runs)
        } while written < size && envelope != .bare

        try writeTruth(expected)
    }

    /// `--platform android`: runs of `AndroidSimulator` (a new pid each) until `--size` bytes are written; a capture
    /// without pids (`tag`) is one run, made longer by more steps.
    func runAndroid() throws {
        var options = AndroidSimulator.Options(seed: seed)
        if case .logcat(let f) = envelope { options.format = f }
        options.wording = wording
        options.launches = sessions
        options.steps = steps
        options.noise = noise
        options.mentionRate = mentionRate
        options.leakCanary = leakcanary
        options.fault = faultName.flatMap(AndroidSimulator.Fault.init(rawValue:))
        if !options.format.hasPID, size > 0 {
            guard size <= Self.bareSizeLimit else {
                throw ValidationError("--size with --envelope tag writes one run held in memory: at most \(Self.bareSizeLimit) bytes")
            }
            // The steps a run of `size` bytes takes, measured (a run's length is not quite proportional to its steps).
            for _ in 0..<4 {
                let probe = AndroidSimulator.generate(options).text.utf8.count
                guard probe < size, options.steps > 0 else { break }
                options.steps = Int((Double(options.steps) * Double(size) / Double(max(probe, 1)) * 1.05).rounded(.up))
            }
        }
        var written = 0
        var expected = ""
        var lineOffset = 0
        repeat {
            let out = AndroidSimulator.generate(options)
            guard Self.write(out.text, to: 1) else { throw ExitCode(1) }
            written += out.text.utf8.count
            for e in out.expected { expected += "\(e.rule) \(e.line + lineOffset)\n" }
            lineOffset += out.lines.count
            options.seed &+= 1
            // The next run is a relaunch: later clock, new pid.
            options.startTime = out.endTime + 60
            options.firstPID = out.nextPID
            options.fault = nil  // one fault per file
        } while written < size && options.format.hasPID
        try writeTruth(expected)
    }

    func writeTruth(_ expected: String) throws {
        guard let truth else { return }
        guard let f = fopen(truth, "w") else { throw ValidationError("\(truth): cannot write") }
        fputs(expected, f)
        guard fclose(f) == 0 else { throw ValidationError("\(truth): cannot write") }
    }

    /// Writes all of `s` to a descriptor; false when it cannot (a closed pipe, a full disk).
    @discardableResult
    static func write(_ s: String, to fd: Int32) -> Bool {
        var s = s
        return s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = LibC.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                off += n
            }
            return true
        }
    }
}

enum Platform: String, CaseIterable {
    case ios, android
}

/// `--envelope`: an iOS envelope or an Android logcat format (`logcat`, iOS's logcat envelope, is `threadtime` on Android).
enum EnvelopeChoice: Equatable {
    case apple(EnvelopeFormat)
    case logcat(AndroidSimulator.Format)

    static let names = EnvelopeFormat.allCases.map(\.rawValue) + AndroidSimulator.Format.allCases.map(\.rawValue)

    init?(rawValue: String) {
        if let e = EnvelopeFormat(rawValue: rawValue) {
            self = .apple(e)
        } else if let f = AndroidSimulator.Format(rawValue: rawValue) {
            self = .logcat(f)
        } else {
            return nil
        }
    }
}

/// `--dialect`: one dialect for the whole capture, or `mixed`: the runs (relaunches) take the dialects in
/// turn, so one capture holds every dialect (the benchmark's dense capture, docs/performance.md).
enum DialectChoice: Equatable, CustomStringConvertible {
    case one(NavigationSimulator.Dialect)
    case mixed

    static let names = NavigationSimulator.Dialect.allCases.map(\.rawValue) + ["mixed"]

    init?(rawValue: String) {
        if rawValue == "mixed" {
            self = .mixed
        } else if let d = NavigationSimulator.Dialect(rawValue: rawValue) {
            self = .one(d)
        } else {
            return nil
        }
    }

    /// The dialect of the capture's run numbered `run` (0 first).
    func forRun(_ run: Int) -> NavigationSimulator.Dialect {
        switch self {
        case .one(let d): return d
        case .mixed:
            let all = NavigationSimulator.Dialect.allCases
            return all[all.index(all.startIndex, offsetBy: run % all.count)]
        }
    }

    var description: String {
        switch self {
        case .one(let d): return d.rawValue
        case .mixed: return "mixed"
        }
    }

    /// Whether some run is worded in `d`.
    func uses(_ d: NavigationSimulator.Dialect) -> Bool { self == .mixed || self == .one(d) }
}

/// A value of a fixed list, or an error that lists them.
func choice<T>(_ value: T?, _ text: String, _ names: [String]) throws -> T {
    guard let value else { throw ValidationError("unknown value '\(text)'; expected one of \(names.joined(separator: ", "))") }
    return value
}

// A bad option is exit 2, as for vclint itself (ArgumentParser's own code would be 64).
do {
    let command = try LogGen.parse()
    try command.run()
} catch {
    if LogGen.exitCode(for: error) == .validationFailure {
        LogGen.write(LogGen.fullMessage(for: error) + "\n", to: 2)
        exit(2)
    }
    LogGen.exit(withError: error)
}
