import PushDeskCore

/// summer-sale's languages as docs/FORMATS.md's example writes them ("Languages"): German,
/// and Traditional Chinese with its own image. A test that needs other texts builds its own.
extension DeliveryVariant {
    public static let summerGerman = DeliveryVariant(
        locale: "de", title: "Der Sommer ist da", body: "Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.")
    public static let summerTraditionalChinese = DeliveryVariant(
        locale: "zh-Hant", title: "夏天來了", body: "週日前八折。",
        variables: [VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer-zh.jpg")])
}
