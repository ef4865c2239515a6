import Foundation
import XCTest

/// The command-line contract: help, usage errors (exit 2), failures (exit 1), installation.
final class CLITests: EndToEndTestCase {
    func testHelpListsEveryCommand() throws {
        let result = try PaywallProcess.run(["--help"], in: workDir)
        XCTAssertEqual(result.status, 0)
        for command in ["preview", "snapshot", "present", "install"] {
            XCTAssertTrue(result.stdout.contains(command), "help lacks \(command)")
        }
    }

    func testHelpListsEveryExitCode() throws {
        let result = try PaywallProcess.run(["--help"], in: workDir)
        XCTAssertEqual(result.status, 0)
        let codes = try XCTUnwrap(result.stdout.components(separatedBy: "EXIT CODES:").last, result.stdout)
        for line in [
            "0    done", "1    failure", "2    usage error", "3    --timeout", "4    a --strict check failed",
            "5    a --compare found differences", "128+N  ended by signal N",
        ] {
            XCTAssertTrue(codes.contains(line), "help lacks exit code line '\(line)': \(result.stdout)")
        }
    }

    func testCommandHelpListsItsOptions() throws {
        let result = try PaywallProcess.run(["present", "--help"], in: workDir)
        XCTAssertEqual(result.status, 0)
        for option in ["--events", "--eval", "--timeout", "--size", "--strict", "--script-timeout", "--dialogs"] {
            XCTAssertTrue(result.stdout.contains(option), "present --help lacks \(option)")
        }
    }

    func testNoArgumentsIsAUsageError() throws {
        let result = try PaywallProcess.run([], in: workDir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("USAGE"), result.stderr)
    }

    func testUnknownFlagExits2WithUsage() throws {
        let result = try PaywallProcess.run(["present", "x", "--bogus"], in: workDir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown option '--bogus'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("USAGE: paywall present [BUNDLE]"), result.stderr)
    }

    func testUnknownCommandExits2() throws {
        let result = try PaywallProcess.run(["frobnicate"], in: workDir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown command 'frobnicate'"), result.stderr)
    }

    func testBadOptionValuesExit2() throws {
        let bundle = try inlineBundle("b", body: "")
        for arguments in [
            ["snapshot", bundle.path, "--out", "x.png", "--size", "big"],
            ["present", bundle.path, "--timeout", "-1"],
            ["snapshot", bundle.path],
            ["present", bundle.path, "--timeout"],
            ["present"],
        ] {
            let result = try PaywallProcess.run(arguments, in: workDir)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty)
        }
    }

