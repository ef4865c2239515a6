import CGtk

/// Which GDK backend this process's display is: what may be asked of it (placing windows,
/// X11 window ids, xdg-foreign handles) depends on it.
enum DisplayBackend {
    case x11
    case wayland
    case other

    static var current: DisplayBackend {
        guard let display = gdk_display_get_default() else { return .other }
        // `GDK_IS_X11_DISPLAY` is a macro (and gdkx.h drags Xlib in): ask the type's name.
        let instance = UnsafeMutablePointer<GTypeInstance>(display)
        switch g_type_name(instance.pointee.g_class.pointee.g_type).map({ String(cString: $0) }) {
        case "GdkX11Display": return .x11
        case "GdkWaylandDisplay": return .wayland
        default: return .other
        }
    }
}
