import Foundation

/// A registration as the Campaign Classic SDKs post it to `registerIOS.jssp` or
/// `registerAndroid.jssp` (docs/LISTEN.md): the form's fields, unknown ones kept and ignored.
public struct Registration: Equatable, Sendable {
    /// The platform the path names (`registerIOS.jssp` → iOS).
    public var platform: Platform
    public var fields: [String: String]

    public var token: String? { fields["registrationToken"] }
    public var integrationKey: String? { fields["mobileAppUuid"] }
    public var userKey: String? { fields["userKey"] }
    public var deviceName: String? { fields["deviceName"] }
    /// The device's language as the SDK sends it (`en-US`, `zh-Hans-CN`, `en_US`), as sent.
    public var osLanguage: String? { fields["osLanguage"] }
    /// `osLanguage` as a locale tag (docs/FORMATS.md, "Languages"): nil when absent or no tag.
    public var locale: LocaleTag? { osLanguage.flatMap(LocaleTag.init) }
    public var additionalParams: String? { fields["additionalParams"] }

    /// The form's fields, the first of a repeated name winning (as a form reader does).
    public init(platform: Platform, pairs: [(name: String, value: String)]) {
        self.platform = platform
        var f: [String: String] = [:]
        for (n, v) in pairs where f[n] == nil { f[n] = v }
        fields = f
    }
}

/// `additionalParams`: `<additionalParams>` (iOS) or `<additionalParameters>` (Android)
/// holding `<param name="N" value="V"/>`, read by the store's hardened XML reader (no DTD,
/// only the predefined entities and character references; docs/LISTEN.md).
public enum AdditionalParams {
    /// A registration's parameters beyond this are not a device's but an attack.
    public static let maxParams = 500
    public static let rootNames = ["additionalParams", "additionalParameters"]

    /// Name → value in document order; throws a message saying what is wrong and where.
    public static func parse(_ text: String) throws -> [(name: String, value: String)] {
        let node: XMLNode
        do { node = try XMLReader.parse(Data(text.utf8), file: "additionalParams") } catch let e as StoreError {
            let at = e.line.map { " at line \($0)\(e.column.map { ", column \($0)" } ?? "")" } ?? ""
            throw ParamsError(message: "additionalParams is not well-formed XML\(at): \(e.message)")
        }
        guard rootNames.contains(node.name) else {
            throw ParamsError(
                message:
                    "additionalParams holds <\(Escape.inline(node.name))>; the SDKs send <additionalParams> (iOS) or <additionalParameters> (Android)"
            )
        }
        guard node.children.count <= maxParams else {
            throw ParamsError(
                message: "additionalParams holds \(node.children.count) elements; at most \(maxParams) are read")
        }
        var out: [(name: String, value: String)] = []
        for child in node.children {
            guard child.name == "param", let name = child.attribute("name"), let value = child.attribute("value")
            else {
                throw ParamsError(
                    message:
                        "additionalParams line \(child.line): each element must be <param name=\"N\" value=\"V\"/>, not <\(Escape.inline(child.name))>"
                )
            }
            out.append((name, value))
        }
        return out
    }

    public struct ParamsError: Error, Sendable {
        public var message: String
    }
}
