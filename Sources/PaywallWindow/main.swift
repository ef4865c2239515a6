import Foundation
import PaywallBench
import PaywallCLI

// `paywall-window`: runs the commands that open a window (`preview`, `snapshot`, `present`,
// `customer-center`, `serve`, `bench`), with GTK and WebKit. `paywall` execs it for them; run on its
// own it takes the same command line as `paywall`.
exit(
    MainActor.assumeIsolated {
        runCLI(Array(CommandLine.arguments.dropFirst())) { command, parsed throws(CLIError) in
            switch command.name {
            case Commands.preview.name: try PreviewCommand.run(parsed)
            case Commands.snapshot.name: try SnapshotCommand.run(parsed)
            case Commands.present.name: try PresentCommand.run(parsed)
            case Commands.customerCenter.name: try CustomerCenterCommand.run(parsed)
            case Commands.serve.name: try ServeCommand.run(parsed)
            case BundleCommands.validate.name: try AccessibilityAuditCommand.run(parsed)
            default: try BenchCommand.run(parsed)
            }
        }
    })
