import Foundation

/// What each tap in the customer center does: navigation, surveys, dialogs, and the paths'
/// actions through the purchase controller.
extension CustomerCenterSession {
    typealias Path = CustomerCenterConfiguration.Path
    typealias Pending = CustomerCenterRoute.PendingAction

    func handle(_ message: CustomerCenterMessage) {
        switch message {
        case .ping:
            pingArrived()
        case .rendered(let shown):
            markRendered(shown)
        case .action(let action):
            handleAction(action)
        case .option(let id):
            answerSurvey(optionId: id)
        case .path(let id, let purchaseKey, let productId):
            // A dialog is modal and a running action finishes first: taps behind them do nothing.
            guard dialog == nil, !isBusy else { return }
            tapPath(id: id, purchaseKey: purchaseKey ?? productId, productId: productId)
        }
    }

    private func handleAction(_ action: String) {
        if action == "close" { return dismiss() }
        if let dialog {
            switch action {
            case "confirm" where dialog.confirming != nil:
                show(nil)
                confirmed(dialog.confirming!)
            case "ok", "dismiss", "back":
                reportBackedOutRefund()
                show(nil)
            case "copy" where dialog.copyableText != nil:
                page?.copyToClipboard(dialog.copyableText!)
            default:
                reportInvalid("no button \"\(action)\" in the dialog on screen")
            }
            return
        }
        guard action == "back", !isBusy else {
            if !isBusy { reportInvalid("no button \"\(action)\" on this screen") }
            return
        }
        guard route.count > 1 else { return }
        popScreen()
    }

    // MARK: Paths

    /// `purchaseKey` names the purchase a row belongs to; on the plans screen `productId` is the plan chosen.
    private func tapPath(id: String, purchaseKey: String?, productId: String?) {
        let screen = self.screen()
        switch route.last ?? .home {
        case .home:
            if [CustomerCenterScreen.deactivateLicensePathId, CustomerCenterScreen.manageLicensePathId].contains(id) {
                guard let license = screen.licenses.first(where: { $0.productId == productId }) else {
                    return reportInvalid(
                        "no license for \(productId ?? "(none)") to \(id == CustomerCenterScreen.manageLicensePathId ? "manage" : "deactivate")"
                    )
                }
                return tapLicense(id, license)
            }
            if id == CustomerCenterScreen.detailPathId {
                guard let key = purchaseKey, let row = screen.row(key: key), row.kind != .oneTime else {
                    return reportInvalid("no purchase \(purchaseKey ?? "(none)") with a detail screen")
                }
                return push(.detail(purchaseKey: row.key))
            }
            let home = screen.homeName == "no_purchases" ? configuration.noPurchasesScreen : configuration.managementScreen
            guard let path = CustomerCenterRules.screenPaths(home, support: configuration.support).first(where: { $0.id == id })
            else {
                return reportInvalid("no path \"\(id)\" on the \(screen.homeName) screen")
            }
            selected(path, purchase: nil, resolution: .action)
        case .detail(let key):
            guard let row = screen.row(key: key),
                let (path, resolution) = CustomerCenterRules.detailPaths(
                    configuration.managementScreen, for: row, capabilities: screen.capabilities, catalog: screen.catalog,
                    webManagementURL: configuration.support.webManagementURL, now: screen.now
                ).first(where: { $0.path.id == id })
            else { return reportInvalid("no path \"\(id)\" on the detail screen of \(key)") }
            selected(path, purchase: row, resolution: resolution)
        case .plans(let key, let pathId, let ids):
            guard id == pathId, let productId, let row = screen.row(key: key),
                let plan = CustomerCenterRules.planChoices(for: row, productIds: ids, catalog: screen.catalog).first(where: {
                    $0.id == productId
                })
            else { return reportInvalid("no plan \(productId ?? "(none)") to change to") }
            changePlan(of: row, to: plan)
        case .survey:
            reportInvalid("the survey on screen takes an option, not path \"\(id)\"")
        }
    }

