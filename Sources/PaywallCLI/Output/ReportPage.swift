import Foundation
import PaywallCore

/// `paywall report --html`: the report as one self-contained page, light, with its charts as
/// inline SVG (rates with their 95% intervals, the funnel, conversions over time). It loads
/// nothing: no scripts, fonts, images or styles from anywhere.
enum ReportPage {
    /// Variant colours, in order (a holdout is grey).
    private static let palette = ["#2563eb", "#ea580c", "#16a34a", "#9333ea", "#db2777", "#0891b2", "#ca8a04"]
    private static let holdoutColor = "#6b7280"
    private static let chartWidth = 720.0
    private static let labelWidth = 150.0

    static func html(_ result: ReportResult, sources: [String], now: Date = Date()) -> String {
        let sections: [(title: String, variants: [VariantStats])] =
            result.grouping == .variant
            ? result.experiments.map { ("Experiment \($0.id)", $0.variants) }
            : [("By \(result.grouping.rawValue)", result.groups)]
        let body =
            sections.isEmpty || sections.allSatisfy({ $0.variants.isEmpty })
            ? "<p class=\"empty\">\(result.grouping == .variant ? "No experiments in these logs: no event carries an experiment_id." : "No events to group.")</p>"
            : sections.map { section($0.title, $0.variants) }.joined(separator: "\n")
        let files = sources.count == 1 ? escape(sources[0]) : "\(sources.count) event logs"
        let stamp = now.formatted(Date.ISO8601FormatStyle())
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Paywall report</title>
            <style>
            :root { color-scheme: light; }
            body { margin: 0; background: #f6f7f9; color: #111827; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Cantarell, "Noto Sans", sans-serif; }
            main { max-width: 960px; margin: 0 auto; padding: 28px 24px 48px; }
            header h1 { font-size: 26px; margin: 0 0 2px; letter-spacing: -0.01em; }
            header p { margin: 0; color: #4b5563; }
            section { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 20px 22px; margin-top: 22px; box-shadow: 0 1px 2px rgba(0,0,0,.04); }
            h2 { font-size: 19px; margin: 0 0 12px; }
            h3 { font-size: 14px; text-transform: uppercase; letter-spacing: .05em; color: #4b5563; margin: 22px 0 6px; }
            .verdicts { list-style: none; padding: 0; margin: 0 0 8px; }
            .verdicts li { padding: 8px 12px; border-radius: 8px; margin-bottom: 6px; background: #f3f4f6; }
            .verdicts li.win { background: #ecfdf5; color: #065f46; font-weight: 600; }
            table { border-collapse: collapse; width: 100%; font-size: 13px; font-variant-numeric: tabular-nums; }
            th, td { text-align: right; padding: 6px 8px; border-bottom: 1px solid #eef0f3; white-space: nowrap; }
            th:first-child, td:first-child { text-align: left; }
            th { color: #4b5563; font-weight: 600; white-space: normal; vertical-align: bottom; }
            .scroll { overflow-x: auto; }
            td small { color: #6b7280; font-size: 11.5px; }
            .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 3px; margin-right: 6px; vertical-align: baseline; }
            svg { display: block; width: 100%; height: auto; }
            svg text { font: 12.5px system-ui, -apple-system, "Segoe UI", Cantarell, "Noto Sans", sans-serif; fill: #374151; }
            .empty { color: #6b7280; }
            </style></head>
            <body><main>
            <header><h1>Paywall report</h1><p>\(files) · generated \(stamp)</p></header>
            \(body)
            </main></body></html>

            """
    }

    private static func color(_ index: Int, _ variant: VariantStats) -> String {
        variant.holdout ? holdoutColor : palette[index % palette.count]
    }

    private static func section(_ title: String, _ variants: [VariantStats]) -> String {
        var verdicts = ""
        for v in variants {
            for verdict in [v.verdict, v.verdictVersusHoldout].compactMap({ $0 }) {
                let win = verdict != "not enough data yet"
                let text = win ? verdict : "\(v.id): \(verdict)"
                verdicts += "<li\(win ? " class=\"win\"" : "")>\(escape(text))</li>"
            }
        }
        return """
            <section>
            <h2>\(escape(title))</h2>
            \(verdicts.isEmpty ? "" : "<ul class=\"verdicts\">\(verdicts)</ul>")
            \(table(variants))
            <h3>Conversion rate per user, with 95% interval</h3>
            \(rateChart(variants))
            <h3>Funnel</h3>
            \(funnelChart(variants))
            <h3>Conversions over time</h3>
            \(timeChart(variants))
            </section>
            """
    }

    private static func table(_ variants: [VariantStats]) -> String {
        let rows = variants.enumerated().map { index, v in
            let revenue = v.revenuePerImpression.sorted { $0.key < $1.key }
                .map { "\(ReportCommand.money($0.value)) \(escape($0.key))" }.joined(separator: "<br>")
            return """
                <tr><td><span class="swatch" style="background:\(color(index, v))"></span>\(escape(v.id))\(v.holdout ? " (holdout)" : "")</td>\
                <td>\(v.presentationRequests)</td><td>\(v.impressions)</td><td>\(v.users)</td><td>\(v.purchaseStarts)</td>\
                <td>\(v.conversions)</td><td>\(rate(v.conversionRate, v.conversionInterval))</td>\
                <td>\(v.trialStarts)</td><td>\(rate(v.trialStartRate, v.trialStartInterval))</td><td>\(revenue.isEmpty ? "-" : revenue)</td>\
                <td>\(v.probabilityBetter.map(ReportCommand.probability).map(escape) ?? "-")</td></tr>
                """
        }
        return """
            <div class="scroll"><table><thead><tr><th>Variant</th><th>Requests</th><th>Impressions</th><th>Users</th><th>Purchase starts</th>\
            <th>Conversions</th><th>Conversion rate (95% CI)</th><th>Trial starts</th><th>Trial start rate (95% CI)</th><th>Revenue / impression</th>\
            <th>P(better)</th></tr></thead><tbody>\(rows.joined())</tbody></table></div>
            """
    }

    /// A rate over its interval, in a table cell.
    private static func rate(_ rate: Double?, _ interval: WilsonInterval?) -> String {
        guard let rate, let interval else { return "-" }
        return
            "\(ReportCommand.percent(rate))<br><small>\(ReportCommand.percent(interval.low))-\(ReportCommand.percent(interval.high))</small>"
    }

    /// Each variant's rate as a dot on its 95% interval, on a shared percentage axis.
    private static func rateChart(_ variants: [VariantStats]) -> String {
        let rowHeight = 34.0
        let top = 8.0
        let axisY = top + rowHeight * Double(variants.count)
        let height = axisY + 26
        let plotWidth = chartWidth - labelWidth - 150
        let axis = axis(max(variants.compactMap { $0.conversionInterval?.high }.max() ?? 0, 0.01))
        let scale = axis.top
        func x(_ value: Double) -> Double { labelWidth + value / scale * plotWidth }
        var svg = ""
        for step in 0...axis.steps {
            let value = axis.step * Double(step)
            svg += line(x(value), top, x(value), axisY, stroke: "#e5e7eb")
            svg += label(x(value), axisY + 17, ReportCommand.percent(value), anchor: "middle")
        }
        for (index, v) in variants.enumerated() {
            let y = top + rowHeight * (Double(index) + 0.5)
            svg += label(labelWidth - 12, y + 4, v.id, anchor: "end")
            guard let rate = v.conversionRate, let interval = v.conversionInterval else {
                svg += label(labelWidth + 4, y + 4, "no users yet", anchor: "start")
                continue
            }
            let c = color(index, v)
            svg += line(x(interval.low), y, x(interval.high), y, stroke: c, width: 3)
            svg += line(x(interval.low), y - 7, x(interval.low), y + 7, stroke: c, width: 2)
            svg += line(x(interval.high), y - 7, x(interval.high), y + 7, stroke: c, width: 2)
            svg += "<circle cx=\"\(f(x(rate)))\" cy=\"\(f(y))\" r=\"6\" fill=\"\(c)\" stroke=\"#fff\" stroke-width=\"2\"/>"
            svg += label(
                labelWidth + plotWidth + 14, y + 4, ReportCommand.rate(rate, interval), anchor: "start")
        }
        return svgElement(height: height, svg, title: "Conversion rate per user with 95% Wilson intervals")
    }

    /// Requests, impressions, purchase starts and conversions, a bar per variant at each stage.
    private static func funnelChart(_ variants: [VariantStats]) -> String {
        let stages: [(String, (VariantStats) -> Int)] = [
            ("Requests", \.presentationRequests), ("Impressions", \.impressions), ("Purchase starts", \.purchaseStarts),
            ("Conversions", \.conversions), ("Trial starts", \.trialStarts),
        ]
        let barHeight = 14.0
        let gap = 4.0
        let groupHeight = Double(variants.count) * (barHeight + gap) + 12
        let plotWidth = chartWidth - labelWidth - 70
        let most = max(1, stages.flatMap { stage in variants.map(stage.1) }.max() ?? 1)
        var svg = ""
        for (row, stage) in stages.enumerated() {
            let y0 = 6 + groupHeight * Double(row)
            svg += label(labelWidth - 12, y0 + (groupHeight - 12) / 2 + 4, stage.0, anchor: "end")
            for (index, v) in variants.enumerated() {
                let value = stage.1(v)
                let y = y0 + Double(index) * (barHeight + gap)
                let width = max(1, Double(value) / Double(most) * plotWidth)
                svg +=
                    "<rect x=\"\(f(labelWidth))\" y=\"\(f(y))\" width=\"\(f(width))\" height=\"\(f(barHeight))\" rx=\"3\" fill=\"\(color(index, v))\"/>"
                svg += label(labelWidth + width + 6, y + barHeight - 3, "\(value)", anchor: "start")
            }
        }
        return svgElement(height: groupHeight * Double(stages.count) + 4, svg, title: "Funnel per variant")
    }

    /// Cumulative conversions per variant over the logs' time span.
    private static func timeChart(_ variants: [VariantStats]) -> String {
        let times = variants.flatMap(\.conversionTimes)
        guard let first = times.min(), let last = times.max() else {
            return "<p class=\"empty\">No conversions yet.</p>"
        }
        let height = 240.0
        let left = 56.0
        let right = chartWidth - 110
        let top = 10.0
        let bottom = height - 30
        let span = max(last.timeIntervalSince(first), 1)
        let axis = axis(Double(variants.map(\.conversionTimes.count).max() ?? 1), whole: true)
        let most = axis.top
        func x(_ date: Date) -> Double { left + date.timeIntervalSince(first) / span * (right - left) }
        func y(_ count: Double) -> Double { bottom - count / most * (bottom - top) }
        var svg = ""
        for step in 0...axis.steps {
            let value = axis.step * Double(step)
            svg += line(left, y(value), right, y(value), stroke: "#e5e7eb")
            svg += label(left - 8, y(value) + 4, value.formatted(.number.precision(.fractionLength(0))), anchor: "end")
        }
        let style = Date.FormatStyle(date: .abbreviated, time: span < 172_800 ? .shortened : .omitted)
            .locale(Locale(identifier: "en_US"))
        svg += label(left, bottom + 20, first.formatted(style), anchor: "start")
        svg += label(right, bottom + 20, last.formatted(style), anchor: "end")
        for (index, v) in variants.enumerated() where !v.conversionTimes.isEmpty {
            var points = ["\(f(left)),\(f(y(0)))"]
            for (count, time) in v.conversionTimes.enumerated() {
                points.append("\(f(x(time))),\(f(y(Double(count))))")
                points.append("\(f(x(time))),\(f(y(Double(count + 1))))")
            }
            points.append("\(f(right)),\(f(y(Double(v.conversionTimes.count))))")
            let c = color(index, v)
            svg +=
                "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>"
            svg += label(right + 8, y(Double(v.conversionTimes.count)) + 4, "\(v.id) \(v.conversionTimes.count)", anchor: "start")
        }
        return svgElement(height: height, svg, title: "Cumulative conversions over time")
    }

    /// An axis from 0 to at least `value` in at most 5 round steps (1, 2, 2.5 or 5 times a
    /// power of ten; whole numbers for counts).
    private static func axis(_ value: Double, whole: Bool = false) -> (top: Double, step: Double, steps: Int) {
        let rough = value / 5
        let power = pow(10, log10(rough).rounded(.down))
        var step = [1, 2, 2.5, 5, 10].map { $0 * power }.first { $0 >= rough * 0.999_999 } ?? rough
        if whole { step = max(1, step.rounded(.up)) }
        let steps = max(1, Int((value / step - 1e-9).rounded(.up)))
        return (step * Double(steps), step, steps)
    }

    private static func svgElement(height: Double, _ content: String, title: String) -> String {
        """
        <svg viewBox="0 0 \(f(chartWidth)) \(f(height))" role="img" aria-label="\(escape(title))">\
        <title>\(escape(title))</title>\(content)</svg>
        """
    }

    private static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1
    ) -> String {
        "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(f(width))\" stroke-linecap=\"round\"/>"
    }

    private static func label(_ x: Double, _ y: Double, _ text: String, anchor: String) -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\">\(escape(text))</text>"
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Text from the logs (ids, file names) as HTML text: it never becomes markup.
    private static func escape(_ text: String) -> String { ContactSheet.escape(text) }
}
