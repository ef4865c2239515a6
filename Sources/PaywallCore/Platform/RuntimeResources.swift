import Foundation

/// Finds the runtime's resource folders (`web/`, `templates/`, `locales/`), which live outside
/// `Sources/` so designers can read and edit them.
///
/// Search order: `$PAYWALL_RESOURCES`; `PREFIX/share/paywall` for an executable installed
/// as `PREFIX/bin/paywall`; the package checkout above the executable (for `swift run` and
/// `.build/<config>/paywall`).
public struct RuntimeResources: Equatable, Sendable {
    /// The folder that holds `web/`, `templates/` and `locales/`.
    public let root: URL

    package static let environmentVariable = "PAYWALL_RESOURCES"
    /// A file every valid resource folder has.
    static let marker = "web/bridge.js"

    public struct NotFound: Error, CustomStringConvertible {
        package let searched: [String]
        public var description: String {
            "cannot find the runtime's resources (\(RuntimeResources.marker)); looked in: "
                + searched.joined(separator: ", ")
                + ". Set \(RuntimeResources.environmentVariable) to the folder that holds web/, templates/ and locales/,"
                + " or reinstall the runtime"
        }
    }

    public init(root: URL) {
        self.root = root
    }

    /// Locates the resources for the executable at `executable`.
    public static func locate(
        executable: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NotFound) -> RuntimeResources {
        let candidates = searchPath(executable: executable, environment: environment)
        for candidate in candidates where isResourceRoot(candidate) {
            return RuntimeResources(root: candidate.standardizedFileURL)
        }
        throw NotFound(searched: candidates.map(\.path))
    }

    static func searchPath(executable: URL, environment: [String: String]) -> [URL] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return [URL(fileURLWithPath: explicit)]
        }
        let binDir = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        // PREFIX/bin/paywall, and PREFIX/libexec/paywall/paywall-window -> PREFIX/share/paywall.
        var candidates = [binDir.deletingLastPathComponent().appendingPathComponent("share/paywall")]
        if binDir.deletingLastPathComponent().lastPathComponent == "libexec" {
            candidates.append(
                binDir.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/paywall"))
        }
        // .build/<triple>/<config>/paywall -> the checkout holding Package.swift; every package
        // up the tree, so an app's package inside the checkout (Examples/LumenNotes) finds it.
        var dir = binDir
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                candidates.append(dir)
            }
            dir = dir.deletingLastPathComponent()
        }
        return candidates
    }

    static func isResourceRoot(_ url: URL) -> Bool {
        FileManager.default.isReadableFile(atPath: url.appendingPathComponent(marker).path)
    }

    package var web: URL { root.appendingPathComponent("web") }
    public var templates: URL { root.appendingPathComponent("templates") }
    package var locales: URL { root.appendingPathComponent("locales") }

    /// The page script injected into every page.
    package func bridgeScript() throws -> String {
        let url = root.appendingPathComponent(Self.marker)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw NotFound(searched: [url.path])
        }
    }
}
