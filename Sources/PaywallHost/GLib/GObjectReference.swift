import CGtk

/// One strong reference to a GObject, taken when made (sinking a floating one) and dropped
/// when this goes. Every widget the host keeps a pointer to is held through one: GTK destroys
/// a window's children when the window goes, and without a reference of its own a later call
/// (an overlay hidden after a purchase closed its window) would touch freed memory.
@MainActor
final class GObjectReference<Object> {
    let pointer: UnsafeMutablePointer<Object>

    init(_ pointer: UnsafeMutablePointer<Object>) {
        self.pointer = pointer
        g_object_ref_sink(UnsafeMutableRawPointer(pointer))
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}
