import CGtk
import PaywallCore

/// The window a paywall or the customer center is shown modal over: a GTK 3 window of this
/// app, or a window of another process (an app in another toolkit or language, as
/// `paywall serve`'s `parent` names it). It holds no C types, so an app need not import GTK's
/// headers to pass its window.
///
/// ```swift
/// paywalls.register(placement: "export_pdf", parent: .gtk(window))   // window: the app's GtkWindow*
/// ```
public enum ParentWindow: Equatable {
    /// A toplevel `GtkWindow*` of this app (GTK 3), as a raw pointer: a
    /// `UnsafeMutablePointer<GtkWidget>` converts to it. It must stay alive while the sheet is up.
    case gtk(UnsafeMutableRawPointer)
    /// An X11 window id of another process (`xwininfo`'s `0x3a00007`); needs an X11 display.
    case x11(UInt)
    /// An xdg-foreign exported handle of another process's Wayland toplevel (`zxdg_exporter_v1`,
    /// e.g. GTK 4's `gdk_wayland_toplevel_export_handle`); needs a Wayland display.
    case wayland(exportedHandle: String)
}

extension ParentWindow {
    /// Reads `paywall serve`'s `parent` text: `x11:0x3a00007` or `wayland:HANDLE`.
    package init(parsing text: String) throws(ForeignWindow.ParseError) {
        switch try ForeignWindow(parsing: text) {
        case .x11(let id): self = .x11(id)
        case .wayland(let handle): self = .wayland(exportedHandle: handle)
        }
    }

    /// This app's widget to parent on, or the other process's window.
    package var placement: (own: UnsafeMutablePointer<GtkWidget>?, foreign: ForeignWindow?) {
        switch self {
        case .gtk(let window): (window.assumingMemoryBound(to: GtkWidget.self), nil)
        case .x11(let id): (nil, .x11(id))
        case .wayland(let handle): (nil, .wayland(handle))
        }
    }
}
