import Foundation

/// Sells through license keys from merchants (Lemon Squeezy, Polar, Keygen, Gumroad) and
/// signed offline licenses: both the purchase controller and the transaction source of a
/// catalog with a license `"store"`. Each product sells through its merchant; a key that
/// comes with no product (the panel, a redeem link, a restore) is tried against the catalog's
/// merchants in catalog order, where "not found" moves on and any other answer stops, and a
/// signed license goes to `SignedLicenseProvider`. Each license is kept with its merchant, whose
/// provider then validates and deactivates it.
///
/// Buying opens the product's checkout in the browser (the app user id as checkout custom
/// data), asks the user for the key through the host's `LicenseKeyPrompt`, and activates it on
/// this machine; restoring asks for a key. Keys are kept in the data directory's
/// `licenses.sqlite` (0600) and belong to this machine, not to one app user.
///
/// Entitlements come from the last validation, cached, so a cold start has them at once and
/// offline. Validation refreshes in the background (at start when due, then every
/// `LicenseServices.refreshInterval`, and on demand with `refresh()`); without an answer an
/// active license stays active for `offline_grace_days` since the last successful
/// validation, then counts as expired with reason `not_validated` (`LicenseAccess` has the rules).
@MainActor
package final class LicenseKeyStore: PurchaseController, TransactionSource, SubscriptionManaging {
    package let catalog: Catalog
    package let settings: LicenseSettings
    /// One provider per merchant the catalog sells through, in catalog order.
    package private(set) var providers: [LicenseProvider]
    /// The time licenses are judged by: never earlier than the latest this data directory has
    /// seen, so setting the clock back neither revives an expired license nor stretches the
    /// offline grace.
    package let clock: LicenseClock
    package let events: EventDispatcher
    /// The host's "enter your license key" view; nil: buying and restoring fail with a message saying so.
    package var prompt: LicenseKeyPrompt?
    /// The app user checkouts are made for (`checkout[custom][user_id]`).
    package private(set) var userId = Purchases.anonymousUser
    /// Told when the licenses changed (an activation, validation or deactivation), so the
    /// runtime reads the transactions again.
    package var onChange: (@MainActor () -> Void)?

    private let services: LicenseServices
    private let db: LicenseDatabase
    private var refreshing: Task<Void, Never>?
    private var periodic: Task<Void, Never>?

    /// Times a purchase asks for a key that does not activate before it gives up.
    static let maxKeyAttempts = 5
    /// The longest key taken, in UTF-8 bytes: Lemon Squeezy's keys are 36 characters; 4 KB
    /// leaves room for signed keys. A longer one is refused before anything is asked.
    public nonisolated static let maxKeyBytes = 4096
    /// The longest signed license file taken (a Keygen license file with its included
    /// entitlements is a few KB; ours is under 1 KB), in bytes: a file chooser, a drop, a
    /// redeem link or `--license-file` larger than this is refused before it is read whole.
    public nonisolated static let maxLicenseFileBytes = 65_536

    /// Set when the database file was unusable and a new one was started.
    package var recovery: RecoveringDatabase.Recovery? { db.recovery }

    /// Opens (creating, 0600) the license database at `databasePath`. Nothing is asked of the
    /// network here: call `startRefreshing()` for the background validation.
    package init(
        catalog: Catalog, settings: LicenseSettings, databasePath: String, providers: [LicenseProvider],
        events: EventDispatcher, services: LicenseServices = LicenseServices()
    ) throws(SQLiteError) {
        self.catalog = catalog
        self.settings = settings
        self.providers = providers
        self.events = events
        self.services = services
        db = try LicenseDatabase(path: databasePath)
        clock = LicenseClock(database: db, real: services.now)
        // For readers without the catalog (`paywall status`).
        try? db.setValue("offline_grace_days", String(settings.offlineGraceDays))
    }

    /// The licenses kept at `databasePath` as they stand at `now`, read-only and without the
    /// catalog or the network (`paywall status`); none when there is no such file.
    package static func storedLicenses(databasePath: String, now: Date = Date()) throws -> [LicenseStatus] {
        guard FileManager.default.fileExists(atPath: databasePath) else { return [] }
        let db = try LicenseDatabase(path: databasePath, readOnly: true)
        let graceDays = Int(try db.value("offline_grace_days") ?? "") ?? LicenseSettings().offlineGraceDays
        // The store's clock guard, read only: a clock set back is the latest time seen.
        let now = max(now, LicenseClock.stored(in: db) ?? now)
        return try db.records().map { LicenseAccess(record: $0, graceDays: graceDays).status(at: now) }
    }

    /// The license store of a license-key catalog: each merchant's API at the catalog's URLs.
    package static func make(
        catalog: Catalog, settings: LicenseSettings, databasePath: String, events: EventDispatcher,
        services: LicenseServices
    ) throws -> LicenseKeyStore {
        let store = try LicenseKeyStore(
            catalog: catalog, settings: settings, databasePath: databasePath, providers: [], events: events, services: services)
        store.providers = try LicenseProviders.make(catalog: catalog, settings: settings, now: store.clock.now)
        return store
    }

    /// The provider answering for `store`'s licenses; nil when the catalog no longer sells through it.
    package func provider(for store: LicenseSettings.Provider) -> LicenseProvider? {
        providers.first { $0.store == store }
    }

    private func provider(of record: LicenseRecord) throws(LicenseError) -> LicenseProvider {
        guard let provider = provider(for: record.store) else {
            throw LicenseError(
                .unknownProduct,
                "license key \(LicenseKeyMask.mask(record.key.key)) is from \(record.store.displayName), which this app's "
                    + "catalog no longer sells through; add a product with \"store\": \"\(record.store.rawValue)\" back, "
                    + "or deactivate the license")
        }
        return provider
    }

    deinit {
        periodic?.cancel()
    }

    // MARK: The licenses

    /// Every license on this machine, as the customer center shows it, at the store's clock.
    package func licenses() throws -> [LicenseStatus] {
        let now = clock.now()
        return try db.records().map { access($0).status(at: now) }
    }

    private func access(_ record: LicenseRecord) -> LicenseAccess {
        LicenseAccess(record: record, graceDays: settings.offlineGraceDays)
    }

    /// Where the customer manages their subscription (the catalog's `customer_portal_url`).
    package var customerPortalURL: URL? { settings.customerPortalURL }

    /// `product`'s checkout, for Lemon Squeezy with the app user id as custom data (its
    /// documented `checkout[custom]`; other merchants' checkouts get the URL as written); nil
    /// without a `checkout_url`.
    package func checkoutURL(for product: Product) -> URL? {
        guard let url = product.checkoutURL, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return nil
        }
        guard (product.merchant?.store ?? settings.provider) == .lemonSqueezy else { return url }
        parts.queryItems =
            (parts.queryItems ?? []).filter { $0.name != "checkout[custom][user_id]" }
            + [URLQueryItem(name: "checkout[custom][user_id]", value: userId)]
        // URLComponents leaves `[`, `]` and `+` as they are; a checkout reads them encoded.
        parts.percentEncodedQuery = parts.percentEncodedQuery?.replacingOccurrences(of: "[", with: "%5B")
            .replacingOccurrences(of: "]", with: "%5D").replacingOccurrences(of: "+", with: "%2B")
        return parts.url
    }

    // MARK: Redeeming

    /// Activates `key` on this machine (or validates it again when it already is) and keeps it.
    /// A key for a product the catalog does not sell, or one expired or disabled, is refused
    /// before an activation is used up. Reports `license_activate` or `license_activateFail`.
    @discardableResult
    package func redeem(key rawKey: String) async throws(LicenseError) -> LicenseStatus {
        let key = rawKey.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            let status = try await activate(key)
            events.emit(
                .licenseActivate,
                [
                    "license_key": .string(status.maskedKey), "product_identifier": .string(status.productId),
                    "instance_name": .string(status.instanceName), "activation_usage": .number(Double(status.activationUsage)),
                    "activation_limit": status.activationLimit.map { .number(Double($0)) } ?? .null,
                ])
            onChange?()
            return status
        } catch {
            events.emit(
                .licenseActivateFail,
                [
                    "license_key": key.isEmpty ? .null : .string(LicenseKeyMask.mask(key)),
                    "reason": .string(error.kind.rawValue),
                    "message": .string(error.message),
                ])
            throw error
        }
    }

    private func activate(_ key: String) async throws(LicenseError) -> LicenseStatus {
        guard !key.isEmpty else {
            throw LicenseError(.emptyKey, "no license key was given; paste the key from your purchase email")
        }
        let signed = SignedLicenseText.looksSigned(key)
        guard key.utf8.count <= (signed ? Self.maxLicenseFileBytes : Self.maxKeyBytes) else {
            throw LicenseError(
                .emptyKey,
                "what was given is \(key.utf8.count) bytes long, longer than any license key (at most \(Self.maxKeyBytes)) "
                    + "or license file (at most \(Self.maxLicenseFileBytes)); paste only the key from your purchase email")
        }
        let masked = LicenseKeyMask.mask(key)
        if var known = try stored().first(where: { $0.key.key == key }) {
            // Already activated here: validating uses up no other activation.
            let provider = try provider(of: known)
            let answer = try await provider.validate(key: key, instanceId: known.instance.id)
            known.update(from: answer, at: clock.now(), matches: sells(known.productId, answer.meta, from: known.store))
            try keep(known)
            return access(known).status(at: clock.now())
        }
        let (provider, check) = try await firstAnswer(for: key, signed: signed)
        switch check.licenseKey.status {
        case .expired:
            throw LicenseError(
                .rejected, "license key \(masked) has expired; renew it or buy again", licenseKey: check.licenseKey)
        case .disabled:
            throw LicenseError(.rejected, "license key \(masked) is disabled; contact the seller", licenseKey: check.licenseKey)
        case .active, .inactive: break
        }
        if let store = expectedStoreId(provider.store), check.meta.storeId != store {
            throw LicenseError(
                .unknownProduct,
                "license key \(masked) is from \(provider.name) store \(check.meta.storeId ?? "?"), not this app's store \(store); "
                    + "check that the key is for this app",
                licenseKey: check.licenseKey)
        }
        if !check.succeeded, check.licenseKey.status == .active {
            throw LicenseError(
                .rejected, "\(provider.name) says license key \(masked) is not valid (\(check.error ?? "no reason given"))",
                licenseKey: check.licenseKey)
        }
        guard let product = product(for: check.meta, from: provider.store) else {
            let bought = [check.meta.productName, check.meta.variantName].compactMap { $0 }.joined(separator: ", ")
            throw LicenseError(
                .unknownProduct,
                "license key \(masked) is for \(provider.name) product \(check.meta.productId ?? "?") "
                    + "variant \(check.meta.variantId ?? "?")\(bought.isEmpty ? "" : " (\(bought))"), which this app's catalog does not sell; "
                    + "check that the key is for this app")
        }
        // Gumroad counts uses but has no limit of its own: the catalog's `max_uses` is kept here.
        if let limit = product.merchant?.maxUses, provider.store == .gumroad, check.licenseKey.activationUsage >= limit {
            var full = check.licenseKey
            full.activationLimit = limit
            throw LicenseError(
                .rejected,
                "license key \(masked) is already activated on \(check.licenseKey.activationUsage) machines, its limit of "
                    + "\(limit); deactivate it on another machine, or buy another license",
                licenseKey: full)
        }
        var answer = try await provider.activate(key: key, instanceName: services.instanceName())
        guard answer.succeeded, let instance = answer.instance else {
            throw LicenseError(
                .rejected, "\(provider.name) did not activate license key \(masked): \(answer.error ?? "no reason given")",
                licenseKey: answer.licenseKey)
        }
        // The activation is the word that counts: it must name what the check named.
        guard sells(product.id, answer.meta, from: provider.store) else {
            // Given back at once; if that fails too, the refusal below still stands.
            _ = try? await provider.deactivate(key: key, instanceId: instance.id)
            throw LicenseError(
                .unknownProduct,
                "\(provider.name)'s activation of license key \(masked) names product \(answer.meta.productId ?? "?") "
                    + "variant \(answer.meta.variantId ?? "?") of store \(answer.meta.storeId ?? "?"), not \(product.id) "
                    + "the key was checked for; the key was not activated",
                licenseKey: answer.licenseKey)
        }
        if provider.store == .gumroad { answer.licenseKey.activationLimit = product.merchant?.maxUses }
        let now = clock.now()
        let record = LicenseRecord(
            key: answer.licenseKey, instance: instance, meta: answer.meta, productId: product.id,
            activatedAt: now, validatedAt: now, store: provider.store)
        try keep(record)
        // A fresh answer: the next validation is a whole interval away.
        try? db.setValue("next_check", String(now.addingTimeInterval(services.refreshInterval).timeIntervalSince1970))
        return access(record).status(at: now)
    }

    /// The first merchant's answer about `key`: a signed license's verification, else each
    /// merchant's validation in catalog order, moving on only past "not found".
    private func firstAnswer(for key: String, signed: Bool) async throws(LicenseError) -> (LicenseProvider, LicenseResponse) {
        if signed {
            guard let provider = provider(for: .signedLicense) else {
                throw LicenseError(
                    .unknownProduct,
                    "this is a signed license file, but this app's catalog has no license_public_key to verify it with; "
                        + "check that the license is for this app")
            }
            return (provider, try await provider.validate(key: key, instanceId: nil))
        }
        var unknown: [LicenseError] = []
        var names: [String] = []
        for provider in providers where provider.store != .signedLicense {
            do {
                return (provider, try await provider.validate(key: key, instanceId: nil))
            } catch  where error.kind == .notFound {
                unknown.append(error)
                names.append(provider.name)
            }
        }
        if unknown.count == 1 { throw unknown[0] }
        throw LicenseError(
            .notFound,
            "license key \(LicenseKeyMask.mask(key)) is not known to \(names.isEmpty ? "any merchant of this app" : names.joined(separator: " or ")); "
                + "check the key in your purchase email")
    }

    /// The seller's own store or organization at `store`, which a key must come from.
    private func expectedStoreId(_ store: LicenseSettings.Provider) -> String? {
        switch store {
        case .lemonSqueezy: settings.storeId
        case .polar: settings.polar?.organizationId
        case .keygen, .gumroad, .signedLicense: nil
        }
    }

    /// The catalog product a purchase described by `meta` (answered by `store`'s provider)
    /// unlocks: its variant, else its product; nil for none, or for a key from another store
    /// or organization than the catalog's. A signed license names the catalog product itself.
    private func product(for meta: LicenseMeta, from store: LicenseSettings.Provider) -> Product? {
        if store == .signedLicense {
            // Ours names the catalog product; a Keygen license file names Keygen's product (and policy).
            guard let id = meta.productId else { return nil }
            return catalog.product(id: id)
                ?? catalog.products.first { $0.merchant?.matches(meta, from: .keygen) == true && $0.merchant?.variantId != nil }
                ?? catalog.products.first { $0.merchant?.matches(meta, from: .keygen) == true }
        }
        if let expected = expectedStoreId(store), meta.storeId != expected { return nil }
        let candidates = catalog.products.filter { $0.merchant?.matches(meta, from: store) == true }
        return candidates.first { $0.merchant?.variantId != nil } ?? candidates.first
    }

    /// Whether an answer describing `meta` is about a key for `productId`, of the catalog's store.
    private func sells(_ productId: String, _ meta: LicenseMeta, from store: LicenseSettings.Provider) -> Bool {
        product(for: meta, from: store)?.id == productId
    }

    private func stored() throws(LicenseError) -> [LicenseRecord] {
        do { return try db.records() } catch {
            throw LicenseError(.storage, "cannot read the license database \(db.database.path): \(error)")
        }
    }

    private func keep(_ record: LicenseRecord) throws(LicenseError) {
        do { try db.save(record) } catch {
            throw LicenseError(
                .storage,
                "cannot keep the license in \(db.database.path): \(error); "
                    + "free some disk space or make the data directory writable, then enter the key again")
        }
    }

    /// Opens `url` (a prompt's "Open checkout again") through the same opener as Buy; false
    /// when nothing could open it.
    @discardableResult
    package func openCheckout(_ url: URL) -> Bool {
        services.openURL(url)
    }

    // MARK: PurchaseController

    /// Opens the checkout in the browser, then asks for the key (again, saying why, when one
    /// does not activate) and activates it: `purchased`, or `cancelled` when the user closes
    /// the prompt.
    package func purchase(_ product: Product) async -> PurchaseResult {
        guard let checkout = checkoutURL(for: product) else {
            return .failed(LicenseError(.unknownProduct, "product \(product.id) has no checkout_url in the catalog; add one"))
        }
        guard prompt != nil else { return .failed(Self.noPrompt) }
        guard services.openURL(checkout) else {
            return .failed(
                LicenseError(
                    .network,
                    "could not open the checkout \(checkout.absoluteString) in a browser; "
                        + "install xdg-utils or set \(SystemURLOpener.environmentVariable)"))
        }
        switch await askAndRedeem(.purchase(product: product, checkoutURL: checkout)) {
        case .success: return .purchased
        case .failure(let error): return .failed(error)
        case nil: return .cancelled
        }
    }

    /// Asks for the key: "enter your license key". Cancelling restores nothing.
    package func restorePurchases() async -> RestorationResult {
        guard prompt != nil else { return .failed(Self.noPrompt) }
        switch await askAndRedeem(.restore) {
        case .success: return .restored
        case .failure(let error): return .failed(error)
        case nil: return .failed(LicenseError(.emptyKey, "no license key was entered"))
        }
    }

    static let noPrompt = LicenseError(
        .emptyKey,
        "nothing can ask for a license key here: the host sets LicenseKeyStore.prompt "
            + "(a window app does), or redeem the key with `paywall redeem` or a redeem link")

    /// Nil when the user cancelled.
    private func askAndRedeem(_ purpose: LicenseKeyRequest.Purpose) async -> Result<LicenseStatus, LicenseError>? {
        let asking = prompt
        defer { asking?.licenseKeyPromptDidFinish() }
        var problem: LicenseError?
        for attempt in 1...Self.maxKeyAttempts {
            guard let prompt,
                let key = await prompt.askForLicenseKey(LicenseKeyRequest(purpose: purpose, problem: problem, attempt: attempt))
            else { return nil }
            do {
                return .success(try await redeem(key: key))
            } catch {
                problem = error
            }
        }
        return problem.map { .failure($0) }
    }

    // MARK: Validation

    /// Why a validation runs, as `license_validate` reports it.
    package enum RefreshTrigger: String, Sendable {
        case start, scheduled, demand
    }

    /// Validates every license now (on demand) unless a validation is already running, which
    /// it then waits for. Returns the errors of licenses that got no answer.
    @discardableResult
    package func refresh(trigger: RefreshTrigger = .demand) async -> [LicenseError] {
        if let refreshing {
            await refreshing.value
            return []
        }
        var errors: [LicenseError] = []
        let task = Task { @MainActor in errors = await self.validateAll(trigger) }
        refreshing = task
        await task.value
        refreshing = nil
        return errors
    }

    /// Whether a background validation is due: none succeeded or failed within the refresh
    /// interval, or the back-off after a failure has passed. Due now, whatever the schedule
    /// says, for a license the provider never answered for, one validated after now, or a
    /// schedule more than the refresh interval after the last validation or after now (rows
    /// moved ahead by hand).
    package var isRefreshDue: Bool {
        guard let records = try? db.records(), !records.isEmpty else { return false }
        let now = clock.now()
        let next = (try? db.value("next_check")).flatMap { $0.flatMap(Double.init) }.map(Date.init(timeIntervalSince1970:))
        guard let next else { return true }
        // A minute of slack: the schedule is written a moment after the validation it follows.
        // After a failure the back-off schedule may lie past the last validation's interval,
        // but never more than an interval after now.
        let furthest = services.refreshInterval + 60
        let backingOff = ((try? db.value("failures")) ?? nil) != nil
        let moved =
            next.timeIntervalSince(now) > furthest
            || records.contains {
                !$0.answered || $0.validatedAt > now.addingTimeInterval(60)
                    || (!backingOff && next.timeIntervalSince($0.validatedAt) > furthest)
            }
        return moved || now >= next
    }

    /// Validates in the background when due, and from then on every refresh interval (when the
    /// services ask for it) while the store lives. Never blocks: the validation is a task.
    @discardableResult
    package func startRefreshing() -> Task<Void, Never>? {
        let started = isRefreshDue ? Task { @MainActor [weak self] in _ = await self?.refresh(trigger: .start) } : nil
        if services.refreshesPeriodically, periodic == nil {
            let interval = services.refreshInterval
            periodic = Task { @MainActor [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(max(60, interval) * 1e9))
                    guard let self, !Task.isCancelled else { return }
                    if self.isRefreshDue { _ = await self.refresh(trigger: .scheduled) }
                }
            }
        }
        return started
    }

    private func validateAll(_ trigger: RefreshTrigger) async -> [LicenseError] {
        guard let records = try? stored(), !records.isEmpty else { return [] }
        var errors: [LicenseError] = []
        for var record in records {
            let masked = LicenseKeyMask.mask(record.key.key)
            do {
                do {
                    let provider = try provider(of: record)
                    let answer = try await provider.validate(key: record.key.key, instanceId: record.instance.id)
                    let limit = record.key.activationLimit
                    record.update(
                        from: answer, at: clock.now(), matches: sells(record.productId, answer.meta, from: record.store))
                    if record.store == .gumroad { record.key.activationLimit = limit }
                } catch  where error.kind == .notFound {
                    record.notFound = true
                    record.answered = true
                    record.validatedAt = clock.now()
                } catch  where error.kind == .rejected && error.licenseKey != nil {
                    // A refusal that describes the key (expired, disabled) is the provider's word on it;
                    // Gumroad's refusals count no uses, and its limit is the catalog's.
                    let (limit, usage) = (record.key.activationLimit, record.key.activationUsage)
                    record.key = error.licenseKey!
                    if record.store == .gumroad { (record.key.activationLimit, record.key.activationUsage) = (limit, usage) }
                    record.answered = true
                    record.validatedAt = clock.now()
                }
                try keep(record)
                let (state, reason) = access(record).state(at: clock.now())
                events.emit(
                    .licenseValidate,
                    [
                        "license_key": .string(masked), "status": .string(record.key.status.rawValue),
                        "state": .string(state.rawValue),
                        "reason": reason.map { .string($0.rawValue) } ?? .null, "trigger": .string(trigger.rawValue),
                    ])
            } catch {
                errors.append(error)
            }
        }
        let now = clock.now()
        // Back off after a failure (1 minute, doubling, up to the refresh interval), so an
        // offline machine or a rate limit is not hammered; else wait the whole interval.
        let failures = errors.isEmpty ? 0 : (Int((try? db.value("failures")) ?? nil ?? "0") ?? 0) + 1
        let wait =
            failures == 0 ? services.refreshInterval : min(services.refreshInterval, 60 * pow(2, Double(min(failures - 1, 20))))
        let next = now.addingTimeInterval(wait)
        try? db.setValue("failures", failures == 0 ? nil : String(failures))
        try? db.setValue("next_check", String(next.timeIntervalSince1970))
        for error in errors {
            events.emit(
                .licenseValidateFail,
                [
                    "license_key": .null, "reason": .string(error.kind.rawValue), "message": .string(error.message),
                    "retry_at": .string(next.formatted(Date.ISO8601FormatStyle())),
                ])
        }
        onChange?()
        return errors
    }

    // MARK: Deactivating

    /// "Deactivate this device": frees this machine's activation of every license (or the one
    /// for `productId`) and forgets it here, so its entitlements end at once. A license the
    /// provider no longer knows is forgotten too; one it cannot reach stays.
    package func deactivate(productId: String? = nil) async throws(LicenseError) {
        var records = try stored().filter { productId == nil || $0.productId == productId }
        // "This device" as a whole gives back what can be given back; a license whose merchant
        // cannot deactivate (Gumroad) stays, and is refused only when asked for by itself.
        if productId == nil, records.contains(where: { $0.store.deactivationUnsupported == nil }) {
            records.removeAll { $0.store.deactivationUnsupported != nil }
        }
        guard !records.isEmpty else {
            throw LicenseError(
                .noLicense,
                productId.map { "no license for \($0) is activated on this machine" }
                    ?? "no license is activated on this machine")
        }
        for record in records {
            let masked = LicenseKeyMask.mask(record.key.key)
            do {
                try await deactivate(record)
                events.emit(.licenseDeactivate, ["license_key": .string(masked)])
            } catch {
                events.emit(
                    .licenseDeactivateFail,
                    [
                        "license_key": .string(masked), "reason": .string(error.kind.rawValue), "message": .string(error.message),
                    ])
                onChange?()
                throw error
            }
        }
        onChange?()
    }

    private func deactivate(_ record: LicenseRecord) async throws(LicenseError) {
        if let why = record.store.deactivationUnsupported {
            throw LicenseError(
                .unsupported, "license key \(LicenseKeyMask.mask(record.key.key)) cannot be deactivated here: \(why)")
        }
        do {
            _ = try await provider(of: record).deactivate(key: record.key.key, instanceId: record.instance.id)
        } catch  where error.kind == .notFound {
            // Already gone at the provider: nothing left to free.
        }
        do { try db.remove(keyId: record.key.id) } catch {
            throw LicenseError(.storage, "cannot remove the license from \(db.database.path): \(error)")
        }
    }

    // MARK: TransactionSource

    /// The licenses as transactions (`LEMON_SQUEEZY`, `POLAR`, ...), from the database alone: no network.
    package func currentTransactions() throws -> [StoreTransaction] {
        try db.records().map { access($0).transaction(product: catalog.product(id: $0.productId), at: clock.now()) }
    }

    package func now() throws -> Date { clock.now() }

    /// Licenses belong to the machine; the user only goes into checkouts.
    package func switchUser(_ userId: String) {
        self.userId = userId
    }

    // MARK: SubscriptionManaging

    package var managedStores: Set<StoreKind> { Set(providers.map(\.store.storeKind)) }
}
