import Foundation

/// The support email the Contact support path opens: the app's address, a subject, and a body
/// that starts blank for the user and ends with diagnostics support needs.
package struct SupportEmail: Equatable, Sendable {
    package var address: String
    package var subject: String
    package var body: String

    /// What support needs to find the user's purchases and reproduce a problem.
    package struct Diagnostics: Equatable, Sendable {
        package var userId: String
        package var appVersion: String
        package var os: String
        package var deviceModel: String
        package var runtimeVersion: String
        package var activeEntitlements: [String]
        package var isSandbox: Bool
        /// The license keys on this machine, which support looks up at the merchant: masked,
        /// as `LicenseStatus` holds them (an email is no place for a whole key).
        package var licenses: [LicenseStatus]

        package init(
            userId: String, appVersion: String, os: String, deviceModel: String,
            runtimeVersion: String = DeviceInfo.runtimeVersion, activeEntitlements: [String], isSandbox: Bool,
            licenses: [LicenseStatus] = []
        ) {
            self.userId = userId
            self.appVersion = appVersion
            self.os = os
            self.deviceModel = deviceModel
            self.runtimeVersion = runtimeVersion
            self.activeEntitlements = activeEntitlements
            self.isSandbox = isSandbox
            self.licenses = licenses
        }
    }

    package init(address: String, diagnostics d: Diagnostics, strings: StringTable) {
        self.address = address
        subject = strings.text("cc.support.subject")
        let lines =
            [
                "", "", "—",
                "User ID: \(d.userId)",
                "App version: \(d.appVersion.isEmpty ? "unknown" : d.appVersion)",
                "OS: \(d.os)",
                "Device: \(d.deviceModel)",
                "Paywall runtime: \(d.runtimeVersion)",
                "Active entitlements: \(d.activeEntitlements.isEmpty ? "none" : d.activeEntitlements.sorted().joined(separator: ", "))",
                "Sandbox: \(d.isSandbox ? "yes" : "no")",
            ] + d.licenses.map { "License: \($0.maskedKey) (\($0.productId), \($0.keyStatus.rawValue))" }
        // Diagnostics stay in English: they are read by the app's support team, not the user.
        body = lines.joined(separator: "\n")
    }

    /// `mailto:` with the subject and body percent-encoded (RFC 6068).
    package var url: URL {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        let mailbox =
            address.addingPercentEncoding(withAllowedCharacters: allowed.union(CharacterSet(charactersIn: "@+"))) ?? address
        return URL(string: "mailto:\(mailbox)?subject=\(encode(subject))&body=\(encode(body))")!
    }
}
