import Foundation

/// The requests Adobe's open-source Campaign Classic SDKs send, byte for byte, rebuilt from
/// their request builders (adobe/aepsdk-campaignclassic-ios: CampaignClassicConstants,
/// RegistrationManager, Dictionary+XMLSerializer, String+Escaping, AEPServices' URLEncoder;
/// adobe/aepsdk-campaignclassic-android: CampaignClassicConstants, RegistrationManager,
/// CampaignClassicMapSerializer, TrackRequestManager, AEP core's UrlEncoder). Written from
/// reading them, not copied.
public enum CampaignSDK {
    public struct Request {
        public var method: String
        public var path: String
        public var headers: [(String, String)]
        public var body: [UInt8]

        public init(method: String, path: String, headers: [(String, String)], body: [UInt8]) {
            self.method = method
            self.path = path
            self.headers = headers
            self.body = body
        }

        /// The HTTP/1.1 bytes on the wire (the `host` header as the platform's client adds it).
        public func bytes(host: String) -> [UInt8] {
            var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
            for (n, v) in headers { head += "\(n): \(v)\r\n" }
            if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
            head += "\r\n"
            return Array(head.utf8) + body
        }
    }

    // MARK: iOS (AEPCampaignClassic)

    /// AEPServices' URLEncoder: Foundation's `alphanumerics` (any script's letters and digits,
    /// left unencoded — the raw UTF-8 the listener accepts, docs/LISTEN.md) and `-._~`.
    public static func iosEncode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// String+Escaping's escapedXML: line breaks dropped, then & " ' > < escaped.
    public static func iosEscapeXML(_ s: String) -> String {
        s.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#x27;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }

    /// Dictionary+XMLSerializer: sorted by name, `<param name="…" value="…" />`, then encoded whole.
    public static func iosAdditionalParams(_ params: [String: String]) -> String {
        let inner = params.sorted { $0.key < $1.key }.map {
            "<param name=\"\(iosEscapeXML($0.key))\" value=\"\(iosEscapeXML($0.value))\" />"
        }.joined()
        return iosEncode("<additionalParams>\(inner)</additionalParams>")
    }

    /// RegistrationManager.registerDevice: REGISTRATION_PAYLOAD_FORMAT with the device's
    /// values (UIDevice name, model, systemName; "Apple" twice; "iOS 17.4"; SystemInfoService's
    /// formatted locale, "en-US"). A nil `language` leaves `osLanguage` out, as a request an
    /// app builds itself may.
    public static func iosRegistration(
        token: String, integrationKey: String, userKey: String = "", deviceName: String = "Ana's iPhone",
        model: String = "iPhone", osVersion: String = "iOS 17.4", language: String? = "en-US",
        params: [String: String] = [:]
    ) -> Request {
        let osLanguage = language.map { "&osLanguage=\(iosEncode($0))" } ?? ""
        let body =
            "registrationToken=\(iosEncode(token))&mobileAppUuid=\(iosEncode(integrationKey))&userKey=\(iosEncode(userKey))&deviceName=\(iosEncode(deviceName))&deviceModel=\(iosEncode(model))&deviceBrand=Apple&deviceManufacturer=Apple&osName=iOS&osVersion=\(iosEncode(osVersion))\(osLanguage)&additionalParams="
            + iosAdditionalParams(params)
        return Request(
            method: "POST", path: "/nms/mobile/1/registerIOS.jssp",
            headers: [("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")], body: Array(body.utf8))
    }

    // MARK: Android (campaignclassic)

    /// AEP core's UrlEncoder: ASCII letters and digits and `-._~` kept, every other UTF-8
    /// byte as %XX (upper case).
    public static func androidEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            let keep =
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
                || b == 0x2E || b == 0x5F || b == 0x7E
            out += keep ? String(UnicodeScalar(b)) : String(format: "%%%02X", b)
        }
        return out
    }

    /// CampaignClassicMapSerializer.escapeXMLAttrString.
    public static func androidEscapeXML(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\r", "\n": break
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "&": out += "&amp;"
            default: out.append(c)
            }
        }
        return out
    }

    /// CampaignClassicMapSerializer.serializeMap: `<param name="…" value="…"/>` in the map's order.
    public static func androidAdditionalParameters(_ params: [(String, String)]) -> String {
        "<additionalParameters>"
            + params.map { "<param name=\"\(androidEscapeXML($0.0))\" value=\"\(androidEscapeXML($0.1))\"/>" }.joined()
            + "</additionalParameters>"
    }

    /// RegistrationManager.prepareRegistrationParams: REGISTER_PARAMS_FORMAT, every value
    /// through the UrlEncoder (deviceName is Build.DEVICE, deviceModel Build.MODEL, osLanguage
    /// the device's locale: `en_US` as Java's `Locale.toString()` writes it, or `en-US`). A nil
    /// `locale` leaves `osLanguage` out.
    public static func androidRegistration(
        token: String, integrationKey: String, userKey: String = "", imei: String = "2b3c4d5e6f708192",
        deviceName: String = "husky", model: String = "Pixel 8 Pro", brand: String = "google",
        manufacturer: String = "Google", osVersion: String = "Android 14", locale: String? = "en-US",
        params: [(String, String)] = []
    ) -> Request {
        let values: [String?] = [
            token, integrationKey, userKey, imei, deviceName, model, brand, manufacturer, "android", osVersion, locale,
            androidAdditionalParameters(params),
        ]
        let names = [
            "registrationToken", "mobileAppUuid", "userKey", "deviceImei", "deviceName", "deviceModel", "deviceBrand",
            "deviceManufacturer", "osName", "osVersion", "osLanguage", "additionalParams",
        ]
        let body = zip(names, values).compactMap { n, v in v.map { "\(n)=\(androidEncode($0))" } }
            .joined(separator: "&")
        return Request(
            method: "POST", path: "/nms/mobile/1/registerAndroid.jssp",
            headers: [("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")], body: Array(body.utf8))
    }

    // MARK: tracking (both)

    /// TRACKING_API_URL_BASE `https://%s/r/?id=h%s,%s,%s`: a UUID `_mId` as it is (v8), a
    /// decimal one as hex (v7); tag 1 received, 2 clicked. A GET without a body.
    public static func tracking(messageId: String, deliveryId: String, tag: Int) -> Request {
        let id: String
        if UUID(uuidString: messageId) != nil {
            id = messageId
        } else if let n = Int64(messageId) {
            id = String(format: "%llx", n)
        } else {
            id = messageId
        }
        return Request(method: "GET", path: "/r/?id=h\(id),\(deliveryId),\(tag)", headers: [], body: [])
    }
}
