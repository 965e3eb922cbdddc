import Yams

/// libyaml's errors in plain words, with where they are: `.vclint.yml:7:3: invalid YAML: this line
/// is not indented like the keys above it`, rather than the parser's first line.
enum YAMLWording {
    /// The problem in words a reader acts on, and its line and column (1-based) when known.
    static func explain(_ error: YamlError, _ yaml: String) -> (String, Position?) {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            return (words(problem, context: context?.text), Position(mark))
        case let .reader(problem, offset, _, _):
            let mark = offset.map { markOf(offset: $0, in: yaml) }
            if problem.contains("control characters") { return ("a control character that YAML does not allow", mark) }
            if problem.contains("UTF-8") || problem.contains("octet") { return ("the file is not UTF-8 text", mark) }
            return (problem, mark)
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            // Point at the second time the key is written, where the reader has to act.
            var at = Position(context.mark)
            if let key = duplicates.sorted().first {
                var seen = 0
                for (i, line) in yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where i + 1 >= at.line {
                    let body = line.drop { $0 == " " || $0 == "-" }
                    guard body.hasPrefix(key), body.dropFirst(key.count).drop(while: { $0 == " " }).first == ":" else { continue }
                    seen += 1
                    if seen == 2 { at = Position(line: i + 1, column: line.count - body.count + 1); break }
                }
            }
            return ("the key \(keys) appears twice in one mapping; keep one", at)
        default:
            return ("\(error)".split(separator: "\n").first.map(String.init) ?? "unreadable", nil)
        }
    }

    /// libyaml's problem (and what it was doing) → what is wrong, in the writer's terms.
    static func words(_ problem: String, context: String?) -> String {
        let c = context ?? ""
        switch problem {
        case "mapping values are not allowed in this context":
            return "a ':' where no mapping can start: quote a value that holds ': ', or check the indentation of the line above"
        case "did not find expected key":
            if c.contains("flow mapping") { return "a { } mapping is not closed, or its entries are not separated by commas" }
            return "this line is not indented like the keys above it (or the line above is not finished)"
        case "did not find expected '-' indicator":
            return "this line is not indented like the list items above it"
        case "found character that cannot start any token":
            return "a character that cannot start a value here (a tab, `, @ or %): indent with spaces, and quote such a value"
        case "found a tab character that violates indentation", "found a tab character where an indentation space is expected":
            return "a tab in the indentation: YAML indents with spaces"
        case "could not find expected ':'":
            return "a key without its ':', or a quoted or bracketed value that runs on from the line above"
        case "found unexpected end of stream":
            return c.contains("quoted") ? "a quoted string is not closed before the end of the file" : "the file ends in the middle of a value"
        case "did not find expected ',' or ']'":
            return "a [ ] list is not closed, or its items are not separated by commas"
        case "did not find expected ',' or '}'":
            return "a { } mapping is not closed, or its entries are not separated by commas"
        case "found unknown escape character":
            return "an unknown \\ escape in a double-quoted string: write patterns in single quotes ('^\\[Screen\\]')"
        case "block sequence entries are not allowed in this context":
            return "a list item ('- ') after a key that has a value on its own line already: leave the key's line empty after the ':'"
        case "did not find expected node content":
            return "a value is missing here"
        case "found undefined tag handle":
            return "an undefined tag (a value starting with !)"
        case "did not find expected <document start>", "found incompatible YAML document":
            return "text after the configuration's mapping (one mapping of keys per file)"
        case "found undefined alias":
            return "an alias (*name) with no anchor (&name) defined before it"
        case "found unexpected ':'":
            return "a ':' that does not follow a key: quote the value"
        default:
            return c.isEmpty ? problem : "\(problem) (\(c))"
        }
    }

    struct Position {
        var line: Int
        var column: Int
        init(line: Int, column: Int) { self.line = line; self.column = column }
        init(_ m: Mark) { line = m.line; column = m.column }
    }

    static func markOf(offset: Int, in yaml: String) -> Position {
        var line = 1, column = 1
        for (i, b) in yaml.utf8.enumerated() {
            if i >= offset { break }
            if b == .newline { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return Position(line: line, column: column)
    }

    /// Where a key (`late_dealloc`, `late_dealloc.severity`, `dialects[2].pattern`) is written:
    /// its top-level key's line, or the nested key's line below it when written in block style.
    static func line(ofKey key: String, in yaml: String) -> (line: Int, column: Int)? {
        let parts = key.split(separator: ".").map { $0.split(separator: "[").first.map(String.init) ?? String($0) }
        guard let top = parts.first else { return nil }
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        func keyAt(_ l: Substring, _ name: String) -> Int? {
            let body = l.drop { $0 == " " }
            for form in [name, "'\(name)'", "\"\(name)\""] where body.hasPrefix(form) {
                let rest = body.dropFirst(form.count).drop { $0 == " " }
                if rest.first == ":" { return l.count - body.count + 1 }
            }
            return nil
        }
        guard let start = lines.firstIndex(where: { !$0.hasPrefix(" ") && keyAt($0, top) == 1 }) else { return nil }
        if parts.count > 1 {
            var i = start + 1
            while i < lines.count, lines[i].hasPrefix(" ") || lines[i].isEmpty || lines[i].hasPrefix("#") {
                if let col = keyAt(lines[i], parts[1]), col > 1 { return (i + 1, col) }
                i += 1
            }
        }
        return (start + 1, 1)
    }
}
