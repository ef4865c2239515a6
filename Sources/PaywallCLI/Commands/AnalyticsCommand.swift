import Foundation
import PaywallCore

/// `paywall analytics <action>`: the analytics outbox of a data directory (`analytics.sqlite`):
/// what waits for each sink, and sending it now.
package enum AnalyticsCommand {
    package static let actions: [CommandSpec] = [
        CommandSpec(
            name: "analytics status", summary: "Show each sink's queue, last success and last error.", positionals: [],
            options: [Commands.dataDirOption, OptionSpec(name: "--json", valueName: nil, help: "Print JSON.")],
            discussion: ""),
        CommandSpec(
            name: "analytics flush", summary: "Send the queue now; exit 1 with the reason when events are left.",
            positionals: [],
            options: [
                OptionSpec(
                    name: "--config", valueName: "FILE",
                    help: "The config whose \"analytics\" names the sinks (default: the data directory's cached config)."),
                Commands.dataDirOption,
            ],
            discussion: ""),
    ]

    package static let spec = Subcommands.parent(
        "analytics", summary: "Show or send the analytics outbox (status, flush).",
        preamble: "The outbox is analytics.sqlite in the data directory: events wait there for their sinks.\n\n",
        actions: actions)

    @MainActor
    package static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
        let (command, parsed) = try Subcommands.parse(arguments, parent: spec, actions: actions)
        guard let command, let parsed else { return 0 }
        let explicit = parsed.value("--data-dir")
        let directory = DataDirectory.locate(explicit: explicit)
        if let explicit, !directory.exists {
            throw .failure("--data-dir \(explicit): \(directory.url.path) does not exist; pass the data directory your app uses")
        }
        // Nothing was ever queued here: an empty outbox, left uncreated.
        let outbox: AnalyticsOutbox?
        do {
            outbox =
                FileManager.default.fileExists(atPath: directory.analytics)
                ? try AnalyticsOutbox(path: directory.analytics, readOnly: command.name == "analytics status") : nil
        } catch {
            throw .failure("analytics outbox: \(CommandAdvice.describe(error))")
        }
        if command.name == "analytics status" { return try status(outbox, json: parsed.has("--json")) }
        return try flush(outbox, directory: directory, config: parsed.value("--config"))
    }

    private static func status(_ outbox: AnalyticsOutbox?, json: Bool) throws(CLIError) -> Int32 {
        let sinks: [AnalyticsOutbox.SinkStatus]
        do { sinks = try outbox?.status() ?? [] } catch { throw .failure("analytics outbox: \(CommandAdvice.describe(error))") }
        let consent = outbox?.consent()
        if json {
            let list: [JSONValue] = sinks.map { sink in
                [
                    "sink": .string(sink.sink), "queued": .number(Double(sink.queued)), "oldest": StoreReport.date(sink.oldest),
                    "last_success": StoreReport.date(sink.lastSuccess), "last_error": StoreReport.optional(sink.lastError),
                    "last_error_at": StoreReport.date(sink.lastErrorAt), "dropped": .number(Double(sink.dropped)),
                ]
            }
            StoreCommand.printJSON(["consent": consent.map(JSONValue.bool) ?? .null, "sinks": .array(list)])
            return 0
        }
        print("consent: \(consent.map { $0 ? "given" : "withdrawn" } ?? "not set (the config's default)")")
        if sinks.isEmpty { print("nothing queued") }
        for sink in sinks {
            let success = StoreReport.date(sink.lastSuccess).stringValue ?? "never"
            print("\(sink.sink)\t\(sink.queued) queued\tlast success \(success)\t\(sink.dropped) dropped")
            if let error = sink.lastError {
                print("  last error (\(StoreReport.date(sink.lastErrorAt).stringValue ?? "")): \(error)")
            }
        }
        return 0
    }

    @MainActor
    private static func flush(_ outbox: AnalyticsOutbox?, directory: DataDirectory, config path: String?)
        throws(CLIError) -> Int32
    {
        guard let outbox, outbox.queuedCount() > 0 else {
            print("nothing queued")
            return 0
        }
        let source = path ?? directory.configCache
        guard FileManager.default.fileExists(atPath: source) else {
            throw .failure(
                "\(outbox.queuedCount()) event(s) queued, but no config names the sinks: pass --config FILE with its \"analytics\""
            )
        }
        let settings: AnalyticsSettings?
        do {
            settings = try PaywallConfig(data: try Data(contentsOf: URL(fileURLWithPath: source)), origin: source).analytics
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        let sinks = AnalyticsSink.all(settings)
        let sender = AnalyticsSender(outbox: outbox, sinks: sinks)
        let left = try Subcommands.runAsync { await sender.pass(deadline: Date().addingTimeInterval(60), force: true) }
        var reasons = left.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let names = Set(sinks.map(\.name))
        for sink in ((try? outbox.status()) ?? []) where sink.queued > 0 && !names.contains(sink.sink) {
            reasons.append("\(sink.sink): \(sink.queued) event(s) queued, but \(source) names no such sink")
        }
        let queued = outbox.queuedCount()
        guard queued > 0 else {
            print("sent: nothing left queued")
            return 0
        }
        Diagnostics.fail("\(queued) event(s) left queued: " + reasons.joined(separator: "; "))
        return 1
    }
}
