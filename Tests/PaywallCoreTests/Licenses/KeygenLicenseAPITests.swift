import Foundation
import XCTest

@testable import PaywallCore

/// `KeygenLicenseAPI` against a local stand-in of Keygen's documented API, which checks every
/// request's path, headers, authorization and JSON:API body.
final class KeygenLicenseAPITests: XCTestCase {
    private var directory: URL!
    private var server: KeygenTestServer!
    private let pauses = PauseRecorder()
    private let key = "C1B6DE-39A6E3-DE1529-8559A0"
    private let fingerprint = "4f1c9e0a7b2d"

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("KeygenAPI")
        server = try KeygenTestServer(directory: directory.appendingPathComponent("server"))
    }

    override func tearDown() {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke Keygen's documented API")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func api(retries: Int = 3, maxResponseBytes: Int = 64_000, fingerprint: String? = nil) throws(LicenseError)
        -> KeygenLicenseAPI
    {
        let pauses = self.pauses
        return try KeygenLicenseAPI(
            account: KeygenTestServer.account, baseURL: server.baseURL, fingerprint: .success(fingerprint ?? self.fingerprint),
            retries: retries, maxResponseBytes: maxResponseBytes, sleep: { await pauses.record($0) })
    }

    func testActivateValidatesThenCreatesTheMachineWithLicenseAuthentication() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7")
        let answer = try await api().activate(key: key, instanceName: "Ada's laptop")
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.licenseKey.status, .active)
        XCTAssertEqual(answer.licenseKey.id, "lic-7")
        XCTAssertEqual(answer.licenseKey.activationUsage, 1)
        XCTAssertEqual(answer.licenseKey.activationLimit, 2)
        XCTAssertEqual(answer.licenseKey.createdAt, LicenseAnswerFields.parseDate("2024-01-24T14:15:07.000Z"))
        XCTAssertEqual(answer.instance?.name, "Ada's laptop")
        XCTAssertEqual(answer.meta.productId, "prod-1")
        XCTAssertEqual(answer.meta.variantId, "pol-1")
        let requests = server.requests
        XCTAssertEqual(requests.map { $0["action"] }, ["validate-key", "machines"])
        XCTAssertEqual(requests[0]["path"], "/v1/accounts/lumen/licenses/actions/validate-key")
        XCTAssertEqual(
            requests[0]["body"],
            .object(["meta": .object(["key": .string(key), "scope": .object(["fingerprint": .string(fingerprint)])])]))
        XCTAssertEqual(requests[0]["authorization"], .null, "validate-key needs no token")
        XCTAssertEqual(requests[1]["authorization"], .string("License \(key)"))
        XCTAssertEqual(
            requests[1]["body"]?["data"]?["attributes"], .object(["fingerprint": .string(fingerprint), "name": "Ada's laptop"]))
        XCTAssertEqual(requests[1]["body"]?["data"]?["relationships"]?["license"]?["data"]?["id"], "lic-7")
    }

    func testValidateWithoutAnInstancePassesAKeyNotActivatedHereButWithOneDoesNot() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7")
        let api = try api()
        let fresh = try await api.validate(key: key, instanceId: nil)
        XCTAssertTrue(fresh.succeeded, "NO_MACHINES before activation is not a refusal of the key")
        XCTAssertEqual(fresh.licenseKey.status, .inactive)
        let activated = try await api.activate(key: key, instanceName: "box")
        let valid = try await api.validate(key: key, instanceId: activated.instance?.id)
        XCTAssertTrue(valid.succeeded)
        XCTAssertEqual(valid.licenseKey.status, .active)
        XCTAssertEqual(server.requests.last?["body"]?["meta"]?["scope"]?["machine"], activated.instance.map { .string($0.id) })
        // Another machine (another fingerprint): the key is good, but not activated there.
        let elsewhere = try self.api(fingerprint: "other-machine")
        let key = try await elsewhere.validate(key: self.key, instanceId: nil)
        XCTAssertTrue(key.succeeded)
        XCTAssertEqual(key.licenseKey.status, .active, "activated on one machine")
        let there = try await elsewhere.validate(key: self.key, instanceId: activated.instance?.id)
        XCTAssertFalse(there.succeeded)
        XCTAssertTrue(there.error?.contains("FINGERPRINT_SCOPE_MISMATCH") == true, there.error ?? "")
    }

    func testAMachineGoneAtKeygenFailsItsValidation() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7", floating: false)
        let api = try api()
        let activated = try await api.activate(key: key, instanceName: "box")
        _ = try await api.deactivate(key: key, instanceId: try XCTUnwrap(activated.instance?.id))
        let answer = try await api.validate(key: key, instanceId: activated.instance?.id)
        XCTAssertFalse(answer.succeeded)
        XCTAssertEqual(answer.licenseKey.status, .inactive)
        XCTAssertTrue(answer.error?.contains("NO_MACHINE") == true, answer.error ?? "")
    }

    func testUnknownKeyIsNotFound() async throws {
        do {
            _ = try await api().activate(key: "NO-SUCH-KEY-0000", instanceName: "box")
            XCTFail("an unknown key activated")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertTrue(error.message.contains("does not exist"), error.message)
            XCTAssertFalse(error.message.contains("NO-SUCH-KEY-0000"), "the key appears unmasked: \(error.message)")
            XCTAssertTrue(error.message.contains("****0000"), error.message)
        }
        XCTAssertEqual(server.requests.map { $0["action"] }, ["validate-key"], "no machine is created for an unknown key")
    }

    func testMachineLimitIsARefusalDescribingAFullKey() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-8", maxMachines: 1)
        _ = try await api(fingerprint: "first-machine").activate(key: key, instanceName: "first")
        do {
            _ = try await api().activate(key: key, instanceName: "second")
            XCTFail("activated past the machine limit")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertEqual(error.statusCode, 422)
            XCTAssertEqual(error.licenseKey?.activationLimit, 1)
            XCTAssertEqual(error.licenseKey?.activationUsage, 1)
            XCTAssertTrue(error.message.contains("MACHINE_LIMIT_EXCEEDED"), error.message)
        }
    }

    func testActivatingAMachineAlreadyThereReturnsIt() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7")
        let api = try api()
        let first = try await api.activate(key: key, instanceName: "box")
        let again = try await api.activate(key: key, instanceName: "box")
        XCTAssertEqual(again.instance?.id, first.instance?.id, "the fingerprint's machine, not a refusal")
        XCTAssertEqual(again.licenseKey.activationUsage, 1)
        XCTAssertEqual(server.requests.suffix(2).map { $0["action"] }, ["machines", "machine"])
    }

    func testExpiredSuspendedAndBannedKeysAreRefusedWithTheirStatus() async throws {
        let cases: [(String, JSONValue, LicenseKeyStatus, String)] = [
            (
                "KEY-EXPD-EXPD",
                KeygenTestServer.key(
                    id: "lic-9", expired: true, expiry: "2023-01-01T00:00:00.000Z", expirationStrategy: "REVOKE_ACCESS"),
                .expired, "EXPIRED"
            ),
            ("KEY-SUSP-SUSP", KeygenTestServer.key(id: "lic-10", suspended: true), .disabled, "SUSPENDED"),
            ("KEY-BANN-BANN", KeygenTestServer.key(id: "lic-11", banned: true), .disabled, "BANNED"),
        ]
        for (key, license, _, _) in cases { server.keys[key] = license }
        for (key, _, status, code) in cases {
            let answer = try await api().validate(key: key, instanceId: nil)
            XCTAssertFalse(answer.succeeded)
            XCTAssertEqual(answer.licenseKey.status, status)
            XCTAssertTrue(answer.error?.contains(code) == true, answer.error ?? "")
            do {
                _ = try await api().activate(key: key, instanceName: "box")
                XCTFail("\(code) key activated")
            } catch {
                XCTAssertEqual(error.kind, .rejected)
                XCTAssertEqual(error.licenseKey?.status, status)
            }
        }
        XCTAssertFalse(server.requests.contains { $0["action"] == "machines" }, "no machine for a refused key")
        let expired = try await api().validate(key: "KEY-EXPD-EXPD", instanceId: nil)
        XCTAssertEqual(expired.licenseKey.expiresAt, LicenseAnswerFields.parseDate("2023-01-01T00:00:00Z"))
    }

    /// RESTRICT_ACCESS (Keygen's default) checks scopes before the expiry, so an expired license
    /// on no machine reads "no machine": the machine is made, its validation says EXPIRED, and it
    /// is freed again. MAINTAIN_ACCESS keeps access: valid with EXPIRED, and the expiry no longer ends it.
    func testAnExpiredLicenseIsAskedAboutOnTheMachineAndKeptOnlyIfItsPolicyKeepsAccess() async throws {
        server.keys["KEY-REST-RICT"] = KeygenTestServer.key(id: "lic-20", expired: true, expiry: "2023-01-01T00:00:00.000Z")
        do {
            _ = try await api().activate(key: "KEY-REST-RICT", instanceName: "box")
            XCTFail("an expired RESTRICT_ACCESS license activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("EXPIRED"), error.message)
        }
        XCTAssertEqual(server.requests.map { $0["action"] }, ["validate-key", "machines", "validate-key", "delete"])

        server.keys["KEY-MAIN-TAIN"] = KeygenTestServer.key(
            id: "lic-21", expired: true, expiry: "2023-01-01T00:00:00.000Z", expirationStrategy: "MAINTAIN_ACCESS")
        let kept = try await api().activate(key: "KEY-MAIN-TAIN", instanceName: "box")
        XCTAssertTrue(kept.succeeded)
        XCTAssertEqual(kept.licenseKey.status, .active)
        XCTAssertNil(kept.licenseKey.expiresAt, "Keygen keeps access after the expiry")
        let valid = try await api().validate(key: "KEY-MAIN-TAIN", instanceId: kept.instance?.id)
        XCTAssertTrue(valid.succeeded)
        XCTAssertEqual(valid.licenseKey.status, .active)
    }

    func testAPolicyWithoutLicenseAuthenticationTellsTheSellerWhatToSet() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7", auth: "TOKEN")
        do {
            _ = try await api().activate(key: key, instanceName: "box")
            XCTFail("activated without license authentication")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertEqual(error.statusCode, 403)
            XCTAssertTrue(error.message.contains("LICENSE or MIXED"), error.message)
            XCTAssertTrue(error.message.contains("LICENSE_NOT_ALLOWED"), error.message)
        }
        server.script["machines"] = [
            .object([
                "status": 401, "json": .object(["errors": [.object(["title": "Unauthorized", "code": "LICENSE_INVALID"])]]),
            ])
        ]
        do {
            _ = try await api().activate(key: key, instanceName: "box")
            XCTFail("activated despite a 401")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("LICENSE or MIXED"), error.message)
        }
    }

    func testAnAccountKeygenDoesNotHaveIsARefusalNamingTheSetting() async throws {
        let api = try KeygenLicenseAPI(account: "nobody", baseURL: server.baseURL, fingerprint: .success(fingerprint))
        do {
            _ = try await api.validate(key: key, instanceId: nil)
            XCTFail("validated at an unknown account")
        } catch {
            XCTAssertEqual(error.kind, .rejected, "a wrong account is the seller's setting, not an unknown key")
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertTrue(error.message.contains("keygen.account"), error.message)
        }
    }

    func testAMachineWithoutAMachineIdIsToldSoAtEachRequestAndNothingIsSent() async throws {
        let missing = LicenseError(.rejected, "this machine has no machine id")
        let api = try KeygenLicenseAPI(account: KeygenTestServer.account, baseURL: server.baseURL, fingerprint: .failure(missing))
        do {
            _ = try await api.activate(key: key, instanceName: "box")
            XCTFail("activated without a fingerprint")
        } catch {
            XCTAssertEqual(error, missing)
        }
        XCTAssertEqual(server.requests.count, 0, "a request without the machine's fingerprint")
    }

    func testDeactivateDeletesTheMachine() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7")
        let api = try api()
        let activated = try await api.activate(key: key, instanceName: "box")
        let id = try XCTUnwrap(activated.instance?.id)
        let answer = try await api.deactivate(key: key, instanceId: id)
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.licenseKey.activationUsage, 0)
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(request["method"], "DELETE")
        XCTAssertEqual(request["path"], .string("/v1/accounts/lumen/machines/\(id)"))
        XCTAssertEqual(request["authorization"], .string("License \(key)"))
        do {
            _ = try await api.deactivate(key: key, instanceId: id)
            XCTFail("a machine deactivated twice")
        } catch {
            XCTAssertEqual(error.kind, .notFound, "already gone: nothing left to free")
        }
    }

    func testRateLimitIsRetriedAfterTheServersPause() async throws {
        server.keys[key] = KeygenTestServer.key(id: "lic-7")
        server.script["validate-key"] = [
            .object(["status": 429, "headers": .object(["Retry-After": "2"]), "json": .object(["errors": []])]),
            .object(["status": 503]),
        ]
        let answer = try await api().validate(key: key, instanceId: nil)
        XCTAssertEqual(answer.licenseKey.id, "lic-7")
        let waited = await pauses.all
        XCTAssertEqual(waited, [2, 2], "429 waits its Retry-After, then the 503 the second back-off step")
        XCTAssertEqual(server.requests.count, 3)
    }

    func testRateLimitPastTheRetriesIsThrown() async throws {
        let limited = JSONValue.object(["status": 429])
        server.script["validate-key"] = [limited, limited, limited]
        do {
            _ = try await api(retries: 2).validate(key: key, instanceId: nil)
            XCTFail("answered despite the rate limit")
        } catch {
            XCTAssertEqual(error.kind, .rateLimited)
            XCTAssertTrue(error.isTransient)
        }
        let waited = await pauses.all
        XCTAssertEqual(waited, [1, 2])
    }

    func testMalformedAnswersAreErrors() async throws {
        let license = { (attributes: JSONValue, relationships: JSONValue) in
            JSONValue.object([
                "json": .object([
                    "meta": .object(["valid": true, "code": "VALID"]),
                    "data": .object(["id": "lic-1", "type": "licenses", "attributes": attributes, "relationships": relationships]
                    ),
                ])
            ])
        }
        let related = JSONValue.object([
            "product": .object(["data": .object(["id": "prod-1"])]), "policy": .object(["data": .object(["id": "pol-1"])]),
        ])
        let answers: [JSONValue] = [
            .object(["raw": "<html>oops</html>"]),
            .object(["raw": "[1, 2]"]),
            .object(["json": .object(["meta": .object(["valid": "yes", "code": "VALID"])])]),
            .object(["json": .object(["data": .null, "meta": .object(["valid": false, "code": "VALID"])])]),
            license(.object(["key": "K", "status": "SLEEPING"]), related),
            license(.object(["key": "K", "status": "ACTIVE"]), .object([:])),
            license(.object(["key": "K", "status": "ACTIVE", "maxMachines": -1]), related),
            license(.object(["key": "K", "status": "ACTIVE", "expiry": "soon"]), related),
            .object(["status": 400, "json": .object(["errors": "bad"])]),
            .object(["status": 302, "headers": .object(["Location": "/elsewhere"])]),
            .object(["status": 418, "json": .object([:])]),
        ]
        server.script["validate-key"] = answers
        for answer in answers {
            do {
                _ = try await api().validate(key: key, instanceId: nil)
                XCTFail("accepted \(answer.jsonText)")
            } catch {
                XCTAssertEqual(error.kind, .malformedResponse, "\(answer.jsonText): \(error)")
            }
        }
        server.keys[key] = KeygenTestServer.key(id: "lic-7")
        server.script["machines"] = [
            .object(["status": 201, "json": .object(["data": .object(["type": "licenses", "id": "x"])])])
        ]
        do {
            _ = try await api().activate(key: key, instanceName: "box")
            XCTFail("accepted a machine that is not one")
        } catch {
            XCTAssertEqual(error.kind, .malformedResponse, "\(error)")
        }
    }

    func testOversizedAnswerIsAnError() async throws {
        server.script["validate-key"] = [.object(["raw": .string(String(repeating: " ", count: 5000) + "{}")])]
        do {
            _ = try await api(maxResponseBytes: 1000).validate(key: key, instanceId: nil)
            XCTFail("an oversized answer was read")
        } catch {
            XCTAssertEqual(error.kind, .malformedResponse)
            XCTAssertTrue(error.message.contains("1000 bytes limit"), error.message)
        }
    }

    func testNoServerIsANetworkError() async throws {
        server.stop()
        do {
            _ = try await api().validate(key: key, instanceId: nil)
            XCTFail("answered without a server")
        } catch {
            XCTAssertEqual(error.kind, .network)
            XCTAssertTrue(error.isTransient)
        }
    }

    func testOnlyHTTPSOrLoopbackBaseURLs() throws {
        for text in ["http://api.keygen.sh", "ftp://127.0.0.1", "http://10.0.0.1:8080"] {
            XCTAssertThrowsError(
                try KeygenLicenseAPI(account: "lumen", baseURL: URL(string: text)!, fingerprint: .success("f")), text
            ) {
                error in
                XCTAssertEqual((error as? LicenseError)?.kind, .insecureURL)
            }
        }
        for text in ["https://api.keygen.sh", "https://licensing.example.com", "http://127.0.0.1:9"] {
            XCTAssertNoThrow(
                try KeygenLicenseAPI(account: "lumen", baseURL: URL(string: text)!, fingerprint: .success("f")), text)
        }
    }
}
