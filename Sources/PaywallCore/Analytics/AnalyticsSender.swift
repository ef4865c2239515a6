import Foundation

/// Sends each sink's queue from the outbox, off the main thread: batches of up to 100, a pass
/// every 10 seconds while the process runs, and one last pass at shutdown within 2 seconds.
/// At least once: rows leave the outbox only after the sink took them, and a repeat carries
/// the same `uuid` (PostHog deduplicates by it). Network errors, 5xx and 429 retry with
/// backoff (429's `Retry-After` first); 400 and 422 drop the batch, counted (413 halves it
/// first); 401, 403 and 404 keep the queue and record the error: a wrong key erases nothing.
package final class AnalyticsSender: @unchecked Sendable {
    package static let batchSize = 100
    package static let interval: TimeInterval = 10
    /// The longest wait between retries of a failing sink.
    package static let maxBackoff: TimeInterval = 300

    let outbox: AnalyticsOutbox
    let sinks: [AnalyticsSink]
    /// Told, off the main thread, of drops to report as `analytics_dropped`.
    let reportDrops: @Sendable ([AnalyticsOutbox.Drop]) -> Void
    private let lock = NSLock()
    private var retryAt: [String: Date] = [:]
    private var failures: [String: Int] = [:]
    private var loop: Task<Void, Never>?
    private var current: Task<[String: String], Never>?

    package init(
        outbox: AnalyticsOutbox, sinks: [AnalyticsSink],
        reportDrops: @escaping @Sendable ([AnalyticsOutbox.Drop]) -> Void = { _ in }
    ) {
        self.outbox = outbox
        self.sinks = sinks
        self.reportDrops = reportDrops
    }

    /// Starts the passes: one now (what earlier runs left), then every `interval`.
    package func start() {
        lock.withLock {
            guard loop == nil else { return }
            loop = Task.detached { [self] in
                while !Task.isCancelled {
                    _ = await pass(deadline: Date().addingTimeInterval(60), force: false)
                    try? await Task.sleep(for: .seconds(Self.interval))
                }
            }
        }
    }

    /// Stops the passes, sending nothing more (consent withdrawn).
    package func stop() {
        lock.withLock {
            loop?.cancel()
            loop = nil
        }
    }

    /// Stops the passes and sends what is queued within `seconds`: true when nothing is left.
    @discardableResult
    package func shutdown(within seconds: TimeInterval = 2) async -> Bool {
        let running = lock.withLock {
            defer { loop = nil }
            return loop
        }
        running?.cancel()
        return await pass(deadline: Date().addingTimeInterval(seconds), force: true).isEmpty
    }

    /// Sends every sink's queue until it is empty, a send fails, or `deadline`; a sink waiting
    /// out its backoff is skipped unless `force`. Returns why each sink still has events.
    /// Passes run one after another (the periodic one and shutdown's never send the same rows
    /// at once); cancelling the caller cancels its pass, and a send in flight with it.
    package func pass(deadline: Date, force: Bool) async -> [String: String] {
        let task = lock.withLock {
            let previous = current
            let task = Task { [self] in
                _ = await previous?.value
                return await sendAll(deadline: deadline, force: force)
            }
            current = task
            return task
        }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func sendAll(deadline: Date, force: Bool) async -> [String: String] {
        var left: [String: String] = [:]
        for sink in sinks {
            if let problem = await send(sink, deadline: deadline, force: force) { left[sink.name] = problem }
        }
        let drops = outbox.takeDrops()
        if !drops.isEmpty { reportDrops(drops) }
        return left
    }

    /// Sends `sink`'s queue; nil once it is empty, else why events remain.
    private func send(_ sink: AnalyticsSink, deadline: Date, force: Bool) async -> String? {
        if !force, let wait = lock.withLock({ retryAt[sink.name] }), wait > Date() {
            return lock.withLock { "waiting to retry until \(wait.formatted(.iso8601))" }
        }
        var limit = Self.batchSize
        while true {
            let rows = outbox.batch(sink: sink.name, limit: limit)
            guard !rows.isEmpty else { return nil }
            guard deadline > Date(), !Task.isCancelled || force else { return "stopped before sending all" }
            let request = sink.request(for: rows)
            let status: Int
            let retryAfter: String?
            do {
                let response = try await HTTPClient.send(
                    request, bodyStatuses: [], into: DownloadSink(limit: 0, kind: .apiAnswer, keep: false),
                    idleTimeout: 10, deadline: min(deadline, Date().addingTimeInterval(30)),
                    deadlineReason: "no answer in time")
                status = response.statusCode
                retryAfter = response.value(forHTTPHeaderField: "Retry-After")
            } catch {
                return failed(sink, "\(error)", retryAfter: nil)
            }
            let answer = "\(request.url.absoluteString) answered HTTP \(status)"
            switch status {
            case 200...299:
                do { try outbox.delivered(rows, sink: sink.name) } catch { return failed(sink, "\(error)", retryAfter: nil) }
                lock.withLock {
                    failures[sink.name] = nil
                    retryAt[sink.name] = nil
                }
            case 413 where rows.count > 1:
                limit = max(1, rows.count / 2)
            case 400, 413, 422:
                let reason = status == 413 ? "too_large" : "rejected"
                do {
                    try outbox.rejected(rows, sink: sink.name, reason: reason, error: answer + ": the batch was dropped")
                } catch {
                    return failed(sink, "\(error)", retryAfter: nil)
                }
            case 401, 403, 404:
                return failed(sink, answer + ": check the sink's key and address; the queue is kept", retryAfter: nil)
            default:
                return failed(sink, answer, retryAfter: status == 429 ? retryAfter : nil)
            }
        }
    }

    /// Records `error` and when to try again: `Retry-After` when given, else 2^n seconds (at most `maxBackoff`).
    private func failed(_ sink: AnalyticsSink, _ error: String, retryAfter: String?) -> String {
        outbox.failed(sink: sink.name, error: error)
        lock.withLock {
            let count = (failures[sink.name] ?? 0) + 1
            failures[sink.name] = count
            let backoff = min(Self.maxBackoff, pow(2, Double(min(count, 16))))
            let delay = retryAfter.flatMap(Self.seconds(retryAfter:)) ?? backoff
            retryAt[sink.name] = Date().addingTimeInterval(min(delay, Self.maxBackoff))
        }
        return error
    }

    /// `Retry-After` as seconds (its delta-seconds form; an HTTP date from now).
    static func seconds(retryAfter text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return seconds }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }
}