    func testAutomationIsAFlagOfTheWindowCommandsOnly() throws {
        for command in ["present", "preview", "customer-center"] {
            let help = try PaywallProcess.run([command, "--help"], in: workDir)
            XCTAssertTrue(help.stdout.contains("--automation"), "\(command) --help lacks --automation")
        }
        let bundle = try inlineBundle("b", body: "")
        let snapshot = try PaywallProcess.run(["snapshot", bundle.path, "--out", "x.png", "--automation"], in: workDir)
        XCTAssertEqual(snapshot.status, 2)
        XCTAssertTrue(snapshot.stderr.contains("unknown option '--automation'"), snapshot.stderr)
        let offscreen = try PaywallProcess.run(["customer-center", "--snapshot", "x.png", "--automation"], in: workDir)
        XCTAssertEqual(offscreen.status, 2)
        XCTAssertTrue(offscreen.stderr.contains("--automation drives a window on screen"), offscreen.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workDir.appendingPathComponent("x.png").path))
    }

    func testMissingBundleExits1NamingThePath() throws {
        for command in ["present", "preview"] {
            let result = try PaywallProcess.run([command, "/no/such/bundle"], in: workDir)
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains("/no/such/bundle"), result.stderr)
        }
    }

    func testUnwritableEventLogExits1() throws {
        let bundle = try inlineBundle("b", body: "")
        let result = try PaywallProcess.run(["present", bundle.path, "--events", "/no/such/dir/ev.jsonl"], in: workDir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("/no/such/dir/ev.jsonl"), result.stderr)
    }

    /// Its help names everything `install` writes (the window executable too).
    func testInstallHelpNamesEveryPathItWrites() throws {
        let help = try PaywallProcess.run(["install", "--help"], in: workDir)
        XCTAssertEqual(help.status, 0, help.stderr)
        let text = help.stdout.replacingOccurrences(of: "\n", with: " ")
        for path in ["PREFIX/bin/paywall", "PREFIX/libexec/paywall/paywall-window", "PREFIX/share/paywall/"] {
            XCTAssertTrue(text.contains(path), "install --help lacks \(path): \(help.stdout)")
        }
    }

    /// An installed copy finds its resources under PREFIX/share/paywall, with no checkout around.
    func testInstalledExecutableFindsItsResources() throws {
        let prefix = workDir.appendingPathComponent("prefix")
        let install = try PaywallProcess.run(["install", "--prefix", prefix.path], in: workDir)
        XCTAssertEqual(install.status, 0, install.stderr)
        for path in [
            "bin/paywall", "libexec/paywall/paywall-window", "share/paywall/web/bridge.js",
            "share/paywall/templates/classic/index.html",
            "share/paywall/locales",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), path)
        }
        let bundle = try inlineBundle("b", body: "")
        let result = try PaywallProcess.run(
            ["present", bundle.path, "--eval", "Paywall.close()", "--timeout", "30"], in: workDir,
            environment: ["PAYWALL_RESOURCES": nil], executable: prefix.appendingPathComponent("bin/paywall"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", "Paywall API came from the installed bridge script")
    }

    func testMissingResourcesAreAClearError() throws {
        let lonely = workDir.appendingPathComponent("lonely/bin")
        try FileManager.default.createDirectory(at: lonely, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PaywallProcess.executable, to: lonely.appendingPathComponent("paywall"))
        let bundle = try inlineBundle("b", body: "")
        let run = {
            try PaywallProcess.run(
                ["present", bundle.path], in: self.workDir, environment: ["PAYWALL_RESOURCES": nil],
                executable: lonely.appendingPathComponent("paywall"))
        }
        let withoutWindow = try run()
        XCTAssertEqual(withoutWindow.status, 1)
        XCTAssertTrue(
            withoutWindow.stderr.contains("the window commands need paywall-window beside paywall or in ../libexec/paywall/"),
            withoutWindow.stderr)
        try FileManager.default.copyItem(at: PaywallProcess.windowExecutable, to: lonely.appendingPathComponent("paywall-window"))
        let result = try run()
        let stderr = result.stderr
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(stderr.contains("cannot find the runtime's resources"), stderr)
        XCTAssertTrue(stderr.contains("PAYWALL_RESOURCES"), stderr)
    }

    /// The commands without a window load neither GTK nor WebKit: the dynamic loader's own
    /// account of what `paywall status`, `store`, `cache`, `config` and `validate` load; a window
    /// command runs in `paywall-window` under the same process id.
    func testCommandsWithoutAWindowLoadNoGTKOrWebKit() throws {
        let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let data = workDir.appendingPathComponent("data").path
        for arguments in [
            ["status", "--data-dir", data], ["store", "products", "--store", catalog, "--data-dir", data],
            ["cache", "list", "--data-dir", data],
            ["report", "/dev/null", "--html", workDir.appendingPathComponent("r.html").path],
            ["validate", EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path],
        ] {
            let result = try PaywallProcess.run(arguments, in: workDir, environment: ["LD_DEBUG": "files"])
            let loaded = result.stderr.split(separator: "\n").filter { $0.contains("file=") && $0.contains("[0];  needed by") }
            XCTAssertFalse(loaded.isEmpty, "\(arguments): the loader's account is there")
            for library in ["libgtk-3", "libgdk-3", "libwebkit2gtk", "libjavascriptcoregtk"] {
                XCTAssertFalse(loaded.contains { $0.contains(library) }, "\(arguments) loaded \(library)")
            }
        }
        let bundle = try inlineBundle("b", body: "")
        let present = try PaywallProcess.run(
            ["present", bundle.path, "--eval", "Paywall.close()", "--timeout", "30"], in: workDir,
            environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(present.status, 0)
        XCTAssertTrue(present.stdout.hasSuffix("{\"result\":\"declined\"}\n"), present.stdout)
        XCTAssertTrue(present.stderr.contains("libgtk-3"), "the window command ran with GTK, in paywall-window")
    }

    func testPackThenValidateThenTamper() throws {
        let bundle = try fixtureBundle("kitchen-sink")
        // The manifest is optional: a bundle without one passes, with a note for the cache.
        let bare = try PaywallProcess.run(["validate", bundle.path], in: workDir)
        XCTAssertEqual(bare.status, 0, bare.stdout)
        XCTAssertTrue(bare.stdout.contains("note: \(bundle.path) has no manifest.json"), bare.stdout)
        try Data(#"{"id": "kitchen-sink"}"#.utf8).write(to: bundle.appendingPathComponent("manifest.json"))
        let unpacked = try PaywallProcess.run(["validate", bundle.path], in: workDir)
        XCTAssertEqual(unpacked.status, 1)
        XCTAssertTrue(
            unpacked.stdout.contains("manifest.json: no file list with hashes; run `paywall bundle pack \(bundle.path)`"),
            unpacked.stdout)
        let pack = try PaywallProcess.run(["bundle", "pack", bundle.path], in: workDir)
        XCTAssertEqual(pack.status, 0, pack.stderr)
        XCTAssertEqual(try PaywallProcess.run(["validate", bundle.path], in: workDir).status, 0)

        // Edited after packing: snapshot says so at once, validate names the file and the fix,
        // and packing again bumps the patch version (saying so).
        let css = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: bundle.path).first { $0.hasSuffix(".css") })
        try Data("body { background: rgb(1, 2, 3) }".utf8).write(to: bundle.appendingPathComponent(css))
        let shot = try PaywallProcess.run(
            ["snapshot", bundle.path, "--out", workDir.appendingPathComponent("edited.png").path], in: workDir)
        XCTAssertEqual(shot.status, 0, shot.stderr)
        XCTAssertTrue(
            shot.stderr.contains(
                "warning: \(css) changed since the bundle was packed; run `paywall bundle pack \(bundle.path)` again"),
            shot.stderr)
        let edited = try PaywallProcess.run(["validate", bundle.path], in: workDir)
        XCTAssertEqual(edited.status, 1)
        XCTAssertTrue(edited.stdout.contains("\(css): "), edited.stdout)
        XCTAssertTrue(edited.stdout.contains("; run `paywall bundle pack \(bundle.path)` again"), edited.stdout)
        let repacked = try PaywallProcess.run(["bundle", "pack", bundle.path], in: workDir)
        XCTAssertTrue(repacked.stdout.contains("the content changed since 1.0.0 was packed: version 1.0.1"), repacked.stdout)
        XCTAssertEqual(try PaywallProcess.run(["validate", bundle.path], in: workDir).status, 0)
        try Data("/* tampered */".utf8).write(to: bundle.appendingPathComponent("style.css"))
        let tampered = try PaywallProcess.run(["validate", bundle.path], in: workDir)
        XCTAssertEqual(tampered.status, 1)
        XCTAssertTrue(tampered.stdout.contains("style.css: size is"), tampered.stdout)
        XCTAssertEqual(try PaywallProcess.run(["bundle", "unpack", bundle.path], in: workDir).status, 2)
        XCTAssertEqual(try PaywallProcess.run(["validate", "/no/such/dir"], in: workDir).status, 1)
    }

    /// `validate` checks the manifest's slots against its preview_store and lists every problem.
    func testValidateListsEverySlotThePreviewStoreDoesNotSell() throws {
        let bundle = workDir.appendingPathComponent("classic")
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("templates/classic"), to: bundle)
        XCTAssertEqual(try PaywallProcess.run(["validate", bundle.path], in: workDir).status, 0)
        let manifest = bundle.appendingPathComponent("manifest.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "lumen.pro.monthly", with: "lumen.pro.montly")
            .replacingOccurrences(of: "lumen.pro.lifetime", with: "lumen.pro.forever")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let result = try PaywallProcess.run(["validate", bundle.path], in: workDir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stdout.contains("manifest.json: products.secondary: lumen.pro.montly is not in the preview_store store.json"),
            result.stdout)
        XCTAssertTrue(
            result.stdout.contains("manifest.json: products.tertiary: lumen.pro.forever is not in the preview_store store.json"),
            result.stdout)
    }
}
