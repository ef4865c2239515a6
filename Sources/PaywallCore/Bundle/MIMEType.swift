/// Content types for the files a bundle may hold, by file extension.
package enum MIMEType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "webp": "image/webp",
        "gif": "image/gif",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "txt": "text/plain; charset=utf-8",
    ]

    /// Files of unknown type are sent as opaque bytes, which browsers never execute or render.
    package static let fallback = "application/octet-stream"

    /// The content type for a file name or path, judged by its extension (case-insensitive).
    package static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return fallback }
        let ext = path[path.index(after: dot)...].lowercased()
        return byExtension[ext] ?? fallback
    }
}
