import Foundation

/// Computes what the page draws: a JSON screen model of sections of rows, banners and an
/// optional dialog, all texts localized. The page (`web/customer-center`) only renders it.
package struct CustomerCenterScreen {
    package var configuration: CustomerCenterConfiguration
    package var rows: [CustomerCenterPurchase]
    package var capabilities: StoreCapabilities
    package var catalog: Catalog?
    package var strings: StringTable
    package var locale: Locale
    package var now: Date
    package var presentation: PresentationStyle
    package var isDark: Bool
    package var userId: String
    /// When the app first ran (account details).
    package var installedAt: Date?
    package var appVersion: String
    /// The latest published version, when known (the update banner).
    package var latestVersion: String?
    /// The license keys on this machine (a license-key store's), each a row of its own.
    package var licenses: [LicenseStatus] = []
    /// Where license subscriptions are managed (the catalog's `customer_portal_url`).
    package var customerPortalURL: URL?

    /// Nothing to manage: no purchases and no license.
    private var isEmpty: Bool { rows.isEmpty && licenses.isEmpty }

    /// `management` when there is something to manage, else `no_purchases`.
    package var homeName: String { isEmpty ? "no_purchases" : "management" }

    package func row(key: String) -> CustomerCenterPurchase? { rows.first { $0.key == key } }

    /// The model of the screen on top of `route`, with `dialog` and a progress overlay.
    package func model(route: [CustomerCenterRoute], dialog: CustomerCenterDialog?, busy: Bool) -> JSONValue {
        var m: [String: JSONValue]
        switch route.last ?? .home {
        case .home: m = isEmpty ? noPurchases() : management()
        case .detail(let key): m = detail(key)
        case .survey(let survey, let pending): m = self.survey(survey, pending: pending)
        case .plans(let key, let pathId, let ids): m = plans(key, pathId: pathId, productIds: ids)
        }
        if route.count > 1 { m["back"] = .string(strings.text("cc.back")) }
        if presentation == .sheet { m["close"] = .string(strings.text("cc.close")) }
        m["dark"] = .bool(isDark)
        m["lang"] = .string(strings.textLanguage)
        m["rtl"] = .bool(strings.isRightToLeft)
        if let accent = configuration.appearance.accent {
            m["accent"] = ["light": .string(accent.light), "dark": .string(accent.dark)]
        }
        if busy { m["busy"] = .string(strings.text("progress.label")) }
        if let dialog { m["dialog"] = Self.json(dialog) }
        return .object(m)
    }

    // MARK: Screens

    private func management() -> [String: JSONValue] {
        let screen = configuration.managementScreen
        var sections: [JSONValue] = []
        if !licenses.isEmpty { sections.append(section(strings.text("cc.section.licenses"), licenses.flatMap(licenseRows))) }
        // A license's purchase is its license row, not a second row.
        let rows =
            licenses.isEmpty
            ? self.rows : self.rows.filter { !$0.isLicense }
        let owned = rows.filter { $0.kind != .oneTime }
        if !owned.isEmpty { sections.append(section(strings.text("cc.section.subscriptions"), owned.map(purchaseRow))) }
        let cards = rows.filter { $0.kind == .oneTime }
        if !cards.isEmpty { sections.append(section(strings.text("cc.section.purchases"), cards.map(purchaseRow))) }
        let paths = CustomerCenterRules.screenPaths(screen, support: configuration.support)
        if !paths.isEmpty { sections.append(section(nil, paths.map { pathRow($0, purchase: nil) })) }
        if configuration.showsAccountDetails { sections.append(account()) }
        var banners: [JSONValue] = []
        if configuration.warnsAboutDuplicateSubscriptions, CustomerCenterRules.hasDuplicateSubscriptions(rows) {
            banners.append(["kind": "duplicate", "text": .string(strings.text("cc.banner.duplicate"))])
        }
        if configuration.support.shouldWarnToUpdate, UpdateCheck.isOutdated(installed: appVersion, latest: latestVersion) {
            banners.append([
                "kind": "update", "text": .string(strings.text("cc.banner.update", ["version": latestVersion ?? ""])),
            ])
        }
        return [
            "screen": "management", "title": .string(screen.title ?? strings.text("cc.management.title")),
            "subtitle": screen.subtitle.map(JSONValue.string) ?? .null, "banners": .array(banners), "sections": .array(sections),
        ]
    }

    private func noPurchases() -> [String: JSONValue] {
        let screen = configuration.noPurchasesScreen
        var sections: [JSONValue] = []
        let paths = CustomerCenterRules.screenPaths(screen, support: configuration.support)
        if !paths.isEmpty { sections.append(section(nil, paths.map { pathRow($0, purchase: nil) })) }
        if configuration.showsAccountDetails { sections.append(account()) }
        return [
            "screen": "no_purchases", "title": .string(screen.title ?? strings.text("cc.no_purchases.title")),
            "subtitle": .string(screen.subtitle ?? strings.text("cc.no_purchases.subtitle")), "banners": [],
            "sections": .array(sections),
        ]
    }

    private func detail(_ key: String) -> [String: JSONValue] {
        guard let purchase = row(key: key) else {
            // Gone since it was opened (refunded away, another user): say so rather than show stale data.
            return [
                "screen": "detail", "title": .string(strings.text("cc.management.title")), "banners": [], "sections": [],
                "message": .string(strings.text("cc.detail.nothing")),
            ]
        }
        var info: [JSONValue] = [
            [
                "kind": "info", "title": .string(strings.text("cc.detail.status")),
                "detail": .string(statusText(purchase)),
            ]
        ]
        if let price = priceText(purchase) {
            info.append(["kind": "info", "title": .string(strings.text("cc.detail.price")), "detail": .string(price)])
        }
        if let started = purchase.originalPurchaseDate {
            info.append(["kind": "info", "title": .string(strings.text("cc.detail.since")), "detail": .string(date(started))])
        }
        var m: [String: JSONValue] = [
            "screen": "detail", "title": .string(purchase.title ?? strings.text("cc.untitled")),
            "badge": CustomerCenterRules.badgeKey(for: purchase.store).map { .string(strings.text($0)) } ?? .null,
            "product_id": purchase.productId.map(JSONValue.string) ?? .null, "banners": [],
        ]
        let paths = CustomerCenterRules.detailPaths(
            configuration.managementScreen, for: purchase, capabilities: capabilities, catalog: catalog,
            webManagementURL: configuration.support.webManagementURL, now: now)
        var sections = [section(nil, info)]
        if paths.isEmpty {
            m["message"] = .string(
                strings.text(CustomerCenterRules.nothingToManageKey(for: purchase, capabilities: capabilities)))
        } else {
            sections.append(
                section(
                    nil,
                    paths.map { path, resolution in
                        var row = pathRow(path, purchase: purchase)
                        if resolution == .receiptLink, case .object(var o) = row {
                            o["subtitle"] = .string(strings.text("cc.manage.receipt"))
                            row = .object(o)
                        }
                        return row
                    }))
        }
        m["sections"] = .array(sections)
        return m
    }

    private func survey(_ survey: CustomerCenterConfiguration.Survey, pending: CustomerCenterRoute.PendingAction) -> [String:
        JSONValue]
    {
        let title =
            survey.title
            ?? strings.text(
                survey.id == CustomerCenterConfiguration.cancellationSurvey.id
                    ? "cc.survey.cancel.title" : "cc.survey.title")
        let options: [JSONValue] = survey.options.map { option in
            [
                "kind": "option", "title": .string(optionTitle(option)), "option_id": .string(option.id),
                "path_id": .string(pending.path.id),
            ]
        }
        return [
            "screen": "survey", "title": .string(title), "survey_id": .string(survey.id), "banners": [],
            "sections": [section(nil, options)],
        ]
    }

    /// A survey option's title: the configured one, the built-in translation, else its id.
    func optionTitle(_ option: CustomerCenterConfiguration.Survey.Option) -> String {
        if let title = option.title { return title }
        let key = "cc.survey.option.\(option.id)"
        let text = strings.text(key)
        return text == key ? option.id : text
    }

    private func plans(_ key: String, pathId: String, productIds: [String]?) -> [String: JSONValue] {
        guard let purchase = row(key: key) else { return detail(key) }
        let choices = CustomerCenterRules.planChoices(for: purchase, productIds: productIds, catalog: catalog)
        var rows: [JSONValue] = []
        if let current = purchase.product {
            rows.append([
                "kind": "plan", "title": .string(current.displayName), "subtitle": .string(planPrice(current) ?? ""),
                "detail": .string(strings.text("cc.plans.current")), "disabled": true,
                "product_id": .string(current.id), "path_id": .string(pathId),
            ])
        }
        for product in choices {
            rows.append([
                "kind": "plan", "title": .string(product.displayName), "subtitle": .string(planPrice(product) ?? ""),
                "product_id": .string(product.id), "path_id": .string(pathId),
            ])
        }
        return [
            "screen": "plans", "title": .string(strings.text("cc.plans.title")), "banners": [],
            "subtitle": .string(strings.text("cc.plans.subtitle")), "sections": [section(nil, rows)],
        ]
    }

    // MARK: Rows

    private func section(_ title: String?, _ rows: [JSONValue]) -> JSONValue {
        ["title": title.map(JSONValue.string) ?? .null, "rows": .array(rows)]
    }

    private func account() -> JSONValue {
        var rows: [JSONValue] = [
            [
                "kind": "info", "title": .string(strings.text("cc.account.user_id")),
                "detail": .string(userId), "selectable": true,
            ]
        ]
        if let installedAt {
            rows.append([
                "kind": "info", "title": .string(strings.text("cc.account.first_seen")), "detail": .string(date(installedAt)),
            ])
        }
        return section(strings.text("cc.section.account"), rows)
    }

    private func purchaseRow(_ p: CustomerCenterPurchase) -> JSONValue {
        var row: [String: JSONValue] = [
            "kind": .string(p.kind == .oneTime ? "card" : "purchase"),
            "title": .string(p.title ?? strings.text("cc.untitled")), "subtitle": .string(statusText(p)),
            "active": .bool(p.isActive),
        ]
        if let price = priceText(p) { row["detail"] = .string(price) }
        if let badge = CustomerCenterRules.badgeKey(for: p.store) { row["badge"] = .string(strings.text(badge)) }
        if let id = p.productId { row["product_id"] = .string(id) }
        if let id = p.entitlementId { row["entitlement_id"] = .string(id) }
        row["purchase_key"] = .string(p.key)
        if p.kind != .oneTime { row["path_id"] = .string(Self.detailPathId) }
        return .object(row)
    }

    /// The `data-path-id` of a row that opens a purchase's detail screen.
    package static let detailPathId = "detail"
    /// The `data-path-id`s of a license's "Deactivate this device" and "Manage subscription".
    package static let deactivateLicensePathId = "license.deactivate"
    package static let manageLicensePathId = "license.manage"

    /// A license (its masked key, where it stands, its activations, the Web badge), then
    /// "Deactivate this device" and, with a customer portal, "Manage subscription".
    private func licenseRows(_ license: LicenseStatus) -> [JSONValue] {
        let product = catalog?.product(id: license.productId)
        let usage = String(license.activationUsage)
        let activations =
            license.activationLimit.map { strings.text("cc.license.activations", ["usage": usage, "limit": String($0)]) }
            ?? strings.text("cc.license.activations_unlimited", ["usage": usage])
        var rows: [JSONValue] = [
            [
                "kind": "license", "title": .string(product?.displayName ?? license.productName ?? strings.text("cc.untitled")),
                "subtitle": .string(licenseStatusText(license)), "active": .bool(license.isActive),
                // A signed license has no activations to count: it is this machine's by its signature.
                "lines": .array(
                    [.string(strings.text("cc.license.key", ["key": license.maskedKey]))]
                        + (license.store == .signedLicense ? [] : [.string(activations)])),
                "badge": .string(strings.text("cc.badge.web")), "product_id": .string(license.productId),
                "license_key": .string(license.maskedKey), "reason": license.reason.map { .string($0.rawValue) } ?? .null,
            ]
        ]
        if license.deactivationUnsupported == nil {
            rows.append([
                "kind": "path", "title": .string(strings.text("cc.license.deactivate")), "destructive": true,
                "path_id": .string(Self.deactivateLicensePathId), "product_id": .string(license.productId),
            ])
        } else {
            // Said where the button would be, so nobody looks for it.
            rows.append([
                "kind": "note", "title": .string(strings.text("cc.license.no_deactivate")),
                "product_id": .string(license.productId),
            ])
        }
        if let portal = customerPortalURL {
            rows.append([
                "kind": "path", "title": .string(strings.text("cc.license.manage")), "path_id": .string(Self.manageLicensePathId),
                "product_id": .string(license.productId), "url": .string(portal.absoluteString),
            ])
        }
        return rows
    }

    /// Where a license stands, in one line: its expiry while it gives access, else why not.
    func licenseStatusText(_ license: LicenseStatus) -> String {
        switch license.reason {
        case nil:
            return license.expiresAt.map { strings.text("cc.status.expires", ["date": date($0)]) }
                ?? strings.text("cc.license.lifetime")
        case .expired:
            return license.expiresAt.map { strings.text("cc.status.expired", ["date": date($0)]) }
                ?? strings.text("cc.license.reason.expired")
        case .notValidated:
            return strings.text("cc.license.reason.not_validated", ["date": date(license.validatedAt)])
        case .disabled, .inactive, .notFound:
            return strings.text("cc.license.reason.\(license.reason!.rawValue)")
        }
    }

    private func pathRow(_ path: CustomerCenterConfiguration.Path, purchase: CustomerCenterPurchase?) -> JSONValue {
        var row: [String: JSONValue] = ["kind": "path", "title": .string(title(of: path)), "path_id": .string(path.id)]
        if let id = purchase?.productId { row["product_id"] = .string(id) }
        if let key = purchase?.key { row["purchase_key"] = .string(key) }
        if case .manageSubscription = path.type { row["destructive"] = true }
        if case .url(let url, _, _) = path.type { row["url"] = .string(url.absoluteString) }
        return .object(row)
    }

    /// The path's configured title, else its type's localized name.
    package func title(of path: CustomerCenterConfiguration.Path) -> String {
        if let title = path.title { return title }
        switch path.type {
        case .restore: return strings.text("cc.path.restore")
        case .manageSubscription: return strings.text("cc.path.manage_subscription")
        case .refund: return strings.text("cc.path.refund")
        case .changePlan: return strings.text("cc.path.change_plan")
        case .contactSupport: return strings.text("cc.path.contact_support")
        case .url(_, let title, _): return title
        case .custom(let identifier): return identifier
        }
    }

    // MARK: Texts

    func date(_ date: Date) -> String {
        Self.date(date, locale: locale)
    }

    /// A day as the customer center writes it (`Dec 30, 2026`, `30. Dez. 2026`).
    static func date(_ date: Date, locale: Locale) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted).locale(locale))
    }

    /// Where a purchase stands, in one line.
    func statusText(_ p: CustomerCenterPurchase) -> String {
        if p.isPending { return strings.text("cc.status.pending") }
        guard let t = p.latest else { return strings.text("cc.status.active") }
        if t.isRevoked { return strings.text("cc.status.refunded") }
        guard t.isSubscription else { return strings.text("cc.status.purchased", ["date": date(t.purchaseDate)]) }
        let until = t.expirationDate.map(date) ?? ""
        switch p.state {
        case .inGracePeriod:
            return strings.text("cc.status.billing_grace", ["date": t.gracePeriodEnd.map(date) ?? until])
        case .inBillingRetryPeriod:
            return strings.text("cc.status.billing_retry")
        case .expired, .revoked, nil:
            return strings.text("cc.status.expired", ["date": until])
        case .subscribed:
            if t.offerType == .trial {
                return strings.text(t.willRenew ? "cc.status.trial" : "cc.status.trial_ending", ["date": until])
            }
            return strings.text(
                t.willRenew && t.kind == .autoRenewable ? "cc.status.renews" : "cc.status.expires", ["date": until])
        }
    }

    private func priceText(_ p: CustomerCenterPurchase) -> String? {
        guard let product = p.product else { return nil }
        return product.price > 0 ? planPrice(product) : strings.text("cc.price.free")
    }

    private func planPrice(_ product: Product) -> String? {
        let attributes = ProductAttributes(product: product, locale: locale, strings: strings, isSubscribed: false, now: now)
            .values
        guard let price = attributes["price"]?.stringValue else { return nil }
        guard product.period != nil, let period = attributes["period"]?.stringValue else { return price }
        return strings.text("cc.price.period", ["price": price, "period": period])
    }

    static func json(_ dialog: CustomerCenterDialog) -> JSONValue {
        [
            "title": .string(dialog.title), "message": .string(dialog.message),
            "copy": dialog.copyableText.map(JSONValue.string) ?? .null,
            "buttons": .array(
                dialog.buttons.map { b in
                    [
                        "action": .string(b.action), "label": .string(b.label), "primary": .bool(b.isPrimary),
                        "destructive": .bool(b.isDestructive),
                    ]
                }),
        ]
    }
}
