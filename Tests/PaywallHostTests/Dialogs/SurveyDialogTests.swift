import CGtk
import Foundation
import PaywallCore
import XCTest

@testable import PaywallHost

/// A paywall's survey as GTK draws it, driven through its real widgets: over a real paywall
/// window (its answer as `survey_response`, its dismissal as `survey_close`, each before
/// `paywall_close`), its "Other" field, and its text direction. Needs a display.
final class SurveyDialogTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("SurveyDialogTests") }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    static let survey = PaywallSurvey(
        id: "close_survey", assignmentKey: "close_v1", title: "Why not today?", message: "One tap helps us",
        trigger: .onManualClose, presentationProbability: 1,
        options: [.init(id: "too_expensive", title: "Too expensive"), .init(id: "later", title: "Maybe later")],
        includeOther: true, includeClose: true)

    /// Keeps the presenter of `closedPaywall` (and with it its presentations) alive.
    private var presenter: PaywallPresenter?

    /// A paywall on screen with `survey`, closed by the user; returns once its survey is up.
    @MainActor
    func closedPaywall(locale: String = "en_US") async throws
        -> (
            PaywallPresentation, SurveyDialog, names: () -> [EventName], events: () -> [PaywallEvent],
            results: () -> [PresentationResult]
        )
    {
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: locale)
        self.presenter = presenter
        presenter.state = try RuntimeState(path: dir.appendingPathComponent("runtime-\(locale).sqlite").path)
        var events: [PaywallEvent] = []
        presenter.events.observe { events.append($0) }
        var results: [PresentationResult] = []
        var options = PaywallPresenter.Options()
        options.survey = Self.survey
        let bundle = try PaywallBundle(path: packageRoot.appendingPathComponent("templates/classic").path)
        let presentation = presenter.present(bundle, options: options) { results.append($0) }
        let ready = await runLoop { events.contains { $0.name == .pageReady } }
        XCTAssertTrue(ready, "the page never became ready")
        presentation.session.windowClosedByUser()
        let dialog = try XCTUnwrap(presentation.view.surveyDialog, "the user's close asks the survey")
        return (presentation, dialog, { events.map(\.name) }, { events }, { results })
    }

    @MainActor
    func testAnAnswerIsASurveyResponseBeforeThePaywallCloses() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, dialog, names, events, results) = try await closedPaywall()
        let paywallWindow = try XCTUnwrap(presentation.view.window)
        XCTAssertTrue(gtk_window_get_transient_for(gcast(dialog.window)) == gcast(paywallWindow), "over the paywall's window")
        XCTAssertEqual(gtk_window_get_modal(gcast(dialog.window)), 1)
        XCTAssertEqual(results(), [], "the paywall waits for the answer")

        dialog.activateRow(option: "later")
        let ended = await runLoop { !results().isEmpty }
        XCTAssertTrue(ended)
        XCTAssertEqual(results(), [.declined])
        XCTAssertEqual(
            names().filter { [.paywallDecline, .surveyResponse, .surveyClose, .paywallClose].contains($0) },
            [.paywallDecline, .surveyResponse, .paywallClose])
        let response = try XCTUnwrap(events().first { $0.name == .surveyResponse })
        XCTAssertEqual(response.params["option_id"], "later")
        XCTAssertEqual(response.params["option_title"], "Maybe later")
        XCTAssertNil(presentation.view.surveyDialog, "the dialog is gone")
    }

    @MainActor
    func testClosingTheDialogIsASurveyClose() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (_, dialog, names, events, results) = try await closedPaywall()
        // The window manager's close (and Escape) reach the dialog as a delete event.
        gtk_window_close(gcast(dialog.window))
        let ended = await runLoop { !results().isEmpty }
        XCTAssertTrue(ended)
        XCTAssertEqual(results(), [.declined])
        XCTAssertEqual(
            names().filter { [.surveyResponse, .surveyClose, .paywallClose].contains($0) }, [.surveyClose, .paywallClose])
        XCTAssertEqual(events().first { $0.name == .surveyClose }?.params["auto_answered"], false)
    }

    @MainActor
    func testTheOtherFieldSubmitsWrittenTextOnly() async throws {
        guard try startToolkitOnDisplay() else { return }
        var answers: [SurveyAnswer] = []
        let prompt = SurveyPrompt(
            Self.survey, strings: try StringTable(directory: packageRoot.appendingPathComponent("locales"), locale: "en"))
        let dialog = SurveyDialog(prompt, parent: nil, rightToLeft: false) { answers.append($0) }
        XCTAssertFalse(dialog.showsOtherField, "hidden until Other is picked")
        dialog.activateRow(option: nil)
        XCTAssertTrue(dialog.showsOtherField)
        dialog.clickSubmit()
        dialog.type("   ")
        dialog.clickSubmit()
        XCTAssertEqual(answers, [], "nothing written, nothing sent")
        dialog.type("No Linux version of the app I use")
        dialog.clickSubmit()
        XCTAssertEqual(answers, [.other(text: "No Linux version of the app I use")])
        _ = await runLoop(timeout: 1) { false }
        XCTAssertEqual(answers.count, 1, "answered once, though the dialog's destruction follows")
    }

    @MainActor
    func testTheCloseOptionDismisses() async throws {
        guard try startToolkitOnDisplay() else { return }
        var answers: [SurveyAnswer] = []
        let prompt = SurveyPrompt(Self.survey, strings: nil)
        let dialog = SurveyDialog(prompt, parent: nil, rightToLeft: false) { answers.append($0) }
        gtk_dialog_response(gcast(dialog.window), GTK_RESPONSE_CLOSE.rawValue)
        XCTAssertEqual(answers, [.dismissed])
    }

    @MainActor
    func testARightToLeftLocaleLaysItOutRightToLeft() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (presentation, dialog, _, _, results) = try await closedPaywall(locale: "he_IL.UTF-8")
        XCTAssertEqual(gtk_widget_get_direction(dialog.window), GTK_TEXT_DIR_RTL)
        let content = try XCTUnwrap(gtk_dialog_get_content_area(gcast(dialog.window)))
        XCTAssertEqual(gtk_widget_get_direction(content), GTK_TEXT_DIR_RTL, "and everything in it")
        presentation.dismiss()
        _ = await runLoop { !results().isEmpty }
        XCTAssertEqual(results(), [.declined], "taken down while the survey is up: the user's close stands")
    }
}
