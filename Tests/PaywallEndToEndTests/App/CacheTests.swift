import Foundation
import PaywallCore
import XCTest

/// The bundle cache end to end: installs from a real HTTP server on 127.0.0.1, presenting
/// offline, and tampered files.
final class CacheTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }

    /// A static HTTP server on 127.0.0.1 (Python's), on a free port, serving `root`.
    private final class HTTPServer {
        let process = Process()
        let port: Int

        init(root: URL, in workDir: URL) throws {
            let portFile = workDir.appendingPathComponent("port-\(UUID().uuidString)")
            let script = """
                import functools, http.server, sys
                handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
                server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
                open(sys.argv[2], "w").write(str(server.server_address[1]))
                server.serve_forever()
                """
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, root.path, portFile.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, (try? String(contentsOf: portFile, encoding: .utf8)).flatMap(Int.init) == nil {
                usleep(20_000)
            }
            guard let port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap(Int.init) else {
                process.terminate()
                throw XCTSkip("python3 could not start an HTTP server")
            }
            self.port = port
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The kitchen-sink fixture packed as `id` at `version`, with a marker text on the page.
    /// `manifest` adds fields to the manifest (JSON text starting with a comma); with an
    /// `"entry"`, index.html is renamed to it.
    private func packed(
        _ folder: String, version: String, marker: String, manifest: String = "", entry: String = "index.html",
        id: String = "promo"
    ) throws -> URL {
        let site = workDir.appendingPathComponent("site/\(folder)")
        try? FileManager.default.removeItem(at: site)
        try FileManager.default.createDirectory(at: site.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("kitchen-sink"), to: site)
        let page = site.appendingPathComponent(entry)
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8).replacingOccurrences(
            of: "FIXTURE", with: marker)
        try FileManager.default.removeItem(at: site.appendingPathComponent("index.html"))
        try html.write(to: page, atomically: true, encoding: .utf8)
        try #"{"id": "\#(id)", "version": "\#(version)", "entry": "\#(entry)"\#(manifest)}"#
            .write(to: site.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try PaywallProcess.run(["bundle", "pack", site.path], in: workDir).status, 0)
        return site
    }

    private func presentCached(_ extra: [String] = []) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "present", "promo", "--data-dir", dataDir, "--events", eventsPath, "--timeout", "30",
                "--eval", "Paywall.custom(document.getElementById('sample').textContent); Paywall.close()",
            ] + extra, in: workDir)
    }

    func testAddFromURLThenPresentOfflineThenTamper() throws {
        _ = try packed("v1", version: "1", marker: "VERSION1")
        let server = try HTTPServer(root: workDir.appendingPathComponent("site"), in: workDir)
        let add = try PaywallProcess.run(
            ["cache", "add", "http://127.0.0.1:\(server.port)/v1/manifest.json", "--data-dir", dataDir],
            in: workDir)
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout, "cached promo 1 (\(try sizeOf(workDir.appendingPathComponent("site/v1"))) bytes)\n")
        server.stop()

        // Offline: the server is gone, the cache serves.
        let offline = try presentCached()
        XCTAssertEqual(offline.stdout, "{\"result\":\"declined\"}\n", offline.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], "VERSION1")
        XCTAssertEqual(
            loggedEvents().first { $0.name == .custom }?.params["paywall_identifier"], "promo",
            "a cached bundle is named by its manifest's id, not its version folder")

        // A second version from a directory; then a byte of it flipped on disk.
        XCTAssertEqual(
            try PaywallProcess.run(
                [
                    "cache", "add", try packed("v2", version: "2", marker: "VERSION2").path,
                    "--data-dir", dataDir,
                ], in: workDir
            ).status, 0)
        let cached = URL(fileURLWithPath: dataDir).appendingPathComponent("cache/versions/promo/2/style.css")
        var bytes = try Data(contentsOf: cached)
        bytes[0] ^= 0x20
        try bytes.write(to: cached)

        let verify = try PaywallProcess.run(["cache", "verify", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(verify.status, 1)
        XCTAssertEqual(verify.stdout, "promo 2: style.css: does not match its sha256\n")

        try? FileManager.default.removeItem(atPath: eventsPath)
        let fallback = try presentCached()
        XCTAssertEqual(fallback.status, 0, fallback.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], "VERSION1", "the last good version")
        XCTAssertEqual(loggedEvents().first { $0.name == .bundleRefused }?.params["version"], "2")
        XCTAssertTrue(fallback.stderr.contains("refused promo 2"), fallback.stderr)
    }

    /// A bundle on screen in one process is kept by `cache prune` and `cache remove` in another.
    func testPruneAndRemoveInAnotherProcessKeepABundleOnScreen() throws {
        XCTAssertEqual(
            try PaywallProcess.run(
                [
                    "cache", "add", try packed("v1", version: "1", marker: "VERSION1").path,
                    "--data-dir", dataDir,
                ], in: workDir
            ).status, 0)
        let showing = try PaywallProcess(
            [
                "present", "promo", "--data-dir", dataDir, "--events", eventsPath, "--timeout", "30",
                "--eval", "Paywall.custom('shown')",
            ], in: workDir)
        waitForEvents { $0.contains { $0.name == .custom } }
        let remove = try PaywallProcess.run(["cache", "remove", "promo", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(remove.status, 1)
        XCTAssertTrue(remove.stderr.contains("promo is on screen in a running paywall"), remove.stderr)
        let prune = try PaywallProcess.run(["cache", "prune", "--budget", "0", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dataDir)/cache/versions/promo/1/index.html"), prune.stdout)
        showing.terminate()
        _ = showing.wait()
        let later = try PaywallProcess.run(["cache", "remove", "promo", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(later.status, 0, later.stderr)
    }

    /// A config names the bundle and its slots; presenting by the config's id uses both.
    func testConfigLoadCachesBundlesAndPresentByConfigId() throws {
        let site = try packed("v1", version: "1", marker: "CONFIGURED")
        let config = workDir.appendingPathComponent("paywalls.json")
        try
            #"{"paywalls": [{"id": "spring-sale", "manifest_url": "\#(site.path)", "products": {"primary": "lumen.pro.monthly"}, "preload": true}]}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let load = try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(load.status, 0, load.stderr)
        XCTAssertEqual(load.stdout, "spring-sale\tpromo 1\tpinned\n")
        let list = try JSONValue(
            parsing: try PaywallProcess.run(["cache", "list", "--json", "--data-dir", dataDir], in: workDir).stdout)
        XCTAssertEqual(list.arrayValue?.first?["pinned"], true)

        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let result = try PaywallProcess.run(
            [
                "present", "spring-sale", "--data-dir", dataDir, "--store", catalog, "--events", eventsPath, "--timeout", "30",
                "--eval",
                "Paywall.custom(Paywall.products.primary + ' ' + document.getElementById('sample').textContent); Paywall.close()",
            ],
            in: workDir)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], "lumen.pro.monthly CONFIGURED")

        // The source gone and the config file gone: the cached config still loads.
        try FileManager.default.removeItem(at: config)
        let again = try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("using the cached config"), again.stdout)
    }

    func testCacheCommandErrors() throws {
        XCTAssertEqual(
            try PaywallProcess.run(
                ["cache", "add", "http://127.0.0.1:9/none/manifest.json", "--data-dir", dataDir],
                in: workDir
            ).status, 1)
        let missing = try presentCached()
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no bundle folder or cached paywall named promo"), missing.stderr)
        XCTAssertEqual(try PaywallProcess.run(["cache", "remove", "promo", "--data-dir", dataDir], in: workDir).status, 1)
        XCTAssertEqual(try PaywallProcess.run(["cache", "frob", "--data-dir", dataDir], in: workDir).status, 2)
    }

    /// A bundle whose manifest names another entry page is presented from it.
    func testACachedBundleIsPresentedFromItsManifestsEntry() throws {
        let site = try packed("main", version: "1", marker: "MAIN", entry: "main.html")
        XCTAssertEqual(try PaywallProcess.run(["cache", "add", site.path, "--data-dir", dataDir], in: workDir).status, 0)
        let result = try presentCached()
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], "MAIN")
    }

    /// `cache add` and `config load` stop at the download limits their options set, in words.
    func testDownloadLimitsOnTheCommandLine() throws {
        let site = try packed("big", version: "1", marker: "BIG")
        try Data(count: 1_500_000).write(to: site.appendingPathComponent("data.bin"))
        XCTAssertEqual(try PaywallProcess.run(["bundle", "pack", site.path], in: workDir).status, 0)
        let server = try HTTPServer(root: workDir.appendingPathComponent("site"), in: workDir)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/big/manifest.json"
        let file = try PaywallProcess.run(["cache", "add", url, "--max-file-mb", "1", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(file.status, 1)
        XCTAssertEqual(
            file.stderr,
            "paywall: \(url): data.bin is 1500000 bytes by its manifest, larger than the 1 MB limit per file (DownloadLimits.maxFileBytes); raise it with --max-file-mb\n"
        )
        let bundle = try PaywallProcess.run(["cache", "add", url, "--max-bundle-mb", "1.5", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(bundle.status, 1)
        XCTAssertTrue(
            bundle.stderr.contains(
                "larger than the 1500000 bytes limit per bundle (DownloadLimits.maxBundleBytes); raise it with --max-bundle-mb"),
            bundle.stderr)
        let usage = try PaywallProcess.run(["cache", "add", url, "--deadline", "0", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("--deadline must be a number more than 0"), usage.stderr)

        let config = workDir.appendingPathComponent("paywalls.json")
        try #"{"paywalls": [{"id": "big", "manifest_url": "\#(url)"}]}"#.write(to: config, atomically: true, encoding: .utf8)
        let load = try PaywallProcess.run(
            ["config", "load", config.path, "--max-file-mb", "1", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(load.status, 1)
        XCTAssertTrue(load.stdout.hasPrefix("big\tnot cached: \(url): data.bin is 1500000 bytes"), load.stdout)
        XCTAssertEqual(try PaywallProcess.run(["cache", "list", "--data-dir", dataDir], in: workDir).stdout, "")
        let fits = try PaywallProcess.run(
            ["config", "load", config.path, "--max-file-mb", "2", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(fits.stdout, "big\tpromo 1.0.1\n", "packing the added data.bin bumped version 1: \(fits.stderr)")
    }

    /// A version cached once keeps its files: other content under the same version is refused.
    func testSameVersionWithOtherContentIsRefusedKeepingTheOldFiles() throws {
        let add = { (site: URL) in
            try PaywallProcess.run(["cache", "add", site.path, "--data-dir", self.dataDir], in: self.workDir)
        }
        XCTAssertEqual(try add(try packed("v1", version: "1", marker: "ONE")).status, 0)
        let cached = URL(fileURLWithPath: dataDir).appendingPathComponent("cache/versions/promo/1/manifest.json")
        let before = try Data(contentsOf: cached)
        XCTAssertEqual(
            try add(try packed("v1", version: "1", marker: "ONE")).stdout.hasPrefix("cached promo 1"), true, "the same again")
        let changed = try add(
            try packed("v1", version: "1", marker: "ONE", manifest: #", "products": {"primary": "pro.yearly"}"#))
        XCTAssertEqual(changed.status, 1)
        XCTAssertEqual(changed.stdout, "")
        XCTAssertEqual(
            changed.stderr,
            "paywall: promo 1 is already cached with different content; bump the version in the new bundle's manifest, or remove the cached promo first; `paywall cache remove promo` removes the cached one\n"
        )
        XCTAssertEqual(try Data(contentsOf: cached), before)
    }

    /// A name too long for the file system is refused in words, naming the limit, not as an NSError dump.
    func testA300CharacterBundleIdIsAClearError() throws {
        let id = String(repeating: "a", count: 300)
        let site = try inlineBundle("long", body: "<p>x</p>")
        try #"{"id": "\#(id)", "version": "1"}"#.write(
            to: site.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        for command in [["bundle", "pack", site.path], ["cache", "add", site.path, "--data-dir", dataDir]] {
            let result = try PaywallProcess.run(command, in: workDir)
            XCTAssertEqual(result.status, 1, "\(command[0])")
            XCTAssertTrue(result.stderr.contains("\"id\" is 300 bytes long; it may be at most 128"), result.stderr)
            XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), result.stderr)
        }
    }

    private func sizeOf(_ bundle: URL) throws -> Int {
        BundleInspector.contentFiles(of: bundle).reduce(0) { total, file in
            total + ((try? Data(contentsOf: bundle.appendingPathComponent(file)).count) ?? 0)
        }
    }
}
