import CGtk
import Foundation
import PaywallCore

/// The customer center, presented by the same `PaywallPresenter` as paywalls.
///
/// ```swift
/// presenter.customerCenter.support.email = "support@example.com"
/// presenter.presentCustomerCenter(parent: .gtk(appWindow), delegate: myDelegate) { print("dismissed") }
/// ```
extension PaywallPresenter {
    /// Loads the customer center ahead of time and draws its screen, in a hidden sheet of the
    /// standard size, so presenting it as such a sheet (`presentCustomerCenter()`, with or
    /// without a parent) paints the drawn screen in its first frame. Another size, an
    /// off-screen sheet or a widget takes the loaded page out of that window.
    package func preloadCustomerCenter() {
        guard preloadedCustomerCenter == nil else { return }
        let view = makeCustomerCenter(environment: customerCenterEnvironment())
        view.view.placeInWindow(title: strings.text("cc.window.title"), parent: nil, size: .standard, offscreen: false)
        view.view.drawWhileHidden()
        loadPage(of: view)
        view.session.drawAhead()
        preloadedCustomerCenter = view
    }

    /// Shows the customer center in its own window, modal over `parent` when given (another
    /// process's window: `parentProblem` says when it could not be used).
    /// Does nothing (and returns nil) while one is on screen. `configuration` overrides `customerCenter` for
    /// this presentation; `delegate` is kept alive until it is dismissed.
    @discardableResult
    package func presentCustomerCenter(
        configuration: CustomerCenterConfiguration? = nil,
        parent window: ParentWindow? = nil, delegate: CustomerCenterDelegate? = nil, size: ViewSize = .standard,
        offscreen: Bool = false, onDismiss: (() -> Void)? = nil
    ) -> CustomerCenterPresentation? {
        let (parent, foreignParent) = window?.placement ?? (nil, nil)
        guard let shown = begin(.sheet, configuration: configuration, delegate: delegate, onDismiss: onDismiss) else {
            return nil
        }
        if shown.view.isDrawnWhileHidden, let placed = shown.view.placement, placed.size == size, placed.offscreen == offscreen {
            if let foreignParent { shown.parentProblem = shown.view.parent(on: foreignParent) }
            shown.view.show(parent: parent)
        } else {
            shown.view.leaveWindow()
            shown.view.placeInWindow(title: strings.text("cc.window.title"), parent: parent, size: size, offscreen: offscreen)
            if let foreignParent { shown.parentProblem = shown.view.parent(on: foreignParent) }
            shown.view.show()
        }
        loadPage(of: shown)
        shown.session.start()
        return shown
    }

    /// The customer center as a widget for the app to place: `.embedded` in one of its
    /// containers, or `.pushed` onto its navigation stack (a `GtkStack`; the app's back button
    /// leaves it, so it draws no close button). Nil while one is on screen.
    package func customerCenterWidget(
        _ presentation: PresentationStyle,
        configuration: CustomerCenterConfiguration? = nil,
        delegate: CustomerCenterDelegate? = nil,
        onDismiss: (() -> Void)? = nil
    ) -> CustomerCenterPresentation? {
        precondition(presentation != .sheet, "use presentCustomerCenter for a sheet")
        guard let shown = begin(presentation, configuration: configuration, delegate: delegate, onDismiss: onDismiss) else {
            return nil
        }
        shown.view.leaveWindow()  // a preloaded page waits in a sheet's window
        shown.view.prepareAsWidget(presentation)
        shown.view.show()
        loadPage(of: shown)
        shown.session.start()
        return shown
    }

    /// Takes the customer center on screen down, as its close button would.
    package func dismissCustomerCenter() {
        customerCenterOnScreen?.session.dismiss()
    }

