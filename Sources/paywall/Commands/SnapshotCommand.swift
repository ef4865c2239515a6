import Foundation
import PaywallCore
import PaywallHost

/// `paywall snapshot BUNDLE --out FILE.png`: renders the page off screen once it is ready.
@MainActor
enum SnapshotCommand {
    /// A page that is not ready by then is reported as broken rather than waited on forever.
    static let readyTimeout = 30.0

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard let out = try Commands.outputFile(arguments, "--out") else {
            throw .usage("--out FILE.png is required", Commands.snapshot)
        }
        let host = try PresentationHost(arguments, command: Commands.snapshot, offscreen: true, countsAsView: false)
        var loadError: String?
        host.events.observe { event in
            if event.name == EventName.webviewLoadFail { loadError = event.params["reason"]?.stringValue ?? "load failed" }
        }
        let capture = { (presentation: PaywallPresentation) in
            if let loadError {
                PresentationHost.fail("\(arguments.positionals[0]) did not load: \(loadError)")
                host.finish(exitCode: 1)
                return
            }
            PageCapture.writePNG(of: presentation.webView, to: out) { result in
                switch result {
                case .success:
                    host.finish(exitCode: 0)
                case .failure(let error):
                    PresentationHost.fail(error.description)
                    host.finish(exitCode: 1)
                }
            }
        }
        MainLoop.after(seconds: readyTimeout) {
            PresentationHost.fail("\(arguments.positionals[0]) was not ready after \(Int(readyTimeout)) s; nothing written")
            host.finish(exitCode: 1)
        }
        return host.run(onPresented: { presentation in
            presentation.session.onReady = { capture(presentation) }
        }, completion: { _ in })
    }
}
