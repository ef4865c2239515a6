import Foundation
import PaywallCore
import PaywallHost

/// `paywall present BUNDLE`: shows the paywall, runs `--eval` scripts once it is ready, and
/// prints the result as one JSON line when it closes.
@MainActor
enum PresentCommand {
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        var timeout: Double?
        if let text = arguments.value("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw .usage("--timeout must be a positive number of seconds; got '\(text)'", Commands.present)
            }
            timeout = seconds
        }
        let host = try PresentationHost(
            bundlePath: arguments.positionals[0], size: try Commands.size(arguments, Commands.present),
            eventsPath: arguments.value("--events"), offscreen: false)
        if let text = arguments.value("--products") {
            do { host.session.productSlots = try ProductSlots(parsing: text) } catch {
                throw .usage("--products: \(error)", Commands.present)
            }
        }
        let stores = try StoreContext(arguments, events: host.events, requireStore: false, command: Commands.present)
        if let purchases = stores.purchases { host.session.enablePurchases(purchases, strings: host.strings) }
        host.session.onFinish = { result in
            FileHandle.standardOutput.write(Data((result.jsonLine + "\n").utf8))
            host.finish(exitCode: result.exitCode)
        }
        let scripts = arguments.all("--eval")
        host.session.onReady = { runScripts(scripts[...], in: host.webView) }
        if let timeout {
            MainLoop.after(seconds: timeout) { host.session.finish(.timeout) }
        }
        guard let purchases = stores.purchases else { return host.run() }
        return host.run(gate: { await PresentationGate.check(purchases, paywallId: host.session.paywallId) })
    }

    /// Runs the scripts one after another. Each is the body of an async function, so it may
    /// `await`; the next starts once its promise has settled.
    private static func runScripts(_ scripts: ArraySlice<String>, in webView: PaywallWebView) {
        guard let script = scripts.first else { return }
        webView.callAsync(script) { result in
            if case .failure(let error) = result {
                PresentationHost.fail("--eval #\(scripts.startIndex + 1) threw: \(error.message)")
            }
            runScripts(scripts.dropFirst(), in: webView)
        }
    }
}
