import Foundation
import PaywallCore
import XCTest

/// The release as a user's machine gets it: `packaging/build` (once per run), its tarball
/// unpacked and its .deb extracted (`dpkg-deb -x`), each run with the Swift toolchain hidden
/// (a mount namespace with a tmpfs over it): `--version`, `status`, a snapshot of
/// templates/classic, a fake-store purchase through `present --eval`, a config downloaded over
/// HTTP (libcurl loaded at its first use), and the sidecar through the pip-installed Python
/// client and the Node client.
///
/// Building the release takes minutes: skipped unless PAYWALL_RELEASE_TESTS=1, and never
/// skipped in `.ci/run` (PAYWALL_CI=1 turns the skip into a failure).
final class ReleaseTests: EndToEndTestCase {
    /// The unpacked release: the tarball's folder and the .deb's root, with the version.
    struct Release {
        let version: String
        let tarball: URL
        let tarballBin: URL
        let debBin: URL
        let debRoot: URL
        var paywalls: [URL] { [tarballBin, debBin] }
    }

    nonisolated(unsafe) private static var built: Result<Release, Error>?
    static let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-release-\(getpid())")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: unpacked)
        super.tearDown()
    }

    /// The toolchain's root (`/opt/swift` for `/opt/swift/usr/bin/swift`).
    static var toolchain: String {
        let path =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/opt/swift/usr/bin/swift"
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    private func release() throws -> Release {
        let environment = ProcessInfo.processInfo.environment
        guard environment["PAYWALL_RELEASE_TESTS"] == "1" || environment["PAYWALL_CI"] == "1" else {
            throw XCTSkip("ReleaseTests build the release (packaging/build, minutes): run with PAYWALL_RELEASE_TESTS=1")
        }
        if Self.built == nil { Self.built = Result { try Self.build() } }
        return try Self.built!.get()
    }

    private static func build() throws -> Release {
        let fm = FileManager.default
        try? fm.removeItem(at: unpacked)
        try fm.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let log = unpacked.appendingPathComponent("build.log")
        let started = Date()
        let outcome = try PaywallProcess.run(
            [], in: unpacked, executable: packageRoot.appendingPathComponent("packaging/build"), timeout: 3600)
        try (outcome.stdout + outcome.stderr).write(to: log, atomically: true, encoding: .utf8)
        guard outcome.status == 0 else {
            throw NSError(
                domain: "ReleaseTests", code: Int(outcome.status),
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "packaging/build failed:\n\(outcome.stdout.suffix(3000))\n\(outcome.stderr.suffix(3000))"
                ])
        }
        // The figures, from the build, in the test log.
        print(
            "packaging/build took \(Int(Date().timeIntervalSince(started))) s:\n\(outcome.stdout.components(separatedBy: "\npaywall ").last.map { "paywall " + $0 } ?? "")"
        )
        let version = DeviceInfo.runtimeVersion
        let dist = packageRoot.appendingPathComponent("dist")
        let tarball = dist.appendingPathComponent("paywall-\(version)-linux-x86_64.tar.xz")
        let deb = dist.appendingPathComponent("paywall_\(version)_amd64.deb")
        let tarRoot = unpacked.appendingPathComponent("tar")
        let debRoot = unpacked.appendingPathComponent("deb")
        try fm.createDirectory(at: tarRoot, withIntermediateDirectories: true)
        for (tool, arguments) in [
            ("/usr/bin/tar", ["-C", tarRoot.path, "-xJf", tarball.path]), ("/usr/bin/dpkg-deb", ["-x", deb.path, debRoot.path]),
        ] {
            let unpack = try PaywallProcess.run(arguments, in: unpacked, executable: URL(fileURLWithPath: tool), timeout: 600)
            guard unpack.status == 0 else {
                throw NSError(domain: "ReleaseTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(tool): \(unpack.stderr)"])
            }
        }
        return Release(
            version: version, tarball: tarball,
            tarballBin: tarRoot.appendingPathComponent("paywall-\(version)/bin/paywall"),
            debBin: debRoot.appendingPathComponent("usr/bin/paywall"), debRoot: debRoot)
    }

    /// Runs `command` with the toolchain hidden under an empty tmpfs, as on a user's machine.
    private func withoutToolchain(
        _ command: [String], environment: [String: String?] = [:], timeout: Double = 120,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> PaywallProcess.Outcome {
        let hide = "mount -t tmpfs none '\(Self.toolchain)' && test ! -e '\(Self.toolchain)/usr/bin/swift' && exec \"$@\""
        return try PaywallProcess.run(
            ["-m", "/bin/sh", "-c", hide, "sh"] + command, in: workDir, environment: environment,
            executable: URL(fileURLWithPath: "/usr/bin/unshare"), timeout: timeout, file: file, line: line)
    }

    func testBothPackagesRunWithoutTheToolchainAndNeedNoVersionedICU() throws {
        let release = try release()
        for paywall in release.paywalls {
            let version = try withoutToolchain([paywall.path, "--version"])
            XCTAssertEqual(version.stdout, "paywall \(release.version)\n", "\(paywall.path): \(version.stderr)")
            let status = try withoutToolchain([paywall.path, "status", "--data-dir", workDir.path])
            XCTAssertEqual(status.status, 0, status.stderr)
            XCTAssertEqual(status.stdout, "subscription status: unknown\n", status.stderr)
            let window = paywall.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("libexec/paywall/paywall-window")
            for binary in [paywall, window] {
                let dynamic = try PaywallProcess.run(
                    ["-d", binary.path], in: workDir, executable: URL(fileURLWithPath: "/usr/bin/readelf"))
                let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
                XCTAssertFalse(needed.isEmpty, dynamic.stdout)
                for line in needed {
                    XCTAssertFalse(line.contains("libicu"), "\(binary.path) needs a versioned ICU: \(line)")
                    XCTAssertFalse(line.contains("libswift"), "\(binary.path) needs the Swift runtime: \(line)")
                    XCTAssertFalse(line.contains("libcurl"), "\(binary.path) needs libcurl at start: \(line)")
                }
                if binary == paywall {
                    XCTAssertFalse(needed.contains { $0.contains("libgtk") || $0.contains("webkit") }, "paywall links GTK")
                }
            }
        }
        let control = try PaywallProcess.run(
            [
                "-f",
                release.tarball.deletingLastPathComponent().appendingPathComponent("paywall_\(release.version)_amd64.deb").path,
                "Depends",
            ], in: workDir, executable: URL(fileURLWithPath: "/usr/bin/dpkg-deb"))
        for package in ["libgtk-3-0", "libwebkit2gtk-4.1-0", "libsqlite3-0", "libcurl4"] {
            XCTAssertTrue(control.stdout.contains(package), "Depends lacks \(package): \(control.stdout)")
        }
        for file in ["copyright", "changelog.gz"] {
            XCTAssertTrue(
                FileManager.default.fileExists(
                    atPath: release.debRoot.appendingPathComponent("usr/share/doc/paywall/\(file)").path), file)
        }
    }

    func testASnapshotAndAFakeStorePurchaseFromTheUnpackedTarball() throws {
        let release = try release()
        let share = release.tarballBin.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "share/paywall")
        let classic = share.appendingPathComponent("templates/classic").path
        let png = workDir.appendingPathComponent("classic.png")
        let snapshot = try withoutToolchain([release.tarballBin.path, "snapshot", classic, "--out", png.path])
        XCTAssertEqual(snapshot.status, 0, snapshot.stderr)
        let image = try PNGImage(path: png.path)
        XCTAssertGreaterThan(image.width, 300)
        XCTAssertGreaterThan(image.distinctColors(), 20, "the snapshot is (nearly) blank")
        if let keep = ProcessInfo.processInfo.environment["PAYWALL_KEEP_SCREENSHOTS"] {
            try? FileManager.default.copyItem(
                at: png, to: URL(fileURLWithPath: keep).appendingPathComponent("release-classic.png"))
        }

        let purchase = try withoutToolchain([
            release.debBin.path, "present", classic, "--store", "\(classic)/store.json", "--data-dir", workDir.path,
            "--timeout", "60", "--eval", "Paywall.purchase('primary')",
        ])
        XCTAssertEqual(purchase.status, 0, purchase.stderr)
        XCTAssertEqual(purchase.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", purchase.stderr)
        let status = try withoutToolchain([release.tarballBin.path, "status", "--data-dir", workDir.path])
        XCTAssertTrue(status.stdout.hasPrefix("subscription status: active"), status.stdout)
    }

    func testAConfigDownloadLoadsLibcurlAtItsFirstUse() throws {
        let release = try release()
        let served = workDir.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let share = release.debRoot.appendingPathComponent("usr/share/paywall")
        try FileManager.default.copyItem(
            at: share.appendingPathComponent("templates/classic"), to: served.appendingPathComponent("classic"))
        let server = try PaywallProcess(
            ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", served.path], in: workDir,
            environment: ["PYTHONUNBUFFERED": "1"], executable: URL(fileURLWithPath: "/usr/bin/python3"))
        defer { server.terminate() }
        let port = try XCTUnwrap(lines(of: server.stdoutURL, atLeast: 1).first?.split(separator: " ").dropFirst(5).first)
        try """
        {"paywalls": [{"id": "upsell", "manifest_url": "http://127.0.0.1:\(port)/classic/manifest.json"}], "placements": {}}
        """.write(to: served.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
        let load = try withoutToolchain(
            [release.debBin.path, "config", "load", "http://127.0.0.1:\(port)/config.json"],
            environment: ["XDG_CACHE_HOME": workDir.appendingPathComponent("cache").path])
        XCTAssertEqual(load.status, 0, load.stdout + load.stderr)
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: share.appendingPathComponent("templates/classic/manifest.json"))) as? [String: Any]
        let version = try XCTUnwrap(manifest?["version"] as? String)
        XCTAssertEqual(load.stdout, "upsell\tclassic \(version)\n", load.stderr)
    }

    func testTheSidecarThroughThePipInstalledPythonClientAndTheNodeClient() throws {
        let release = try release()
        let python = try ClientVenv.interpreter()
        let buying = try inlineBundle(
            "buying", body: "<script>window.addEventListener('load', () => Paywall.purchase('lumen.pro.yearly'))</script>")
        let catalog = release.debRoot.appendingPathComponent("usr/share/paywall/templates/classic/store.json").path
        let viaPython = try withoutToolchain([
            python.path, "-c",
            """
            import json
            from paywall_client import PaywallClient
            client = PaywallClient(["\(release.tarballBin.path)", "serve"], deliver="thread")
            info = client.call("initialize", {"data_dir": "\(workDir.path)/py", "catalog": "\(catalog)"}, timeout=60)
            print(info["runtime_version"], info["protocol_version"])
            print(json.dumps(client.call("present", {"paywall": "\(buying.path)"}, timeout=60), sort_keys=True))
            print(client.call("getCustomerInfo", timeout=60)["active_entitlements"])
            print(client.close())
            """,
        ])
        XCTAssertEqual(viaPython.status, 0, viaPython.stderr)
        XCTAssertEqual(
            viaPython.stdout,
            "\(release.version) 1\n{\"product_id\": \"lumen.pro.yearly\", \"result\": \"purchased\"}\n['pro']\n0\n",
            viaPython.stderr)

        let viaNode = try withoutToolchain(
            ["/usr/bin/node", "--test", Self.packageRoot.appendingPathComponent("clients/node/test/client.test.js").path],
            environment: ["PAYWALL": release.debBin.path], timeout: 240)
        XCTAssertEqual(viaNode.status, 0, viaNode.stdout + viaNode.stderr)
        XCTAssertTrue(viaNode.stdout.contains("# fail 0"), viaNode.stdout)
    }
}