    /// The user chose `path`: report it, ask its survey, or run it.
    private func selected(_ path: Path, purchase: CustomerCenterPurchase?, resolution: CustomerCenterRules.Resolution) {
        let action = CustomerCenterAction(path.type)
        var params: [String: JSONValue] = [
            "action": .string(action.name), "path_id": .string(path.id),
            "product_id": purchase?.productId.map(JSONValue.string) ?? .null,
        ]
        if case .url(let url) = action { params["url"] = .string(url.absoluteString) }
        if case .webManagement(let url) = resolution { params["url"] = .string(url.absoluteString) }
        if case .custom(let identifier) = action { params["custom_identifier"] = .string(identifier) }
        events.emit(.customerCenterAction, params)
        delegate?.customerCenter(didSelect: action, for: purchase?.latest)
        let pending = Pending(path: path, purchaseKey: purchase?.key)
        if CustomerCenterRules.asksSurvey(path, resolution: resolution), let survey = path.survey {
            return push(.survey(survey, pending: pending))
        }
        run(pending, resolution: resolution)
    }

    private func answerSurvey(optionId: String) {
        guard dialog == nil, !isBusy, case .survey(let survey, let pending)? = route.last else {
            return reportInvalid("no survey on screen to answer with \(optionId)")
        }
        guard survey.options.contains(where: { $0.id == optionId }) else {
            return reportInvalid("survey \(survey.id) has no option \(optionId)")
        }
        let action = CustomerCenterAction(pending.path.type)
        let productId = pending.purchaseKey.flatMap { screen().row(key: $0)?.productId }
        events.emit(
            .customerCenterSurveyResponse,
            [
                "survey_id": .string(survey.id), "option_id": .string(optionId), "action": .string(action.name),
                "path_id": .string(pending.path.id), "product_id": productId.map(JSONValue.string) ?? .null,
            ])
        delegate?.customerCenter(didCompleteSurvey: survey.id, optionId: optionId, for: action)
        route.removeLast()
        run(pending, resolution: .action)
        render()
    }

    private func run(_ pending: Pending, resolution: CustomerCenterRules.Resolution) {
        let row = pending.purchaseKey.flatMap { screen().row(key: $0) }
        switch pending.path.type {
        case .restore:
            restore()
        case .contactSupport:
            contactSupport()
        case .url(let url, _, let method):
            // Through the page channel, as a link is: within the page's limits, and reported
            // (`url_openExternal` with `source: path`).
            if method == .inApp {
                page?.openInAppBrowser(url)
            } else {
                channel.openExternally(url.absoluteString, source: "path")
            }
        case .custom:
            break  // the delegate was told in `selected`
        case .changePlan(let ids):
            guard let row else { return }
            push(.plans(purchaseKey: row.key, pathId: pending.path.id, productIds: ids))
        case .manageSubscription:
            switch resolution {
            case .webManagement(let url): page?.openExternally(url)
            case .receiptLink: show(.notice(strings.text("cc.manage.title"), strings.text("cc.manage.receipt"), strings: strings))
            case .action: confirm(pending, key: "cc.cancel.confirm", date: row?.latest?.expirationDate)
            }
        case .refund:
            confirm(pending, key: "cc.refund.confirm", date: nil)
        }
    }

    /// Stands in for the store's own sheet: the user confirms before anything changes.
    /// A date in dialogs, written as the screens write it (without building a screen).
    private func formatted(_ date: Date) -> String {
        CustomerCenterScreen.date(date, locale: locale)
    }

    private func confirm(_ pending: Pending, key: String, date: Date?) {
        let row = pending.purchaseKey.flatMap { screen().row(key: $0) }
        let arguments = ["product": row?.title ?? strings.text("cc.untitled"), "date": date.map(formatted) ?? ""]
        show(
            CustomerCenterDialog(
                title: strings.text("\(key).title", arguments), message: strings.text("\(key).message", arguments),
                copyableText: nil,
                buttons: [
                    .init(action: "dismiss", label: strings.text("\(key).dismiss")),
                    .init(action: "confirm", label: strings.text("\(key).button"), isPrimary: true, isDestructive: true),
                ],
                confirming: pending))
    }

