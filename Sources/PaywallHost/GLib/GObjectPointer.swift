import CGtk

/// GObject C casts, which Swift cannot spell with the C macros (`GTK_WINDOW()` and friends).
/// Every instance pointer travels as an untyped pointer and is viewed as the struct a
/// function wants. Only call with pointers whose GType really is `T` or a subclass.
@inline(__always)
package func gcast<T>(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T>? {
    pointer?.assumingMemoryBound(to: T.self)
}

@inline(__always)
package func gcast<T, U>(_ pointer: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T>? {
    gcast(UnsafeMutableRawPointer(pointer))
}

@inline(__always)
package func gcast<T>(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<T>? {
    gcast(UnsafeMutableRawPointer(pointer))
}

/// Fundamental GTypes, which are macros Swift does not import (`G_TYPE_BOOLEAN` is 5 << 2).
package let booleanGType = GType(5 << 2)
package let stringGType = GType(16 << 2)

/// Takes back one GObject reference.
package func gunref(_ object: UnsafeMutableRawPointer?) {
    if let object { g_object_unref(object) }
}