    /// The preloaded view (or a new one) set up for this presentation; nil while one is on screen.
    private func begin(
        _ presentation: PresentationStyle, configuration: CustomerCenterConfiguration?,
        delegate: CustomerCenterDelegate?, onDismiss: (() -> Void)?
    ) -> CustomerCenterPresentation? {
        guard customerCenterOnScreen == nil else { return nil }
        // Read once per presentation (the OS and model come from files); a preloaded view gets it fresh.
        let environment = customerCenterEnvironment()
        let shown = preloadedCustomerCenter ?? makeCustomerCenter(environment: environment)
        preloadedCustomerCenter = nil
        let session = shown.session
        session.purchases = purchases
        session.configuration = configuration ?? customerCenter
        session.presentation = presentation
        session.delegate = delegate
        session.environment = environment
        session.updateCheck = updateCheck
        session.onDismiss = { [weak self, shown] in
            self?.customerCenterOnScreen = nil
            self?.runtime.unmount(host: shown.webView.bundleHost)
            // Freed on the next turn of the loop: a dismissal may come from inside the view's own signal handler.
            MainLoop.after(seconds: 0) { shown.view.destroy() }
            onDismiss?()
            self?.recycleWebProcessIfGrown()
        }
        customerCenterOnScreen = shown
        return shown
    }

    private func makeCustomerCenter(environment: CustomerCenterSession.Environment) -> CustomerCenterPresentation {
        reportLocaleFallbackOnce()
        watchThemeOnce()
        let session = CustomerCenterSession(
            configuration: customerCenter, presentation: .sheet, purchases: purchases, strings: strings, locale: locale,
            events: events, environment: environment)
        let webView = PaywallWebView(
            runtime: runtime, connection: session.channel, bundleHost: newHost("customer-center"),
            strings: strings)
        let view = PageView(webView: webView, strings: strings)
        view.onClose = { [weak session] in session?.dismiss() }
        session.page = view
        session.onProcessTerminated = { [weak webView] in webView?.reload() }
        return CustomerCenterPresentation(session: session, view: view)
    }

    /// Starts loading the page, unless it was loaded ahead of time (a cold page loads once its
    /// view is in a window, as a paywall's does).
    private func loadPage(of view: CustomerCenterPresentation) {
        guard !view.isLoading else { return }
        view.isLoading = true
        let bundle = resources.web.appendingPathComponent("customer-center")
        do {
            view.webView.load(runtime.mount(try PaywallBundle(path: bundle.path), host: view.webView.bundleHost))
        } catch {
            events.emit(
                .webviewLoadFail, ["url": .string(bundle.path), "reason": .string("\(error)"), "page": "customer_center"])
        }
    }

    /// Redraws the customer center when the desktop switches between light and dark.
    private func watchThemeOnce() {
        guard !watchesTheme, let settings = gtk_settings_get_default() else { return }
        watchesTheme = true
        // Toolkit.interfaceStyle reads both: the dark preference and a `-dark` theme name.
        for property in ["gtk-application-prefer-dark-theme", "gtk-theme-name"] {
            Signal.connect(
                UnsafeMutableRawPointer(settings), "notify::\(property)",
                pointer: { [weak self] _ in
                    guard let self else { return }
                    let isDark = Toolkit.interfaceStyle == "dark"
                    for view in [self.customerCenterOnScreen, self.preloadedCustomerCenter].compactMap({ $0 })
                    where view.session.environment.isDark != isDark {
                        view.session.environment.isDark = isDark
                    }
                })
        }
    }

    private func customerCenterEnvironment() -> CustomerCenterSession.Environment {
        let style = Toolkit.interfaceStyle
        return CustomerCenterSession.Environment(
            appVersion: appVersion, userId: purchases?.userId ?? userId, installedAt: state?.installedAt, isDark: style == "dark",
            device: context.device)
    }
}

/// The customer center on screen: its session (where the user is, the paths' actions) and its view.
@MainActor
public final class CustomerCenterPresentation {
    package let session: CustomerCenterSession
    package let view: PageView
    package var webView: PaywallWebView { view.webView }
    /// The view as a `GtkWidget*`, for `.embedded` and `.pushed`: add it to your container or
    /// `GtkStack`.
    public var widget: UnsafeMutableRawPointer { UnsafeMutableRawPointer(view.widget) }
    /// Its page was asked to load (ahead of time, or when it was shown).
    var isLoading = false
    /// Why the foreign parent it was presented over could not be used (it is then shown
    /// unparented); nil when it was, or none was given.
    public internal(set) var parentProblem: String?

    init(session: CustomerCenterSession, view: PageView) {
        self.session = session
        self.view = view
    }
}
