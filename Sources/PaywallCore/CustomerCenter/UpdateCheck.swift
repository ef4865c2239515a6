import Foundation

/// Finds the latest published version of the app from an update feed, a JSON document
/// `{"version": "2.1.0"}`, and remembers the answer for a day in a small file.
public struct UpdateCheck: Sendable {
    package static let cacheLifetime: TimeInterval = 24 * 60 * 60
    public let cachePath: String

    public init(cachePath: String) {
        self.cachePath = cachePath
    }

    /// The banner shows when the installed version is older than the latest.
    package static func isOutdated(installed: String, latest: String?) -> Bool {
        guard let latest = latest.flatMap(Version.init), let installed = Version(installed) else { return false }
        return installed < latest
    }

    /// The version `feed` named within the last day, without asking the network.
    package func cachedVersion(feed: URL, now: Date = Date()) -> String? {
        guard let data = FileManager.default.contents(atPath: cachePath),
            let entry = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)),
            entry["feed"]?.stringValue == feed.absoluteString,
            case .number(let checkedAt)? = entry["checked_at"],
            now.timeIntervalSince1970 - checkedAt < Self.cacheLifetime, now.timeIntervalSince1970 >= checkedAt
        else { return nil }
        return entry["version"]?.stringValue
    }

    /// Fetches `feed` and caches what it says. Throws when it cannot be fetched or read.
    package func fetch(feed: URL, timeout: Double = 5, now: Date = Date()) async throws -> String {
        let data = try await BundleSource.download(feed, timeout: timeout)
        guard let document = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)),
            let version = document["version"]?.stringValue, Version(version) != nil
        else {
            throw FeedError(description: "update feed \(feed.absoluteString) is not {\"version\": \"X.Y.Z\"}")
        }
        let entry: JSONValue = [
            "feed": .string(feed.absoluteString), "version": .string(version),
            "checked_at": .number(now.timeIntervalSince1970),
        ]
        try? Data(entry.jsonText.utf8).write(to: URL(fileURLWithPath: cachePath), options: .atomic)
        return version
    }

    package struct FeedError: Error, CustomStringConvertible {
        package let description: String
    }
}
