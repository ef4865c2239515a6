import PaywallCore

/// The `index.html` of a snapshot matrix: a plain page showing every image with its name, a
/// section per locale and a row per theme, and after a `--compare` each image's status, the
/// diff image of a changed one and the baseline's images this run did not render.
package enum ContactSheet {
    package static func html(title: String, matrix: SnapshotMatrix, report: SnapshotReport?) -> String {
        var body = ["<h1>\(escape(title))</h1>"]
        let count = matrix.shots.count
        var intro =
            "\(count) image\(count == 1 ? "" : "s"): \(matrix.locales.count) locale(s) × \(matrix.themes.count) theme(s) × \(matrix.sizes.count) size(s)."
        if let report {
            intro += " Compared with the baseline: \(report.summary) (details in <a href=\"report.json\">report.json</a>)."
        }
        body.append("<p>\(intro)</p>")
        for locale in matrix.locales {
            body.append("<section><h2>\(escape(locale))</h2>")
            for theme in matrix.themes {
                body.append("<h3>\(escape(theme))</h3><div class=\"row\">")
                for size in matrix.sizes {
                    body.append(
                        figure(
                            SnapshotMatrix.Shot(locale: locale, theme: theme, size: size),
                            entry: report?.entry(named: "\(locale)_\(theme)_\(size)")))
                }
                body.append("</div>")
            }
            body.append("</section>")
        }
        let missing = report?.entries.filter { $0.status == .missing } ?? []
        if !missing.isEmpty {
            body.append("<section><h2>Missing from this run</h2><p>In the baseline, not rendered now:</p><ul>")
            body += missing.map { "<li class=\"missing\">\(escape($0.name))</li>" }
            body.append("</ul></section>")
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            body { font: 14px sans-serif; margin: 24px; background: #eee; color: #222; }
            .row { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
            figure { margin: 0; padding: 8px; background: #fff; border: 2px solid #ccc; }
            figure img { display: block; max-width: 320px; height: auto; }
            figure .pair { display: flex; gap: 8px; }
            .changed { border-color: #d00; } .new { border-color: #06c; } .missing { color: #d00; }
            figcaption b { text-transform: uppercase; font-size: 12px; }
            </style></head>
            <body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    private static func figure(_ shot: SnapshotMatrix.Shot, entry: SnapshotReport.Entry?) -> String {
        let image = "<a href=\"\(escape(shot.fileName))\"><img src=\"\(escape(shot.fileName))\" alt=\"\(escape(shot.name))\"></a>"
        guard let entry else { return "<figure>\(image)<figcaption>\(escape(shot.name))</figcaption></figure>" }
        var images = image
        var caption = "\(escape(shot.name)) <b>\(entry.status.rawValue)</b>"
        if let difference = entry.difference, difference.differingPixels > 0 {
            caption += " \(difference.differingPixels) differing pixel(s)"
        }
        if entry.status == .changed {
            let diff = escape(entry.diffFileName)
            images += "<a href=\"\(diff)\"><img src=\"\(diff)\" alt=\"where \(escape(shot.name)) changed\"></a>"
        }
        return
            "<figure class=\"\(entry.status.rawValue)\"><div class=\"pair\">\(images)</div><figcaption>\(caption)</figcaption></figure>"
    }

    /// Text as HTML text or a double-quoted attribute value (also `ReportPage`'s).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
