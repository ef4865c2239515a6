import Foundation
import PaywallCore
import XCTest

/// The Flatpak files (`packaging/flatpak/`): the runtime's module and the example app's
/// manifest parse and say what an app needs (GNOME 49, the Swift SDK extension, a static
/// build, network, Wayland with X11 fallback), every file they install exists, the exported
/// `.desktop` file handles the app's scheme and passes `desktop-file-validate`, and the AppStream
/// metainfo passes `appstreamcli validate --no-net`. No Flathub runtime is reachable here, so
/// `flatpak-builder` itself is not run.
final class FlatpakManifestTests: XCTestCase {
    static let folder = EndToEndTestCase.packageRoot.appendingPathComponent("packaging/flatpak")
    static let app = "com.example.LumenNotesGtk4"

    private func json(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8))
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func testTheModuleBuildsTheStaticRuntimeWithTheSwiftSDKExtension() throws {
        let module = try json("paywall.json")
        XCTAssertEqual(module["name"], "paywall")
        XCTAssertEqual(module["build-options"]?["append-path"], "/usr/lib/sdk/swift6/bin")
        let commands = try XCTUnwrap(module["build-commands"]?.arrayValue?.compactMap(\.stringValue))
        XCTAssertTrue(commands.contains { $0.contains("--static-swift-stdlib") && $0.contains("--product paywall-window") })
        XCTAssertTrue(commands.contains { $0.contains("install --prefix /app") })
        // The module's sources are this checkout (the module lives two folders down).
        let source = try XCTUnwrap(module["sources"]?.arrayValue?.first)
        XCTAssertEqual(source["type"], "dir")
        let path = try XCTUnwrap(source["path"]?.stringValue)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: Self.folder.appendingPathComponent(path).appendingPathComponent("Package.swift").path))
        // The Swift the extension has on freedesktop 25.08 (6.2) is the package's minimum.
        let manifest = try String(
            contentsOf: EndToEndTestCase.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.hasPrefix("// swift-tools-version:6.2\n"))
    }

    func testTheExampleAppsManifestAndTheFilesItInstalls() throws {
        let manifest = try json("\(Self.app).json")
        XCTAssertEqual(manifest["id"], .string(Self.app))
        XCTAssertEqual(manifest["runtime"], "org.gnome.Platform")
        XCTAssertEqual(manifest["runtime-version"], "49")
        XCTAssertEqual(manifest["sdk-extensions"], .array(["org.freedesktop.Sdk.Extension.swift6"]))
        let finish = try XCTUnwrap(manifest["finish-args"]?.arrayValue?.compactMap(\.stringValue))
        for argument in ["--share=network", "--socket=wayland", "--socket=fallback-x11"] {
            XCTAssertTrue(finish.contains(argument), "finish-args lack \(argument)")
        }
        XCTAssertFalse(finish.contains("--socket=x11"), "X11 only as the fallback")
        let modules = try XCTUnwrap(manifest["modules"]?.arrayValue)
        XCTAssertEqual(modules.first, "paywall.json", "the runtime's module is included")
        // Every file a build command installs is in the checkout.
        let root = EndToEndTestCase.packageRoot
        for module in modules.compactMap(\.objectValue) {
            for command in module["build-commands"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                for word in command.split(separator: " ") where word.hasPrefix("packaging/") || word.hasPrefix("Examples/") {
                    XCTAssertTrue(
                        FileManager.default.fileExists(atPath: root.appendingPathComponent(String(word)).path), "\(word)")
                }
            }
        }
    }

    func testTheDesktopFileHandlesTheAppsSchemeAndValidates() throws {
        let desktop = Self.folder.appendingPathComponent("\(Self.app).desktop")
        let text = try String(contentsOf: desktop, encoding: .utf8)
        XCTAssertTrue(text.contains("\nExec=lumen-notes %u\n"), text)
        XCTAssertTrue(text.contains("\nMimeType=x-scheme-handler/lumennotes;\n"), text)
        let validated = try run("/usr/bin/desktop-file-validate", [desktop.path])
        XCTAssertEqual(validated.status, 0, validated.output)
        XCTAssertEqual(validated.output, "")
    }

    func testTheMetainfoValidates() throws {
        let metainfo = Self.folder.appendingPathComponent("\(Self.app).metainfo.xml")
        let validated = try run("/usr/bin/appstreamcli", ["validate", "--no-net", metainfo.path])
        XCTAssertEqual(validated.status, 0, validated.output)
        XCTAssertTrue(validated.output.contains("Validation was successful"), validated.output)
    }
}
