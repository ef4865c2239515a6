import Foundation

/// What the license-key panel takes as its answer: a typed or pasted key, a signed license
/// (`base64url(payload).base64url(signature)`, or a Keygen license file between
/// `-----BEGIN LICENSE FILE-----` and `-----END LICENSE FILE-----`), or such a license read
/// from a chosen or dropped file. Reading is bounded; whether the license is valid is the
/// store's to say. On the main actor, as the store's limits are.
package enum LicenseText {
    static let fileBegin = "-----BEGIN LICENSE FILE-----"
    static let fileEnd = "-----END LICENSE FILE-----"

    /// Why a file or a paste is not taken, before the store sees it.
    package enum Problem: Error, Equatable, Sendable {
        /// The file `name` has `bytes` bytes, more than `LicenseKeyStore.maxLicenseFileBytes`.
        case fileTooBig(name: String, bytes: Int)
        /// The file `name` is not UTF-8 text, or holds a NUL byte.
        case notLicenseFile(name: String)
        /// The file `name` could not be opened or read (`reason`, for logs).
        case unreadable(name: String, reason: String)
        /// What was typed or pasted has `bytes` bytes: more than a key (`LicenseKeyStore.maxKeyBytes`)
        /// without looking like a signed license, or more than a license file.
        case tooLong(bytes: Int)
    }

    /// Whether `text` (trimmed) has the shape of a signed license: a Keygen license file, or
    /// two base64url parts joined by one dot.
    package static func looksLikeLicense(_ text: String) -> Bool {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix(fileBegin) { return true }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { part in !part.isEmpty && part.unicodeScalars.allSatisfy(isBase64URL) }
    }

    /// The answer for what was typed or pasted: trimmed; a signed license in its one canonical
    /// form whatever line breaks a paste brought or a text field dropped (a Keygen file as
    /// BEGIN line, the base64 on one line, END line; ours without any whitespace). A key
    /// longer than `LicenseKeyStore.maxKeyBytes` that is no license, or a license longer than
    /// `LicenseKeyStore.maxLicenseFileBytes`, is refused.
    package static func answer(_ typed: String) throws(Problem) -> String {
        let text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = text.utf8.count
        guard bytes <= LicenseKeyStore.maxLicenseFileBytes else { throw .tooLong(bytes: bytes) }
        if text.hasPrefix(fileBegin) {
            var body = text.dropFirst(fileBegin.count)
            if let end = body.range(of: fileEnd) { body = body[..<end.lowerBound] }
            return [fileBegin, String(body.unicodeScalars.filter { !isSpace($0) }), fileEnd].joined(separator: "\n")
        }
        let joined = String(text.unicodeScalars.filter { !isSpace($0) })
        if joined != text, looksLikeLicense(joined) { return joined }
        guard bytes <= LicenseKeyStore.maxKeyBytes || looksLikeLicense(text) else { throw .tooLong(bytes: bytes) }
        return text
    }

    /// The answer in the file at `path`: its size checked before it is read whole (at most
    /// `LicenseKeyStore.maxLicenseFileBytes`, and no more is read should it grow meanwhile),
    /// then `decode`d. `name` is how the user knows the file.
    package static func read(path: String, name: String) throws(Problem) -> String {
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType != .typeDirectory else {
                throw Problem.notLicenseFile(name: name)
            }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch let problem as Problem {
            throw problem
        } catch {
            throw .unreadable(name: name, reason: error.localizedDescription)
        }
        guard size <= LicenseKeyStore.maxLicenseFileBytes else { throw .fileTooBig(name: name, bytes: size) }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: LicenseKeyStore.maxLicenseFileBytes + 1) ?? Data()
        } catch {
            throw .unreadable(name: name, reason: error.localizedDescription)
        }
        guard data.count <= LicenseKeyStore.maxLicenseFileBytes else { throw .fileTooBig(name: name, bytes: data.count) }
        return try decode(data, name: name)
    }

    /// The answer in `data` (a file's bytes, or dropped text): UTF-8 without NUL, else not a
    /// license file; then as `answer` takes it.
    package static func decode(_ data: Data, name: String) throws(Problem) -> String {
        guard !data.contains(0), let text = String(data: data, encoding: .utf8),
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { throw .notLicenseFile(name: name) }
        do {
            return try answer(text)
        } catch .tooLong(let bytes) where bytes <= LicenseKeyStore.maxLicenseFileBytes {
            // A long file that is no license: a document, not a key.
            throw .notLicenseFile(name: name)
        }
    }

    private static func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_", "=": true
        default: false
        }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }
}
