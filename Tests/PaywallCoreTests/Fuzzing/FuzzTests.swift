import Foundation
import XCTest

@testable import PaywallCore

/// Random and mutated input for everything that parses what others wrote: the page bridge and
/// every file loader. Each case must end in a value or a thrown error with a message, never a
/// crash or hang. Seeded (`Fuzz.seed`), so a failure names the case that replays it;
/// `PAYWALL_FUZZ_ITERATIONS` runs longer.
final class FuzzTests: XCTestCase {
    private let repository = TestPaths.repository
    private let fixtures = TestPaths.fixtures

    private func assertMessage(
        _ message: String, _ input: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(
            message.trimmingCharacters(in: .whitespaces).isEmpty,
            "\(label): empty error message for \(String(decoding: input.prefix(300), as: UTF8.self).debugDescription)",
            file: file, line: line)
    }

    // MARK: The bridge

    func testBridgeEnvelopes() throws {
        var rng = SplitMix64(seed: Fuzz.seed)
        let corpus = try ConformanceTests.corpusFileNames().map { Array(try ConformanceTests.corpusText($0).utf8) }
        let keys = [
            "event_name", "eventName", "version", "payload", "events", "product_identifier", "url", "data", "name",
            "params", "attributes", "key", "value", "request_id", "delay", "flow_position", "ping", "custom", "purchase",
        ]
        let decoder = PageEnvelopeDecoder(maximumBytes: 1 << 16)
        for iteration in 0..<Fuzz.iterations {
            let input: [UInt8]
            switch iteration % 3 {
            case 0: input = Fuzz.mutate(corpus.randomElement(using: &rng)!, using: &rng)
            case 1:
                // A mixed batch: real events next to random ones, so one bad event must not sink the others.
                let events = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                    Bool.random(using: &rng)
                        ? #"{"event_name": "custom", "data": "ok"}"# : Fuzz.value(depth: 3, keys: keys, using: &rng)
                }
                input = Array(envelope(events).utf8)
            default: input = Array(Fuzz.value(depth: 5, keys: keys, using: &rng).utf8)
            }
            let label = "bridge case \(iteration) (seed \(Fuzz.seed))"
            do {
                let batch = try decoder.decode(String(decoding: input, as: UTF8.self))
                for problem in batch.problems { assertMessage(problem.reason, input, label) }
            } catch {
                assertMessage(error.description, input, label)
            }
        }
    }

    // MARK: File loaders

    /// Mutations of `seed`, and random documents over `keys`, through `load`; errors are collected as messages.
    private func fuzz(_ name: String, seed: [UInt8], keys: [String], _ load: ([UInt8]) -> String?) {
        var rng = SplitMix64(seed: Fuzz.seed ^ UInt64(truncatingIfNeeded: name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        for iteration in 0..<Fuzz.iterations {
            let input =
                iteration % 4 == 3
                ? Array(Fuzz.value(depth: 5, keys: keys, using: &rng).utf8) : Fuzz.mutate(seed, using: &rng)
            if let message = load(input) { assertMessage(message, input, "\(name) case \(iteration) (seed \(Fuzz.seed))") }
        }
    }

    func testCatalogs() throws {
        let seed = Array(try Data(contentsOf: repository.appendingPathComponent("templates/classic/store.json")))
        fuzz(
            "catalog", seed: seed,
            keys: [
                "products", "id", "display_name", "price", "currency", "kind", "period", "group",
                "group_rank", "intro_offer", "mode", "count", "groups", "settings", "entitlements",
            ]
        ) { input in
            do {
                _ = try CatalogFile.parse(Data(input))
                return nil
            } catch { return "\(error)" }
        }
    }

    func testStoreKitFiles() throws {
        let seed = Array(try Data(contentsOf: fixtures.appendingPathComponent("Lumen.storekit")))
        fuzz(
            "storekit", seed: seed,
            keys: [
                "products", "productID", "referenceName", "type", "displayPrice", "localizations",
                "subscriptionGroups", "subscriptions", "groupNumber", "recurringSubscriptionPeriod",
                "introductoryOffer", "paymentMode", "settings", "_locale",
            ]
        ) { input in
            do {
                _ = try StoreKitConfiguration.parse(Data(input))
                return nil
            } catch { return "\(error)" }
        }
    }

    func testManifests() throws {
        let root = try makeTemporaryDirectory("FuzzTests")
        defer { removeTemporaryDirectory(root) }
        _ = try writeFile("{}", to: "store.json", in: root)
        let seed = Array(
            #"""
            {"id": "classic", "version": "1.2.0", "entry": "index.html", "preview_store": "store.json",
             "files": {"index.html": {"sha256": "\#(String(repeating: "ab", count: 32))", "size": 5120}},
             "products": {"primary": "pro.yearly", "secondary": "pro.monthly"},
             "allowed_origins": ["https://cdn.example.com", "https://*.example.com"], "min_runtime_version": "0.1.0"}
            """#.utf8)
        fuzz(
            "manifest", seed: seed,
            keys: [
                "id", "version", "entry", "files", "sha256", "size", "products", "primary",
                "preview_store", "allowed_origins", "min_runtime_version",
            ]
        ) { input in
            do {
                let manifest = try BundleManifest(data: Data(input), root: root, path: "manifest.json")
                _ = manifest.json
                return nil
            } catch { return "\(error)" }
        }
    }

    func testAppConfigs() throws {
        let seed = Array(
            #"""
            {"paywalls": [{"id": "promo", "manifest_url": "https://cdn.example.com/promo/manifest.json",
                           "products": {"primary": "pro.yearly"}, "preload": true},
                          {"id": "onboarding", "manifest_url": "bundles/onboarding"}]}
            """#.utf8)
        fuzz("app config", seed: seed, keys: ["paywalls", "id", "manifest_url", "products", "primary", "preload"]) { input in
            do {
                _ = try PaywallConfig(data: Data(input), origin: "config.json")
                return nil
            } catch { return "\(error)" }
        }
    }

    func testCustomerCenterConfigs() throws {
        let seed = Array(
            #"""
            {"management": {"title": "Your plan", "paths": [
               {"id": "restore", "type": "restore"},
               {"id": "cancel", "type": "manage_subscription", "survey": {"id": "why", "options": [{"id": "a", "title": "A"}]}},
               {"id": "refund", "type": "refund", "window": 1209600}, {"id": "plans", "type": "change_plan", "product_ids": ["p"]},
               {"id": "faq", "type": "url", "url": "https://example.com/faq", "title": "FAQ", "open_method": "in_app"},
               {"id": "beta", "type": "custom", "identifier": "join_beta", "title": "Join the beta"}]},
             "support": {"email": "help@example.com", "latest_app_version": "2.0.0", "update_feed_url": "https://example.com/f.json"},
             "appearance": {"accent": {"light": "#0A84FF", "dark": "#409CFF"}}, "shows_account_details": false}
            """#.utf8)
        fuzz(
            "customer center config", seed: seed,
            keys: [
                "management", "no_purchases", "support", "appearance", "paths", "id",
                "type", "title", "survey", "options", "url", "identifier", "email",
                "accent", "light", "dark", "window", "product_ids",
            ]
        ) { input in
            do {
                _ = try CustomerCenterConfiguration(data: Data(input), origin: "cc.json")
                return nil
            } catch { return "\(error)" }
        }
    }

    func testStringTables() throws {
        let directory = try makeTemporaryDirectory("FuzzTests")
        defer { removeTemporaryDirectory(directory) }
        let seed = Array(try Data(contentsOf: repository.appendingPathComponent("locales/en.json")).prefix(2000))
        let table = directory.appendingPathComponent("en.json")
        fuzz("string table", seed: seed, keys: ["cc.title", "greeting", "{name}"]) { input in
            do {
                try Data(input).write(to: table)
                _ = try StringTable(directory: directory, locale: "en")
                return nil
            } catch { return "\(error)" }
        }
    }
}
