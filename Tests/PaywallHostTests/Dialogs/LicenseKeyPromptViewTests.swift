import CGtk
import Foundation
import PaywallCore
import XCTest

@testable import PaywallHost

/// The license-key panel a paywall turns into after Buy with a license-key catalog, driven
/// through its real widgets over a real paywall: the key typed and activated (the paywall
/// closes as purchased), a wrong key asked again with its problem, Escape and the window's
/// close cancelling, the checkout opened again, a restore, its text direction and a11y name.
/// The License API is an in-process provider here (the end-to-end tests use the local server).
final class LicenseKeyPromptViewTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("LicenseKeyPromptViewTests") }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    static let key = "38b1460a-5104-4067-a91d-77b872934d51"

    /// Knows `LicenseKeyPromptViewTests.key` (product 10, variant 11); holds each activation
    /// until the test lets it through, so the panel's checking state can be seen.
    final class Provider: LicenseProvider, @unchecked Sendable {
        let name = "Test"
        let store = LicenseSettings.Provider.lemonSqueezy
        private let lock = NSLock()
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var held = 0

        func release() {
            let all = lock.withLock {
                defer { waiting = [] }
                return waiting
            }
            for continuation in all { continuation.resume() }
        }
        var heldCount: Int { lock.withLock { held } }

        private func answer(_ key: String, instance: Bool) throws(LicenseError) -> LicenseResponse {
            guard key == LicenseKeyPromptViewTests.key else { throw LicenseError(.notFound, "license_key not found") }
            return LicenseResponse(
                succeeded: true,
                licenseKey: LicenseKeyDetails(
                    id: "1", status: .active, key: key, activationLimit: 2, activationUsage: instance ? 1 : 0,
                    createdAt: nil, expiresAt: nil),
                instance: instance ? LicenseInstance(id: "i-1", name: "test", createdAt: nil) : nil,
                meta: LicenseMeta(productId: "10", productName: "Lumen Pro", variantId: "11"))
        }
        func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
            await withCheckedContinuation { c in
                lock.withLock {
                    held += 1
                    waiting.append(c)
                }
            }
            return try answer(key, instance: true)
        }
        func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
            try answer(key, instance: instanceId != nil)
        }
        func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
            try answer(key, instance: false)
        }
    }

    private var presenter: PaywallPresenter?
    private var opened: [URL] = []

    /// A paywall on screen selling through a license-key store over `provider`, in `locale`.
    @MainActor
    private func paywall(_ provider: Provider, locale: String = "en_US")
        async throws -> (PaywallPresentation, LicenseKeyStore, results: () -> [PresentationResult])
    {
        let catalogPath = dir.appendingPathComponent("catalog.json")
        let products = ["lumen.pro.yearly", "lumen.pro.monthly", "lumen.pro.lifetime"].enumerated().map { index, id in
            """
            {"id": "\(id)", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
             "entitlements": ["pro"], "checkout_url": "https://shop.example/buy/\(index)",
             "lemon_squeezy": {"product_id": 10, "variant_id": \(11 + index)}}
            """
        }
        try """
        {"store": "lemon_squeezy", "products": [\(products.joined(separator: ","))]}
        """.write(to: catalogPath, atomically: true, encoding: .utf8)
        let catalog = try CatalogLoader.load(path: catalogPath.path)
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: locale)
        self.presenter = presenter
        let services = LicenseServices(
            openURL: { [weak self] in
                self?.opened.append($0)
                return true
            }, instanceName: { "test" },
            refreshesPeriodically: false)
        let store = try LicenseKeyStore(
            catalog: catalog, settings: try XCTUnwrap(catalog.licensing),
            databasePath: dir.appendingPathComponent("licenses-\(locale).sqlite").path, providers: [provider],
            events: presenter.events, services: services)
        let cache = try EntitlementCache(path: dir.appendingPathComponent("cache-\(locale).sqlite").path)
        // The presenter gives a license store it sells through its own prompt.
        presenter.purchases = try Purchases(
            controller: store, catalog: catalog, cache: cache, transactionSource: store,
            events: presenter.events)
        XCTAssertTrue(store.prompt is LicenseKeyPrompter)
        var ready = false
        presenter.events.observe { if $0.name == .pageReady { ready = true } }
        var results: [PresentationResult] = []
        let bundle = try PaywallBundle(path: packageRoot.appendingPathComponent("templates/classic").path)
        let presentation = presenter.present(bundle) { results.append($0) }
        let loaded = await runLoop { ready }
        XCTAssertTrue(loaded, "the page never became ready")
        return (presentation, store, { results })
    }

    /// The app's dismissal ends the paywall as declined.
    @MainActor
    private func dismissDeclines(_ presentation: PaywallPresentation, _ results: @escaping () -> [PresentationResult]) async {
        presentation.dismiss()
        _ = await runLoop { !results().isEmpty }
        XCTAssertEqual(results(), [.declined])
    }

    @MainActor
    private func buy(_ presentation: PaywallPresentation) async throws -> LicenseKeyPromptView {
        presentation.webView.evaluate("Paywall.purchase('primary')")
        let asked = await runLoop { presentation.view.licenseKeyPrompt?.isShown == true }
        XCTAssertTrue(asked, "Buy never asked for the key")
        return try XCTUnwrap(presentation.view.licenseKeyPrompt)
    }

    @MainActor
    func testATypedKeyActivatesAndThePaywallClosesAsPurchased() async throws {
        guard try startToolkitOnDisplay() else { return }
        let provider = Provider()
        let (presentation, store, results) = try await paywall(provider)
        let prompt = try await buy(presentation)
        let product = try XCTUnwrap(store.catalog.product(id: "lumen.pro.yearly"))
        XCTAssertEqual(opened, [try XCTUnwrap(store.checkoutURL(for: product))], "Buy opened the checkout")
        XCTAssertEqual(prompt.titleText, "Finish in Your Browser")
        XCTAssertNil(prompt.problemText)
        XCTAssertTrue(prompt.keyFieldHasFocus, "the key field has the focus")
        XCTAssertEqual(prompt.keyFieldAccessibleName, "License key")
        XCTAssertEqual(gtk_widget_get_sensitive(presentation.webView.widget), 0, "the page under the panel is out of reach")

        prompt.pressActivate()
        XCTAssertFalse(prompt.isWorking, "a blank field activates nothing")
        prompt.type("  \(Self.key) \n")
        prompt.pressActivate()  // Enter in the field
        let checking = await runLoop { provider.heldCount == 1 }
        XCTAssertTrue(checking)
        XCTAssertTrue(prompt.isWorking, "the key is being checked: spinner, field locked")
        XCTAssertEqual(results(), [])
        provider.release()
        let closed = await runLoop { !results().isEmpty }
        XCTAssertTrue(closed)
        XCTAssertEqual(results(), [.purchased(productId: "lumen.pro.yearly")])
        XCTAssertFalse(prompt.isShown)
        XCTAssertEqual(try store.licenses().first?.maskedKey, "****4d51")
    }

    /// The panel as a screen reader meets it, through GTK's accessibility API (ATK): every
    /// button showing has its name, the key field is named, and after a failed key the field's
    /// description is the problem (the panel is GTK, out of the page's axe audit).
    @MainActor
    func testScreenReadersGetEveryControlsNameThroughATK() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, _, results) = try await paywall(Provider())
        let prompt = try await buy(presentation)
        XCTAssertEqual(
            Self.accessibles(prompt).filter { $0.role == ATK_ROLE_PUSH_BUTTON }.map(\.name),
            [
                "Activate", "Choose license file…", "Open checkout again", "Cancel",
            ])
        var fields = Self.accessibles(prompt).filter { $0.role == ATK_ROLE_TEXT }
        XCTAssertEqual(fields.map(\.name), ["License key"])
        XCTAssertEqual(fields.first?.description, "", "no problem yet")

        prompt.type("NO-SUCH-KEY-12345")
        prompt.pressActivate()
        let again = await runLoop { prompt.problemText != nil && !prompt.isWorking }
        XCTAssertTrue(again)
        fields = Self.accessibles(prompt).filter { $0.role == ATK_ROLE_TEXT }
        XCTAssertEqual(fields.map(\.name), ["License key"])
        XCTAssertEqual(fields.first?.description, "This license key was not found. Check that you copied all of it.")
        XCTAssertFalse(
            Self.accessibles(prompt).contains { $0.role == ATK_ROLE_PUSH_BUTTON && $0.name.isEmpty }, "an unnamed button")
        prompt.pressCancel()
        await dismissDeclines(presentation, results)
    }

    /// The visible objects of the panel's ATK tree, depth first (a hidden one's children skipped).
    @MainActor
    private static func accessibles(_ prompt: LicenseKeyPromptView) -> [(role: AtkRole, name: String, description: String)] {
        var found: [(role: AtkRole, name: String, description: String)] = []
        func walk(_ object: UnsafeMutablePointer<AtkObject>) {
            let states = atk_object_ref_state_set(object)
            defer { g_object_unref(states) }
            // VISIBLE: the widget is shown where its parents are (SHOWING also needs a mapped
            // window, which an overlay under Xvfb does not always report).
            guard atk_state_set_contains_state(states, ATK_STATE_VISIBLE) != 0 else { return }
            found.append(
                (
                    atk_object_get_role(object), atk_object_get_name(object).map { String(cString: $0) } ?? "",
                    atk_object_get_description(object).map { String(cString: $0) } ?? ""
                ))
            for index in 0..<atk_object_get_n_accessible_children(object) {
                guard let child = atk_object_ref_accessible_child(object, index) else { continue }
                walk(child)
                g_object_unref(child)
            }
        }
        if let root = gtk_widget_get_accessible(prompt.widget) { walk(root) }
        return found
    }

    @MainActor
    func testAWrongKeyIsAskedAgainWithItsProblemAndEscapeCancels() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, _, results) = try await paywall(Provider())
        let prompt = try await buy(presentation)
        prompt.type("NO-SUCH-KEY-12345")
        prompt.pressActivate()
        let again = await runLoop { prompt.problemText != nil && !prompt.isWorking }
        XCTAssertTrue(again, "a wrong key is asked again")
        XCTAssertEqual(prompt.problemText, "This license key was not found. Check that you copied all of it.")
        XCTAssertTrue(prompt.keyFieldHasFocus)

        prompt.pressCheckoutAgain()
        XCTAssertEqual(opened.count, 2, "the checkout opens again")
        XCTAssertEqual(opened.first, opened.last)

        // Escape, through the window as the keyboard sends it: to the focused key field, then up.
        let escape = gdk_event_new(GDK_KEY_PRESS)!
        escape.pointee.key.keyval = guint(GDK_KEY_Escape)
        escape.pointee.key.window = gtk_widget_get_window(presentation.view.window)
        g_object_ref(UnsafeMutableRawPointer(escape.pointee.key.window))
        // The seat's keyboard, as a real key press carries (GDK warns about an event without one).
        gdk_event_set_device(escape, gdk_seat_get_keyboard(gdk_display_get_default_seat(gdk_display_get_default())))
        gtk_main_do_event(escape)
        gdk_event_free(escape)
        let cancelled = await runLoop { !prompt.isShown && gtk_widget_get_sensitive(presentation.webView.widget) == 1 }
        XCTAssertTrue(cancelled, "Escape cancels")
        XCTAssertEqual(gtk_widget_get_sensitive(presentation.webView.widget), 1, "the page is back")
        XCTAssertEqual(results(), [], "a cancelled purchase leaves the paywall up")
        await dismissDeclines(presentation, results)
    }

    @MainActor
    func testClosingTheWindowCancelsTheAskingSoTheCloseGoesThrough() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, _, results) = try await paywall(Provider())
        let prompt = try await buy(presentation)
        let window = try XCTUnwrap(presentation.view.window)
        let delete = gdk_event_new(GDK_DELETE)!
        delete.pointee.any.window = gtk_widget_get_window(window)
        g_object_ref(UnsafeMutableRawPointer(delete.pointee.any.window))
        gtk_main_do_event(delete)
        gdk_event_free(delete)
        let closed = await runLoop { !results().isEmpty }
        XCTAssertTrue(closed, "the close waited for a prompt nobody answers")
        XCTAssertEqual(results(), [.declined])
        XCTAssertFalse(prompt.isShown)
    }

    @MainActor
    func testARestoreAsksForTheKeyWithoutACheckout() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, _, results) = try await paywall(Provider())
        presentation.webView.evaluate("Paywall.restore()")
        let asked = await runLoop { presentation.view.licenseKeyPrompt?.isShown == true }
        XCTAssertTrue(asked)
        let prompt = try XCTUnwrap(presentation.view.licenseKeyPrompt)
        XCTAssertEqual(prompt.titleText, "Enter Your License Key")
        XCTAssertEqual(opened, [], "a restore opens no checkout")
        prompt.pressCheckoutAgain()
        XCTAssertEqual(opened, [], "and offers none")
        prompt.pressCancel()
        await dismissDeclines(presentation, results)
    }

    @MainActor
    func testARightToLeftPaywallLaysThePanelOutRightToLeft() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, _, _) = try await paywall(Provider(), locale: "ar")
        let prompt = try await buy(presentation)
        XCTAssertEqual(gtk_widget_get_direction(prompt.widget), GTK_TEXT_DIR_RTL)
        XCTAssertNotEqual(prompt.titleText, "Finish in Your Browser", "the page's language")
        presentation.dismiss()
    }
}
