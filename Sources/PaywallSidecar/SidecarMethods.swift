import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// The methods an app calls on `paywall serve`, each the `Paywalls` API it stands for, with
/// params and results in the CLI's JSON forms (snake_case keys). The From Any Language
/// article documents each (`DocumentationTests` keeps its table in step).
extension SidecarServer {
    typealias Method = (SidecarServer) -> (RPCParams, Reply) throws(RPCError) -> Void

    var methods: [String: Method] {
        [
            "initialize": SidecarServer.initialize, "identify": SidecarServer.identify, "reset": SidecarServer.reset,
            "setUserAttributes": SidecarServer.setUserAttributes, "setSubscriptionStatus": SidecarServer.setSubscriptionStatus,
            "getCustomerInfo": SidecarServer.getCustomerInfo, "cacheConfiguredPaywalls": SidecarServer.cacheConfiguredPaywalls,
            "preload": SidecarServer.preload, "present": SidecarServer.present,
            "register": SidecarServer.register, "dismiss": SidecarServer.dismiss,
            "presentCustomerCenter": SidecarServer.presentCustomerCenter, "redeem": SidecarServer.redeem,
            "shutdown": SidecarServer.shutdownMethod,
            "getPresentationResult": SidecarServer.getPresentationResult,
            "confirmAllAssignments": SidecarServer.confirmAllAssignments, "setAssignment": SidecarServer.setAssignment,
            "setAnalyticsConsent": SidecarServer.setAnalyticsConsent,
        ]
    }

    /// The configured `Paywalls`, or -32001 before `initialize`.
    func initialized(_ method: String) throws(RPCError) -> Paywalls {
        guard let paywalls else { throw .notInitialized(method) }
        return paywalls
    }

    /// What `getCustomerInfo` answers and `customerInfoChanged` carries: `paywall status --json`'s object.
    func customerInfo(_ paywalls: Paywalls) -> JSONValue {
        // A license database that cannot be read leaves the licenses out; the entitlements still come from the cache.
        let licenses = (try? paywalls.licenses()) ?? []
        return StoreReport.status(
            paywalls.customerInfo, status: paywalls.subscriptionStatus, userId: paywalls.userId,
            licenses: licenses)
    }

    // MARK: The runtime and the user

    func initialize(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        guard paywalls == nil else { throw .failed("already initialized; run another paywall serve for another configuration") }
        let settings = try SidecarSettings(params)
        let controller =
            settings.appController
            ? RemotePurchaseController(timeout: settings.purchaseTimeout) { [weak self] in self?.send($0) } : nil
        let paywalls: Paywalls
        do {
            paywalls = try Paywalls.configure(settings.configuration, purchaseController: controller)
        } catch {
            throw .failed("initialize: \(CommandAdvice.describe(error))")
        }
        controller?.follow(paywalls.events)
        remote = controller
        self.paywalls = paywalls
        paywalls.events.observe { [weak self] event in self?.notify("event", event.json) }
        paywalls.customerInfoDelegate = self
        // The customer info, and beside it what a client checks it can speak to.
        var answer = customerInfo(paywalls).objectValue ?? [:]
        answer["runtime_version"] = .string(DeviceInfo.runtimeVersion)
        answer["protocol_version"] = .number(Double(Self.protocolVersion))
        reply(.success(.object(answer)))
    }

    func identify(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("identify")
        try params.only(["user_id"])
        let user = try params.requiredString("user_id")
        do { try paywalls.identify(user) } catch { throw .failed("identify: \(error)") }
        reply(.success(customerInfo(paywalls)))
    }

    func reset(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("reset")
        try params.only([])
        do { try paywalls.reset() } catch { throw .failed("reset: \(error)") }
        reply(.success(customerInfo(paywalls)))
    }

    func setUserAttributes(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("setUserAttributes")
        try params.only(["attributes"])
        guard let attributes = try params.object("attributes") else {
            throw .invalidParams(field: "attributes", "is required (an object)")
        }
        do { try paywalls.setUserAttributes(attributes) } catch { throw .failed("setUserAttributes: \(error)") }
        reply(.success([:]))
    }

