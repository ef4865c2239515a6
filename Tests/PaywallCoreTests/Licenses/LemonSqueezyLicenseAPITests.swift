import Foundation
import XCTest

@testable import PaywallCore

/// The License API client against a local server implementing the documented contract, which
/// checks every request's method, headers and form body.
final class LemonSqueezyLicenseAPITests: XCTestCase {
    private var directory: URL!
    private var server: LemonSqueezyTestServer!
    private let pauses = PauseRecorder()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("LemonSqueezyAPI")
        server = try LemonSqueezyTestServer(directory: directory.appendingPathComponent("server"))
    }

    override func tearDown() {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke the License API's documented form")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func api(retries: Int = 3, maxResponseBytes: Int = 64_000) throws(LicenseError) -> LemonSqueezyLicenseAPI {
        let pauses = self.pauses
        return try LemonSqueezyLicenseAPI(
            baseURL: server.baseURL, retries: retries, maxResponseBytes: maxResponseBytes,
            sleep: { await pauses.record($0) })
    }

    func testActivateSendsTheDocumentedFormAndReadsTheAnswer() async throws {
        server.keys["KEY-1111-2222-3333"] = LemonSqueezyTestServer.key(id: 7)
        let answer = try await api().activate(key: "KEY-1111-2222-3333", instanceName: "Ada's laptop & desk")
        XCTAssertTrue(answer.succeeded)
        XCTAssertEqual(answer.licenseKey.status, .active)
        XCTAssertEqual(answer.licenseKey.id, "7")
        XCTAssertEqual(answer.licenseKey.activationUsage, 1)
        XCTAssertEqual(answer.licenseKey.activationLimit, 2)
        XCTAssertNil(answer.licenseKey.expiresAt)
        XCTAssertEqual(answer.licenseKey.createdAt, LicenseAnswerFields.parseDate("2024-01-24T14:15:07Z"))
        XCTAssertEqual(answer.instance?.name, "Ada's laptop & desk")
        XCTAssertEqual(answer.meta.productId, "10")
        XCTAssertEqual(answer.meta.variantId, "11")
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(request["path"], "/v1/licenses/activate")
        XCTAssertEqual(request["form"], .object(["license_key": "KEY-1111-2222-3333", "instance_name": "Ada's laptop & desk"]))
    }

    func testValidateSendsTheInstanceOnlyWhenGiven() async throws {
        server.keys["KEY-1111-2222-3333"] = LemonSqueezyTestServer.key(id: 7)
        let api = try api()
        let activated = try await api.activate(key: "KEY-1111-2222-3333", instanceName: "box")
        let valid = try await api.validate(key: "KEY-1111-2222-3333", instanceId: activated.instance?.id)
        XCTAssertTrue(valid.succeeded)
        XCTAssertEqual(valid.instance?.id, activated.instance?.id)
        _ = try await api.validate(key: "KEY-1111-2222-3333", instanceId: nil)
        let forms = server.requests.suffix(2).map { $0["form"] }
        XCTAssertEqual(
            forms,
            [
                .object(["license_key": "KEY-1111-2222-3333", "instance_id": .string(activated.instance!.id)]),
                .object(["license_key": "KEY-1111-2222-3333"]),
            ])
    }

    func testUnknownKeyIsNotFound() async throws {
        do {
            _ = try await api().activate(key: "NO-SUCH-KEY-0000", instanceName: "box")
            XCTFail("an unknown key activated")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertTrue(error.message.contains("license_key not found."), error.message)
            XCTAssertFalse(error.message.contains("NO-SUCH-KEY-0000"), "the key appears unmasked: \(error.message)")
            XCTAssertTrue(error.message.contains("****0000"), error.message)
        }
    }

    func testActivationLimitReachedIsARefusalDescribingTheKey() async throws {
        server.keys["KEY-FULL-FULL-FULL"] = LemonSqueezyTestServer.key(id: 8, limit: 1, usage: 1)
        do {
            _ = try await api().activate(key: "KEY-FULL-FULL-FULL", instanceName: "box")
            XCTFail("a key at its limit activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertEqual(error.statusCode, 400)
            XCTAssertTrue(error.message.contains("activation limit"), error.message)
            XCTAssertEqual(error.licenseKey?.activationUsage, 1)
        }
    }

    func testExpiredAndDisabledKeysAreRefusedWithTheirStatus() async throws {
        server.keys["KEY-EXPD-EXPD-EXPD"] = LemonSqueezyTestServer.key(
            id: 9, status: "expired", expiresAt: "2023-01-01T00:00:00.000000Z")
        server.keys["KEY-DSBL-DSBL-DSBL"] = LemonSqueezyTestServer.key(id: 10, status: "disabled")
        for (key, status) in [("KEY-EXPD-EXPD-EXPD", LicenseKeyStatus.expired), ("KEY-DSBL-DSBL-DSBL", .disabled)] {
            do {
                _ = try await api().activate(key: key, instanceName: "box")
                XCTFail("\(status) key activated")
            } catch {
                XCTAssertEqual(error.kind, .rejected)
                XCTAssertEqual(error.licenseKey?.status, status)
            }
        }
    }

    func testRateLimitIsRetriedAfterTheServersPause() async throws {
        server.keys["KEY-1111-2222-3333"] = LemonSqueezyTestServer.key(id: 7)
        server.script["/v1/licenses/validate"] = [
            .object(["status": 429, "headers": .object(["Retry-After": "2"]), "json": .object(["error": "Too Many Attempts."])]),
            .object(["status": 503]),
        ]
        let answer = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
        XCTAssertEqual(answer.licenseKey.status, .active)
        let waited = await pauses.all
        XCTAssertEqual(waited, [2, 2], "429 waits its Retry-After, then the 503 the second back-off step")
        XCTAssertEqual(server.requests.count, 3)
    }

    func testRateLimitPastTheRetriesIsThrown() async throws {
        let limited = JSONValue.object(["status": 429])
        server.script["/v1/licenses/validate"] = [limited, limited, limited]
        do {
            _ = try await api(retries: 2).validate(key: "KEY-1111-2222-3333", instanceId: nil)
            XCTFail("answered despite the rate limit")
        } catch {
            XCTAssertEqual(error.kind, .rateLimited)
            XCTAssertTrue(error.isTransient)
        }
        let waited = await pauses.all
        XCTAssertEqual(waited, [1, 2])
    }

    func testAServerMessageEchoingTheKeyIsMasked() async throws {
        server.script["/v1/licenses/validate"] = [
            .object(["status": 400, "json": .object(["error": "license_key KEY-1111-2222-3333 is not valid here"])])
        ]
        do {
            _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
            XCTFail("accepted")
        } catch {
            XCTAssertFalse(error.message.contains("KEY-1111-2222-3333"), error.message)
            XCTAssertTrue(error.message.contains("license_key ****3333 is not valid here"), error.message)
        }
    }

    /// A person waits 30 s at most in all: a longer Retry-After is not waited for.
    func testALongRetryAfterIsNotWaitedFor() async throws {
        server.script["/v1/licenses/validate"] = [
            .object(["status": 429, "headers": .object(["Retry-After": "99999999"])])
        ]
        do {
            _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
            XCTFail("answered despite the rate limit")
        } catch {
            XCTAssertEqual(error.kind, .rateLimited)
            XCTAssertTrue(error.message.contains("the server asks to wait 99999999 s: try again later"), error.message)
        }
        let waited = await pauses.all
        XCTAssertEqual(waited, [])
        XCTAssertEqual(server.requests.count, 1)
    }

    func testPausesStopBeforeThirtySecondsInAll() async throws {
        let wait = JSONValue.object(["status": 503, "headers": .object(["Retry-After": "20"])])
        server.script["/v1/licenses/validate"] = [wait, wait]
        do {
            _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
            XCTFail("answered despite the failures")
        } catch {
            XCTAssertEqual(error.kind, .serverError)
            XCTAssertTrue(error.message.contains("(HTTP 503) after 1 retry; the server asks to wait 20 s"), error.message)
        }
        let waited = await pauses.all
        XCTAssertEqual(waited, [20])
    }

    func testNegativeAndNaNRetryAfterAreIgnored() async throws {
        server.keys["KEY-1111-2222-3333"] = LemonSqueezyTestServer.key(id: 7)
        server.script["/v1/licenses/validate"] = ["-5", "NaN"].map {
            .object(["status": 429, "headers": .object(["Retry-After": .string($0)])])
        }
        _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
        let waited = await pauses.all
        XCTAssertEqual(waited, [1, 2], "the back-off, not no pause")
    }

    func testAnHTTPDateRetryAfterIsCountedFromTheServersDate() async throws {
        server.keys["KEY-1111-2222-3333"] = LemonSqueezyTestServer.key(id: 7)
        server.script["/v1/licenses/validate"] = [
            .object([
                "status": 429,
                "headers": .object(["Retry-After": "Wed, 21 Oct 2015 07:28:05 GMT", "Date": "Wed, 21 Oct 2015 07:28:00 GMT"]),
            ])
        ]
        _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
        let waited = await pauses.all
        XCTAssertEqual(waited, [5])
    }

    func testMalformedAnswersAreErrors() async throws {
        let answers: [JSONValue] = [
            .object(["raw": "<html>oops</html>"]),
            .object(["raw": "[1, 2]"]),
            .object(["json": .object(["valid": "yes"])]),
            .object(["json": .object(["valid": true, "license_key": .object(["id": 1, "status": "sleeping", "key": "K"])])]),
            .object([
                "json": .object([
                    "valid": true, "license_key": .object(["id": 1, "status": "active", "key": "K", "activation_usage": -3]),
                ])
            ]),
            .object([
                "json": .object([
                    "valid": true, "license_key": .object(["id": 1, "status": "active", "key": "K", "expires_at": "soon"]),
                ])
            ]),
            .object(["status": 302, "headers": .object(["Location": "/elsewhere"])]),
            .object(["status": 307, "headers": .object(["Location": "http://example.com/v1/licenses/validate"])]),
        ]
        server.script["/v1/licenses/validate"] = answers
        for answer in answers {
            do {
                _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
                XCTFail("accepted \(answer.jsonText)")
            } catch {
                XCTAssertEqual(error.kind, .malformedResponse, "\(answer.jsonText): \(error)")
            }
        }
    }

    func testOversizedAnswerIsAnError() async throws {
        server.script["/v1/licenses/validate"] = [.object(["raw": .string(String(repeating: " ", count: 5000) + "{}")])]
        do {
            _ = try await api(maxResponseBytes: 1000).validate(key: "KEY-1111-2222-3333", instanceId: nil)
            XCTFail("an oversized answer was read")
        } catch {
            XCTAssertEqual(error.kind, .malformedResponse)
            XCTAssertTrue(error.message.contains("1000 bytes limit"), error.message)
        }
    }

    func testNoServerIsANetworkError() async throws {
        server.stop()
        do {
            _ = try await api().validate(key: "KEY-1111-2222-3333", instanceId: nil)
            XCTFail("answered without a server")
        } catch {
            XCTAssertEqual(error.kind, .network)
            XCTAssertTrue(error.isTransient)
        }
    }

    func testOnlyHTTPSOrLoopbackBaseURLs() throws {
        for text in ["http://api.lemonsqueezy.com", "ftp://127.0.0.1", "http://10.0.0.1:8080", "http://127.example.com"] {
            XCTAssertThrowsError(try LemonSqueezyLicenseAPI(baseURL: URL(string: text)!), text) { error in
                XCTAssertEqual((error as? LicenseError)?.kind, .insecureURL)
            }
        }
        for text in ["https://api.lemonsqueezy.com", "http://127.0.0.1:9", "http://localhost:9", "http://[::1]:9"] {
            XCTAssertNoThrow(try LemonSqueezyLicenseAPI(baseURL: URL(string: text)!), text)
        }
    }

    func testFormEncodingEscapesEverythingButUnreservedASCII() {
        XCTAssertEqual(HTTPRequest.formEncoded(["b": "a+b&c=d é", "a": "x y"]), "a=x%20y&b=a%2Bb%26c%3Dd%20%C3%A9")
    }
}

/// The pauses a client asked for, instead of waiting them.
actor PauseRecorder {
    private(set) var all: [Double] = []
    func record(_ seconds: Double) { all.append(seconds) }
}
