import Foundation
import PaywallCore
import PaywallHost

/// What `preview`, `snapshot` and `present` share: checks the bundle and resources, starts
/// GTK, wires the session's events to the log, and puts the bundle in a window.
@MainActor
final class PresentationHost {
    let bundle: PaywallBundle
    let events = EventDispatcher()
    let session: PaywallSession
    let webView: PaywallWebView
    let window: PaywallWindow
    let strings: StringTable
    private let entryURL: URL
    private var exitCode: Int32 = 0
    /// Every bundle of this process is served on this host of the `paywall:` scheme.
    static let bundleHost = "bundle"

    /// - Parameter titleKey: the string-table key of the window title (`{bundle}` is filled in).
    init(bundlePath: String, size: ViewSize, eventsPath: String?, offscreen: Bool,
         titleKey: String = "window.title.present") throws(CLIError) {
        do {
            bundle = try PaywallBundle(path: bundlePath)
        } catch {
            throw .failure(error.description)
        }
        let resources: RuntimeResources
        do {
            resources = try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
        } catch {
            throw .failure(error.description)
        }
        do {
            strings = try StringTable(
                directory: resources.locales,
                locale: SystemLocale.identifier(environment: ProcessInfo.processInfo.environment))
        } catch {
            throw .failure(error.description)
        }
        if let eventsPath {
            let log: EventLog
            do { log = try EventLog(path: eventsPath) } catch { throw .failure(error.description) }
            events.observe { log.append($0) }
        }
        do { try Toolkit.initialize() } catch { throw .failure(error.description) }
        let runtime: WebRuntime
        do { runtime = try WebRuntime(resources: resources) } catch { throw .failure("\(error)") }
        session = PaywallSession(paywallId: bundle.root.lastPathComponent, events: events)
        webView = PaywallWebView(runtime: runtime, session: session, bundleHost: Self.bundleHost)
        let title = strings.text(titleKey, ["bundle": bundle.root.lastPathComponent])
        window = PaywallWindow(webView: webView, title: title, size: size, strings: strings, offscreen: offscreen)
        entryURL = runtime.mount(bundle, host: Self.bundleHost)
    }

    /// Shows the window, loads the bundle and runs until `finish`; returns the exit code.
    /// `gate` runs first, inside the main loop; a result from it ends the presentation unshown.
    func run(gate: (@MainActor () async -> PresentationResult?)? = nil) -> Int32 {
        Task { @MainActor in
            if let gate, let result = await gate() {
                session.finish(result)
                return
            }
            window.show()
            webView.load(entryURL)
        }
        Toolkit.run()
        return exitCode
    }

    func finish(exitCode: Int32) {
        self.exitCode = exitCode
        Toolkit.quit()
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("paywall: \(message)\n".utf8))
    }
}
