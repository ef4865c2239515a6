/// A window of another process that a sheet is made transient for and modal over: how an app
/// that is not in this process (`paywall serve`'s `parent`) names its window.
package enum ForeignWindow: Equatable, Sendable, CustomStringConvertible {
    /// An X11 window id.
    case x11(UInt)
    /// An xdg-foreign exported handle (`zxdg_exporter_v1`, e.g. GTK 4's `gdk_wayland_toplevel_export_handle`).
    case wayland(String)

    /// Reads `x11:0x3a00007` (hex with `0x`, or decimal) or `wayland:HANDLE`.
    package init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { throw ParseError(text: text, reason: "no kind and id") }
        switch parts[0] {
        case "x11":
            let digits = parts[1]
            let id = digits.lowercased().hasPrefix("0x") ? UInt(digits.dropFirst(2), radix: 16) : UInt(digits)
            guard let id, id != 0 else { throw ParseError(text: text, reason: "\"\(digits)\" is not an X11 window id") }
            self = .x11(id)
        case "wayland":
            guard parts[1].utf8.count <= 4096, !parts[1].contains(where: \.isNewline) else {
                throw ParseError(text: text, reason: "not an exported handle")
            }
            self = .wayland(parts[1])
        default:
            throw ParseError(text: text, reason: "unknown kind \"\(parts[0])\"")
        }
    }

    package var description: String {
        switch self {
        case .x11(let id): "x11:0x" + String(id, radix: 16)
        case .wayland(let handle): "wayland:\(handle)"
        }
    }

    /// Why a parent's text could not be read.
    package struct ParseError: Error, CustomStringConvertible {
        package let text: String
        package let reason: String
        package var description: String {
            "parent \"\(text)\": \(reason); use \"x11:0x3a00007\" (an X11 window id) or \"wayland:HANDLE\" (an xdg-foreign exported handle)"
        }
    }
}
