import Foundation
import PaywallCore
import XCTest

/// A survey from the app's paywall config, on `paywall present ID`: asked over the paywall
/// when the user closes it, answered with a real click, closed at once by `--dialogs auto`,
/// asked once per user per assignment key across processes, and a bad one refused by
/// `config load` with its path.
final class SurveyTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func loadConfig(probability: String = "1") throws -> PaywallProcess.Outcome {
        let config = workDir.appendingPathComponent("paywalls.json")
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        try """
        {"paywalls": [{"id": "upsell", "manifest_url": "\(template)",
          "survey": {"id": "close_survey", "assignment_key": "close_v1", "title": "Why not today?",
                     "message": "One tap helps us.", "trigger": "on_manual_close", "presentation_probability": \(probability),
                     "include_other": true, "include_close": true,
                     "options": [{"id": "too_expensive", "title": "Too expensive"}, {"id": "just_looking", "title": "Just looking"}]}}]}
        """.write(to: config, atomically: true, encoding: .utf8)
        return try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir], in: workDir)
    }

    private func present(_ extra: [String]) -> [String] {
        [
            "present", "upsell", "--data-dir", dataDir, "--store", catalog, "--events", eventsPath, "--timeout", "60",
            "--eval", "Paywall.close()",
        ] + extra
    }

    private var surveyEvents: [PaywallEvent] {
        loggedEvents().filter { [.paywallDecline, .surveyResponse, .surveyClose, .paywallClose].contains($0.name) }
    }

    func testTheUsersClickOnAnOptionIsASurveyResponseBeforeThePaywallCloses() throws {
        XCTAssertEqual(try loadConfig().status, 0)
        let process = try PaywallProcess(present([]), in: workDir)
        let survey = try XCTUnwrap(RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^Why not today\\?$"))
        // The first option's row: under the title and message, 18 px in from the dialog's edge.
        RealInput.click(window: survey, x: 60, y: 104)
        let result = process.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(surveyEvents.map(\.name), [.paywallDecline, .surveyResponse, .paywallClose])
        let response = try XCTUnwrap(surveyEvents.first { $0.name == .surveyResponse })
        XCTAssertEqual(response.params["survey_id"], "close_survey")
        XCTAssertEqual(response.params["option_id"], "too_expensive")
        XCTAssertEqual(response.params["option_title"], "Too expensive")
        XCTAssertEqual(response.params["custom_text"], .null)
    }

    func testDialogsAutoClosesItUnansweredAndAUserIsAskedOnce() throws {
        XCTAssertEqual(try loadConfig().status, 0)
        let first = try PaywallProcess.run(present(["--dialogs", "auto"]), in: workDir)
        XCTAssertEqual(first.stdout, "{\"result\":\"declined\"}\n", first.stderr)
        XCTAssertEqual(surveyEvents.map(\.name), [.paywallDecline, .surveyClose, .paywallClose])
        XCTAssertEqual(surveyEvents.first { $0.name == .surveyClose }?.params["auto_answered"], true)

        // Another process, the same user and data directory: not asked again.
        try FileManager.default.removeItem(atPath: eventsPath)
        let second = try PaywallProcess.run(present(["--dialogs", "auto"]), in: workDir)
        XCTAssertEqual(second.stdout, "{\"result\":\"declined\"}\n", second.stderr)
        XCTAssertEqual(surveyEvents.map(\.name), [.paywallDecline, .paywallClose])
    }

    func testABadSurveyIsRefusedByConfigLoadWithItsPath() throws {
        let result = try loadConfig(probability: "1.5")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains(
                "paywalls.json: paywalls[0].survey.presentation_probability: must be a number from 0 to 1 (the share of users asked)"
            ),
            result.stderr)
    }
}
