import CGtk
import Foundation
import PaywallCore

/// The host's `LicenseKeyPrompt`, which a presenter gives the license-key store: the page whose
/// purchase or restore asked for a key (a paywall, or the customer center) turns into the
/// license-key panel; without such a page (an app that calls `Purchases.purchase` itself) the
/// panel comes up in a small window of its own. The panel stays, checking each key, until the
/// store says the asking is over.
@MainActor
final class LicenseKeyPrompter: LicenseKeyPrompt {
    private weak var presenter: PaywallPresenter?
    /// The store it asks for, whose opener "Open checkout again" uses (the one Buy used).
    weak var store: LicenseKeyStore?
    /// Where the current asking is drawn.
    private var page: PageView?
    private var window: GObjectReference<GtkWidget>?
    private var windowPanel: LicenseKeyPromptView?

    init(presenter: PaywallPresenter) {
        self.presenter = presenter
    }

    func askForLicenseKey(_ request: LicenseKeyRequest) async -> String? {
        await withCheckedContinuation { (answered: CheckedContinuation<String?, Never>) in
            let answer: @MainActor (String?) -> Void = { answered.resume(returning: $0) }
            if let page = page ?? pageAsking(), !page.isDestroyed {
                self.page = page
                page.askForLicenseKey(request, openCheckout: openCheckout, answer: answer)
            } else {
                askInOwnWindow(request, answer: answer)
            }
        }
    }

    func licenseKeyPromptDidFinish() {
        page?.endLicenseKeyPrompt()
        page = nil
        windowPanel?.hide()
        windowPanel = nil
        if let window { gtk_widget_destroy(window.pointer) }
        window = nil
    }

    private var openCheckout: @MainActor (URL) -> Void {
        { [weak self] url in
            if self?.store?.openCheckout(url) != true { ExternalOpener.open(url, parent: nil) }
        }
    }

    /// The paywall whose purchase or restore is running, else the customer center while its action runs.
    private func pageAsking() -> PageView? {
        guard let presenter else { return nil }
        if let paywall = presenter.active.values.first(where: { $0.session.isPurchasing && !$0.view.isDestroyed }) {
            return paywall.view
        }
        if let center = presenter.customerCenterOnScreen, center.session.isBusy { return center.view }
        return nil
    }

    /// The panel in a window of its own, in the presenter's language; closing the window cancels.
    private func askInOwnWindow(_ request: LicenseKeyRequest, answer: @escaping @MainActor (String?) -> Void) {
        guard let strings = presenter?.strings else { return answer(nil) }
        let form = LicenseKeyForm(request, strings: strings)
        if windowPanel == nil {
            let panel = LicenseKeyPromptView(openURL: openCheckout)
            let made = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            gtk_window_set_title(gcast(made), form.title)
            gtk_window_set_default_size(gcast(made), gint(ViewSize.standard.width), -1)
            gtk_window_set_position(gcast(made), GTK_WIN_POS_CENTER)
            gtk_container_add(gcast(made), panel.widget)
            Signal.connect(
                UnsafeMutableRawPointer(made), "delete-event",
                stopping: { [weak panel] _ in
                    panel?.pressCancel()
                    return true
                })
            window = GObjectReference(made)
            windowPanel = panel
        }
        guard let window, let windowPanel else { return answer(nil) }
        windowPanel.show(form, strings: strings, answer: answer)
        gtk_widget_show(window.pointer)
    }
}
