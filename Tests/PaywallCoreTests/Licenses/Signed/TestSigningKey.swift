import Foundation
import XCTest

@testable import PaywallCore

/// A real Ed25519 key pair made by `openssl genpkey -algorithm ed25519` in a temporary folder,
/// as a seller makes one; its public half read back by `openssl pkey -pubout`.
struct TestSigningKey {
    let privatePEM: String
    let publicPEM: String

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let privatePath = folder.appendingPathComponent("private.pem").path
        try Self.openssl(["genpkey", "-algorithm", "ed25519", "-out", privatePath])
        privatePEM = try String(contentsOfFile: privatePath, encoding: .utf8)
        publicPEM = try Self.openssl(["pkey", "-in", privatePath, "-pubout"])
    }

    var publicKey: LicensePublicKey { get throws { try LicensePublicKey(parsing: publicPEM) } }

    /// Signs `message` as Keygen's server does, with this key (OpenSSL, through the runtime's signer).
    func sign(_ message: String) throws -> [UInt8] {
        try Ed25519.sign(Array(message.utf8), privateKeyPEM: privatePEM).signature
    }

    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "openssl", code: Int(process.terminationStatus))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
