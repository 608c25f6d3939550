import Foundation

/// The two layouts of a translators' file (docs/FORMATS.md, "Translators' files"). On
/// import the header decides which one a file is.
public enum VariantsCSVFormat: String, CaseIterable, Sendable {
    /// `locale,title,subtitle,body` and one `value:NAME` column per variable.
    case pushdesk
    /// Adobe Campaign Standard's 14 columns.
    case campaignStandard = "campaign-standard"

    /// `value:NAME`: a variable's column in the `pushdesk` format.
    static let valuePrefix = "value:"

    /// Campaign Standard's columns, in its order.
    enum CampaignColumn: String, CaseIterable {
        case title, messageBody, sound, badge, deeplinkURI, category, iosMediaAttachmentURL,
            androidMediaAttachmentURL, isContentAvailable, isMutableContent, customFields, locale, language,
            silentPush

        /// What PushDesk keeps per delivery, not per language: written the same on every row,
        /// and on import compared with that (`csv.per-delivery`).
        func perDelivery(_ d: Delivery) -> String? {
            switch self {
            case .sound: d.ios.sound ?? ""
            case .badge: d.ios.badge ?? ""
            case .category: d.ios.category ?? ""
            case .deeplinkURI, .iosMediaAttachmentURL, .androidMediaAttachmentURL: ""
            case .isContentAvailable: d.ios.contentAvailable == true ? "1" : "0"
            case .isMutableContent: d.ios.mutableContent == true ? "1" : "0"
            case .silentPush: d.ios.type == .silent ? "1" : "0"
            case .title, .messageBody, .customFields, .locale, .language: nil
            }
        }
    }

    /// The format a header row names: Campaign Standard's when it holds a column only that
    /// format has (names compared without regard to case), else PushDesk's.
    static func of(header: [String]) -> VariantsCSVFormat {
        let own = Set(CampaignColumn.allCases.map { $0.rawValue.lowercased() }).subtracting(["title", "locale"])
        return header.contains { own.contains($0.lowercased()) } ? .campaignStandard : .pushdesk
    }

    /// Campaign Standard's `locale` cell: lower case with `_` (`pt_br`, `zh_hant`).
    static func campaignLocale(_ tag: LocaleTag) -> String {
        tag.description.lowercased().replacingOccurrences(of: "-", with: "_")
    }
}
