import Foundation

/// Lemon Squeezy's License API (no secret needed in the client): `POST /v1/licenses/activate`,
/// `/validate` and `/deactivate`, form-encoded bodies, `Accept: application/json`. 400, 404 and
/// 422 answer with an `error` field; past 60 requests a minute it answers 429.
///
/// A 429 or 5xx is asked again after a pause (`Retry-After` when the server gives one, in
/// seconds or as an HTTP date, else 1, 2, 4 s), up to `retries` times, through `sleep`, so
/// nothing waits on the main thread. A person waits `longestWait` (30 s) at most in all: a
/// pause that would pass it is not taken, and the error says when to try again. An
/// answer that is not the documented JSON, or larger than `maxResponseBytes`, is a
/// `malformedResponse` error, never a crash.
package struct LemonSqueezyLicenseAPI: LicenseProvider {
    package var name: String { "Lemon Squeezy" }
    package let baseURL: URL
    /// Times a 429 or 5xx is asked again before it is thrown.
    package var retries: Int
    /// Seconds a request may take in all; seconds it may go without receiving anything.
    package var deadline: Double
    package var idleTimeout: Double
    /// Bytes an answer may have (64 KB; a real one has about 1 KB).
    package var maxResponseBytes: Int
    /// Waits between attempts (tests record the pauses instead of waiting).
    package var sleep: @Sendable (Double) async -> Void

    /// The most the retries of one request wait in all, in seconds: someone is waiting.
    static let longestWait = 30.0

    /// - Throws: `insecureURL` for a base URL that is not `https` (or `http` to loopback).
    package init(
        baseURL: URL = LicenseSettings.lemonSqueezyAPI, retries: Int = 3, deadline: Double = 30, idleTimeout: Double = 15,
        maxResponseBytes: Int = 64_000,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    )
        throws(LicenseError)
    {
        if let problem = LicenseSettings.insecurity(of: baseURL) {
            throw LicenseError(.insecureURL, "license API base URL \(problem)")
        }
        self.baseURL = baseURL
        self.retries = retries
        self.deadline = deadline
        self.idleTimeout = idleTimeout
        self.maxResponseBytes = maxResponseBytes
        self.sleep = sleep
    }

    package func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
        try await call("activate", ["license_key": key, "instance_name": instanceName], key: key, flag: "activated")
    }

    package func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
        var form = ["license_key": key]
        if let instanceId { form["instance_id"] = instanceId }
        return try await call("validate", form, key: key, flag: "valid")
    }

    package func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
        try await call("deactivate", ["license_key": key, "instance_id": instanceId], key: key, flag: "deactivated")
    }

    // MARK: Requests

    private func call(_ action: String, _ form: [String: String], key: String, flag: String) async throws(LicenseError)
        -> LicenseResponse
    {
        let url = baseURL.appendingPathComponent("v1/licenses/\(action)")
        let what = "\(name) \(action) of license key \(LicenseKeyMask.mask(key)) at \(url.absoluteString)"
        var attempt = 0
        var waited = 0.0
        while true {
            let (status, body, retryAfter) = try await post(url, form: form, what: what)
            let transient = status == 429 || (500...599).contains(status)
            let pause = retryAfter ?? Double(1 << attempt)
            switch status {
            case 200, 400, 404, 422:
                do {
                    return try LemonSqueezyAnswer.parse(body, status: status, flag: flag, what: what)
                } catch {
                    // A server's words may echo the key: never printed whole.
                    var masked = error
                    if !key.isEmpty {
                        masked.message = error.message.replacingOccurrences(of: key, with: LicenseKeyMask.mask(key))
                    }
                    throw masked
                }
            case _ where transient && attempt < retries && waited + pause <= Self.longestWait:
                attempt += 1
                waited += pause
                await sleep(pause)
            case _ where transient:
                let later = retryAfter.map { "the server asks to wait \(Seconds.text($0)): try again later" } ?? "try again later"
                let tried = attempt == 0 ? "" : " after \(attempt) \(attempt == 1 ? "retry" : "retries")"
                throw status == 429
                    ? LicenseError(.rateLimited, "\(what): too many requests (HTTP 429)\(tried); \(later)", statusCode: status)
                    : LicenseError(
                        .serverError, "\(what): the server failed (HTTP \(status))\(tried); \(later)", statusCode: status)
            default:
                throw LicenseError(
                    .malformedResponse, "\(what): unexpected HTTP \(status); the License API answers 200, 400, 404, 422 or 429",
                    statusCode: status)
            }
        }
    }

    /// The pause a `Retry-After` asks for, in seconds: whole seconds, or an HTTP date (counted
    /// from the answer's `Date`, the server's own clock, else from `now`; a date passed is 0).
    /// Nil when it is neither (a negative number, NaN, garbage): the back-off applies.
    static func pause(retryAfter: String?, date: String?, now: Date = Date()) -> Double? {
        guard let text = retryAfter?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return Double(text) }
        guard let until = BundleSource.httpDate(text) else { return nil }
        let from = date.flatMap(BundleSource.httpDate) ?? now
        return max(0, until.timeIntervalSince(from))
    }

    /// One POST; its status, body (for the statuses the API documents) and `Retry-After` seconds.
    private func post(_ url: URL, form: [String: String], what: String) async throws(LicenseError) -> (Int, Data, Double?) {
        let sink = DownloadSink(limit: maxResponseBytes, kind: .apiAnswer)
        let response: HTTPResponse
        do {
            response = try await HTTPClient.send(
                .post(url, form: form, headers: ["Accept": "application/json"]),
                bodyStatuses: [200, 400, 404, 422], into: sink, idleTimeout: idleTimeout,
                deadline: Date().addingTimeInterval(deadline), deadlineReason: "timed out after \(Seconds.text(deadline))")
        } catch let error as BundleSource.FetchError {
            if case .stopped(_, let why, let limit) = error, limit != .deadline {
                throw LicenseError(.malformedResponse, "\(what): the answer is \(why)")
            }
            if case .redirected(_, let status, let location) = error {
                throw LicenseError(
                    .malformedResponse,
                    "\(what): redirected (HTTP \(status)) to \(location ?? "no Location"); the License API never redirects, and a request carrying a key is not sent on",
                    statusCode: status)
            }
            throw LicenseError(.network, "\(what): \(Self.reason(error)); check the network connection")
        } catch {
            throw LicenseError(.network, "\(what): \(error)")
        }
        let retryAfter = Self.pause(
            retryAfter: response.value(forHTTPHeaderField: "Retry-After"), date: response.value(forHTTPHeaderField: "Date"))
        return (response.statusCode, sink.data, retryAfter)
    }

    private static func reason(_ error: BundleSource.FetchError) -> String {
        switch error {
        case .transport(_, let why), .stopped(_, let why, _): why
        default: error.description
        }
    }
}
