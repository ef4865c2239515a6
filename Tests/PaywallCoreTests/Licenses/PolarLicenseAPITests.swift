import Foundation
import XCTest

@testable import PaywallCore

/// Polar's customer-portal license-key client against a local server implementing the
/// documented contract, which checks every request's method, headers and JSON body.
final class PolarLicenseAPITests: XCTestCase {
    private var directory: URL!
    private var server: PolarTestServer!
    private let pauses = PauseRecorder()
    private let key = "LUMEN-1111-2222-3333"

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("PolarAPI")
        server = try PolarTestServer(directory: directory.appendingPathComponent("server"))
    }

    override func tearDown() {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke Polar's documented API")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func api(retries: Int = 3, maxResponseBytes: Int = 64_000) throws(LicenseError) -> PolarLicenseAPI {
        let pauses = self.pauses
        return try PolarLicenseAPI(
            organizationId: PolarTestServer.organizationId, baseURL: server.baseURL, retries: retries,
            maxResponseBytes: maxResponseBytes, sleep: { await pauses.record($0) })
    }

    private func refusal(_ action: () async throws -> Void) async -> LicenseError? {
        do {
            try await action()
            return nil
        } catch {
            return error as? LicenseError
        }
    }

    func testActivateSendsTheDocumentedBodyAndReadsTheActivation() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_7")
        let answer = try await api().activate(key: key, instanceName: "Ada's laptop & desk")
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.licenseKey.id, "lk_7")
        XCTAssertEqual(answer.licenseKey.status, .active)
        XCTAssertEqual(answer.licenseKey.key, key)
        XCTAssertEqual(answer.licenseKey.activationLimit, 2)
        XCTAssertEqual(answer.licenseKey.activationUsage, 1)
        XCTAssertNil(answer.licenseKey.expiresAt)
        XCTAssertEqual(answer.licenseKey.createdAt, LicenseAnswerFields.parseDate("2025-01-24T14:15:07.123Z"))
        XCTAssertEqual(answer.instance?.name, "Ada's laptop & desk")
        XCTAssertFalse(answer.instance?.id.isEmpty ?? true)
        XCTAssertEqual(
            answer.meta,
            LicenseMeta(
                storeId: "org_1", productId: "ben_pro", customerId: "cus_1", customerName: "Ada Lovelace",
                customerEmail: "ada@example.com"))
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(request["path"], "/v1/customer-portal/license-keys/activate")
        XCTAssertEqual(
            request["body"], .object(["key": .string(key), "organization_id": "org_1", "label": "Ada's laptop & desk"]))
    }

    func testValidateSendsTheActivationOnlyWhenGiven() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_7")
        let api = try api()
        let activated = try await api.activate(key: key, instanceName: "box")
        let id = try XCTUnwrap(activated.instance?.id)
        let valid = try await api.validate(key: key, instanceId: id)
        XCTAssertTrue(valid.succeeded)
        XCTAssertEqual(valid.instance, activated.instance)
        XCTAssertEqual(valid.licenseKey.activationUsage, 1)
        let bare = try await api.validate(key: key, instanceId: nil)
        XCTAssertNil(bare.instance)
        XCTAssertEqual(bare.meta.productId, "ben_pro")
        XCTAssertEqual(
            server.requests.suffix(2).map { $0["body"] },
            [
                .object(["key": .string(key), "organization_id": "org_1", "activation_id": .string(id)]),
                .object(["key": .string(key), "organization_id": "org_1"]),
            ])
    }

    func testUnknownKeyAndUnknownActivationAreNotFound() async throws {
        let unknown = await refusal { _ = try await self.api().validate(key: "NO-SUCH-KEY-0000", instanceId: nil) }
        XCTAssertEqual(unknown?.kind, .notFound)
        XCTAssertEqual(unknown?.statusCode, 404)
        XCTAssertTrue(unknown?.message.contains("License key not found.") == true, unknown?.message ?? "")
        XCTAssertFalse(unknown?.message.contains("NO-SUCH-KEY-0000") == true, "the key appears unmasked")
        XCTAssertTrue(unknown?.message.contains("****0000") == true, unknown?.message ?? "")
        server.keys[key] = PolarTestServer.key(id: "lk_7")
        let gone = await refusal { _ = try await self.api().validate(key: self.key, instanceId: "act_gone") }
        XCTAssertEqual(gone?.kind, .notFound)
        XCTAssertTrue(gone?.message.contains("License key activation not found.") == true, gone?.message ?? "")
    }

    /// A key of another organization is unknown to this one's requests.
    func testAKeyOfAnotherOrganizationIsNotFound() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_7", organizationId: "org_other")
        let error = await refusal { _ = try await self.api().activate(key: self.key, instanceName: "box") }
        XCTAssertEqual(error?.kind, .notFound)
    }

    func testActivationLimitReachedIsARefusalDescribingTheKey() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_8", limit: 1)
        let api = try api()
        _ = try await api.activate(key: key, instanceName: "first")
        let error = await refusal { _ = try await api.activate(key: self.key, instanceName: "second") }
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertEqual(error?.statusCode, 403)
        XCTAssertTrue(error?.message.contains("License key only supports 1 activations.") == true, error?.message ?? "")
        XCTAssertEqual(error?.licenseKey?.id, "lk_8")
        XCTAssertEqual(error?.licenseKey?.activationLimit, 1)
        XCTAssertEqual(error?.licenseKey?.activationUsage, 1, "at Polar's limit every activation is in use")
    }

    /// Polar takes no activations for a key without a limit (403): such a key is valid on any
    /// number of machines, so it is kept as validated, with no activation to send or free.
    func testAKeyWithoutAnActivationLimitIsKeptWithoutAnActivation() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_9", limit: nil)
        let api = try api()
        let answer = try await api.activate(key: key, instanceName: "box")
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.instance?.id, "")
        XCTAssertEqual(answer.instance?.name, "box")
        XCTAssertNil(answer.licenseKey.activationLimit)
        _ = try await api.validate(key: key, instanceId: "")
        _ = try await api.deactivate(key: key, instanceId: "")
        let sent = server.requests.map { $0["path"]?.stringValue ?? "" }
        XCTAssertEqual(
            sent,
            ["activate", "validate", "validate", "validate"].map { "/v1/customer-portal/license-keys/\($0)" },
            "no activation id is sent and nothing is deactivated")
        XCTAssertFalse(server.requests.dropFirst().contains { $0["body"]?["activation_id"] != nil })
    }

    func testExpiryRevokedAndDisabledMapToTheirStatus() async throws {
        server.keys["KEY-EXPD"] = PolarTestServer.key(id: "lk_1", expiresAt: "2023-01-01T00:00:00+00:00")
        server.keys["KEY-LATE"] = PolarTestServer.key(id: "lk_2", expiresAt: "2999-01-01T00:00:00Z")
        server.keys["KEY-RVKD"] = PolarTestServer.key(id: "lk_3", status: "revoked")
        server.keys["KEY-DSBL"] = PolarTestServer.key(id: "lk_4", status: "disabled")
        let expected: [(String, LicenseKeyStatus)] = [
            ("KEY-EXPD", .expired), ("KEY-LATE", .active), ("KEY-RVKD", .disabled), ("KEY-DSBL", .disabled),
        ]
        for (key, status) in expected {
            let answer = try await api().validate(key: key, instanceId: nil)
            XCTAssertEqual(answer.licenseKey.status, status, key)
            XCTAssertEqual(answer.succeeded, status == .active, key)
        }
    }

    func testValidationErrorIsARefusalWithItsDetail() async throws {
        server.script["validate"] = [
            .object([
                "status": 422,
                "json": .object([
                    "detail": .array([
                        .object([
                            "loc": .array(["body", "activation_id"]), "msg": "Input should be a valid UUID", "type": "uuid",
                        ])
                    ])
                ]),
            ])
        ]
        let error = await refusal { _ = try await self.api().validate(key: self.key, instanceId: "x") }
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertEqual(error?.statusCode, 422)
        XCTAssertTrue(error?.message.contains("body.activation_id: Input should be a valid UUID") == true, error?.message ?? "")
    }

    func testDeactivateFreesTheActivationAndDescribesTheKey() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_7", limit: 1)
        let api = try api()
        let activated = try await api.activate(key: key, instanceName: "box")
        let id = try XCTUnwrap(activated.instance?.id)
        let answer = try await api.deactivate(key: key, instanceId: id)
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.licenseKey.id, "lk_7")
        XCTAssertEqual(
            server.requests.suffix(2).map { $0["path"] },
            ["/v1/customer-portal/license-keys/deactivate", "/v1/customer-portal/license-keys/validate"])
        XCTAssertEqual(
            server.requests.suffix(2).first?["body"],
            .object(["key": .string(key), "organization_id": "org_1", "activation_id": .string(id)]))
        // The activation is free again: the limit of one takes a new one.
        _ = try await api.activate(key: key, instanceName: "box again")
        let gone = await refusal { _ = try await api.deactivate(key: self.key, instanceId: id) }
        XCTAssertEqual(gone?.kind, .notFound)
    }

    /// Polar answers a deactivation 204: a 200 is not its answer.
    func testADeactivationAnsweredOtherThan204IsMalformed() async throws {
        server.script["deactivate"] = [.object(["status": 200, "json": .object([:])])]
        let error = await refusal { _ = try await self.api().deactivate(key: self.key, instanceId: "act_1") }
        XCTAssertEqual(error?.kind, .malformedResponse, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("unexpected HTTP 200") == true, error?.message ?? "")
    }

    func testRateLimitThenServerErrorIsRetriedAfterTheServersPause() async throws {
        server.keys[key] = PolarTestServer.key(id: "lk_7")
        server.script["validate"] = [
            .object(["status": 429, "headers": .object(["Retry-After": "2"]), "json": .object(["detail": "slow down"])]),
            .object(["status": 503]),
        ]
        let answer = try await api().validate(key: key, instanceId: nil)
        XCTAssertEqual(answer.licenseKey.status, .active)
        let waited = await pauses.all
        XCTAssertEqual(waited, [2, 2], "429 waits its Retry-After, then the 503 the second back-off step")
        XCTAssertEqual(server.requests.count, 3)
    }

    func testRateLimitPastTheRetriesIsThrown() async throws {
        let limited = JSONValue.object(["status": 429])
        server.script["validate"] = [limited, limited, limited]
        let error = await refusal { _ = try await self.api(retries: 2).validate(key: self.key, instanceId: nil) }
        XCTAssertEqual(error?.kind, .rateLimited)
        XCTAssertEqual(error?.isTransient, true)
        let waited = await pauses.all
        XCTAssertEqual(waited, [1, 2])
    }

    func testAServerMessageEchoingTheKeyIsMasked() async throws {
        server.script["activate"] = [
            .object([
                "status": 403, "json": .object(["error": "NotPermitted", "detail": .string("key \(key) is not permitted")]),
            ])
        ]
        let error = await refusal { _ = try await self.api().activate(key: self.key, instanceName: "box") }
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertFalse(error?.message.contains(key) == true, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("key ****3333 is not permitted") == true, error?.message ?? "")
    }

    func testMalformedAnswersAreErrors() async throws {
        let good: [String: JSONValue] = [
            "id": "lk_1", "key": "K", "status": "granted", "organization_id": "org_1", "benefit_id": "ben_pro",
            "created_at": "2025-01-24T14:15:07Z", "expires_at": .null, "limit_activations": 2, "usage": 0,
            "customer_id": "cus_1",
        ]
        let broken = { (change: [String: JSONValue]) in
            JSONValue.object(["json": .object(good.merging(change) { $1 })])
        }
        let answers: [JSONValue] = [
            .object(["raw": "<html>oops</html>"]),
            .object(["raw": "[1, 2]"]),
            broken(["status": "active"]),
            broken(["id": 7]),
            broken(["benefit_id": .null]),
            broken(["organization_id": ""]),
            broken(["limit_activations": -1]),
            broken(["expires_at": "soon"]),
            broken(["activation": "act_1"]),
            broken(["activation": .object(["label": "no id"])]),
            .object(["status": 404, "raw": "Not Found"]),
            .object(["status": 404, "json": .object(["error": "ResourceNotFound"])]),
            .object(["status": 418, "json": .object(["detail": "teapot"])]),
            .object(["status": 302, "headers": .object(["Location": "/elsewhere"])]),
            .object(["status": 307, "headers": .object(["Location": "http://example.com/v1/customer-portal"])]),
        ]
        server.script["validate"] = answers
        for answer in answers {
            let error = await refusal { _ = try await self.api().validate(key: self.key, instanceId: nil) }
            XCTAssertEqual(error?.kind, .malformedResponse, "\(answer.jsonText): \(error?.message ?? "accepted")")
        }
        server.script["activate"] = [broken([:]), .object(["json": .object(["id": "act_1", "license_key": "lk_1"])])]
        for _ in 0..<2 {
            let error = await refusal { _ = try await self.api().activate(key: self.key, instanceName: "box") }
            XCTAssertEqual(error?.kind, .malformedResponse, error?.message ?? "accepted")
        }
    }

    func testOversizedAnswerIsAnError() async throws {
        server.script["validate"] = [.object(["raw": .string(String(repeating: " ", count: 5000) + "{}")])]
        let error = await refusal { _ = try await self.api(maxResponseBytes: 1000).validate(key: self.key, instanceId: nil) }
        XCTAssertEqual(error?.kind, .malformedResponse)
        XCTAssertTrue(error?.message.contains("1000 bytes limit") == true, error?.message ?? "")
    }

    func testNoServerIsANetworkError() async throws {
        server.stop()
        let error = await refusal { _ = try await self.api().validate(key: self.key, instanceId: nil) }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.isTransient, true)
    }

    func testOnlyHTTPSOrLoopbackBaseURLs() throws {
        for text in ["http://api.polar.sh", "ftp://127.0.0.1", "http://10.0.0.1:8080"] {
            XCTAssertThrowsError(try PolarLicenseAPI(organizationId: "org_1", baseURL: URL(string: text)!), text) { error in
                XCTAssertEqual((error as? LicenseError)?.kind, .insecureURL)
            }
        }
        XCTAssertNoThrow(try PolarLicenseAPI(organizationId: "org_1"))
        XCTAssertEqual(try PolarLicenseAPI(organizationId: "org_1").baseURL, LicenseSettings.polarAPI)
    }
}
