import Foundation
import XCTest

@testable import PaywallCore

final class PaywallSurveyParsingTests: XCTestCase {
    static let surveyJSON = """
        {"id": "close_survey", "assignment_key": "close_v1", "title": "Why not today?", "message": "One tap helps us",
         "trigger": "on_manual_close", "presentation_probability": 0.5, "include_other": true, "include_close": true,
         "options": [{"id": "too_expensive", "title": "Too expensive"}, {"id": "just_looking", "title": "Just looking"}]}
        """

    /// A config with one paywall whose survey is `survey` (JSON text).
    func config(survey: String) throws(PaywallConfig.ParseError) -> PaywallConfig {
        let text = #"{"paywalls": [{"id": "upsell", "manifest_url": "/tmp/upsell", "survey": "# + survey + "}]}"
        return try PaywallConfig(data: Data(text.utf8), origin: "config.json")
    }

    func error(survey: String) -> String? {
        do {
            _ = try config(survey: survey)
            return nil
        } catch {
            return error.description
        }
    }

    /// `surveyJSON` with `key` replaced by `value` (JSON text), or removed when `value` is nil;
    /// and `include_other` as given.
    func variant(_ key: String, _ value: String?, includeOther: Bool = true) throws -> String {
        var object = try XCTUnwrap(JSONValue(parsing: Self.surveyJSON).objectValue)
        object["include_other"] = .bool(includeOther)
        object[key] = try value.map { try JSONValue(parsing: $0) }
        return JSONValue.object(object).jsonText
    }

    func testConfigEntryReadsItsSurvey() throws {
        let survey = try XCTUnwrap(config(survey: Self.surveyJSON).entry(id: "upsell")?.survey)
        XCTAssertEqual(
            survey,
            PaywallSurvey(
                id: "close_survey", assignmentKey: "close_v1", title: "Why not today?", message: "One tap helps us",
                trigger: .onManualClose, presentationProbability: 0.5,
                options: [.init(id: "too_expensive", title: "Too expensive"), .init(id: "just_looking", title: "Just looking")],
                includeOther: true, includeClose: true))
    }

    func testEntryWithoutSurveyHasNone() throws {
        let text = #"{"paywalls": [{"id": "upsell", "manifest_url": "/tmp/upsell"}]}"#
        XCTAssertNil(try PaywallConfig(data: Data(text.utf8), origin: "config.json").entry(id: "upsell")?.survey)
    }

    func testOptionalFieldsDefault() throws {
        let text =
            #"{"id": "s", "assignment_key": "k", "title": "T", "trigger": "on_purchase", "presentation_probability": 1, "options": [{"id": "a", "title": "A"}]}"#
        let survey = try config(survey: text).paywalls[0].survey
        XCTAssertEqual(survey?.message, "")
        XCTAssertEqual(survey?.includeOther, false)
        XCTAssertEqual(survey?.includeClose, false)
        XCTAssertEqual(survey?.trigger, .onPurchase)
    }

    func testEveryFieldIsCheckedWithItsPath() throws {
        let prefix = "config.json: paywalls[0].survey"
        let cases: [(String, String?, String)] = [
            (
                "presentation_probability", "1.5",
                ".presentation_probability: must be a number from 0 to 1 (the share of users asked)"
            ),
            (
                "presentation_probability", "\"0.5\"",
                ".presentation_probability: must be a number from 0 to 1 (the share of users asked)"
            ),
            (
                "presentation_probability", nil,
                ".presentation_probability: must be a number from 0 to 1 (the share of users asked)"
            ),
            ("id", nil, ".id: missing; it must be a non-empty string"),
            ("id", "\"\"", ".id: must be a non-empty string"),
            ("assignment_key", "3", ".assignment_key: must be a non-empty string"),
            ("title", nil, ".title: missing; it must be a non-empty string"),
            ("message", "false", ".message: must be a string"),
            ("trigger", "\"ON_MANUAL_CLOSE\"", #".trigger: must be "on_manual_close" or "on_purchase""#),
            ("trigger", nil, #".trigger: missing; it must be "on_manual_close" or "on_purchase""#),
            ("include_other", "\"yes\"", ".include_other: must be true or false"),
            ("include_close", "1", ".include_close: must be true or false"),
            ("options", "{}", #".options: must be a list of {"id": ..., "title": ...}"#),
            ("options", #"["a"]"#, #".options[0]: must be an object {"id": ..., "title": ...}"#),
            ("options", #"[{"id": "a"}]"#, ".options[0].title: must be a non-empty string"),
            ("options", #"[{"id": "a", "title": "A"}, {"id": "", "title": "B"}]"#, ".options[1].id: must be a non-empty string"),
            (
                "options", #"[{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]"#,
                #".options[1].id: "a" appears twice; each option needs its own id"#
            ),
            (
                "options", #"[{"id": "other", "title": "A"}]"#,
                #".options[0].id: "other" is the id of the free-text answer; use "include_other": true, or another id"#
            ),
            (
                "options", #"[{"id": "a", "title": "A", "label": "x"}]"#,
                ".options[0].label: unknown key; an option's keys are id, title"
            ),
            (
                "assignmentKey", "\"k\"",
                ".assignmentKey: unknown key; a survey's keys are id, assignment_key, title, message, trigger, presentation_probability, include_other, include_close, options"
            ),
        ]
        for (key, value, expected) in cases {
            XCTAssertEqual(error(survey: try variant(key, value)), prefix + expected, "\(key) = \(value ?? "missing")")
        }
        let eleven = (0...10).map { #"{"id": "o\#($0)", "title": "O"}"# }.joined(separator: ",")
        XCTAssertEqual(
            error(survey: try variant("options", "[\(eleven)]")),
            prefix + ".options: has 11 options; a survey may have at most 10")
        XCTAssertEqual(
            error(survey: try variant("options", "[]", includeOther: false)),
            prefix + #".options: is empty; list at least one option, or set "include_other": true"#)
        XCTAssertEqual(error(survey: "[]"), prefix + #": must be an object, like {"id": "close_survey", ...}"#)
    }

    func testOnlyOtherIsAllowedWithoutOptions() throws {
        XCTAssertEqual(try config(survey: try variant("options", "[]", includeOther: true)).paywalls[0].survey?.options, [])
    }

    func testProbabilityBoundsAreAllowed() throws {
        XCTAssertEqual(
            try config(survey: try variant("presentation_probability", "0")).paywalls[0].survey?.presentationProbability, 0)
        XCTAssertEqual(
            try config(survey: try variant("presentation_probability", "1")).paywalls[0].survey?.presentationProbability, 1)
        XCTAssertNotNil(error(survey: try variant("presentation_probability", "-0.1")))
    }
}
