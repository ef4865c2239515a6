import Foundation
import XCTest

@testable import PaywallCore

/// `GumroadLicenseAPI` against a local server following Gumroad's documented
/// `POST /v2/licenses/verify`, which checks every request's method, path and form body.
final class GumroadLicenseAPITests: XCTestCase {
    private var directory: URL!
    private var server: GumroadTestServer!
    private let pauses = PauseRecorder()
    private static let key = "85DB562A-C11D4B06-A2335A6B-8C079166"
    /// The catalog's Gumroad products, in catalog order; the test key is P-PRO's.
    private static let products = ["P-BASIC", "P-PRO"]

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("GumroadAPI")
        server = try GumroadTestServer(directory: directory.appendingPathComponent("server"))
    }

    override func tearDown() {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke Gumroad's documented form")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func api(retries: Int = 3, maxResponseBytes: Int = 64_000, now: Date = Date()) throws(LicenseError)
        -> GumroadLicenseAPI
    {
        let pauses = self.pauses
        return try GumroadLicenseAPI(
            productIds: Self.products, baseURL: server.baseURL, retries: retries, maxResponseBytes: maxResponseBytes,
            sleep: { await pauses.record($0) }, now: { now })
    }

    func testActivateFindsTheKeysProductAndCountsOneUseThereOnly() async throws {
        server.licenses[Self.key] = GumroadTestServer.license()
        let answer = try await api().activate(key: Self.key, instanceName: "Ada's laptop & desk")
        XCTAssertEqual(server.asked, ["P-BASIC false", "P-PRO false", "P-PRO true"])
        XCTAssertEqual(server.requests.last?["form"]?["license_key"]?.stringValue, Self.key)
        XCTAssertEqual(server.requests.last?["uses"], 1)
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.instance?.id, "P-PRO", "the instance is the product that knows the key")
        XCTAssertEqual(answer.instance?.name, "Ada's laptop & desk")
        XCTAssertEqual(answer.licenseKey.status, .active)
        XCTAssertEqual(answer.licenseKey.activationUsage, 1)
        XCTAssertNil(answer.licenseKey.activationLimit, "Gumroad has no limit: the store keeps max_uses")
        XCTAssertNil(answer.licenseKey.expiresAt)
        XCTAssertEqual(answer.licenseKey.createdAt, LicenseAnswerFields.parseDate("2021-01-05T19:38:56Z"))
        XCTAssertFalse(answer.licenseKey.id.contains(Self.key), "the id shows the key: \(answer.licenseKey.id)")
        XCTAssertEqual(answer.meta.productId, "P-PRO")
        XCTAssertNil(answer.meta.variantId)
        XCTAssertEqual(answer.meta.orderId, "524459935")
        XCTAssertEqual(answer.meta.productName, "Lumen Pro")
        XCTAssertEqual(answer.meta.customerEmail, "ada@example.com")
    }

    func testValidateWithTheInstanceAsksItsProductOnceAndCountsNothing() async throws {
        server.licenses[Self.key] = GumroadTestServer.license(uses: 1)
        let api = try api()
        let known = try await api.validate(key: Self.key, instanceId: "P-PRO")
        XCTAssertEqual(server.asked, ["P-PRO false"])
        XCTAssertNil(known.instance, "the kept instance (its name) stays as it is")
        XCTAssertEqual(known.licenseKey.activationUsage, 1)
        let found = try await api.validate(key: Self.key, instanceId: nil)
        XCTAssertEqual(server.asked, ["P-PRO false", "P-BASIC false", "P-PRO false"])
        XCTAssertEqual(found.meta.productId, "P-PRO")
        XCTAssertEqual(server.requests.last?["uses"], 1)
    }

    func testUnknownKeyIsNotFoundOnlyOnceNoProductKnowsIt() async throws {
        server.licenses[Self.key] = GumroadTestServer.license(productId: "P-OTHER")
        do {
            _ = try await api().activate(key: Self.key, instanceName: "box")
            XCTFail("an unknown key activated")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertTrue(error.message.contains("asked products P-BASIC, P-PRO"), error.message)
            XCTAssertFalse(error.message.contains(Self.key), "the key appears unmasked: \(error.message)")
            XCTAssertTrue(error.message.contains("****9166"), error.message)
        }
        XCTAssertEqual(server.asked, ["P-BASIC false", "P-PRO false"], "no use is counted for an unknown key")
        do {
            _ = try await api().validate(key: Self.key, instanceId: "P-PRO")
            XCTFail("an unknown key validated")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertTrue(error.message.contains(GumroadAnswer.unknownKey), error.message)
        }
    }

    /// Gumroad only counts: many uses are still an active key (the store enforces `max_uses`).
    func testUsesAreTheActivationUsageWithoutALimit() async throws {
        server.licenses[Self.key] = GumroadTestServer.license(uses: 41)
        let answer = try await api().activate(key: Self.key, instanceName: "box")
        XCTAssertEqual(answer.licenseKey.activationUsage, 42)
        XCTAssertNil(answer.licenseKey.activationLimit)
    }

    func testASubscriptionThatEndedIsExpiredAndNotActivated() async throws {
        let now = try XCTUnwrap(LicenseAnswerFields.parseDate("2024-06-01T00:00:00Z"))
        for (index, name) in ["subscription_ended_at", "subscription_cancelled_at", "subscription_failed_at"].enumerated() {
            var fields: [String: JSONValue] = ["subscription": true]
            fields[name] = "2024-05-31T23:59:59.000Z"
            server.licenses[Self.key] = GumroadTestServer.license(revision: index + 1, fields)
            let answer = try await api(now: now).validate(key: Self.key, instanceId: "P-PRO")
            XCTAssertEqual(answer.licenseKey.status, .expired, name)
            XCTAssertEqual(answer.licenseKey.expiresAt, LicenseAnswerFields.parseDate("2024-05-31T23:59:59Z"), name)
            do {
                _ = try await api(now: now).activate(key: Self.key, instanceName: "box")
                XCTFail("an expired key activated (\(name))")
            } catch {
                XCTAssertEqual(error.kind, .rejected)
                XCTAssertEqual(error.licenseKey?.status, .expired)
            }
        }
        XCTAssertFalse(server.asked.contains { $0.hasSuffix("true") }, "a use was counted: \(server.asked)")
    }

    /// A cancelled membership runs to the end of what was paid: active until then, which is its expiry.
    func testACancelledSubscriptionRunsToItsEnd() async throws {
        server.licenses[Self.key] = GumroadTestServer.license([
            "subscription": true, "subscription_cancelled_at": "2024-07-01T00:00:00-07:00",
        ])
        let now = try XCTUnwrap(LicenseAnswerFields.parseDate("2024-06-01T00:00:00Z"))
        let answer = try await api(now: now).validate(key: Self.key, instanceId: "P-PRO")
        XCTAssertEqual(answer.licenseKey.status, .active)
        XCTAssertEqual(answer.licenseKey.expiresAt, LicenseAnswerFields.parseDate("2024-07-01T07:00:00Z"))
    }

    func testRefundedChargedBackAndDisputedPurchasesAreDisabled() async throws {
        let cases: [([String: JSONValue], LicenseKeyStatus)] = [
            (["refunded": true], .disabled), (["chargebacked": true], .disabled),
            (["disputed": true], .disabled), (["disputed": true, "dispute_won": true], .active),
            (["subscription": true, "refunded": true], .disabled),
        ]
        for (index, (fields, status)) in cases.enumerated() {
            server.licenses[Self.key] = GumroadTestServer.license(revision: index + 1, fields)
            let answer = try await api().validate(key: Self.key, instanceId: "P-PRO")
            XCTAssertEqual(answer.licenseKey.status, status, "\(fields)")
        }
    }

    /// Gumroad's 404 for a disabled key or revoked access is the product's word: it stops the search.
    func testDisabledKeyAndRevokedAccessAreDisabledRefusals() async throws {
        for (index, flag) in ["disabled", "access_revoked"].enumerated() {
            server.licenses[Self.key] = GumroadTestServer.license(productId: "P-BASIC", revision: index + 1, [flag: true])
            do {
                _ = try await api().activate(key: Self.key, instanceName: "box")
                XCTFail("a \(flag) key activated")
            } catch {
                XCTAssertEqual(error.kind, .rejected, flag)
                XCTAssertEqual(error.statusCode, 404)
                XCTAssertEqual(error.licenseKey?.status, .disabled, flag)
                XCTAssertEqual(error.licenseKey?.id, GumroadAnswer.keyId(Self.key), "the kept license's id")
            }
        }
        XCTAssertEqual(server.asked, ["P-BASIC false", "P-BASIC false"], "neither moved on nor counted a use")
    }

    func testAnImportedCustomersKeyIsTheAskedProducts() async throws {
        server.licenses[Self.key] = GumroadTestServer.license(["imported": true])
        let answer = try await api().activate(key: Self.key, instanceName: "box")
        XCTAssertEqual(answer.licenseKey.status, .active)
        XCTAssertEqual(answer.meta.productId, "P-PRO")
        XCTAssertEqual(answer.meta.customerEmail, "ada@example.com")
        XCTAssertEqual(answer.licenseKey.activationUsage, 1)
    }

    func testSuccessFalseWith200IsReadAsARefusal() async throws {
        server.script = [
            .object(["json": .object(["success": false, "message": .string(GumroadAnswer.unknownKey)])]),
            .object(["json": .object(["success": false, "message": "The 'license_key' parameter must be a string."])]),
            .object(["status": 400, "json": .object(["success": false, "message": "bad request"])]),
        ]
        let kinds: [LicenseError.Kind] = [.notFound, .rejected, .rejected]
        for kind in kinds {
            do {
                _ = try await api().validate(key: Self.key, instanceId: "P-PRO")
                XCTFail("accepted")
            } catch {
                XCTAssertEqual(error.kind, kind, error.message)
            }
        }
    }

    func testRateLimitAndServerErrorAreRetriedAfterTheServersPause() async throws {
        server.licenses[Self.key] = GumroadTestServer.license()
        server.script = [.object(["status": 429, "headers": .object(["Retry-After": "2"])]), .object(["status": 503])]
        let answer = try await api().validate(key: Self.key, instanceId: "P-PRO")
        XCTAssertEqual(answer.licenseKey.status, .active)
        let waited = await pauses.all
        XCTAssertEqual(waited, [2, 2])
        XCTAssertEqual(server.requests.count, 3)
    }

    func testRateLimitPastTheRetriesIsThrown() async throws {
        let limited = JSONValue.object(["status": 429])
        server.script = [limited, limited, limited]
        do {
            _ = try await api(retries: 2).validate(key: Self.key, instanceId: "P-PRO")
            XCTFail("answered despite the rate limit")
        } catch {
            XCTAssertEqual(error.kind, .rateLimited)
            XCTAssertTrue(error.isTransient)
        }
        let waited = await pauses.all
        XCTAssertEqual(waited, [1, 2])
    }

    func testMalformedAnswersAndRedirectsAreErrors() async throws {
        let purchase = { (fields: [String: JSONValue]) -> JSONValue in
            .object(["json": .object(["success": true, "uses": 1, "purchase": .object(fields)])])
        }
        let answers: [JSONValue] = [
            .object(["raw": "<html>oops</html>"]),
            .object(["raw": "[1, 2]"]),
            .object(["json": .object(["success": "yes"])]),
            .object(["json": .object(["success": true, "uses": 1])]),
            .object(["json": .object(["success": true, "purchase": .object(["product_id": "P-PRO"])])]),
            .object(["json": .object(["success": true, "uses": -1, "purchase": .object(["product_id": "P-PRO"])])]),
            purchase(["email": "ada@example.com"]),
            purchase(["product_id": 12]),
            purchase(["product_id": "P-PRO", "refunded": "no"]),
            purchase(["product_id": "P-PRO", "subscription_ended_at": "yesterday"]),
            .object(["status": 404, "json": .object(["success": false, "message": 5])]),
            .object(["status": 422, "json": .object(["success": false])]),
            .object(["status": 302, "headers": .object(["Location": "/elsewhere"])]),
            .object(["status": 307, "headers": .object(["Location": "http://example.com/v2/licenses/verify"])]),
        ]
        server.script = answers
        for answer in answers {
            do {
                _ = try await api().validate(key: Self.key, instanceId: "P-PRO")
                XCTFail("accepted \(answer.jsonText)")
            } catch {
                XCTAssertEqual(error.kind, .malformedResponse, "\(answer.jsonText): \(error)")
            }
        }
    }

    func testOversizedAnswerIsAnError() async throws {
        server.script = [.object(["raw": .string(String(repeating: " ", count: 5000) + "{}")])]
        do {
            _ = try await api(maxResponseBytes: 1000).validate(key: Self.key, instanceId: "P-PRO")
            XCTFail("an oversized answer was read")
        } catch {
            XCTAssertEqual(error.kind, .malformedResponse)
            XCTAssertTrue(error.message.contains("1000 bytes limit"), error.message)
        }
    }

    func testNoServerIsANetworkError() async throws {
        server.stop()
        do {
            _ = try await api().validate(key: Self.key, instanceId: nil)
            XCTFail("answered without a server")
        } catch {
            XCTAssertEqual(error.kind, .network)
            XCTAssertTrue(error.isTransient)
        }
    }

    func testDeactivateIsUnsupportedAndAsksNothing() async throws {
        do {
            _ = try await api().deactivate(key: Self.key, instanceId: "P-PRO")
            XCTFail("deactivated")
        } catch {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertTrue(
                error.message.contains(LicenseSettings.Provider.gumroad.deactivationUnsupported!), error.message)
            XCTAssertTrue(error.message.contains("****9166"), error.message)
        }
        XCTAssertEqual(server.requests.count, 0)
    }

    func testOnlyHTTPSOrLoopbackBaseURLs() throws {
        for text in ["http://api.gumroad.com", "ftp://127.0.0.1", "http://10.0.0.1:8080"] {
            XCTAssertThrowsError(try GumroadLicenseAPI(productIds: Self.products, baseURL: URL(string: text)!), text) {
                XCTAssertEqual(($0 as? LicenseError)?.kind, .insecureURL)
            }
        }
        XCTAssertEqual(try GumroadLicenseAPI(productIds: Self.products).baseURL, LicenseSettings.gumroadAPI)
    }
}
