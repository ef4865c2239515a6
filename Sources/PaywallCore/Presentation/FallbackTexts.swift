import Foundation

/// The texts of the runtime's fallback paywall (`web/fallback`) in the user's language, sent
/// to it after its ping as the event `fallback_texts` (ours).
enum FallbackTexts {
    static func event(_ strings: StringTable) -> JSONValue {
        [
            "event_name": "fallback_texts",
            "title": .string(strings.text("fallback.title")),
            "restore": .string(strings.text("cc.path.restore")),
            "close": .string(strings.text("loading.close")),
            "one_time": .string(strings.text("fallback.one_time")),
            "lang": .string(strings.textLanguage),
            "rtl": .bool(strings.isRightToLeft),
        ]
    }
}
