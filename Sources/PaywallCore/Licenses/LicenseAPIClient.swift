import Foundation

/// How every merchant's license API is spoken to (Lemon Squeezy, Polar, Keygen, Gumroad): one
/// request at a time through `HTTPClient` (bounded answers, no redirects), a 429 or 5xx asked
/// again after a pause (`Retry-After` when the server gives one, in seconds or as an HTTP date,
/// else 1, 2, 4 s), up to `retries` times, through `sleep`, so nothing waits on the main thread.
/// A person waits `longestWait` (30 s) at most in all: a pause that would pass it is not taken,
/// and the error says when to try again. The key is masked in every message.
package struct LicenseAPIClient: Sendable {
    /// The merchant's name for messages (`Polar`).
    package let merchant: String
    package let baseURL: URL
    /// Times a 429 or 5xx is asked again before it is thrown.
    package var retries: Int
    /// Seconds a request may take in all; seconds it may go without receiving anything.
    package var deadline: Double
    package var idleTimeout: Double
    /// Bytes an answer may have (64 KB; a real one has a few KB at most).
    package var maxResponseBytes: Int
    /// Waits between attempts (tests record the pauses instead of waiting).
    package var sleep: @Sendable (Double) async -> Void

    /// The most the retries of one request wait in all, in seconds: someone is waiting.
    static let longestWait = 30.0

    /// - Throws: `insecureURL` for a base URL that is not `https` (or `http` to loopback).
    package init(
        merchant: String, baseURL: URL, retries: Int = 3, deadline: Double = 30, idleTimeout: Double = 15,
        maxResponseBytes: Int = 64_000,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    )
        throws(LicenseError)
    {
        if let problem = LicenseSettings.insecurity(of: baseURL) {
            throw LicenseError(.insecureURL, "\(merchant) license API base URL \(problem)")
        }
        self.merchant = merchant
        self.baseURL = baseURL
        self.retries = retries
        self.deadline = deadline
        self.idleTimeout = idleTimeout
        self.maxResponseBytes = maxResponseBytes
        self.sleep = sleep
    }

    /// The API's URL for `path` (`v1/licenses/activate`) under the base URL.
    package func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// What a request is, for messages: `Polar activate of license key ****ABCD at URL`.
    package func describe(_ action: String, key: String, url: URL) -> String {
        "\(merchant) \(action) of license key \(LicenseKeyMask.mask(key)) at \(url.absoluteString)"
    }

    /// Sends `request` (retrying 429 and 5xx as above) until it gets one of `documented`, the
    /// statuses the API answers with a body, and hands that status and body to `parse`. Any
    /// other status is a `malformedResponse` naming `documented`. The key is masked in what
    /// `parse` throws too (a server's words may echo it).
    package func send<Answer>(
        _ request: HTTPRequest, documented: Set<Int>, key: String, what: String,
        parse: (_ status: Int, _ body: Data) throws(LicenseError) -> Answer
    ) async throws(LicenseError) -> Answer {
        var attempt = 0
        var waited = 0.0
        while true {
            let (status, body, retryAfter) = try await once(request, documented: documented, what: what)
            let transient = status == 429 || (500...599).contains(status)
            let pause = retryAfter ?? Double(1 << attempt)
            switch status {
            case _ where documented.contains(status):
                do {
                    return try parse(status, body)
                } catch {
                    throw Self.masking(key, in: error)
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
                let listed = (documented.sorted().map(String.init) + ["429"]).joined(separator: ", ")
                throw LicenseError(
                    .malformedResponse,
                    "\(what): unexpected HTTP \(status); the \(merchant) license API answers \(listed)", statusCode: status)
            }
        }
    }

    /// `error` with every occurrence of `key` masked.
    package static func masking(_ key: String, in error: LicenseError) -> LicenseError {
        guard !key.isEmpty else { return error }
        var masked = error
        masked.message = error.message.replacingOccurrences(of: key, with: LicenseKeyMask.mask(key))
        return masked
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

    /// One request; its status, body (for the documented statuses) and `Retry-After` seconds.
    private func once(_ request: HTTPRequest, documented: Set<Int>, what: String) async throws(LicenseError) -> (
        Int, Data, Double?
    ) {
        let sink = DownloadSink(limit: maxResponseBytes, kind: .apiAnswer)
        let response: HTTPResponse
        do {
            response = try await HTTPClient.send(
                request, bodyStatuses: documented, into: sink, idleTimeout: idleTimeout,
                deadline: Date().addingTimeInterval(deadline), deadlineReason: "timed out after \(Seconds.text(deadline))")
        } catch let error as BundleSource.FetchError {
            if case .stopped(_, let why, let limit) = error, limit != .deadline {
                throw LicenseError(.malformedResponse, "\(what): the answer is \(why)")
            }
            if case .redirected(_, let status, let location) = error {
                throw LicenseError(
                    .malformedResponse,
                    "\(what): redirected (HTTP \(status)) to \(location ?? "no Location"); the \(merchant) license API "
                        + "never redirects, and a request carrying a key is not sent on",
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
