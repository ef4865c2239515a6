import Foundation
import XCTest

@testable import PaywallCore

/// What a host's prompt hears from the license-key store: each ask, then once that the asking
/// is over (so a view kept up while the last key was checked can go), whatever the outcome.
@MainActor
final class LicenseKeyPromptTests: XCTestCase {
    private var directory: URL!
    private var server: LemonSqueezyTestServer!
    static let key = "38b1460a-5104-4067-a91d-77b872934d51"

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("LicenseKeyPrompt")
        server = try LemonSqueezyTestServer(directory: directory.appendingPathComponent("server"))
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1)
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [])
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    /// Records the calls it gets, answering with `answers` in order.
    final class RecordingPrompt: LicenseKeyPrompt {
        var calls: [String] = []
        var answers: [String?]
        init(_ answers: [String?]) { self.answers = answers }
        func askForLicenseKey(_ request: LicenseKeyRequest) async -> String? {
            calls.append("ask \(request.attempt)\(request.problem.map { " \($0.kind.rawValue)" } ?? "")")
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        func licenseKeyPromptDidFinish() { calls.append("finish") }
    }

    private func runtime(_ prompt: RecordingPrompt) throws -> PaywallRuntime {
        let catalog = try server.writeCatalog(in: directory)
        let services = LicenseServices(openURL: { _ in true }, instanceName: { "test" }, refreshesPeriodically: false)
        let runtime = try PaywallRuntime(
            .init(
                dataDirectory: directory.appendingPathComponent("data").path,
                store: .fakeStore(catalog: catalog), logLevel: .none), licenseServices: services)
        runtime.licenseStore?.prompt = prompt
        return runtime
    }

    func testTheAskingEndsOnceAfterTheKeyActivates() async throws {
        let prompt = RecordingPrompt(["NO-SUCH-KEY-12345", Self.key])
        let runtime = try runtime(prompt)
        let result = await runtime.purchases!.purchase(productId: "pro.lifetime")
        guard case .purchased = result else { return XCTFail("\(result)") }
        XCTAssertEqual(prompt.calls, ["ask 1", "ask 2 not_found", "finish"])
    }

    func testTheAskingEndsWhenTheUserCancelsOrTheAttemptsRunOut() async throws {
        let cancelled = RecordingPrompt([nil])
        _ = try await runtime(cancelled).purchases!.restore()
        XCTAssertEqual(cancelled.calls, ["ask 1", "finish"])

        let wrong = RecordingPrompt(Array(repeating: "NO-SUCH-KEY-12345", count: LicenseKeyStore.maxKeyAttempts))
        let result = try await runtime(wrong).purchases!.purchase(productId: "pro.lifetime")
        guard case .failed = result else { return XCTFail("\(result)") }
        XCTAssertEqual(wrong.calls.last, "finish")
        XCTAssertEqual(wrong.calls.filter { $0 == "finish" }.count, 1)
        XCTAssertEqual(wrong.calls.count, LicenseKeyStore.maxKeyAttempts + 1)
    }
}