    func setSubscriptionStatus(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("setSubscriptionStatus")
        try params.only(["status", "entitlements"])
        guard let name = try params.choice("status", ["active", "inactive", "unknown"]) else {
            throw .invalidParams(field: "status", "is required: \"active\" (with entitlements), \"inactive\" or \"unknown\"")
        }
        let entitlements = try params.strings("entitlements") ?? []
        let status: SubscriptionStatus
        switch name {
        case "active":
            guard !entitlements.isEmpty else {
                throw .invalidParams(field: "entitlements", "an active status needs at least one entitlement id")
            }
            status = .active(Set(entitlements))
        case "inactive": status = .inactive
        default: status = .unknown
        }
        do { try paywalls.setSubscriptionStatus(status) } catch { throw .failed("setSubscriptionStatus: \(error)") }
        reply(.success(customerInfo(paywalls)))
    }

    func getCustomerInfo(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("getCustomerInfo")
        try params.only([])
        reply(.success(customerInfo(paywalls)))
    }

    // MARK: Paywalls

    /// The config's paywalls into the bundle cache (pinning those marked `preload`), as
    /// `Paywalls.cacheConfiguredPaywalls()` and `paywall config load` do: each entry's id
    /// with the version now cached, or why it is not. A paywall not cached shows the fallback.
    func cacheConfiguredPaywalls(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("cacheConfiguredPaywalls")
        try params.only([])
        Task { @MainActor in
            do {
                let outcomes = try await paywalls.cacheConfiguredPaywalls()
                if outcomes.isEmpty, let problem = paywalls.configProblem {
                    return reply(.failure(.failed("cacheConfiguredPaywalls: no config: \(problem)")))
                }
                reply(
                    .success([
                        "paywalls": .array(
                            outcomes.map { outcome in
                                switch outcome.result {
                                case .success(let installed):
                                    [
                                        "id": .string(outcome.entry.id), "cached": true, "bundle_id": .string(installed.id),
                                        "version": .string(installed.version), "pinned": .bool(outcome.entry.preload),
                                    ]
                                case .failure(let error):
                                    [
                                        "id": .string(outcome.entry.id), "cached": false,
                                        "error": .string(CommandAdvice.describe(error)),
                                    ]
                                }
                            })
                    ]))
            } catch {
                reply(.failure(.failed("cacheConfiguredPaywalls: \(CommandAdvice.describe(error))")))
            }
        }
    }

    func preload(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("preload")
        try params.only(["paywall"])
        let name = try params.requiredString("paywall")
        Task { @MainActor in
            do {
                try await paywalls.preload(paywall: name) { end in
                    guard end == .loaded else { return reply(.failure(.failed("preload \"\(name)\": \(end.description)"))) }
                    reply(.success(["paywall": .string(name), "preloaded": true]))
                }
            } catch {
                reply(.failure(.failed("preload: \(CommandAdvice.describe(error))")))
            }
        }
    }

    func present(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("present")
        let (name, pageParams, parent) = try presentation(params, named: "paywall", extra: ["products"])
        let products = try slots(params)
        openWindows += 1
        // A `dismiss` or shutdown read before the task below starts still reaches this paywall.
        let asked = paywalls.reservePresentation()
        Task { @MainActor in
            paywalls.reservationEnded()
            var shown: PaywallPresentation?
            do {
                shown = try await paywalls.present(paywall: name, params: pageParams, parent: parent, products: products) {
                    [weak self] result in
                    self?.openWindows -= 1
                    let missing = Self.reportMissing(shown)
                    reply(.success(Self.withParentProblem(result.json(missing: missing), shown?.parentProblem)))
                }
                if let shown { paywalls.presentationStarted(shown, reservedAt: asked) }
            } catch {
                openWindows -= 1
                reply(.failure(.failed("present: \(CommandAdvice.describe(error))")))
            }
        }
    }

