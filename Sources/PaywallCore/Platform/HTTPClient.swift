import CCurl
import Foundation

/// One HTTP request for `HTTPClient`: GET, POST with a form or JSON body, DELETE.
package struct HTTPRequest: Sendable {
    package var url: URL
    package var method: String
    package var body: Data?
    package var headers: [String: String]

    package static func get(_ url: URL, headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(url: url, method: "GET", body: nil, headers: headers)
    }

    /// A POST of `form` as `application/x-www-form-urlencoded` (keys sorted).
    package static func post(_ url: URL, form: [String: String], headers: [String: String] = [:]) -> HTTPRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return HTTPRequest(url: url, method: "POST", body: Data(formEncoded(form).utf8), headers: headers)
    }

    /// A POST of `json` (already encoded) as `application/json`.
    package static func post(_ url: URL, json: Data, headers: [String: String] = [:]) -> HTTPRequest {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return HTTPRequest(url: url, method: "POST", body: json, headers: headers)
    }

    package static func delete(_ url: URL, headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(url: url, method: "DELETE", body: nil, headers: headers)
    }

    /// `application/x-www-form-urlencoded`, keys sorted: `+` and `&` in a key are escaped.
    package static func formEncoded(_ form: [String: String]) -> String {
        // ASCII only: `alphanumerics` would let letters like é through unencoded.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return form.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }.joined(separator: "&")
    }
}

/// What a server answered: its status and headers (the last value of each, by lowercased name).
package struct HTTPResponse: Sendable {
    package let statusCode: Int
    package let headers: [String: String]

    /// The header `name` (any case).
    package func value(forHTTPHeaderField name: String) -> String? { headers[name.lowercased()] }
}

/// The runtime's one HTTP client, over libcurl. The body streams into a `DownloadSink` and the
/// transfer stops reading the moment the sink's limit would be passed (the write callback
/// aborts, and a declared Content-Length past it is refused before any body), so memory stays
/// bounded whatever a server sends: Foundation's URLSession on Linux queues what arrives with
/// no back-pressure. It also stops when nothing arrives for `idleTimeout`, at `deadline` for
/// the whole transfer (a server trickling a byte a second would otherwise go on forever), and
/// when the awaiting task is cancelled. Redirects are never followed (a request may carry a
/// secret; a bundle's files live where its manifest says). Only http and https are spoken.
/// Each transfer runs on a thread of its own, so no caller's thread (the main loop) blocks.
enum HTTPClient {
    /// GETs `url` into `sink`; `budget` is how long `deadline` allowed in all, for the message.
    static func get(
        _ url: URL, headers: [String: String] = [:], into sink: DownloadSink, idleTimeout: Double,
        deadline: Date, budget: Double
    ) async throws -> HTTPResponse {
        try await send(
            .get(url, headers: headers), into: sink, idleTimeout: idleTimeout, deadline: deadline,
            deadlineReason:
                "timed out after \(Seconds.text(budget)), the limit for downloading a whole bundle (DownloadLimits.deadline)")
    }

