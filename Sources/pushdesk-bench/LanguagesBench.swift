import Foundation
import PushDeskCore

/// The languages rows' delivery (`pushdesk-bench add-languages STORE`): `bench-languages`,
/// a copy of the first service's largest delivery with 50 variants of about 3 KB each —
/// Latin, Cyrillic, Greek, Arabic and CJK texts (three bytes a character) — for the
/// composer's keystroke and language-switch rows and `preview --locale all` (docs/PERFORMANCE.md).
enum LanguagesBench {
    static let tags = [
        "de", "fr", "es", "it", "pt-BR", "pt-PT", "nl", "sv", "da", "nb", "fi", "pl", "cs", "sk", "hu", "ro", "bg",
        "el", "tr", "ru", "uk", "he", "ar", "hi", "th", "vi", "id", "ms", "ja", "ko", "zh-Hans", "zh-Hant",
        "zh-Hant-HK", "ca", "eu", "gl", "hr", "sr", "sl", "lt", "lv", "et", "is", "ga", "cy", "mt", "sq", "mk", "bs",
        "af",
    ]

    /// A phrase in the variant's script, repeated to about `bytes` bytes of UTF-8.
    static func text(_ tag: String, bytes: Int) -> String {
        let phrase: String
        switch tag.prefix(2) {
        case "zh": phrase = "夏天來了，週日前全部八折。"
        case "ja": phrase = "夏のセール、日曜日まで二割引。"
        case "ko": phrase = "여름 세일, 일요일까지 20% 할인. "
        case "ru", "uk", "bg", "sr", "mk": phrase = "Летняя распродажа до воскресенья. "
        case "el": phrase = "Καλοκαιρινές εκπτώσεις έως την Κυριακή. "
        case "ar": phrase = "تخفيضات الصيف حتى يوم الأحد. "
        case "he": phrase = "מבצע קיץ עד יום ראשון. "
        case "hi": phrase = "रविवार तक गर्मियों की सेल। "
        case "th": phrase = "ลดราคาฤดูร้อนถึงวันอาทิตย์ "
        default: phrase = "Summer sale (\(tag)): 20% off until Sunday. "
        }
        var out = ""
        while out.utf8.count + phrase.utf8.count <= bytes { out += phrase }
        return out
    }

    static func write(into store: Store) throws -> (Delivery, bytes: Int) {
        let snap = store.loadAll()
        guard let service = snap.services.first,
            var d = snap.deliveries.first(where: { $0.service == service.name && $0.ios.effectiveType == .alert })
        else {
            throw StoreError(file: "deliveries", "the first service has no alert delivery to copy", kind: .io)
        }
        d.name = "bench-languages"
        d.label = "Benchmark: 50 languages of about 3 KB"
        d.variants = tags.map { tag in
            DeliveryVariant(locale: tag, title: "Summer sale · \(tag)", body: text(tag, bytes: 2800))
        }
        try store.save(d)
        let bytes = PreviewEngine.largestPayload(delivery: d, service: service)?.bytes ?? 0
        return (d, bytes)
    }
}
