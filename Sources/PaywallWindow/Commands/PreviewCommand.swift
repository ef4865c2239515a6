import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall preview BUNDLE`: a window that reloads whenever a file of the bundle changes.
@MainActor
enum PreviewCommand {
    static let pollInterval = 0.25

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let host = try PresentationHost(
            arguments, command: Commands.preview, countsAsView: false,
            titleKey: "window.title.preview")
        var webView: PaywallWebView?
        var fingerprint = BundleFingerprint(root: host.bundle.root)
        MainLoop.every(seconds: pollInterval) {
            let current = BundleFingerprint(root: host.bundle.root)
            let changed = current.changes(since: fingerprint)
            guard !changed.isEmpty else { return true }
            fingerprint = current
            host.events.emit(.bundleReload, ["files": .array(changed.map(JSONValue.string))])
            webView?.reload()
            return true
        }
        return host.run(onPresented: { webView = $0.webView }, completion: { _ in host.finish(exitCode: 0) })
    }
}
