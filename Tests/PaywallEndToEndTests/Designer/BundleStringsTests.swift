import Foundation
import PaywallCore
import XCTest

/// A bundle's own string tables: `{{ t.KEY }}` in the user's language, plural forms, the
/// classic template in several languages, and broken tables never shown as raw keys.
final class BundleStringsTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    private func bundle(tables: [String: String], body: String) throws -> URL {
        let root = try inlineBundle("copy", body: body)
        let locales = root.appendingPathComponent("locales")
        try FileManager.default.createDirectory(at: locales, withIntermediateDirectories: true)
        for (locale, json) in tables {
            try json.write(to: locales.appendingPathComponent("\(locale).json"), atomically: true, encoding: .utf8)
        }
        return root
    }

    /// Presents with the fake store; `products` fills slots the bundle's manifest does not.
    private func present(
        _ bundle: String, locale: String, products: [String] = ["--products", "primary=lumen.pro.yearly"],
        _ script: String
    ) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "present", bundle, "--store", catalog, "--data-dir", workDir.appendingPathComponent("data").path,
                "--locale", locale, "--events", eventsPath, "--timeout", "30", "--eval", script,
            ] + products,
            in: workDir)
    }

    private var customData: String? {
        loggedEvents().last { $0.name == .custom }?.params["data"]?.stringValue
    }

    func testTextsAndPluralFormsInTheUsersLanguage() throws {
        let root = try bundle(
            tables: [
                "en":
                    #"{"hello": "Try it for {{ primary.trialPeriodText }}", "days.one": "{count} day", "days.other": "{count} days"}"#,
                "pl":
                    #"{"hello": "Wypróbuj: {{ primary.trialPeriodText }}", "days.one": "{count} dzień", "days.few": "{count} dni (kilka)", "days.many": "{count} dni", "days.other": "{count} dnia"}"#,
            ], body: "<p id='hello'>{{ t.hello }}</p><p id='days'>{{ t.days count=primary.trialPeriodDays }}</p>")
        let script =
            "Paywall.custom(document.getElementById('hello').textContent + ' | ' + document.getElementById('days').textContent); Paywall.close()"
        XCTAssertEqual(try present(root.path, locale: "pl_PL.UTF-8", script).status, 0)
        XCTAssertEqual(customData, "Wypróbuj: 1-tygodniowy bezpłatny okres próbny | 7 dni")
        // A language the bundle has no table for: the whole page is English, runtime texts included.
        XCTAssertEqual(try present(root.path, locale: "fr_FR", script).status, 0)
        XCTAssertEqual(customData, "Try it for 1-week free trial | 7 days")
        XCTAssertEqual(loggedEvents().filter { $0.name == .webviewLoadStart }.count, 2)
    }

    /// The classic template reads naturally in German, with no raw {{ }} anywhere.
    func testTheClassicTemplateInGerman() throws {
        let result = try present(
            template, locale: "de_DE", products: [], "Paywall.custom(document.body.innerText); Paywall.close()")
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try XCTUnwrap(customData)
        XCTAssertTrue(text.contains("Lumen Notes Pro freischalten"), text)
        XCTAssertTrue(text.contains("Jederzeit kündbar"), text)
        XCTAssertFalse(text.contains("{{"), text)
        XCTAssertFalse(loggedEvents().contains { $0.name == .templateVariableUnknown })
    }

    /// Tables that cannot be read show the fallback paywall, never a page of raw keys.
    func testBrokenTablesShowTheFallbackPaywall() throws {
        let root = try bundle(tables: ["en": #"{"hello": "Hi", "hello": "again"}"#], body: "<p>{{ t.hello }}</p>")
        let result = try present(root.path, locale: "en", "Paywall.custom(document.title); Paywall.close()")
        XCTAssertEqual(result.status, 0, result.stderr)
        let fallback = try XCTUnwrap(loggedEvents().first { $0.name == .paywallFallback })
        XCTAssertTrue(fallback.params["reason"]?.stringValue?.contains("duplicate key \"hello\"") ?? false, "\(fallback.params)")
        let validate = try PaywallProcess.run(["validate", root.path], in: workDir)
        XCTAssertTrue(
            validate.stdout.contains("locales") || validate.stderr.contains("locales"), validate.stdout + validate.stderr)
    }
}
