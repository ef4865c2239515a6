import Foundation
import PaywallCLI

// `paywall`: the command line. It links neither GTK nor WebKit, so `status`, `store`, `cache`,
// `config`, `validate` and `bundle` start as fast as a plain Swift program; the window
// commands are handed to `paywall-window` with `exec`, keeping this process's id, standard
// streams and signals (WebDriver, sidecars and SIGTERM handling rely on them).
let arguments = Array(CommandLine.arguments.dropFirst())
exit(
    MainActor.assumeIsolated {
        runCLI(arguments) { _, _ throws(CLIError) in
            try WindowExecutable.exec(arguments)
        }
    })
