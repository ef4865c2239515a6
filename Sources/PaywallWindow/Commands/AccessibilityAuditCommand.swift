import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall validate --a11y DIR`: the file checks of `validate`, then axe-core in the real
/// WebKit view, off screen, in light and dark, in English and Arabic (right to left): every
/// violation of the WCAG 2.0/2.1 A and AA rules with the element it is on. Exit 1 if any.
@MainActor
enum AccessibilityAuditCommand {
    /// The audit's languages: left to right and right to left.
    static let locales = ["en_US", "ar_EG"]
    static let themes = ["light", "dark"]
    /// A page not audited by then is reported rather than waited on forever.
    static let runTimeout = 60.0

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let axe = try AxeScript.load(option: arguments.value("--axe"))
        let fileChecks = try BundleCommands.runValidate(arguments)
        let host = try PresentationHost(arguments, command: BundleCommands.validate, offscreen: true, countsAsView: false)
        var problems: [String] = []
        var failure: String?
        let runs = themes.flatMap { theme in locales.map { (theme, $0) } }
        PresentationHost.endOnSignals { _ in Toolkit.quit() }
        func next(_ index: Int) {
            guard index < runs.count else { return Toolkit.quit() }
            let (theme, locale) = runs[index]
            do { try host.presenter.switchLocale(to: locale) } catch {
                failure = "cannot switch to \(locale): \(error)"
                return Toolkit.quit()
            }
            Toolkit.setInterfaceStyle(theme)
            audit(host, body: AxeScript.auditBody(source: axe)) { result in
                switch result {
                case .success(let violations):
                    problems += violations.map { "a11y (\(theme), \(locale)): \($0)" }
                    MainLoop.after(seconds: 0) { next(index + 1) }
                case .failure(let message):
                    failure = "\(theme), \(locale): \(message)"
                    Toolkit.quit()
                }
            }
        }
        MainLoop.after(seconds: 0) { next(0) }
        Toolkit.run()
        if let failure { throw .failure("validate --a11y: \(failure)") }
        for problem in problems { print(problem) }
        let root = arguments.positionals[0]
        print(
            problems.isEmpty
                ? "a11y ok: \(root) (axe-core, \(AxeScript.tags.joined(separator: ", ")); \(runs.count) runs)"
                : "a11y: \(problems.count) problem(s) in \(root)")
        return problems.isEmpty && fileChecks == 0 ? 0 : 1
    }

    /// The failures of one audit: one line per element, "RULE (IMPACT): HELP; element TARGET".
    enum Outcome {
        case success([String])
        case failure(String)
    }

    /// Presents the bundle off screen, runs axe-core once it is ready, takes it down.
    private static func audit(_ host: PresentationHost, body: String, done: @escaping @MainActor (Outcome) -> Void) {
        var presentation: PaywallPresentation?
        var finished = false
        let end = { (outcome: Outcome) in
            guard !finished else { return }
            finished = true
            presentation?.session.onReady = nil
            presentation?.dismiss()
            presentation = nil
            done(outcome)
        }
        MainLoop.after(seconds: runTimeout) { end(.failure("the page was not audited within \(Int(runTimeout)) s")) }
        presentation = host.presenter.present(host.bundle, options: host.options) { result in
            if case .skipped(let reason) = result { end(.failure("not shown (\(reason)); nothing audited")) }
        }
        presentation?.session.onReady = {
            guard let shown = presentation else { return }
            shown.webView.callAsync(body) { result in
                switch result {
                case .failure(let error): end(.failure("axe-core failed in the page: \(error.message)"))
                case .success(let json): end(describe(json))
                }
            }
        }
    }

    private static func describe(_ json: String) -> Outcome {
        guard let violations = (try? JSONValue(parsing: json))?.arrayValue else {
            return .failure("axe-core answered something else than its results: \(json.prefix(200))")
        }
        var lines: [String] = []
        for violation in violations {
            let rule = violation["rule"]?.stringValue ?? "?"
            let impact = violation["impact"]?.stringValue ?? "?"
            let help = violation["help"]?.stringValue ?? ""
            for target in violation["targets"]?.arrayValue ?? [] {
                lines.append("\(rule) (\(impact)): \(help); element \(target.stringValue ?? "?")")
            }
        }
        return .success(lines)
    }
}
