import Foundation
import PaywallCore

/// One presenter showing one language after another, so a snapshot matrix renders every
/// locale in one process and one web process.
extension PaywallPresenter {
    /// What is shown next is in `identifier`'s language: the runtime's strings, prices and
    /// dates, the page's `<html lang dir>`, `navigator.languages` and its windows' direction, and a
    /// `locale_fallback` when it has no table. Only between presentations: nothing may be on
    /// screen or preloaded.
    package func switchLocale(to identifier: String) throws {
        precondition(
            active.isEmpty && preloaded.isEmpty && customerCenterOnScreen == nil && preloadedCustomerCenter == nil,
            "switchLocale while something is shown or preloaded")
        (strings, context.locale) = try Self.localization(resources: resources, locale: identifier)
        runtime.setLanguages([locale.identifier])
        localeFallbackReported = false
    }
}
