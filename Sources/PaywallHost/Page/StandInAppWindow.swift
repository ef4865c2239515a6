import CGtk
import Foundation
import PaywallCore

/// A window standing in for an app's own, so `paywall present --presentation` and `paywall
/// customer-center --presentation` can show a page the ways an app hosts it: embedded in a
/// container, or pushed onto a `GtkStack` whose header bar has the app's back button. The
/// CLI's and the tests' scaffolding, not an app's API.
@MainActor
package final class StandInAppWindow {
    private let windowRef: GObjectReference<GtkWidget>
    private let stackRef: GObjectReference<GtkWidget>
    var window: UnsafeMutablePointer<GtkWidget> { windowRef.pointer }
    private var stack: UnsafeMutablePointer<GtkWidget> { stackRef.pointer }
    private var isDestroyed = false

    /// - Parameters:
    ///   - title: the app's title, in its header bar.
    ///   - showsBack: a back button for `.pushed`; it leaves the page like `onClose`.
    ///   - onClose: what closing the window (or its back button) does.
    package init(title: String, size: ViewSize, offscreen: Bool, showsBack: Bool, onClose: @escaping () -> Void) {
        windowRef = GObjectReference(Toolkit.makeWindow(offscreen: offscreen))
        stackRef = GObjectReference(gtk_stack_new()!)
        gtk_stack_set_transition_type(gcast(stack), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        gtk_widget_set_size_request(stack, gint(size.width), gint(size.height))
        if !offscreen {
            let header = gtk_header_bar_new()!
            gtk_header_bar_set_title(gcast(header), title)
            gtk_header_bar_set_show_close_button(gcast(header), 1)
            if showsBack {
                let back = gtk_button_new_from_icon_name("go-previous-symbolic", GTK_ICON_SIZE_BUTTON)!
                Signal.connect(UnsafeMutableRawPointer(back), "clicked", { onClose() })
                gtk_header_bar_pack_start(gcast(header), back)
            }
            gtk_window_set_titlebar(gcast(window), header)
            gtk_window_set_default_size(gcast(window), gint(size.width), gint(size.height))
            gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER)
        }
        // The app's own page under the pushed one.
        gtk_stack_add_named(gcast(stack), gtk_label_new(title), "app")
        gtk_container_add(gcast(window), stack)
        Signal.connect(
            UnsafeMutableRawPointer(window), "delete-event",
            stopping: { _ in
                onClose()
                return true
            })
    }

    /// Shows `widget` as the window's content (embedded) or pushes it onto the stack (pushed).
    package func show(_ widget: UnsafeMutablePointer<GtkWidget>) {
        guard !isDestroyed else { return }
        gtk_stack_add_named(gcast(stack), widget, "page")
        gtk_widget_show_all(window)
        gtk_stack_set_visible_child(gcast(stack), widget)
    }

    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        gtk_widget_destroy(window)
    }
}
