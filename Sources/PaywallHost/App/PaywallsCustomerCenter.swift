import Foundation
import PaywallCore

/// The customer center: where users see and manage what they bought (restore, cancel,
/// refunds, plan changes, support), as a sheet or a widget.
///
/// ```swift
/// paywalls.customerCenter.support.email = "support@example.com"
/// paywalls.presentCustomerCenter(parent: .gtk(appWindow), delegate: myDelegate) { print("dismissed") }
/// ```
extension Paywalls {
    /// The customer center's configuration when a presentation passes none.
    public var customerCenter: CustomerCenterConfiguration {
        get { presenter.customerCenter }
        set { presenter.customerCenter = newValue }
    }

    /// Looks up the app's latest version for the customer center's update banner; nil (the
    /// default) never looks it up.
    public var updateCheck: UpdateCheck? {
        get { presenter.updateCheck }
        set { presenter.updateCheck = newValue }
    }

    /// Whether a customer center is on screen (as a sheet or a widget).
    public var customerCenterIsOnScreen: Bool { presenter.customerCenterIsOnScreen }

    /// Loads the customer center ahead of time and draws its screen in a hidden sheet of the
    /// standard size, so presenting it as such a sheet paints the drawn screen in its first frame.
    public func preloadCustomerCenter() {
        presenter.preloadCustomerCenter()
    }

    /// Shows the customer center in its own window, modal over `parent` when given (another
    /// process's window: `parentProblem` says when it could not be used); nil while one is on
    /// screen. `configuration` overrides `customerCenter` for this presentation; `delegate` is
    /// kept alive until it is dismissed.
    @discardableResult
    public func presentCustomerCenter(
        configuration: CustomerCenterConfiguration? = nil, parent: ParentWindow? = nil,
        delegate: CustomerCenterDelegate? = nil, onDismiss: (() -> Void)? = nil
    ) -> CustomerCenterPresentation? {
        presenter.presentCustomerCenter(
            configuration: configuration, parent: parent, delegate: delegate, onDismiss: onDismiss)
    }

    /// The customer center as a widget for the app to place: `.embedded` in one of its
    /// containers, or `.pushed` onto its navigation stack (a `GtkStack`; the app's back button
    /// leaves it): add `presentation.widget` to it. Nil while one is on screen.
    public func customerCenterWidget(
        _ style: PresentationStyle, configuration: CustomerCenterConfiguration? = nil,
        delegate: CustomerCenterDelegate? = nil, onDismiss: (() -> Void)? = nil
    ) -> CustomerCenterPresentation? {
        presenter.customerCenterWidget(style, configuration: configuration, delegate: delegate, onDismiss: onDismiss)
    }

    /// Takes the customer center on screen down, as its close button would; false when none was.
    @discardableResult
    public func dismissCustomerCenter() -> Bool {
        guard presenter.customerCenterIsOnScreen else { return false }
        presenter.dismissCustomerCenter()
        return true
    }
}
