import ArgumentParser
import VCLintCore

/// The options of the settings table: `--FLAG VALUE` for every setting that declares a flag
/// (`Setting.flagged`), its name and help from the setting's row, its value read by the setting's own
/// kind, the reader `.vclint.yml` uses, and landing where the key lands. A new flag is its `Setting` row.
///
/// ArgumentParser finds a command's options by reflecting an empty instance (`Mirror`), one property
/// wrapper a property, and decodes each under its property's name. A table has no property per row,
/// so the mirror lists one `Option` per flagged setting, labelled with the setting's key, and
/// `init(from:)` decodes each under that key: to ArgumentParser they are options like any other
/// (usage, `--help`, `--experimental-dump-help`, its checks of duplicate names).
struct SettingFlags: ParsableArguments, CustomReflectable {
    /// The text each given flag had, by setting key.
    private var given: [String: String] = [:]

    init() {}

    var customMirror: Mirror {
        Mirror(self, children: Setting.flagged.map { s -> Mirror.Child in
            // The text: ArgumentParser read `-1` after an option as an option of its own (.unconditional
            // takes it as the value), and the setting's kind says what it allows (`validate`).
            (label: s.key, value: Option<String?>(name: .customLong(s.flag!), parsing: .unconditional,
                                                  help: ArgumentHelp(s.flagHelp, valueName: s.flag!)))
        })
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let flags = try decoder.container(keyedBy: Key.self)
        for s in Setting.flagged {
            if let text = try flags.decode(Option<String?>.self, forKey: Key(stringValue: s.key)).wrappedValue { given[s.key] = text }
        }
    }

    /// The flags given, as they are spelled (`--leak-grace-seconds`), in the table's order.
    var givenOptions: [String] { settings.map(\.setting.option) }

    private var settings: [(setting: Setting, text: String)] {
        Setting.flagged.compactMap { s in given[s.key].map { (s, $0) } }
    }

    func validate() throws {
        for (s, text) in settings {
            do { try s.checkArgument(text) } catch { throw ValidationError(error.description) }
        }
    }

    /// The flags' values over what the configuration set (`validate()` has checked them).
    func apply(to options: inout LintOptions) {
        for (s, text) in settings { try! s.apply(argument: text, to: &options) }
    }
}
