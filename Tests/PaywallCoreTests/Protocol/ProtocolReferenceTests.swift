import Foundation
import XCTest

@testable import PaywallCore

/// `web/PROTOCOL.md` is the page protocol's reference: it must name every message a page may
/// send, every event the runtime reports, and every template variable the runtime produces,
/// so none can ship undocumented.
final class ProtocolReferenceTests: XCTestCase {
    private static let reference = TestPaths.repository.appendingPathComponent("web/PROTOCOL.md")

    private func reference() throws -> String { try String(contentsOf: Self.reference, encoding: .utf8) }

    /// The text of the section that starts at `heading`, up to the next heading of its level.
    private func section(_ heading: String, of text: String) throws -> String {
        guard let start = text.range(of: "\n" + heading + "\n") else { throw MissingSection(heading: heading) }
        let level = heading.prefix { $0 == "#" } + " "
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n" + level)?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    struct MissingSection: Error, CustomStringConvertible {
        let heading: String
        var description: String { "web/PROTOCOL.md has no section \(heading)" }
    }

    private func assertNamed(
        _ names: [String], in text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let missing = names.filter { !text.contains("`\($0)`") }
        XCTAssertEqual(missing, [], "\(what) missing from web/PROTOCOL.md: document each", file: file, line: line)
    }

    // MARK: Page messages

    /// One of each `PageMessage` case. `caseIndex` must list every case (the compiler checks
    /// that), and the test checks every index has a sample, so a new case needs one here.
    private static let samples: [PageMessage] =
        [
            .ping(version: nil), .close, .restore, .purchase(productId: "p", shouldDismiss: true, slot: nil),
            .openURL(url: "u", browserType: nil), .openURLExternal(url: "u"), .openDeepLink(link: "l"), .custom(data: "d"),
            .customPlacement(name: "n", params: [:]), .userAttributesUpdated([]), .requestStoreReview(reviewType: "t"),
            .scheduleNotification(.init(type: "t", title: "t", subtitle: nil, body: "b", delay: 0)),
            .requestPermission(permissionType: "t", requestId: "r"),
            .requestCallback(requestId: "r", name: "n", behavior: "b", variables: nil), .hapticFeedback(hapticType: "t"),
            .pageView(.init(pageNodeId: "p", flowPosition: 0, pageName: "n", navigationNodeId: "n", type: "t")),
            .templateVariableUnknown(name: "n"), .navigationBlocked(url: "u", reason: "r"),
        ] + EventName.webCheckoutSteps.map { .webCheckout(kind: $0, checkoutContextId: "c", productId: nil) }

    private static let caseCount = 19

    private static func caseIndex(_ message: PageMessage) -> Int {
        switch message {
        case .ping: 0
        case .close: 1
        case .restore: 2
        case .purchase: 3
        case .openURL: 4
        case .openURLExternal: 5
        case .openDeepLink: 6
        case .custom: 7
        case .customPlacement: 8
        case .userAttributesUpdated: 9
        case .requestStoreReview: 10
        case .scheduleNotification: 11
        case .requestPermission: 12
        case .requestCallback: 13
        case .hapticFeedback: 14
        case .pageView: 15
        case .webCheckout: 16
        case .templateVariableUnknown: 17
        case .navigationBlocked: 18
        }
    }

    func testEveryPageMessageIsDocumented() throws {
        XCTAssertEqual(Set(Self.samples.map(Self.caseIndex)), Set(0..<Self.caseCount), "a PageMessage case has no sample")
        let names = Self.samples.map(\.eventName)
        assertNamed(names, in: try section("## Page to host: messages", of: try reference()), "page messages")
        // What is documented is what the decoder accepts.
        for name in names where name != "ping" {
            let batch = try PageEnvelopeDecoder().decode(#"{"version": 1, "payload": {"events": [{"event_name": "\#(name)"}]}}"#)
            XCTAssertFalse(batch.problems.first?.reason.hasPrefix("unknown event_name") ?? false, name)
        }
    }

    // MARK: Events

    func testEveryEventNameIsDocumented() throws {
        assertNamed(
            EventName.allCases.map(\.rawValue), in: try section("## Events reported to the app", of: try reference()),
            "EventName cases")
    }

    /// The events the host sends a page, besides those it also reports to the app.
    func testEveryHostEventIsDocumented() throws {
        let host = try section("## Host to page: events", of: try reference())
        assertNamed(
            [
                "products", "template_variables", "template_substitutions_prefix", "fallback_texts", "permission_result",
                "callback_result", "paywall_open", "paywall_close", "dialog_shown",
            ], in: host, "host events")
    }

    // MARK: Template variables

    @MainActor
    func testEveryTemplateVariableIsDocumented() throws {
        let bundle = try makeTemporaryDirectory("ProtocolReferenceTests")
        defer { removeTemporaryDirectory(bundle) }
        _ = try writeFile(#"{"cta": "Go"}"#, to: "locales/en.json", in: bundle)
        let strings = try StringTable(directory: TestPaths.locales, locale: "en_US")
        let trial = Product(
            id: "pro.yearly", displayName: "Pro", price: 39.99, currencyCode: "USD", kind: .autoRenewable,
            period: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "pro",
            introductoryOffer: .init(mode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week)),
            entitlements: ["pro"])
        let variables = TemplateVariables(
            slots: try ProductSlots(parsing: "primary=pro.yearly"), catalog: Catalog(products: [trial]), purchases: nil,
            device: DeviceInfo(
                osName: "Debian GNU/Linux", osVersion: "12", deviceModel: "PC", interfaceStyle: "light", appVersion: "1"),
            locale: Locale(identifier: "en_US"), strings: strings,
            bundleStrings: try BundleStrings(bundleRoot: bundle, locale: "en_US"), userId: "u1")
        let object = try XCTUnwrap(variables.object.objectValue)
        let text = try section("## Template variables", of: try reference())
        assertNamed(object.keys.sorted(), in: text, "template variables")
        assertNamed(
            try XCTUnwrap(object["device"]?.objectValue).keys.sorted().map { "device.\($0)" }, in: text, "device variables")
        assertNamed(
            try XCTUnwrap(object["primary"]?.objectValue).keys.sorted().map { "primary.\($0)" }, in: text, "product attributes")
        assertNamed(try XCTUnwrap(object["user"]?.objectValue).keys.sorted().map { "user.\($0)" }, in: text, "user variables")
    }

    func testTheReadersFindOnlyWhatIsNamed() throws {
        let text = "intro\n## A\n`one` and two\n### A.1\n`three`\n## B\n`four`\n"
        let a = try section("## A", of: text)
        XCTAssertTrue(a.contains("`three`") && !a.contains("four"))
        XCTAssertThrowsError(try section("## C", of: text))
    }
}
