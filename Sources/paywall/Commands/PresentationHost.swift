import Foundation
import PaywallCore
import PaywallHost

/// What `preview`, `snapshot` and `present` share: checks the bundle and resources, starts
/// GTK, writes the event log, and presents the bundle through the library's `PaywallPresenter`.
@MainActor
final class PresentationHost {
    let bundle: PaywallBundle
    let presenter: PaywallPresenter
    private var exitCode: Int32 = 0

    init(bundlePath: String, eventsPath: String?) throws(CLIError) {
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
        let log: EventLog?
        do { log = try eventsPath.map { path throws(EventLog.OpenError) in try EventLog(path: path) } } catch {
            throw .failure(error.description)
        }
        do { try Toolkit.initialize() } catch { throw .failure(error.description) }
        do { presenter = try PaywallPresenter(resources: resources) } catch { throw .failure("\(error)") }
        if let log { presenter.events.observe { log.append($0) } }
    }

    var events: EventDispatcher { presenter.events }
    var strings: StringTable { presenter.strings }

    /// Presents the bundle and runs the main loop until `finish`; returns the exit code.
    func run(_ options: PaywallPresenter.Options, onPresented: (PaywallPresentation) -> Void = { _ in },
             completion: @escaping @MainActor (PresentationResult) -> Void) -> Int32 {
        onPresented(presenter.present(bundle, options: options, completion: completion))
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