    func register(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("register")
        let (placement, pageParams, parent) = try presentation(params, named: "placement")
        var shown: PaywallPresentation?
        var presentation: JSONValue = .null
        var reason: JSONValue = .null
        var message: String?
        var experiment: JSONValue = .null
        var handler = Paywalls.PlacementHandler(
            presented: { [weak self] in
                shown = $0
                self?.openWindows += 1
            },
            dismissed: { [weak self] in
                presentation = $0.json()
                self?.openWindows -= 1
            },
            skipped: { reason = .string($0.name) },
            error: {
                reason = .string($0.name)
                message = $0.message
            },
            completed: { ran in
                var result: [String: JSONValue] = [
                    "feature": ran ? "run" : "not_run", "presentation": presentation, "reason": reason,
                    "experiment": experiment,
                ]
                if let message { result["message"] = .string(message) }
                result["problem"] = MissingProduct.problem(Self.reportMissing(shown))
                reply(.success(Self.withParentProblem(.object(result), shown?.parentProblem)))
            })
        // A campaign's decision: the outcome object (`getPresentationResult`'s), else null.
        handler.decided = { experiment = $0.json }
        paywalls.register(placement: placement, params: pageParams, parent: parent, handler: handler)
    }

    func dismiss(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("dismiss")
        try params.only([])
        var count = paywalls.dismissPresented()
        if count == 0, paywalls.dismissCustomerCenter() { count = 1 }
        reply(.success(["dismissed": .number(Double(count))]))
    }

    func presentCustomerCenter(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("presentCustomerCenter")
        try params.only(["parent"])
        let parent = try parentWindow(params)
        var shown: CustomerCenterPresentation?
        shown = paywalls.presentCustomerCenter(parent: parent) { [weak self] in
            self?.openWindows -= 1
            reply(.success(Self.withParentProblem(["result": "closed"], shown?.parentProblem)))
        }
        guard shown != nil else { throw .failed("presentCustomerCenter: the customer center is already on screen") }
        openWindows += 1
    }

    func shutdownMethod(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        try params.only([])
        reply(.success([:]))
        shutdown()
    }

    // MARK: Helpers

    /// The slots of `shown` whose products the catalog lacked, said once on stderr.
    private static func reportMissing(_ shown: PaywallPresentation?) -> [MissingProduct] {
        let missing = shown?.session.missingProducts ?? []
        if !missing.isEmpty, let id = shown?.session.paywallId {
            Diagnostics.fail(
                "paywall \(id): " + missing.map(\.description).joined(separator: "; ") + "; the fallback paywall was shown")
        }
        return missing
    }

    /// What `present` and `register` take: the paywall or placement (`field`), the page's
    /// `params` and the `parent` (and the `extra` fields the method reads itself).
    private func presentation(_ params: RPCParams, named field: String, extra: [String] = []) throws(RPCError)
        -> (String, [String: JSONValue], ParentWindow?)
    {
        try params.only(Set([field, "params", "parent"] + extra))
        return (try params.requiredString(field), try params.object("params") ?? [:], try parentWindow(params))
    }

    /// `products`: slot -> product id laid over the paywall's slots, `null` dropping a slot
    /// (as a config entry's `products`).
    private func slots(_ params: RPCParams) throws(RPCError) -> ProductSlots {
        guard let map = try params.object("products") else { return ProductSlots() }
        guard map.values.allSatisfy({ $0.stringValue.map { !$0.isEmpty } ?? ($0 == .null) }) else {
            throw .invalidParams(field: "products", "must be an object of slot -> product id, or null to drop the slot")
        }
        return ProductSlots(inPageOrder: map.mapValues { $0.stringValue ?? "" })
    }

    /// `parent`: another process's window, `x11:0x3a00007` or `wayland:HANDLE`.
    private func parentWindow(_ params: RPCParams) throws(RPCError) -> ParentWindow? {
        guard let text = try params.string("parent") else { return nil }
        do { return try ParentWindow(parsing: text) } catch { throw .invalidParams(field: "parent", error.description) }
    }

    /// `result` with `parent_error` when the parent could not be used.
    private static func withParentProblem(_ result: JSONValue, _ problem: String?) -> JSONValue {
        guard let problem, case .object(var members) = result else { return result }
        members["parent_error"] = .string(problem)
        return .object(members)
    }
}

extension SidecarServer: PaywallRuntimeDelegate {
    package func customerInfoDidChange(_ info: CustomerInfo) {
        guard let paywalls else { return }
        notify("customerInfoChanged", customerInfo(paywalls))
    }
}
