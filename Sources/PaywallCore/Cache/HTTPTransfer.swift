import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP GET whose body streams into a `DownloadSink` as it arrives (`URLSession.data(for:)`
/// would hold all of it in memory before anything could be checked). It stops at the sink's
/// limit, at a deadline for the whole transfer (the request timeout only fires when nothing
/// arrives, so a server trickling a byte every few seconds would go on forever), or when the
/// awaiting task is cancelled. Only the body of a status in `bodyStatuses` is read (a 200's, by
/// default); any other status is returned at once.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let sink: DownloadSink
    private let idleTimeout: Double
    private let bodyStatuses: Set<Int>
    private let followsRedirects: Bool
    private let lock = NSLock()
    private var response: HTTPURLResponse?
    private var failure: BundleSource.FetchError?
    private var continuation: CheckedContinuation<HTTPURLResponse, Error>?

    private init(url: URL, sink: DownloadSink, idleTimeout: Double, bodyStatuses: Set<Int>, followsRedirects: Bool) {
        self.url = url
        self.sink = sink
        self.idleTimeout = idleTimeout
        self.bodyStatuses = bodyStatuses
        self.followsRedirects = followsRedirects
    }

    /// GETs `url` into `sink`; `deadline` ends it whatever is still arriving, and `budget` is
    /// how long the deadline allowed in all, for the message.
    static func get(
        _ url: URL, headers: [String: String] = [:], into sink: DownloadSink, idleTimeout: Double,
        deadline: Date, budget: Double
    ) async throws -> HTTPURLResponse {
        try await send(
            url, headers: headers, into: sink, idleTimeout: idleTimeout, deadline: deadline,
            deadlineReason:
                "timed out after \(Seconds.text(budget)), the limit for downloading a whole bundle (DownloadLimits.deadline)")
    }

    /// Sends one request (`method`, `body`) and streams the answer's body into `sink` when its
    /// status is in `bodyStatuses`; `deadlineReason` says why the deadline stopped it. Without
    /// `followsRedirects` a redirect is returned as it is (a request carrying a secret must not
    /// be sent on to wherever a server points).
    static func send(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
        bodyStatuses: Set<Int> = [200], followsRedirects: Bool = true, into sink: DownloadSink,
        idleTimeout: Double, deadline: Date, deadlineReason: String
    ) async throws -> HTTPURLResponse {
        // Whole seconds from 1 to a day: URLSession on Linux truncates the interval to whole
        // seconds, and 0 would fail every request at once.
        let idleTimeout = idleTimeout.isNaN ? 30 : min(max(1, idleTimeout.rounded(.up)), 86_400)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        let transfer = HTTPTransfer(
            url: url, sink: sink, idleTimeout: idleTimeout, bodyStatuses: bodyStatuses,
            followsRedirects: followsRedirects)
        // The session holds its delegate until it is invalidated, after the task ends.
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.lock.withLock { transfer.continuation = continuation }
                // A year at most: an infinite or NaN deadline from the API must not trap.
                let left = deadline.timeIntervalSinceNow
                let remaining = left.isNaN ? 0 : min(max(0, left), 365 * 86_400)
                DispatchQueue.global().asyncAfter(deadline: .now() + remaining) { [weak transfer] in
                    transfer?.stop(.stopped(url.absoluteString, deadlineReason, limit: .deadline), task)
                }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Ends the transfer with `failure` (the first reason given wins).
    private func stop(_ reason: BundleSource.FetchError, _ task: URLSessionTask) {
        lock.withLock { if failure == nil { failure = reason } }
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            stop(.transport(url, "the answer is not HTTP"), dataTask)
            completionHandler(.cancel)
            return
        }
        lock.withLock { self.response = http }
        guard bodyStatuses.contains(http.statusCode) else { return completionHandler(.cancel) }  // its body is of no use
        if http.expectedContentLength > Int64(sink.limit) {
            stop(sink.stopped(url.absoluteString), dataTask)
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(followsRedirects ? request : nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard lock.withLock({ failure == nil }) else { return }
        do {
            if try !sink.append(data) { stop(sink.stopped(url.absoluteString), dataTask) }
        } catch {
            stop(.stopped(url.absoluteString, error.description), dataTask)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, failure, response) = lock.withLock {
            defer { self.continuation = nil }
            return (self.continuation, self.failure, self.response)
        }
        guard let continuation else { return }
        if let failure {
            continuation.resume(throwing: failure)
        } else if let response, !bodyStatuses.contains(response.statusCode) || error == nil {
            continuation.resume(returning: response)
        } else if let error, (error as? URLError)?.code == .cancelled {
            continuation.resume(throwing: CancellationError())
        } else {
            continuation.resume(throwing: BundleSource.FetchError.transport(url, error.map(words) ?? "no answer"))
        }
    }

    /// What a URL error means, in words; never `NSURLErrorDomain error -1001`.
    private func words(_ error: Error) -> String {
        guard let error = error as? URLError else { return FileError.reason(error) }
        let host = url.host ?? "the server"
        switch error.code {
        case .timedOut: return "timed out: nothing arrived for \(Seconds.text(idleTimeout))"
        case .cannotConnectToHost: return "could not connect to host \(host) (refused or unreachable)"
        case .cannotFindHost, .dnsLookupFailed: return "host \(host) not found"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network connection"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return "too many or broken redirects"
        case .badServerResponse: return "the answer is not valid HTTP"
        case .unsupportedURL, .badURL: return "the URL is not supported"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the secure (TLS) connection failed; check the server's certificate"
        default: return "network error \(error.code.rawValue)"
        }
    }
}
