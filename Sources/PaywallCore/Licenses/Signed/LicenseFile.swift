import Foundation

/// Reads a license file (`paywall redeem --license-file`, `paywall license verify`): at most
/// `LicenseKeyStore.maxLicenseFileBytes`, a larger one refused by its size before it is read,
/// as UTF-8 text, trimmed.
package enum LicenseFile {
    package static func read(_ path: String, limit: Int = LicenseKeyStore.maxLicenseFileBytes) throws(LicenseError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LicenseError(.emptyKey, "cannot read the license file \(path): \(FileError.reason(errno: errno))")
        }
        defer { try? handle.close() }
        // One byte past the limit tells a larger file (or a pipe) apart without reading it whole.
        let data = ((try? handle.read(upToCount: limit + 1)) ?? nil) ?? Data()
        guard data.count <= limit else {
            throw LicenseError(
                .emptyKey,
                "the license file \(path) is larger than \(limit) bytes, larger than any license file; "
                    + "check that it is the file the seller sent")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LicenseError(.emptyKey, "the license file \(path) is not UTF-8 text; check that it is the file the seller sent")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw LicenseError(.emptyKey, "the license file \(path) is empty") }
        return trimmed
    }
}
