import Foundation

/// Loads the paywall config without ever making app start wait long: the source gets a
/// bounded time (300 ms by default); past that the cached copy is used and the source keeps
/// loading in the background, refreshing the cache for next time.
@MainActor
package final class ConfigLoader {
    /// Where the last good config is kept.
    package let cachePath: String
    package var timeout: Double

    package enum Origin: String, Sendable {
        case source, cache
    }

    /// The background refresh still running after a fallback to the cache, if any.
    package private(set) var refresh: Task<Void, Never>?

    package init(cachePath: String, timeout: Double = 0.3) {
        self.cachePath = cachePath
        self.timeout = timeout
    }

    /// Reads a config file, or fetches a config URL, within `limits` (its size and deadline).
    package static func fetcher(for location: String, limits: DownloadLimits = DownloadLimits())
        -> @Sendable () async throws -> Data
    {
        if let url = URL(string: location), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            return { try await BundleSource.download(url, timeout: limits.idleTimeout, limits: limits) }
        }
        return {
            // Bounded like a download: the path may name a device or a huge file.
            let sink = DownloadSink(limit: limits.maxDocumentBytes, kind: .document)
            do {
                guard try sink.fill(from: URL(fileURLWithPath: location)) else {
                    throw PaywallConfig.ParseError(description: "config \(location) is \(sink.kind.exceeded(sink.limit))")
                }
            } catch let error as FileError {
                throw PaywallConfig.ParseError(description: "cannot read config \(location): \(error.reason); check the path")
            }
            return sink.data
        }
    }

    /// The config from `fetch` if it answers in time, else the cached copy (while `fetch` goes on).
    package func load(origin: String, fetch: @escaping @Sendable () async throws -> Data) async throws
        -> (PaywallConfig, Origin)
    {
        let fetching = Task { RelativeSources.resolve(try await fetch(), against: origin) }
        let deadline = Task {
            // Bounded to a minute, whatever a caller passes.
            try? await Task.sleep(nanoseconds: UInt64(min(max(timeout, 0), 60) * 1_000_000_000))
            return true
        }
        // Whichever comes first: the source's answer or the deadline.
        let first: Result<Data, Error>? = await withCheckedContinuation { continuation in
            let once = Once(continuation)
            Task { @MainActor in
                do { once.resume(.success(try await fetching.value)) } catch { once.resume(.failure(error)) }
            }
            Task { @MainActor in
                _ = await deadline.value
                once.resume(nil)
            }
        }
        deadline.cancel()
        switch first {
        case .success(let data):
            do {
                let config = try PaywallConfig(data: data, origin: origin)
                try? data.write(to: URL(fileURLWithPath: cachePath), options: .atomic)
                return (config, .source)
            } catch {
                // A broken deploy of the config must not take the app's paywalls away.
                guard let cached = try cachedConfig() else { throw error }
                return (cached, .cache)
            }
        case .failure(let error):
            guard let cached = try cachedConfig() else { throw error }
            return (cached, .cache)
        case nil:
            guard let cached = try cachedConfig() else {
                // Nothing cached yet: the source is all there is, however slow.
                let data = try await fetching.value
                let config = try PaywallConfig(data: data, origin: origin)
                try? data.write(to: URL(fileURLWithPath: cachePath), options: .atomic)
                return (config, .source)
            }
            refresh = Task { @MainActor [cachePath] in
                guard let data = try? await fetching.value, (try? PaywallConfig(data: data, origin: origin)) != nil else {
                    return
                }
                try? data.write(to: URL(fileURLWithPath: cachePath), options: .atomic)
            }
            return (cached, .cache)
        }
    }

    private func cachedConfig() throws -> PaywallConfig? {
        guard let data = FileManager.default.contents(atPath: cachePath) else { return nil }
        return try PaywallConfig(data: data, origin: cachePath)
    }
}

/// Resumes a continuation once, whichever racer gets there first.
@MainActor
private final class Once<T: Sendable> {
    private var continuation: CheckedContinuation<T, Never>?
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
    func resume(_ value: T) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
