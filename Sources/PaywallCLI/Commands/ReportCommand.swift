import Foundation
import PaywallCore

/// `paywall report FILE...`: conversion by variant (or paywall, placement, locale) from event
/// logs, with 95% intervals and which variant wins; `--html` draws it as one page. Reads
/// files only: no window, no network.
package enum ReportCommand {
    package static let byOption = OptionSpec(
        name: "--by", valueName: "variant|paywall|placement|locale",
        help: "Group by experiment and variant (the default), paywall, placement or the user's locale.")

    package static let spec = CommandSpec(
        name: "report", summary: "Conversion by variant from event logs: rates with 95% intervals, and which variant wins.",
        positionals: ["FILE..."],
        options: [
            byOption,
            OptionSpec(
                name: "--json", valueName: nil,
                help: "Print one JSON object: {\"experiments\": [...]}, or {\"groups\": [...]} with --by other than variant."),
            OptionSpec(
                name: "--html", valueName: "OUT",
                help: "Also write the report as one self-contained HTML page (charts as inline SVG; no network)."),
        ],
        discussion: """
            FILE is an event log written by --events, or webhook events one per line (a line may also be a whole
            {"events": [...]} body); logs of many users and machines may be given together. Users are counted by
            each line's user_id, and where a line has none, each presentation counts as a user. Rates are per
            unique user who saw the paywall (a holdout's: per user held out). A line that is not an event is
            skipped and named on stderr (FILE:LINE) with a count; a file that cannot be read is exit 1.
            """)

    /// At most this many bad lines are named; the rest are counted.
    static let namedBadLines = 20

    @MainActor
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let grouping: ConversionReport.Grouping
        if let text = arguments.value(byOption.name) {
            guard let chosen = ConversionReport.Grouping(rawValue: text) else {
                throw .usage("--by must be variant, paywall, placement or locale; got '\(text)'", spec)
            }
            grouping = chosen
        } else {
            grouping = .variant
        }
        let html = try Commands.outputFile(arguments, "--html")
        var report = ConversionReport(grouping: grouping)
        var badLines = 0
        for path in arguments.positionals {
            do {
                try EventLogReader.read(
                    path, event: { report.add($0, source: path) },
                    bad: { line in
                        badLines += 1
                        if badLines <= namedBadLines { Diagnostics.fail("\(line); skipped") }
                    })
            } catch {
                throw .failure(
                    "\(error); pass event logs written by --events (or webhook events, one per line)")
            }
        }
        if badLines > 0 {
            let named = badLines > namedBadLines ? " (the first \(namedBadLines) named above)" : ""
            Diagnostics.fail("skipped \(badLines) line(s) that are not events\(named)")
        }
        let result = report.result
        if let html {
            let page = ReportPage.html(result, sources: arguments.positionals)
            do {
                try Data(page.utf8).write(to: URL(fileURLWithPath: html), options: .atomic)
            } catch {
                throw .failure("cannot write \(html) (--html): \(CommandAdvice.describe(error))")
            }
        }
        if arguments.has("--json") {
            print(result.json.jsonText)
        } else {
            print(text(result), terminator: "")
        }
        return 0
    }

    /// The report as aligned text: one table per experiment (or one of groups) and the verdicts.
    static func text(_ result: ReportResult) -> String {
        var out = ""
        let sections: [(String, [VariantStats])] =
            result.grouping == .variant
            ? result.experiments.map { ("experiment \($0.id)", $0.variants) }
            : [("by \(result.grouping.rawValue)", result.groups)]
        if sections.isEmpty || sections.allSatisfy({ $0.1.isEmpty }) {
            return result.grouping == .variant
                ? "no experiments in these logs (no event carries an experiment_id)\n" : "no events to group\n"
        }
        for (title, variants) in sections {
            out += title + "\n"
            let header = [
                "variant", "requests", "impressions", "users", "purchase starts", "conversions", "conversion rate (95% CI)",
                "trial starts", "trial rate (95% CI)", "revenue/impression", "P(better)",
            ]
            let rows = variants.map { v in
                [
                    v.id + (v.holdout ? " (holdout)" : ""), "\(v.presentationRequests)", "\(v.impressions)", "\(v.users)",
                    "\(v.purchaseStarts)", "\(v.conversions)", rate(v.conversionRate, v.conversionInterval),
                    "\(v.trialStarts)", rate(v.trialStartRate, v.trialStartInterval),
                    v.revenuePerImpression.sorted { $0.key < $1.key }.map { "\(money($0.value)) \($0.key)" }
                        .joined(separator: ", ").ifEmpty("-"),
                    v.probabilityBetter.map(probability) ?? "-",
                ]
            }
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            for row in [header] + rows {
                out +=
                    "  "
                    + zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces) + "\n"
            }
            let control = variants.first { !$0.holdout }?.id ?? ""
            let holdout = variants.first { $0.holdout }?.id ?? ""
            for v in variants {
                if let verdict = v.verdict { out += "  \(v.id) vs \(control): \(verdict)\n" }
                if let verdict = v.verdictVersusHoldout { out += "  \(v.id) vs \(holdout) (holdout): \(verdict)\n" }
            }
        }
        return out
    }

    static func rate(_ rate: Double?, _ interval: WilsonInterval?) -> String {
        guard let rate, let interval else { return "-" }
        return "\(percent(rate)) (\(percent(interval.low))-\(percent(interval.high)))"
    }

    /// A probability to three decimals; one that would round to 0 or 1 says it is beyond them.
    static func probability(_ value: Double) -> String {
        value >= 0.9995 ? ">0.999" : value < 0.0005 ? "<0.001" : String(format: "%.3f", value)
    }

    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
    static func money(_ value: Double) -> String { String(format: "%.2f", value) }
}

extension String {
    fileprivate func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
