/// A sample recipient used to personalize previews: `profiles/<name>.xml`,
/// `<recipient firstName="Ana" lastName="Silva" email="ana@example.com"/>`.
public struct Profile: Equatable, Sendable {
    public var name: String
    /// Field name → value, in file order.
    public var fields: [(name: String, value: String)]

    public init(name: String, fields: [(name: String, value: String)] = []) {
        self.name = name
        self.fields = fields
    }

    public func value(of field: String) -> String? {
        fields.first { $0.name == field }?.value
    }

    public static func == (a: Profile, b: Profile) -> Bool {
        a.name == b.name && a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
