import Foundation
import PaywallCore
import XCTest

/// `paywall serve`'s framing and ids, through the built executable: every id comes back as it
/// was written, a key written twice is refused naming it, and a malformed line carrying the id
/// of a pending request neither answers nor frees that id.
final class SidecarFramingTests: EndToEndTestCase {
    private var server: Process?

    override func tearDownWithError() throws {
        if let server, server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    func testIdsAreEchoedExactlyAndDuplicateKeysRefused() throws {
        let sidecar = try SidecarProcess(in: workDir)
        defer { sidecar.close() }
        for id in ["9007199254740993", "1.23e29", "-0", #""tag-ü""#] {
            sidecar.send(#"{"jsonrpc": "2.0", "id": \#(id), "method": "nope"}"#)
            let answer = try XCTUnwrap(sidecar.nextAnswer())
            XCTAssertTrue(answer.contains(#""id":\#(id),"#), answer)
        }
        sidecar.send(#"{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"data_dir": "a", "data_dir": "b"}}"#)
        let duplicate = try XCTUnwrap(sidecar.nextAnswer())
        XCTAssertTrue(duplicate.contains(#""code":-32600"#), duplicate)
        XCTAssertTrue(duplicate.contains(#"the key \"data_dir\" appears twice"#), duplicate)
        XCTAssertTrue(duplicate.contains(#""id":7"#), duplicate)
    }

    /// A redeem waits on a License API that trickles its answer; meanwhile a malformed line
    /// with its id is answered with null, and the id stays taken.
    func testAMalformedLineDoesNotFreeAPendingId() throws {
        let site = workDir.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let routes = workDir.appendingPathComponent("routes.json")
        try Data(#"{"/v1/licenses/validate": {"trickle": 1, "bytes": 60}}"#.utf8).write(to: routes)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            Self.packageRoot.appendingPathComponent("Tests/PaywallCoreTests/Fixtures/test_http_server.py").path, site.path,
            routes.path, workDir.appendingPathComponent("port").path,
        ]
        try process.run()
        server = process
        let portFile = workDir.appendingPathComponent("port")
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: portFile.path) { usleep(20_000) }
        let port = try XCTUnwrap((try? String(contentsOf: portFile, encoding: .utf8)).flatMap(Int.init))
        let catalog = workDir.appendingPathComponent("catalog.json")
        try LicenseAPIServer.writeLifetimeCatalog(to: catalog, port: port)

        let sidecar = try SidecarProcess(in: workDir)
        defer { sidecar.close() }
        let data = workDir.appendingPathComponent("data").path
        sidecar.send(
            #"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"data_dir": "\#(data)", "catalog": "\#(catalog.path)"}}"#
        )
        let initialized = try XCTUnwrap(sidecar.nextAnswer())
        XCTAssertTrue(initialized.contains(#""result":"#), initialized)
        sidecar.send(#"{"jsonrpc": "2.0", "id": 5, "method": "redeem", "params": {"license_key": "KEY-1234"}}"#)
        sidecar.send(#"{"jsonrpc": "2.0", "id": 5, "method": 3}"#)
        let malformed = try XCTUnwrap(sidecar.nextAnswer())
        XCTAssertTrue(malformed.contains(#""id":null"#), malformed)
        XCTAssertTrue(malformed.contains("belongs to a pending request"), malformed)
        sidecar.send(#"{"jsonrpc": "2.0", "id": 5, "method": "getCustomerInfo"}"#)
        let reused = try XCTUnwrap(sidecar.nextAnswer())
        XCTAssertTrue(reused.contains("belongs to a request that is still pending"), reused)
    }
}
