/// The `<ios>` and `<android>` attribute declarations of docs/schema/delivery.xsd, written
/// from the option tables; a test keeps the committed schema equal to them
/// (`PUSHDESK_UPDATE_DOCS=1` rewrites it). Numbers stay `xs:string`: the file keeps what was
/// written so the rules can report a bad value with its field.
public enum DeliverySchema {
    /// One `<xs:attribute>` per row, in the file's attribute order, indented by `indent` spaces.
    public static func attributes<R>(_ table: [FieldDefinition<R>], indent: Int = 12) -> String {
        let pad = String(repeating: " ", count: indent)
        var out = ""
        for o in table {
            switch o.kind {
            case .text, .path, .secret, .number: out += "\(pad)<xs:attribute name=\"\(o.name)\" type=\"xs:string\"/>\n"
            case .flag, .bool: out += "\(pad)<xs:attribute name=\"\(o.name)\" type=\"bool\"/>\n"
            case .choice(let values, _):
                out += "\(pad)<xs:attribute name=\"\(o.name)\">\n"
                out += "\(pad)  <xs:simpleType>\n"
                out += "\(pad)    <xs:restriction base=\"xs:string\">\n"
                for v in values { out += "\(pad)      <xs:enumeration value=\"\(v)\"/>\n" }
                out += "\(pad)    </xs:restriction>\n"
                out += "\(pad)  </xs:simpleType>\n"
                out += "\(pad)</xs:attribute>\n"
            }
        }
        return out
    }

    /// `xsd` with the attributes of `<element>` (`ios`, `liveActivity`, `android`) replaced by
    /// the table's; its child elements (declared before the attributes) stay as written. nil
    /// when the schema has no such element.
    public static func replacingAttributes<R>(in xsd: String, element: String, _ table: [FieldDefinition<R>])
        -> String?
    {
        let open = "        <xs:element name=\"\(element)\" minOccurs=\"0\">\n          <xs:complexType>\n"
        let close = "          </xs:complexType>\n"
        guard let start = xsd.range(of: open), let end = xsd.range(of: close, range: start.upperBound..<xsd.endIndex)
        else { return nil }
        let first = xsd.range(of: "            <xs:attribute ", range: start.upperBound..<end.lowerBound)
        return xsd.replacingCharacters(
            in: (first?.lowerBound ?? end.lowerBound)..<end.lowerBound, with: attributes(table))
    }
}
