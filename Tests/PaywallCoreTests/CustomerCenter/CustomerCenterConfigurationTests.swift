import Foundation
import XCTest

@testable import PaywallCore

/// The built-in customer-center configuration, the JSON configuration parser, and the support email.
final class CustomerCenterConfigurationTests: XCTestCase {
    typealias Config = CustomerCenterConfiguration

    private func parse(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> Config {
        do {
            return try Config(data: Data(json.utf8), origin: "cc.json")
        } catch {
            XCTFail("unexpected parse error: \(error.description)", file: file, line: line)
            throw error
        }
    }

    /// The error the parser reports for `json`, or nil when it parsed.
    private func parseError(_ json: String) -> String? {
        do {
            _ = try Config(data: Data(json.utf8), origin: "cc.json")
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: Defaults

    func testDefaultManagementPathsAreRestoreChangePlanRefundManageAndContactSupport() {
        let paths = Config.default.managementScreen.paths
        XCTAssertEqual(paths.map(\.id), ["restore", "change_plan", "refund", "manage_subscription", "contact_support"])
        XCTAssertEqual(
            paths.map(\.type),
            [
                .restore, .changePlan(productIds: nil), .refund(window: nil), .manageSubscription,
                .contactSupport,
            ])
        XCTAssertTrue(paths.allSatisfy { $0.title == nil }, "titles come from the string tables")
        XCTAssertNil(Config.default.managementScreen.title)
    }

    func testDefaultCancellationSurveyIsOnManageSubscription() throws {
        let paths = Config.default.managementScreen.paths
        let manage = try XCTUnwrap(paths.first { $0.id == "manage_subscription" })
        let survey = try XCTUnwrap(manage.survey)
        XCTAssertEqual(survey.id, "cancel_survey")
        XCTAssertEqual(survey.options.map(\.id), ["too_expensive", "dont_use", "bought_by_mistake"])
        XCTAssertTrue(survey.options.allSatisfy { $0.title == nil })
        XCTAssertEqual(paths.filter { $0.survey != nil }.map(\.id), ["manage_subscription"], "only cancelling asks")
    }

    func testDefaultNoPurchasesScreenAndSettings() {
        let c = Config.default
        XCTAssertEqual(c.noPurchasesScreen.paths.map(\.id), ["restore", "contact_support"])
        XCTAssertNil(c.support.email)
        XCTAssertNil(c.support.webManagementURL)
        XCTAssertTrue(c.support.shouldWarnToUpdate)
        XCTAssertTrue(c.support.checksForUpdates)
        XCTAssertTrue(c.showsAccountDetails)
        XCTAssertTrue(c.warnsAboutDuplicateSubscriptions)
        XCTAssertNil(c.appearance.accent)
    }

    // MARK: Parsing

    func testParsesAFullExample() throws {
        let json = """
            {
              "management": {
                "title": "Your plan",
                "subtitle": "Manage it here",
                "paths": [
                  {"id": "restore", "type": "restore"},
                  {"id": "cancel", "type": "manage_subscription", "title": "Stop renewing",
                   "survey": {"id": "why", "title": "Why?", "options": [{"id": "too_expensive"}, {"id": "other", "title": "Something else"}]}},
                  {"id": "refund", "type": "refund", "window": 1209600},
                  {"id": "plans", "type": "change_plan", "product_ids": ["pro.yearly"]},
                  {"id": "help", "type": "contact_support"},
                  {"id": "faq", "type": "url", "url": "https://example.com/faq", "title": "FAQ", "open_method": "in_app"},
                  {"id": "tos", "type": "url", "url": "https://example.com/tos", "title": "Terms"},
                  {"id": "feedback", "type": "custom", "identifier": "open_feedback", "title": "Send feedback"}
                ]
              },
              "no_purchases": {"title": "Nothing here", "paths": [{"id": "restore", "type": "restore"}]},
              "support": {
                "email": "help@example.com", "latest_app_version": "2.0.0", "should_warn_to_update": false,
                "checks_for_updates": false, "update_feed_url": "https://example.com/feed.json",
                "web_management_url": "https://billing.example.com/portal"
              },
              "appearance": {"accent": {"light": "#0A84FF", "dark": "#409cff"}},
              "shows_account_details": false,
              "warns_about_duplicate_subscriptions": false
            }
            """
        let expected = Config(
            managementScreen: .init(
                title: "Your plan", subtitle: "Manage it here",
                paths: [
                    .init(id: "restore", type: .restore),
                    .init(
                        id: "cancel", type: .manageSubscription, title: "Stop renewing",
                        survey: .init(
                            id: "why", title: "Why?",
                            options: [
                                .init(id: "too_expensive"),
                                .init(id: "other", title: "Something else"),
                            ])),
                    .init(id: "refund", type: .refund(window: 1_209_600)),
                    .init(id: "plans", type: .changePlan(productIds: ["pro.yearly"])),
                    .init(id: "help", type: .contactSupport),
                    .init(
                        id: "faq", type: .url(URL(string: "https://example.com/faq")!, title: "FAQ", openMethod: .inApp),
                        title: "FAQ"),
                    .init(
                        id: "tos", type: .url(URL(string: "https://example.com/tos")!, title: "Terms", openMethod: .external),
                        title: "Terms"),
                    .init(id: "feedback", type: .custom(identifier: "open_feedback"), title: "Send feedback"),
                ]),
            noPurchasesScreen: .init(title: "Nothing here", paths: [.init(id: "restore", type: .restore)]),
            support: .init(
                email: "help@example.com", latestAppVersion: "2.0.0", shouldWarnToUpdate: false, checksForUpdates: false,
                updateFeedURL: URL(string: "https://example.com/feed.json")!,
                webManagementURL: URL(string: "https://billing.example.com/portal")!),
            appearance: .init(accent: .init(light: "#0A84FF", dark: "#409cff")),
            showsAccountDetails: false, warnsAboutDuplicateSubscriptions: false)
        let parsed = try parse(json)
        XCTAssertEqual(parsed.managementScreen, expected.managementScreen)
        XCTAssertEqual(parsed.noPurchasesScreen, expected.noPurchasesScreen)
        XCTAssertEqual(parsed.support, expected.support)
        XCTAssertEqual(parsed.appearance, expected.appearance)
        XCTAssertEqual(parsed, expected)
    }

    func testAnEmptyObjectKeepsEveryDefault() throws {
        XCTAssertEqual(try parse("{}"), Config.default)
        XCTAssertEqual(
            try parse(#"{"support": {"email": "a@b.c"}}"#).managementScreen, Config.defaultManagementScreen,
            "an omitted screen keeps its default")
    }

    func testParsesCamelCaseKeys() throws {
        let json = """
            {
              "noPurchases": {"paths": [{"id": "r", "type": "restore"}]},
              "management": {"paths": [
                {"id": "c", "type": "manageSubscription"},
                {"id": "p", "type": "changePlan", "productIds": ["pro.yearly"]},
                {"id": "s", "type": "contactSupport"},
                {"id": "f", "type": "url", "url": "https://example.com/f", "title": "F", "openMethod": "inApp"}
              ]},
              "support": {"latestAppVersion": "1.2", "shouldWarnToUpdate": false, "checksForUpdates": false,
                          "updateFeedURL": "https://example.com/feed.json", "webManagementUrl": "https://billing.example.com"},
              "showsAccountDetails": false,
              "warnsAboutDuplicateSubscriptions": false
            }
            """
        let c = try parse(json)
        XCTAssertEqual(c.noPurchasesScreen.paths, [.init(id: "r", type: .restore)])
        XCTAssertEqual(
            c.managementScreen.paths.map(\.type),
            [
                .manageSubscription, .changePlan(productIds: ["pro.yearly"]), .contactSupport,
                .url(URL(string: "https://example.com/f")!, title: "F", openMethod: .inApp),
            ])
        XCTAssertEqual(
            c.support,
            .init(
                latestAppVersion: "1.2", shouldWarnToUpdate: false, checksForUpdates: false,
                updateFeedURL: URL(string: "https://example.com/feed.json")!,
                webManagementURL: URL(string: "https://billing.example.com")!))
        XCTAssertFalse(c.showsAccountDetails)
        XCTAssertFalse(c.warnsAboutDuplicateSubscriptions)
    }

    func testErrorNamesTheFieldOfAnUnknownPathType() throws {
        let error = try XCTUnwrap(
            parseError(#"{"management": {"paths": [{"id": "r", "type": "restore"}, {"id": "x", "type": "teleport"}]}}"#))
        XCTAssertTrue(error.hasPrefix(#"cc.json: management.paths[1].type: unknown path type "teleport""#), error)
    }

    func testErrorNamesTheTitleOfAUrlPathWithoutOne() throws {
        let error = try XCTUnwrap(
            parseError(#"{"no_purchases": {"paths": [{"id": "u", "type": "url", "url": "https://example.com"}]}}"#))
        XCTAssertTrue(error.hasPrefix("cc.json: no_purchases.paths[0].title: is required for a url path"), error)
        let noURL = try XCTUnwrap(parseError(#"{"management": {"paths": [{"id": "u", "type": "url", "title": "U"}]}}"#))
        XCTAssertEqual(noURL, "cc.json: management.paths[0].url: is required for a url path")
    }

    func testErrorNamesABadColour() throws {
        XCTAssertEqual(
            parseError(##"{"appearance": {"accent": {"light": "#12345", "dark": "#000000"}}}"##),
            ##"cc.json: appearance.accent.light: must be a #RRGGBB colour; got "#12345""##)
        XCTAssertEqual(
            parseError(##"{"appearance": {"accent": {"light": "#000000", "dark": "blue"}}}"##),
            ##"cc.json: appearance.accent.dark: must be a #RRGGBB colour; got "blue""##)
        XCTAssertEqual(
            parseError(##"{"appearance": {"accent": {"light": "#GGGGGG", "dark": "#000000"}}}"##),
            ##"cc.json: appearance.accent.light: must be a #RRGGBB colour; got "#GGGGGG""##)
        XCTAssertEqual(
            parseError(##"{"appearance": {"accent": {"light": "#000000"}}}"##),
            "cc.json: appearance.accent.dark: is required")
    }

    func testErrorNamesAnUnknownKey() throws {
        let top = try XCTUnwrap(parseError(#"{"colour": "red"}"#))
        XCTAssertTrue(top.hasPrefix(#"cc.json: unknown key "colour"; known keys: management, no_purchases"#), top)
        let nested = try XCTUnwrap(parseError(#"{"support": {"emial": "help@example.com"}}"#))
        XCTAssertTrue(nested.hasPrefix(#"cc.json: support: unknown key "emial"; known keys: email"#), nested)
        let inPath = try XCTUnwrap(parseError(#"{"management": {"paths": [{"id": "r", "type": "restore", "openWith": "x"}]}}"#))
        XCTAssertTrue(inPath.hasPrefix(#"cc.json: management.paths[0]: unknown key "open_with""#), inPath)
        let inSurvey = try XCTUnwrap(
            parseError(
                #"{"management": {"paths": [{"id": "c", "type": "manage_subscription", "survey": {"id": "s", "options": [{"id": "a", "label": "A"}]}}]}}"#
            ))
        XCTAssertTrue(inSurvey.hasPrefix(#"cc.json: management.paths[0].survey.options[0]: unknown key "label""#), inSurvey)
    }

    func testOtherErrorsNameTheirField() {
        XCTAssertEqual(parseError("not json"), "cc.json: not JSON text (unexpected character at line 1, column 1)")
        XCTAssertEqual(parseError("[]"), "cc.json: must be an object")
        XCTAssertEqual(
            parseError(#"{"management": {"paths": [{"id": "r", "type": "restore"}, {"id": "r", "type": "restore"}]}}"#),
            #"cc.json: management.paths[1]: path id "r" appears twice"#)
        XCTAssertEqual(
            parseError(#"{"management": {"paths": [{"id": "r", "type": "refund", "window": -5}]}}"#),
            "cc.json: management.paths[0].window: must be a positive number of seconds")
        XCTAssertEqual(
            parseError(#"{"management": {"title": "x", "paths": 3}}"#), "cc.json: management.paths: must be an array of paths")
        XCTAssertEqual(parseError(#"{"shows_account_details": "yes"}"#), "cc.json: shows_account_details: must be true or false")
        XCTAssertEqual(
            parseError(#"{"support": {"web_management_url": "billing"}}"#),
            #"cc.json: support.web_management_url: must be an http or https URL; got "billing""#)
        XCTAssertEqual(
            parseError(#"{"management": {"paths": [{"type": "restore"}]}}"#), "cc.json: management.paths[0].id: is required")
        XCTAssertEqual(
            parseError(#"{"management": {"paths": [{"id": "c", "type": "custom"}]}}"#),
            "cc.json: management.paths[0].identifier: is required")
    }

    func testCustomPathNeedsATitle() {
        XCTAssertEqual(
            parseError(#"{"management": {"paths": [{"id": "c", "type": "custom", "identifier": "join_beta"}]}}"#),
            "cc.json: management.paths[0].title: is required for a custom path (it has no default title)")
    }

    func testSupportEmailMustBeAnAddress() {
        for bad in [
            "support", "@example.com", "help@", "a@b@c", "Help <help@example.com>", "help@example.com, b@c.d", "a b@c.d",
            "help@.example", #"help@example.com\n"#,
        ] {
            XCTAssertEqual(
                parseError(#"{"support": {"email": "\#(bad)"}}"#),
                #"cc.json: support.email: must be an email address like "support@example.com"; got "\#(bad)""#, bad)
        }
        XCTAssertNil(parseError(#"{"support": {"email": "first.last+tag@mail.example.co.uk"}}"#))
        XCTAssertNil(parseError(#"{"support": {"email": "root@localhost"}}"#))
    }

    func testDeepNestingAndDuplicateKeysAreRefused() throws {
        let deep = try XCTUnwrap(parseError(Fuzz.deeplyNested))
        XCTAssertTrue(deep.hasPrefix("cc.json: not JSON text (nested more than 512 levels at line 1, column 513)"), deep)
        XCTAssertEqual(parseError(Fuzz.wideAndDeep), "cc.json: must be an object")
        XCTAssertEqual(
            parseError(#"{"support": {"email": "a@b.c"}, "support": {"email": 5}}"#),
            #"cc.json: not JSON text (duplicate key "support" (each key may appear once in an object; remove one) at line 1, column 33)"#
        )
        XCTAssertEqual(
            parseError(#"{"support": {"email": "a@b.c", "webManagementURL": "https://a.example", "web_management_url": "x"}}"#),
            #"cc.json: support: "webManagementURL" and "web_management_url" are the same key; keep one"#)
    }

    // MARK: Support email

    /// The `mailto:` URL's address and its decoded query fields.
    private func mailParts(_ url: URL) throws -> (address: String, fields: [String: String]) {
        let text = url.absoluteString
        XCTAssertTrue(text.hasPrefix("mailto:"), text)
        let rest = text.dropFirst("mailto:".count)
        let parts = rest.split(separator: "?", maxSplits: 1).map(String.init)
        XCTAssertEqual(parts.count, 2, text)
        var fields: [String: String] = [:]
        for pair in parts[1].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            fields[kv[0]] = try XCTUnwrap((kv.count > 1 ? kv[1] : "").removingPercentEncoding)
        }
        return (try XCTUnwrap(parts[0].removingPercentEncoding), fields)
    }

    func testSupportEmailURLIsAMailtoWhoseBodyCarriesTheDiagnostics() throws {
        let mail = SupportEmail(
            address: "help+app@example.com",
            diagnostics: .init(
                userId: "user&1=2 ?", appVersion: "1.2.3", os: "Ubuntu 24.04", deviceModel: "Test PC",
                activeEntitlements: ["pro", "beta"], isSandbox: true), strings: try ccStrings())
        XCTAssertEqual(mail.url.scheme, "mailto")
        let (address, fields) = try mailParts(mail.url)
        XCTAssertEqual(address, "help+app@example.com")
        XCTAssertEqual(Set(fields.keys), ["subject", "body"], "the user id's & and = must not split the query")
        XCTAssertEqual(fields["subject"], "Help with my subscription")
        let body = try XCTUnwrap(fields["body"])
        XCTAssertEqual(body, mail.body)
        for line in [
            "User ID: user&1=2 ?", "App version: 1.2.3", "OS: Ubuntu 24.04", "Device: Test PC",
            "Paywall runtime: \(DeviceInfo.runtimeVersion)", "Active entitlements: beta, pro", "Sandbox: yes",
        ] {
            XCTAssertTrue(body.components(separatedBy: "\n").contains(line), "missing \(line) in\n\(body)")
        }
        XCTAssertTrue(body.hasPrefix("\n\n"), "the body starts blank for the user")
    }

    func testSupportEmailSaysWhenThereIsNothingToReport() throws {
        let mail = SupportEmail(
            address: "help@example.com",
            diagnostics: .init(
                userId: "u1", appVersion: "", os: "Fedora 40", deviceModel: "PC", runtimeVersion: "9.9.9",
                activeEntitlements: [], isSandbox: false), strings: try ccStrings())
        let body = try XCTUnwrap(try mailParts(mail.url).fields["body"])
        for line in [
            "User ID: u1", "App version: unknown", "OS: Fedora 40", "Paywall runtime: 9.9.9",
            "Active entitlements: none", "Sandbox: no",
        ] {
            XCTAssertTrue(body.components(separatedBy: "\n").contains(line), "missing \(line) in\n\(body)")
        }
    }
}
