import Foundation
import XCTest

@testable import PaywallCore

final class RuntimeResourcesTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("RuntimeResourcesTests")
    }

    override func tearDown() {
        removeTemporaryDirectory(dir)
        dir = nil
    }

    private func locate(executable: URL, environment: [String: String] = [:]) throws -> RuntimeResources {
        do {
            return try RuntimeResources.locate(executable: executable, environment: environment)
        } catch {
            XCTFail("not found: \(error)")
            throw error
        }
    }

    func testEnvironmentVariableWins() throws {
        let explicit = dir.appendingPathComponent("explicit")
        try writeFile("// bridge", to: "web/bridge.js", in: explicit)
        // An install layout that would also match must lose to the variable.
        try writeFile("", to: "prefix/bin/paywall", in: dir)
        try writeFile("// other", to: "prefix/share/paywall/web/bridge.js", in: dir)

        let found = try locate(
            executable: dir.appendingPathComponent("prefix/bin/paywall"),
            environment: ["PAYWALL_RESOURCES": explicit.path])
        XCTAssertEqual(found.root.path, explicit.path)
        XCTAssertEqual(try found.bridgeScript(), "// bridge")
        XCTAssertEqual(found.web.path, explicit.appendingPathComponent("web").path)
    }

    func testInstallLayoutIsFoundFromTheExecutable() throws {
        let prefix = dir.appendingPathComponent("prefix")
        try writeFile("", to: "bin/paywall", in: prefix)
        try writeFile("// installed", to: "share/paywall/web/bridge.js", in: prefix)

        let found = try locate(executable: prefix.appendingPathComponent("bin/paywall"))
        XCTAssertEqual(found.root.path, prefix.appendingPathComponent("share/paywall").path)
        XCTAssertEqual(try found.bridgeScript(), "// installed")
    }

    func testCheckoutIsFoundAboveTheBuildFolder() throws {
        let checkout = dir.appendingPathComponent("checkout")
        try writeFile("// swift-tools-version:6.0", to: "Package.swift", in: checkout)
        try writeFile("// checkout", to: "web/bridge.js", in: checkout)
        try writeFile("", to: ".build/x/debug/paywall", in: checkout)

        let found = try locate(executable: checkout.appendingPathComponent(".build/x/debug/paywall"))
        XCTAssertEqual(found.root.path, checkout.path)
        XCTAssertEqual(try found.bridgeScript(), "// checkout")
    }

    func testNothingFoundListsTheSearchedPaths() throws {
        let prefix = dir.appendingPathComponent("empty")
        try writeFile("", to: "bin/paywall", in: prefix)
        do {
            let found = try RuntimeResources.locate(
                executable: prefix.appendingPathComponent("bin/paywall"), environment: [:])
            XCTFail("unexpectedly found \(found.root.path)")
        } catch {
            let expected = prefix.appendingPathComponent("share/paywall").path
            XCTAssertEqual(error.searched.first, expected)
            XCTAssertTrue(error.description.contains(expected), error.description)
            XCTAssertTrue(error.description.contains("PAYWALL_RESOURCES"), error.description)
        }
    }

    func testEnvironmentVariableWithoutResourcesIsNotFound() throws {
        let empty = dir.appendingPathComponent("nothing-here")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        do {
            _ = try RuntimeResources.locate(
                executable: dir.appendingPathComponent("bin/paywall"), environment: ["PAYWALL_RESOURCES": empty.path])
            XCTFail("an explicit folder without web/bridge.js must not be accepted")
        } catch {
            XCTAssertEqual(error.searched, [empty.path])
        }
    }
}
