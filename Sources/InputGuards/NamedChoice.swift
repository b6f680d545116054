/// A setting that takes one of a closed set of names (a parameter's convention, method or unit):
/// decoded from its name, and a name outside the set refused with every name it may take, as a
/// configuration file shows it ("\"nope\" is not one of acf, psd, peak").
public protocol NamedChoice: RawRepresentable, CaseIterable, Decodable where RawValue == String {}

extension NamedChoice {
    /// The names, in declaration order, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(name)\" is not one of \(Self.names)"))
        }
        self = value
    }
}
