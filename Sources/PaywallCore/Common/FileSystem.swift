import Foundation

/// Small file-system questions several layers ask.
package enum FileSystem {
    /// Whether `path` is there and is a folder (not a file).
    package static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
