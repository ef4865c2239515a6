import Foundation
import PaywallCLI
import PaywallHost
import PaywallSidecar

/// `paywall serve`: the app API over JSON-RPC 2.0 on stdin/stdout, for apps in any language.
@MainActor
enum ServeCommand {
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        do { try Toolkit.initialize() } catch { throw .failure(error.description) }
        let connection: SidecarConnection
        do { connection = try SidecarConnection.standardStreams() } catch let error as CLIError { throw error } catch {
            throw .failure("\(error)")
        }
        let server = SidecarServer(connection: connection)
        var exitCode: Int32 = 0
        server.onShutdown = { Toolkit.quit() }
        PresentationHost.endOnSignals { signal in
            exitCode = 128 + signal
            server.shutdown()
        }
        server.start()
        Toolkit.run()
        return exitCode
    }
}
