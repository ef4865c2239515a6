import Foundation

/// What every paywall's template variables are built from, shared by the pages of one
/// presenter: the products, the user's purchases and attributes, the runtime state, the
/// locale and the app's version. Read each time a page is sent its variables, so a purchase
/// or another user since the page loaded shows. The toolkit supplies the one fact only it
/// knows: the desktop's light or dark style.
@MainActor
package final class TemplateContext {
    /// The user's purchases; its catalog and user win over `catalog` and `userId`.
    package var purchases: Purchases?
    /// Products to show when there is no `purchases` (previews).
    package var catalog: Catalog?
    /// Install date, view counters and user attributes; nil keeps nothing between runs.
    package var state: RuntimeState?
    /// The user when there is no `purchases` (which has its own).
    package var userId = Purchases.anonymousUser
    /// The app's version, for `device.appVersion`.
    package var appVersion = ""
    /// The locale prices and dates are formatted in.
    package var locale: Locale
    /// The desktop's style, `light` or `dark`, asked each time variables are built.
    package var interfaceStyle: @MainActor () -> String

    package init(locale: Locale, interfaceStyle: @escaping @MainActor () -> String = { "light" }) {
        self.locale = locale
        self.interfaceStyle = interfaceStyle
    }

    /// Builds pages' variables from `runtime`: its purchases, runtime state, user and app version.
    package func attach(_ runtime: PaywallRuntime) {
        purchases = runtime.purchases
        state = runtime.state
        userId = runtime.userId
        appVersion = runtime.configuration.appVersion
    }

    /// The user the page is shown to.
    package var currentUser: String { purchases?.userId ?? userId }

    /// The products shown: the purchases' catalog, else the preview one.
    package var products: Catalog? { purchases?.catalog ?? catalog }

    /// This machine with the desktop's style and the app's version.
    package var device: DeviceInfo {
        DeviceInfo.current(interfaceStyle: interfaceStyle(), appVersion: appVersion)
    }

    /// The variables of one page: its slots, the runtime's texts in its language, its own
    /// string tables and its `params`.
    package func variables(
        slots: ProductSlots, strings: StringTable, bundleStrings: BundleStrings?,
        params: [String: JSONValue], now: Date = Date()
    ) -> TemplateVariables {
        TemplateVariables(
            slots: slots, catalog: products, purchases: purchases, device: device, locale: locale, strings: strings,
            bundleStrings: bundleStrings, userId: currentUser,
            userAttributes: (try? state?.userAttributes(user: currentUser)) ?? [:], params: params,
            totalPaywallViews: state?.totalPaywallViews ?? 0, installedAt: state?.installedAt ?? now,
            lastPaywallViewAt: state?.lastPaywallViewAt, now: now)
    }
}
