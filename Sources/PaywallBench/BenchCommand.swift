import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall bench`: how fast paywalls appear and talk, as medians over many runs in one
/// process, printed with the ratios that matter. A program, not a test: no thresholds here.
package enum BenchCommand {
    static var spec: CommandSpec { Commands.bench }

    /// Answers every `request_callback` at once: the bridge round trip's far end.
    @MainActor
    final class EchoDelegate: PaywallDelegate {
        func handleCallback(name: String, variables: [String: JSONValue]?) async -> CallbackResult { .success(nil) }
    }

    @MainActor
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let runs = try count("--runs", default: 20, least: 20, arguments)
        let soakWarmUp = try count("--soak-warmup", default: 100, least: 0, arguments)
        let soakCycles = try count("--soak-cycles", default: 500, least: 1, arguments)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let resources: RuntimeResources
        let presenter: PaywallPresenter
        let paywall: PaywallBundle
        let marked: PaywallBundle
        let serving: PaywallBundle
        do {
            resources = try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
            try BenchFixtures.write(to: work.appendingPathComponent("serve"))
            serving = try PaywallBundle(path: work.appendingPathComponent("serve").path)
            paywall = try PaywallBundle(path: resources.templates.appendingPathComponent("classic").path)
            try BenchFixtures.writeMarked(paywall.root, to: work.appendingPathComponent("marked"))
            marked = try PaywallBundle(path: work.appendingPathComponent("marked").path)
            try Toolkit.initialize()
            presenter = try PaywallPresenter(resources: resources)
        } catch {
            throw .failure("\(error)")
        }
        presenter.catalog = try? CatalogLoader.load(path: paywall.root.appendingPathComponent("store.json").path)
        let delegate = EchoDelegate()
        presenter.delegate = delegate
        var results: BenchResults?
        var failure: String?
        Task { @MainActor in
            do {
                let bench = Bench(presenter: presenter, runs: runs, soakWarmUp: soakWarmUp, soakCycles: soakCycles)
                results = try await bench.measureAll(paywall: paywall, marked: marked, serving: serving, work: work)
            } catch {
                failure = "\(error)"
            }
            Toolkit.quit()
        }
        Toolkit.run()
        guard let results else { throw .failure("benchmark failed: \(failure ?? "unknown error")") }
        print(arguments.has("--json") ? results.json : results.table(runs: runs))
        return 0
    }

    /// The whole number given as `option`, at least `least`; `default` when not given.
    private static func count(_ option: String, default: Int, least: Int, _ arguments: ParsedArguments) throws(CLIError) -> Int {
        guard let text = arguments.value(option) else { return `default` }
        guard let n = Int(text), n >= least else { throw .usage("\(option) must be a whole number of at least \(least)", spec) }
        return n
    }
}