    /// Sends `request` and streams the answer's body into `sink` when its status is in
    /// `bodyStatuses`; any other status is returned with its headers and no body read. A
    /// redirect (3xx but 304) is thrown as `FetchError.redirected`; `deadlineReason` says why
    /// the deadline stopped it.
    static func send(
        _ request: HTTPRequest, bodyStatuses: Set<Int> = [200], into sink: DownloadSink, idleTimeout: Double,
        deadline: Date, deadlineReason: String
    ) async throws -> HTTPResponse {
        let transfer = Transfer(request: request, bodyStatuses: bodyStatuses, sink: sink, deadline: deadline)
        let outcome: Result<HTTPResponse, Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(
                        returning: transfer.run(idleTimeout: idleTimeout, deadlineReason: deadlineReason))
                }
                thread.name = "HTTPClient"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        let response = try outcome.get()
        if (300...399).contains(response.statusCode), response.statusCode != 304 {
            throw BundleSource.FetchError.redirected(
                request.url, response.statusCode, response.value(forHTTPHeaderField: "Location"))
        }
        return response
    }

    /// `curl_global_init` once, before the first handle (it is not thread-safe itself).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// One request's state, shared with libcurl's callbacks on the transfer's thread.
    private final class Transfer: @unchecked Sendable {
        let request: HTTPRequest
        let bodyStatuses: Set<Int>
        let sink: DownloadSink
        let deadline: Date
        private let lock = NSLock()
        private var cancelled = false
        /// Why the transfer was stopped from a callback (the first reason wins).
        private(set) var failure: BundleSource.FetchError?
        /// A status whose body is of no use: the transfer stopped before reading it.
        private(set) var skippedBody = false
        private(set) var deadlinePassed = false
        private(set) var status = 0
        private(set) var headers: [String: String] = [:]

        init(request: HTTPRequest, bodyStatuses: Set<Int>, sink: DownloadSink, deadline: Date) {
            self.request = request
            self.bodyStatuses = bodyStatuses
            self.sink = sink
            self.deadline = deadline
        }

        func cancel() { lock.withLock { cancelled = true } }
        var isCancelled: Bool { lock.withLock { cancelled } }

        private func stop(_ reason: BundleSource.FetchError) {
            if failure == nil { failure = reason }
        }

        /// One header line: a status line starts a new set (after a `100 Continue`); the blank
        /// line ends them, where a status whose body is not wanted stops the transfer, and a
        /// declared length past the limit stops it before any body. False stops the transfer.
        func header(_ line: String) -> Bool {
            let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ")
                status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                headers = [:]
            } else if line.isEmpty {
                guard !(100...199).contains(status) else { return true }
                guard bodyStatuses.contains(status) else {
                    skippedBody = true
                    return false
                }
                if let length = headers["content-length"].flatMap(Int64.init), length > Int64(sink.limit) {
                    stop(sink.stopped(request.url.absoluteString))
                    return false
                }
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return true
        }

        /// Body bytes as they arrive; false stops the transfer (the sink is full or failed).
        func body(_ data: Data) -> Bool {
            do {
                if try sink.append(data) { return true }
                stop(sink.stopped(request.url.absoluteString))
            } catch {
                stop(.stopped(request.url.absoluteString, error.description))
            }
            return false
        }

        /// Called by libcurl at least once a second: false stops it on cancellation or deadline.
        func progress() -> Bool {
            if isCancelled { return false }
            if Date() >= deadline {
                deadlinePassed = true
                return false
            }
            return true
        }

        /// Performs the request on the calling thread, which it blocks until the transfer ends.
        func run(idleTimeout: Double, deadlineReason: String) -> Result<HTTPResponse, Error> {
            let url = request.url
            guard HTTPClient.initialized, let curl = curl_easy_init() else {
                return .failure(BundleSource.FetchError.transport(url, "libcurl could not start a transfer"))
            }
            defer { curl_easy_cleanup(curl) }
            var list: UnsafeMutablePointer<curl_slist>?
            defer { curl_slist_free_all(list) }
            // A server's Content-Encoding is not undone: the sink counts the bytes that arrive.
            for (name, value) in request.headers { list = curl_slist_append(list, "\(name): \(value)") }
            // Without this, libcurl sends `Expect: 100-continue` before a large body and waits.
            list = curl_slist_append(list, "Expect:")
            // Whole seconds from 1 to a day; NaN is the default 30.
            let idle = idleTimeout.isNaN ? 30 : Int(min(max(1, idleTimeout.rounded(.up)), 86_400))
            let left = deadline.timeIntervalSinceNow
            // A year at most: an infinite or NaN deadline from the API must not trap. The
            // progress callback ends the transfer at the deadline; libcurl's timeout, a second
            // later, is only a backstop.
            let remaining = left.isNaN ? 0 : min(max(0, left), 365 * 86_400)
            let context = Unmanaged.passUnretained(self).toOpaque()
            var setup: [CURLcode] = [
                ccurl_set_string(curl, CURLOPT_URL, url.absoluteString),
                ccurl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"),
                ccurl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0),
                ccurl_set_long(curl, CURLOPT_NOSIGNAL, 1),
                ccurl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)),
                ccurl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(sink.limit)),
                ccurl_set_long(curl, CURLOPT_CONNECTTIMEOUT, idle),
                ccurl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1),
                ccurl_set_long(curl, CURLOPT_LOW_SPEED_TIME, idle),
                ccurl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(remaining * 1000) + 1000),
                ccurl_set_write_function(curl, CURLOPT_HEADERFUNCTION, headerCallback),
                ccurl_set_pointer(curl, CURLOPT_HEADERDATA, context),
                ccurl_set_write_function(curl, CURLOPT_WRITEFUNCTION, writeCallback),
                ccurl_set_pointer(curl, CURLOPT_WRITEDATA, context),
                ccurl_set_long(curl, CURLOPT_NOPROGRESS, 0),
                ccurl_set_progress_function(curl, progressCallback),
                ccurl_set_pointer(curl, CURLOPT_XFERINFODATA, context),
            ]
            switch request.method {
            case "GET": break
            case "POST": setup.append(ccurl_set_long(curl, CURLOPT_POST, 1))
            default: setup.append(ccurl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method))
            }
            if let body = request.body {
                setup.append(ccurl_set_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                setup.append(
                    body.withUnsafeBytes { bytes in
                        // COPYPOSTFIELDS copies the body: `bytes` lives only in this closure.
                        ccurl_set_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    })
            }
            if let failed = setup.first(where: { $0 != CURLE_OK }) {
                return .failure(BundleSource.FetchError.transport(url, "libcurl refused an option: \(Self.text(failed))"))
            }
            let code = withExtendedLifetime(self) { curl_easy_perform(curl) }
            if let failure { return .failure(failure) }
            let response = HTTPResponse(statusCode: status, headers: headers)
            if code == CURLE_OK || skippedBody { return .success(response) }
            if isCancelled { return .failure(CancellationError()) }
            if deadlinePassed {
                return .failure(BundleSource.FetchError.stopped(url.absoluteString, deadlineReason, limit: .deadline))
            }
            switch code {
            case CURLE_FILESIZE_EXCEEDED:
                // A status whose body is not wanted is an answer, however long it says it is.
                if status != 0, !bodyStatuses.contains(status) { return .success(response) }
                return .failure(sink.stopped(url.absoluteString))
            case CURLE_OPERATION_TIMEDOUT where remaining * 1000 < Double(idle * 1000):
                return .failure(BundleSource.FetchError.stopped(url.absoluteString, deadlineReason, limit: .deadline))
            default:
                return .failure(BundleSource.FetchError.transport(url, words(code, curl: curl, idle: idle)))
            }
        }

        /// What a libcurl error means, in words.
        private func words(_ code: CURLcode, curl: UnsafeMutableRawPointer, idle: Int) -> String {
            let host = request.url.host ?? "the server"
            switch code {
            case CURLE_OPERATION_TIMEDOUT: return "timed out: nothing arrived for \(Seconds.text(Double(idle)))"
            case CURLE_COULDNT_CONNECT: return "could not connect to host \(host) (refused or unreachable)"
            case CURLE_COULDNT_RESOLVE_HOST: return "host \(host) not found"
            case CURLE_PARTIAL_FILE:
                let declared = ccurl_content_length(curl)
                let of = declared >= 0 ? " of the \(declared) it declared" : ""
                return "the answer was cut short: the connection closed after \(sink.count) bytes\(of)"
            case CURLE_GOT_NOTHING: return "the server closed the connection without answering"
            case CURLE_SEND_ERROR, CURLE_RECV_ERROR: return "the connection was lost"
            case CURLE_WEIRD_SERVER_REPLY: return "the answer is not valid HTTP"
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return "the URL is not supported (only http and https are)"
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
                return "the secure (TLS) connection failed; check the server's certificate"
            default: return Self.text(code)
            }
        }

        private static func text(_ code: CURLcode) -> String {
            String(cString: curl_easy_strerror(code)) + " (libcurl error \(code.rawValue))"
        }
    }

    private static let headerCallback: curl_write_callback = { bytes, size, count, context in
        guard let bytes, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: size * count), as: UTF8.self)
        return transfer.header(line) ? size * count : 0
    }

    private static let writeCallback: curl_write_callback = { bytes, size, count, context in
        guard let bytes, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.body(Data(bytes: bytes, count: size * count)) ? size * count : 0
    }

    private static let progressCallback: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 1 }
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().progress() ? 0 : 1
    }
}