    private func confirmed(_ pending: Pending) {
        if pending.path.id == CustomerCenterScreen.deactivateLicensePathId, let productId = pending.purchaseKey {
            return deactivateLicense(productId: productId)
        }
        guard let manager = purchases?.controller as? SubscriptionManaging, let key = pending.purchaseKey,
            let row = screen().row(key: key), let t = row.latest
        else { return }
        switch pending.path.type {
        case .manageSubscription:
            perform({ await manager.cancelSubscription(transactionId: t.id) }) { cancelled in
                cancelled
                    ? self.notice("cc.cancel.done", ["date": t.expirationDate.map(self.formatted) ?? ""])
                    : self.notice("cc.cancel.failed")
            }
        case .refund:
            perform({ await manager.requestRefund(transactionId: t.id) }) { status in
                self.refundFinished(productId: t.productId, status: status)
                switch status {
                case .success: return self.notice("cc.refund.done")
                case .userCancelled: return nil
                case .error: return self.notice("cc.refund.failed")
                }
            }
        default:
            break
        }
    }

    /// A refund confirmation left without confirming is reported as `user_cancelled`.
    func reportBackedOutRefund() {
        guard let pending = dialog?.confirming, case .refund = pending.path.type, let key = pending.purchaseKey else { return }
        refundFinished(productId: screen().row(key: key)?.productId ?? key, status: .userCancelled)
    }

    private func refundFinished(productId: String, status: RefundRequestStatus) {
        events.emit(.customerCenterRefundRequest, ["product_id": .string(productId), "status": .string(status.rawValue)])
        delegate?.customerCenter(didCompleteRefundRequestFor: productId, status: status)
    }

    // MARK: Licenses

    /// "Manage subscription" opens the merchant's customer portal; "Deactivate this device" asks first.
    private func tapLicense(_ id: String, _ license: LicenseStatus) {
        if id == CustomerCenterScreen.manageLicensePathId {
            guard let portal = licenseStore?.customerPortalURL else {
                return reportInvalid("no customer_portal_url to manage the license at")
            }
            page?.openExternally(portal)
            return
        }
        let arguments = ["product": licenseTitle(license.productId)]
        let path = Path(
            id: CustomerCenterScreen.deactivateLicensePathId,
            type: .custom(identifier: CustomerCenterScreen.deactivateLicensePathId))
        show(
            CustomerCenterDialog(
                title: strings.text("cc.license.deactivate.confirm.title", arguments),
                message: strings.text("cc.license.deactivate.confirm.message", arguments), copyableText: nil,
                buttons: [
                    .init(action: "dismiss", label: strings.text("license.cancel")),
                    .init(
                        action: "confirm", label: strings.text("cc.license.deactivate.confirm.button"), isPrimary: true,
                        isDestructive: true),
                ],
                confirming: Pending(path: path, purchaseKey: license.productId)))
    }

    /// Frees this machine's activation through the license store; the license then leaves the
    /// screen (its entitlement ends here). A failure says why, translated.
    private func deactivateLicense(productId: String) {
        guard let store = licenseStore else { return }
        let title = licenseTitle(productId)
        perform({ () async -> LicenseError? in
            do throws(LicenseError) {
                try await store.deactivate(productId: productId)
                return nil
            } catch {
                return error
            }
        }) { error in
            guard let error else { return self.notice("cc.license.deactivate.done", ["product": title]) }
            return .notice(
                self.strings.text("cc.license.deactivate.failed.title"), LicenseKeyForm.problem(error, strings: self.strings),
                strings: self.strings)
        }
    }

    private func licenseTitle(_ productId: String) -> String {
        purchases?.catalog.product(id: productId)?.displayName ?? strings.text("cc.untitled")
    }

