import Foundation
import PaywallCore

/// Where `paywall validate --a11y` takes axe-core from: `--axe FILE`, else `$PAYWALL_AXE`, else
/// the `axe.min.js` that PyPI's selenium-axe-python installs beside itself. Nothing third-party
/// ships with the runtime.
package enum AxeScript {
    package static let environmentVariable = "PAYWALL_AXE"
    /// The rules the audit runs: WCAG 2.0 and 2.1, levels A and AA.
    package static let tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

    /// axe-core's source, or an error saying how to get it.
    package static func load(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) -> String {
        let path: String
        if let option {
            path = option
        } else if let variable = environment[environmentVariable], !variable.isEmpty {
            path = variable
        } else if let installed = installedWithPython() {
            path = installed
        } else {
            throw .failure(
                """
                validate --a11y needs axe-core (axe.min.js, 4.9): none given with --axe FILE or $\(environmentVariable), \
                and no python3 on PATH has selenium-axe-python. Get it with: python3 -m venv ~/.local/share/paywall-axe && \
                ~/.local/share/paywall-axe/bin/pip install selenium-axe-python==2.2.0, then pass \
                --axe ~/.local/share/paywall-axe/lib/python3*/site-packages/selenium_axe_python/axe-core/axe.min.js
                """)
        }
        do {
            let source = try String(contentsOfFile: path, encoding: .utf8)
            guard source.contains("axe") else { throw CLIError.failure("\(path) is not axe-core's axe.min.js") }
            return source
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure("cannot read axe-core from \(path): \(FileError.describe(error))")
        }
    }

    /// The `axe.min.js` of selenium-axe-python, asking the `python3` on PATH, then Debian's.
    private static func installedWithPython() -> String? {
        let ask =
            "import os, selenium_axe_python as m; print(os.path.join(os.path.dirname(m.__file__), 'axe-core', 'axe.min.js'))"
        for python in ["/usr/bin/env", "/usr/bin/python3"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = (python == "/usr/bin/env" ? ["python3"] : []) + ["-c", ask]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if process.terminationStatus == 0, FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return nil
    }

    /// The body of the async function run in the page: axe-core, then its run over the page with
    /// `tags`, answered as `[{"rule", "impact", "help", "targets": [...]}]`.
    package static func auditBody(source: String) -> String {
        let tagList = tags.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            if (!window.axe) { \(source)
            }
            const results = await window.axe.run(document, { runOnly: { type: "tag", values: [\(tagList)] }, resultTypes: ["violations"] });
            return results.violations.map(v => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target.join(" ")) }));
            """
    }
}
