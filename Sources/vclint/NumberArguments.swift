import ArgumentParser
import VCLintCore

/// Every number the command line takes, with the range it allows and the message that says so.
///
/// The options hold their text (`@Option(parsing: .unconditional)`): ArgumentParser reads `-1` after
/// an option as a flag of its own and said "Missing value", and a number that does not fit an Int
/// was "invalid" without saying what is allowed. Read as text, `--jobs -1`, `--jobs=-1` and
/// `--jobs 99999999999999999999` all get the same line: what the option allows, and what was given.
/// The flags of settings (`--leak-grace-seconds`) are read the same way, by their setting's kind
/// (`SettingFlags`).
enum NumberArgument {
    /// `--jobs`: more threads than this only cost memory (each holds a file's buffers).
    static let jobs = 1...1024
    /// `--width` and the terminal's width: below 40 the lanes' labels do not fit; above 1000 a line
    /// is wider than any screen, and the text grows with width × lanes (2147483647 aborted).
    static let width = 40...1000
    /// `--max-warnings`: any count.
    static let maxWarnings = 0...Int.max
    /// `--markdown-rows`: a table of no row says nothing (`all` is no bound but the size's).
    static let markdownRows = 1...Int.max

    /// A whole number within `range`, or a usage error that names the option and the range.
    static func whole(_ text: String, option: String, _ range: ClosedRange<Int>) throws(ValidationError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let n = Int(trimmed), range.contains(n) else {
            let allowed = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            throw ValidationError("\(option) must be a whole number \(allowed), not '\(text)'")
        }
        return n
    }

    /// The value of an option `validate()` has checked already: nil when it was not given.
    static func checked<T>(_ text: String?, _ parse: (String) throws -> T) -> T? {
        // validate() ran the same parse and threw on a bad value, so this one cannot fail.
        text.map { try! parse($0) }
    }

    /// The timeline's width when no --width is given: the terminal's, or COLUMNS, clamped to
    /// `width` without a word (a terminal, or COLUMNS=2147483647, wider than 1000 columns gets a
    /// 1000-column timeline; one narrower than 40 a 40-column one); 100 when neither says. 0 says
    /// nothing: it is what a terminal without a size reports (and COLUMNS=0 means the same).
    static func environmentWidth(_ columns: Int?) -> Int {
        guard let columns, columns > 0 else { return 100 }
        return min(max(columns, width.lowerBound), width.upperBound)
    }

    /// COLUMNS as a width: digits (a number too large for an Int is as wide as can be, so 1000);
    /// nil for anything else, `-1` included, which is no width at all.
    static func columns(_ text: String?) -> Int? {
        guard let t = text?.trimmingCharacters(in: .whitespaces), !t.isEmpty,
              t.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(t) ?? Int.max
    }
}