    private func changePlan(of row: CustomerCenterPurchase, to plan: Product) {
        guard let purchases else { return }
        let report = reportToEvents
        perform({ await purchases.purchase(plan, changingPlan: true, report: report) }, refreshes: false) { attempt in
            switch attempt {
            case .purchased, .alreadyOwned:
                // An upgrade starts at once; a downgrade waits for the end of the current period.
                let current = self.screen().rows.first { $0.productId == plan.id && $0.isActive }
                let immediate = current != nil
                if case .plans? = self.route.last { self.route.removeLast() }
                if let current, case .detail? = self.route.last {
                    self.route[self.route.count - 1] = .detail(purchaseKey: current.key)
                }
                let date = row.latest?.expirationDate.map(self.formatted) ?? ""
                return .notice(
                    self.strings.text("cc.plans.done.title"),
                    self.strings.text(
                        immediate ? "cc.plans.done.now" : "cc.plans.done.later",
                        ["plan": plan.displayName, "date": date]), strings: self.strings)
            case .cancelled, .unknownProduct: return nil
            case .pending: return self.notice("purchase.pending")
            case .failed(let error):
                return self.notice("cc.plans.failed", ["reason": StoreErrorText.reason(for: error, strings: self.strings)])
            }
        }
    }

    private func restore() {
        guard !isAskingToRestore else { return }
        isAskingToRestore = true
        let go = { @MainActor [weak self] (allowed: Bool) in
            // The delegate's answer counts once; a second call of `resume` does nothing.
            guard let self, self.isAskingToRestore else { return }
            self.isAskingToRestore = false
            guard allowed, !self.isDismissed, !self.isBusy else { return }
            guard let purchases = self.purchases else {
                return self.show(self.notice("restore.failed", ["reason": self.strings.text("cc.no_store")]))
            }
            let report = self.reportToEvents
            self.perform({ await purchases.restore(report: report) }, refreshes: false) { outcome in
                guard let failure = outcome.failureDialog(strings: self.strings) else { return self.notice("cc.restore.done") }
                return self.notice(failure.key, failure.arguments)
            }
        }
        if let delegate { delegate.customerCenter(shouldRestorePurchases: go) } else { go(true) }
    }

    private func contactSupport() {
        guard let address = configuration.support.email else { return }
        let mail = SupportEmail(
            address: address,
            diagnostics: .init(
                userId: purchases?.userId ?? environment.userId, appVersion: environment.appVersion,
                os: "\(environment.device.osName) \(environment.device.osVersion)".trimmingCharacters(in: .whitespaces),
                deviceModel: environment.device.deviceModel,
                activeEntitlements: Array(purchases?.subscriptionStatus.activeEntitlements ?? []),
                isSandbox: capabilities.isSandbox,
                licenses: (try? (purchases?.controller as? LicenseKeyStore)?.licenses()) ?? []), strings: strings)
        if page?.openMail(mail.url) == true { return }
        // No mail app: the address stays reachable, shown and copyable.
        show(
            CustomerCenterDialog(
                title: strings.text("cc.support.title"), message: strings.text("cc.support.no_mail_app", ["email": address]),
                copyableText: address,
                buttons: [
                    .init(action: "copy", label: strings.text("cc.copy")),
                    .init(action: "ok", label: strings.text("dialog.ok"), isPrimary: true),
                ],
                confirming: nil))
    }

    /// Runs a controller call under the progress overlay, reads the purchases again unless the
    /// call did (`refreshes` false: a purchase or restore through `Purchases`), then shows the
    /// dialog `report` makes of the call's outcome.
    private func perform<Outcome>(
        _ call: @escaping @MainActor () async -> Outcome, refreshes: Bool = true,
        report: @escaping @MainActor (Outcome) -> CustomerCenterDialog?
    ) {
        setBusy(true)
        Task { @MainActor in
            let outcome = await call()
            // The outcome stands whatever the refresh meets (a cache write failure is reported
            // by `refresh`); a store that cannot be read leaves the screens as they were.
            if refreshes { try? purchases?.refresh() }
            let dialog = report(outcome)
            popToExistingScreen()
            isBusy = false
            if isDismissed { delegate = nil }
            show(isDismissed ? nil : dialog)
        }
    }

    /// The purchase path's events go to the customer center's observers.
    private var reportToEvents: Purchases.EventReport {
        { [events] in events.emit($0, $1) }
    }

    /// A dialog with the texts `key.title` and `key.message`.
    private func notice(_ key: String, _ arguments: [String: String] = [:]) -> CustomerCenterDialog {
        .notice(strings.text("\(key).title", arguments), strings.text("\(key).message", arguments), strings: strings)
    }
}
