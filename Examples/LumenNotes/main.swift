// Lumen Notes: a small GTK 3 app that sells "Pro" through the paywall runtime.
//
// "Export PDF" is a gated placement: a free user sees the paywall first, a Pro user exports
// at once. "Manage subscription" opens the customer center. The status line follows the
// customer-info stream. It sells through the fake store (no money moves).
//
// Run: swift run --package-path Examples/LumenNotes (its own package: it uses only the
// runtime's public API).
// Demo switch: LUMEN_NOTES_DEMO=1 presses "Export PDF" once the window is up, buys in the
// paywall through `evaluateWhenReady`, and quits once the export ran (tests use it).
// LUMEN_NOTES_DATA_DIR=DIR keeps the databases there instead of $XDG_DATA_HOME/paywall.
// LUMEN_NOTES_CATALOG=FILE sells the products of another catalog, such as one with
// "store": "lemon_squeezy" (license keys). A redeem link given as the first argument
// (lumennotes://paywall/redeem?license_key=KEY, routed here by data/*.desktop's
// MimeType=x-scheme-handler/lumennotes;) is handed to the runtime before it is configured,
// which keeps it and redeems it once it is.
import CGtk3
import Foundation
import PaywallHost

@MainActor
final class LumenNotes {
    let paywalls: Paywalls
    private let window: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let export: UnsafeMutablePointer<GtkWidget>
    private let demo = ProcessInfo.processInfo.environment["LUMEN_NOTES_DEMO"] == "1"
    private var exported = false
    private var isPro = false

    init() throws {
        let resources = try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
        let template = resources.templates.appendingPathComponent("classic")
        // The app's config: one paywall, one gated placement. A real app loads it from a URL
        // (`config: .url(...)`); the bundle then comes from the cache, offline too.
        let config = PaywallConfig(
            paywalls: [.init(id: "upsell", source: template.path)],
            placements: ["export_pdf": .init(paywall: "upsell", gated: true)])
        paywalls = try Paywalls.configure(
            .init(
                dataDirectory: ProcessInfo.processInfo.environment["LUMEN_NOTES_DATA_DIR"],
                store: .fakeStore(
                    catalog: ProcessInfo.processInfo.environment["LUMEN_NOTES_CATALOG"]
                        ?? template.appendingPathComponent("store.json").path),
                config: .value(config), appVersion: "1.0"),
            resources: resources)

        paywalls.events.observe { event in
            if event.name == .licenseActivate || event.name == .licenseActivateFail {
                log(
                    "\(event.name.rawValue): \(event.params["message"]?.stringValue ?? event.params["license_key"]?.stringValue ?? "")"
                )
            }
        }

        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(gtk(window), "Lumen Notes")
        gtk_window_set_default_size(gtk(window), 420, 220)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_container_set_border_width(gtk(box), 24)
        status = gtk_label_new("")
        export = gtk_button_new_with_label("Export PDF")
        let manage = gtk_button_new_with_label("Manage subscription")!
        for widget in [status, export, manage] { gtk_box_pack_start(gtk(box), widget, 0, 0, 0) }
        gtk_container_add(gtk(window), box)
        Self.onClicked(export) { [unowned self] in self.exportPDF() }
        Self.onClicked(manage) { [unowned self] in self.paywalls.presentCustomerCenter(parent: .gtk(self.window)) }
        Self.onDestroy(window) { gtk_main_quit() }
    }

    func run() async throws {
        show(paywalls.customerInfo)
        gtk_widget_show_all(window)
        // The paywall's bundle into the cache, so it shows even offline next time.
        try await paywalls.cacheConfiguredPaywalls()
        if demo { gtk_button_clicked(gtk(export)) }
        for await info in paywalls.customerInfoUpdates { show(info) }
    }

    /// Export PDF is a Pro feature: the placement decides whether the paywall comes first.
    private func exportPDF() {
        let handler = Paywalls.PlacementHandler(
            presented: { [demo] presentation in
                // The demo buys the yearly plan the way a user would: the page's Buy button.
                if demo { presentation.evaluateWhenReady("document.getElementById('purchase').click()") }
            },
            dismissed: { result in log("paywall: \(result.name)") },
            skipped: { reason in log("paywall skipped: \(reason)") },
            error: { error in log("paywall error: \(error)") })
        paywalls.register(placement: "export_pdf", params: ["source": "toolbar"], parent: .gtk(window), handler: handler) {
            [unowned self] in
            log("exported PDF")
            exported = true
            endDemoWhenDone()
        }
    }

    private func show(_ info: CustomerInfo) {
        let pro = info.entitlements.contains { $0.id == "pro" && $0.isActive }
        let text = pro ? "Lumen Notes Pro: thanks for your support" : "Lumen Notes Free"
        gtk_label_set_text(gtk(status), text)
        log("status: \(text)")
        isPro = pro
        endDemoWhenDone()
    }

    /// The demo ends once the export ran and the status line says Pro.
    private func endDemoWhenDone() {
        if demo, exported, isPro { gtk_main_quit() }
    }

    // GTK signals with Swift closures (the runtime's own wrappers are internal to it).
    private static func onClicked(_ widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        connect(widget, "clicked", action)
    }

    private static func onDestroy(_ widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        connect(widget, "destroy", action)
    }

    private final class Box {
        let action: @MainActor () -> Void
        init(_ action: @escaping @MainActor () -> Void) { self.action = action }
    }

    private static func connect(
        _ widget: UnsafeMutablePointer<GtkWidget>, _ signal: String, _ action: @escaping @MainActor () -> Void
    ) {
        let box = Unmanaged.passRetained(Box(action)).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().action() }
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(widget), signal, unsafeBitCast(callback, to: GCallback.self), box,
            { data, _ in Unmanaged<Box>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
    }
}

/// A GTK widget as the type a GTK call takes (GTK's C casts, for Swift).
func gtk<T>(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}

/// One line of the app's log on stdout (the demo's test reads it).
func log(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

MainActor.assumeIsolated {
    // A redeem link opened the app: kept until `Paywalls.configure`, then redeemed.
    for argument in CommandLine.arguments.dropFirst() {
        if let url = URL(string: argument), Paywalls.handleDeepLink(url) { log("redeem link received") }
    }
    do {
        let app = try LumenNotes()
        Task { @MainActor in
            do { try await app.run() } catch { log("error: \(error)") }
        }
        gtk_main()
        withExtendedLifetime(app) {}
    } catch {
        FileHandle.standardError.write(Data("lumen-notes: \(error)\n".utf8))
        exit(1)
    }
}
