import XCTest

@testable import PaywallCore

final class InstanceNameTests: XCTestCase {
    func testThePrettyHostnameAsSystemdWritesIt() {
        XCTAssertEqual(
            InstanceName.prettyHostname(in: "CHASSIS=laptop\nPRETTY_HOSTNAME=\"Ada's \\\"Think\\\" Pad\"\n"),
            "Ada's \"Think\" Pad")
        XCTAssertEqual(InstanceName.prettyHostname(in: "PRETTY_HOSTNAME='Work box'"), "Work box")
        XCTAssertEqual(InstanceName.prettyHostname(in: "PRETTY_HOSTNAME=plain"), "plain")
        XCTAssertNil(InstanceName.prettyHostname(in: "PRETTY_HOSTNAME=\"\"\nCHASSIS=desktop"))
    }

    func testWithoutMachineInfoItIsTheHostname() throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(dir) }
        let name = InstanceName.current(machineInfo: dir.appendingPathComponent("missing").path)
        XCTAssertFalse(name.isEmpty)
        let withFile = try writeFile("PRETTY_HOSTNAME=\"Lab PC\"\n", to: "machine-info", in: dir)
        XCTAssertEqual(InstanceName.current(machineInfo: withFile.path), "Lab PC")
    }
}
