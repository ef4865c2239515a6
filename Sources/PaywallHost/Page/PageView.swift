import CGtk
import CWebKit
import Foundation
import PaywallCore

/// The one host view of a runtime page, a paywall or the customer center alike: the web view
/// with the runtime's status overlay over it, and the `PageSurface` its session talks to.
/// Shown as a sheet (a window of its own, modal over the app's window when given one) or as a
/// widget the app puts into its own container (`.embedded`) or navigation stack (`.pushed`).
@MainActor
package final class PageView: PageSurface {
    package let webView: PaywallWebView
    /// The view as a GTK widget, for `.embedded` and `.pushed`: add it to your container or `GtkStack`.
    package var widget: UnsafeMutablePointer<GtkWidget> { overlayRef.pointer }
    /// The sheet's window; nil when the app holds the widget.
    var window: UnsafeMutablePointer<GtkWidget>? { windowRef?.pointer }
    /// How it is shown.
    package private(set) var style = PresentationStyle.sheet
    /// The user closed the sheet's window, or the app took the widget out of its container.
    var onClose: (() -> Void)?
    /// The user asked to reload a slow page (the host restarts its load timeout).
    var onRetry: (() -> Void)?
    /// Loads the runtime's fallback paywall into the view (paywalls only).
    var fallback: (() -> Void)?

    private let overlayRef: GObjectReference<GtkWidget>
    private var windowRef: GObjectReference<GtkWidget>?
    /// The sheet's size and whether it renders off screen (snapshots), as placed.
    private(set) var placement: (size: ViewSize, offscreen: Bool)?
    /// Set while a preloaded sheet is drawn but not yet shown (`drawWhileHidden()`).
    private var hiddenDrawing: HiddenDrawing?
    private let status: StatusOverlay
    private let strings: StringTable
    /// Destroyed for good: a page's late calls (a purchase's progress ending after the
    /// purchase closed the paywall) find nothing to draw on and do nothing.
    private(set) var isDestroyed = false

    /// - Parameters:
    ///   - strings: the runtime's texts for the overlay, dialogs and browser windows, and the
    ///     text direction of the window.
    init(webView: PaywallWebView, strings: StringTable) {
        self.webView = webView
        self.strings = strings
        var retry: (() -> Void)?
        var close: (() -> Void)?
        status = StatusOverlay(
            retryLabel: strings.text("loading.retry"), closeLabel: strings.text("loading.close"),
            retry: { retry?() }, close: { close?() })
        overlayRef = GObjectReference(gtk_overlay_new()!)
        gtk_container_add(gcast(overlayRef.pointer), webView.widget)
        gtk_overlay_add_overlay(gcast(overlayRef.pointer), status.widget)
        retry = { [weak self] in
            self?.webView.reload()
            self?.onRetry?()
        }
        close = { [weak self] in self?.onClose?() }
    }

    // MARK: Placement

    /// Puts the view into a window of its own, modal over `parent` when there is one; shown by
    /// `show()`. `offscreen` renders without showing anything (snapshots).
    func placeInWindow(title: String, parent: UnsafeMutablePointer<GtkWidget>?, size: ViewSize, offscreen: Bool) {
        style = .sheet
        placement = (size, offscreen)
        let window = Toolkit.makeWindow(offscreen: offscreen)
        if !offscreen {
            gtk_window_set_title(gcast(window), title)
            gtk_window_set_default_size(gcast(window), gint(size.width), gint(size.height))
            if let parent {
                gtk_window_set_transient_for(gcast(window), gcast(parent))
                gtk_window_set_modal(gcast(window), 1)
                gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER_ON_PARENT)
            } else {
                gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER)
            }
        }
        // A sheet has the page's size; a widget takes what the app's container gives it.
        gtk_widget_set_size_request(webView.widget, gint(size.width), gint(size.height))
        gtk_container_add(gcast(window), widget)
        Toolkit.setTextDirection(of: window, rightToLeft: strings.isRightToLeft)
        Signal.connect(
            UnsafeMutableRawPointer(window), "delete-event",
            stopping: { [weak self] _ in
                // A purchase waiting for a license key ends (cancelled) before the close it holds up.
                self?.endLicenseKeyPrompt()
                self?.onClose?()
                return true
            })
        windowRef = GObjectReference(window)
    }

    /// Makes the sheet's window transient for and modal over another process's window;
    /// returns why it could not be (it then shows unparented).
    func parent(on foreign: ForeignWindow) -> String? {
        guard let window else { return "parent \(foreign): only a sheet (a window of its own) can have a parent" }
        return foreign.parent(window)
    }

    /// Makes the view a widget for the app to place (`.embedded` or `.pushed`): the app taking
    /// it out of its container (its stack popped, its window destroyed) closes the page, as
    /// its close button would.
    func prepareAsWidget(_ style: PresentationStyle) {
        self.style = style
        Toolkit.setTextDirection(of: widget, rightToLeft: strings.isRightToLeft)
        Signal.connect(
            UnsafeMutableRawPointer(widget), "parent-set",
            pointer: { [weak self] _ in
                guard let self, !self.isDestroyed, gtk_widget_get_parent(self.widget) == nil else { return }
                self.endLicenseKeyPrompt()
                self.onClose?()
            })
    }

    /// Keeps a sheet placed by `placeInWindow` drawn while nothing of it shows, so the first
    /// frame `show()` paints carries the page (`HiddenDrawing`). Off-screen sheets render anyway.
    func drawWhileHidden() {
        guard !isDestroyed, let window, placement?.offscreen == false, hiddenDrawing == nil else { return }
        let drawing = HiddenDrawing.forDisplay
        drawing.hide(window, content: widget)
        hiddenDrawing = drawing
    }

    /// Drawn while hidden, not shown yet.
    var isDrawnWhileHidden: Bool { hiddenDrawing != nil }

    /// Shows the sheet's window, or the widget inside whatever container the app gave it. A
    /// sheet drawn while hidden is centred on `parent` (and modal over it) when one is given.
    func show(parent: UnsafeMutablePointer<GtkWidget>? = nil) {
        guard !isDestroyed else { return }
        if let drawing = hiddenDrawing, let window {
            hiddenDrawing = nil
            drawing.reveal(window, parent: parent)
            return
        }
        gtk_widget_show_all(window ?? widget)
    }

    /// Takes the view out of the sheet's window and frees the window (nothing shown yet), so it
    /// can be placed again, in another window or as a widget.
    func leaveWindow() {
        guard let window else { return }
        gtk_container_remove(gcast(window), widget)  // the overlay is held by overlayRef
        gtk_widget_set_size_request(webView.widget, -1, -1)  // a widget takes what its container gives
        gtk_widget_destroy(window)
        windowRef = nil
        placement = nil
        hiddenDrawing = nil
    }

    /// Frees the window (and with it the view) or takes the widget out of the app's container.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        endLicenseKeyPrompt()
        if let window {
            gtk_widget_destroy(window)
            windowRef = nil
        } else if let parent = gtk_widget_get_parent(widget) {
            gtk_container_remove(gcast(parent), widget)
        }
    }

    /// The window that dialogs and browser windows belong to.
    private var toplevel: UnsafeMutablePointer<GtkWidget> {
        window ?? gtk_widget_get_toplevel(widget)
    }

    // MARK: PageSurface

    package func evaluate(_ script: String) {
        webView.evaluate(script)
    }

    package func openExternally(_ url: URL) {
        guard !isDestroyed else { return }
        ExternalOpener.open(url, parent: toplevel)
    }

    package func openInAppBrowser(_ url: URL) {
        guard !isDestroyed else { return }
        InAppBrowser.open(url, title: strings.text("browser.title", ["host": url.host ?? url.absoluteString]), parent: toplevel)
    }

    package func openMail(_ url: URL) -> Bool {
        guard !isDestroyed, ExternalOpener.canOpenMail else { return false }
        ExternalOpener.open(url, parent: toplevel)
        return true
    }

    package func copyToClipboard(_ text: String) {
        gtk_clipboard_set_text(gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0)), text, -1)
    }

    package func showProgress(_ visible: Bool) {
        guard !isDestroyed else { return }
        statusTakesInput(visible)
        if visible { status.showWorking(strings.text("progress.label")) } else { status.hide() }
    }

    /// Whether the status overlay catches clicks (a purchase or a load in progress) or lets
    /// them through to the page (a ready page's placeholder, still on screen for a frame or two).
    private func statusTakesInput(_ takes: Bool) {
        gtk_overlay_set_overlay_pass_through(gcast(overlayRef.pointer), status.widget, takes ? 0 : 1)
    }

    /// Counts loading states shown, so a placeholder's delayed hiding never hides a later one.
    private var loadingShown = 0

    package func showLoading(_ state: LoadingState) {
        guard !isDestroyed else { return }
        loadingShown += 1
        statusTakesInput(state != .hidden)
        switch state {
        case .hidden: hidePlaceholderOncePainted()
        case .loading: status.showWorking(strings.text("loading.label"))
        case .slow: status.showStuck(strings.text("loading.slow"))
        }
    }

    /// A page is ready (it pinged) before WebKit has painted it: hiding the placeholder at once
    /// showed a white frame (`paywall bench`: `cold_white_frames`). On screen, it goes once two
    /// of the page's frames have run, so the first has reached the window; a page that does not
    /// draw within a quarter of a second loses it anyway. Meanwhile clicks go through it to
    /// the ready page. A view not mapped (preloaded elsewhere than X11) draws nothing
    /// meanwhile: it goes at once.
    private func hidePlaceholderOncePainted() {
        guard gtk_widget_get_mapped(webView.widget) != 0 else { return status.hide() }
        let shown = loadingShown
        let hide: @MainActor @Sendable () -> Void = { [weak self] in
            guard let self, self.loadingShown == shown else { return }
            self.status.hide()
        }
        webView.callAsync("await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return 0") { _ in hide()
        }
        MainLoop.after(seconds: 0.25, hide)
    }

    package func showFallback() {
        guard !isDestroyed else { return }
        fallback?()
    }

    package func showAlert(title: String, message: String) {
        guard !isDestroyed else { return }
        AlertDialog.show(
            title: title, message: message, button: strings.text("dialog.ok"), parent: toplevel,
            rightToLeft: strings.isRightToLeft)
    }

    /// The survey on screen, if any.
    private(set) var surveyDialog: SurveyDialog?

    package func showSurvey(_ prompt: SurveyPrompt, answer: @escaping @MainActor (SurveyAnswer) -> Void) {
        guard !isDestroyed else { return answer(.dismissed) }
        // An embedded paywall taken out of its container has no window left to sit on.
        let parent = window ?? (gtk_widget_is_toplevel(toplevel) != 0 ? toplevel : nil)
        surveyDialog = SurveyDialog(prompt, parent: parent, rightToLeft: strings.isRightToLeft) { [weak self] result in
            self?.surveyDialog = nil
            answer(result)
        }
    }

    // MARK: The license-key prompt

    /// The license-key panel, once one was asked for.
    private(set) var licenseKeyPrompt: LicenseKeyPromptView?

    /// Turns the page into the license-key panel for `request` (the page under it cannot be
    /// reached meanwhile; `openCheckout` is its "Open checkout again") and calls `answer` once: the key, or nil when the user cancelled or
    /// the view went. The panel stays, checking the key, until `endLicenseKeyPrompt()`.
    func askForLicenseKey(
        _ request: LicenseKeyRequest, openCheckout: @escaping @MainActor (URL) -> Void,
        answer: @escaping @MainActor (String?) -> Void
    ) {
        guard !isDestroyed else { return answer(nil) }
        let prompt =
            licenseKeyPrompt
            ?? {
                let made = LicenseKeyPromptView(openURL: openCheckout)
                // Over the status overlay: the purchase's progress waits underneath.
                gtk_overlay_add_overlay(gcast(overlayRef.pointer), made.widget)
                licenseKeyPrompt = made
                return made
            }()
        gtk_widget_set_sensitive(webView.widget, 0)
        prompt.show(LicenseKeyForm(request, strings: strings), strings: strings, answer: answer)
    }

    /// Takes the license-key panel down (an ask still waiting is answered as cancelled) and
    /// gives the page back.
    func endLicenseKeyPrompt() {
        guard let licenseKeyPrompt else { return }
        licenseKeyPrompt.hide()
        if !isDestroyed { gtk_widget_set_sensitive(webView.widget, 1) }
    }

    package func scheduleNotification(title: String, subtitle: String?, body: String, delay: Double) -> Bool {
        DesktopNotifier.schedule(title: title, subtitle: subtitle, body: body, delay: delay)
    }

    /// Takes the page off screen: hides the sheet's window, or takes the widget out of the
    /// app's container. `destroy()` frees it once its presentation has ended.
    package func dismiss() {
        guard !isDestroyed else { return }
        if let window {
            gtk_widget_hide(window)
        } else if let parent = gtk_widget_get_parent(widget) {
            gtk_container_remove(gcast(parent), widget)
        }
    }
}
