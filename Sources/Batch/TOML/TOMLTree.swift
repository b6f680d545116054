/// The tables of a TOML document while it is read, with what TOML 1.0 needs to know to refuse a
/// table defined twice (docs/batch.md, "Batch configuration"): whether a header named it, and in
/// which section dotted keys created or extended it. Inline tables and arrays are finished values
/// (`.value`): nothing may add to them.
final class TOMLTreeTable {
    enum Entry {
        case value(TOMLValue)
        case table(TOMLTreeTable)
        /// An array of tables (`[[name]]`): headers and keys go into its last table.
        case tables([TOMLTreeTable])
    }

    private(set) var keys: [String] = []
    private(set) var entries: [String: Entry] = [:]
    /// A `[header]` or `[[header]]` named this table.
    var headerDefined = false
    /// The section (counted at each header) whose dotted keys created or last extended this table.
    var dottedSection: Int?

    subscript(key: String) -> Entry? {
        get { entries[key] }
        set {
            if entries[key] == nil { keys.append(key) }
            entries[key] = newValue
        }
    }

    /// The finished table.
    var value: TOMLTable {
        var table = TOMLTable()
        for key in keys {
            switch entries[key]! {
            case .value(let value): table.append(key, value)
            case .table(let nested): table.append(key, .table(nested.value))
            case .tables(let list): table.append(key, .array(list.map { .table($0.value) }))
            }
        }
        return table
    }
}
