import Foundation

/// A `LicenseKeyRequest` as the host draws it: every text resolved in the page's language, the
/// previous attempt's problem in words, and the checkout to open again. The host lays it out
/// and hands back the key; what the texts say is decided here.
package struct LicenseKeyForm: Equatable, Sendable {
    package struct Link: Equatable, Sendable {
        package var label: String
        package var url: URL
    }

    package var title: String
    package var message: String
    /// The key field's label, and its name for screen readers.
    package var fieldLabel: String
    package var activate: String
    /// Shown beside a spinner while the key is checked.
    package var activating: String
    package var cancel: String
    /// "Open checkout again" and where it goes; nil for a restore.
    package var checkoutAgain: Link?
    /// Why the previous key did not activate; nil on the first ask.
    package var problem: String?
    /// "Choose license file…", and the file chooser it opens: its title, accept button and
    /// the name of its one filter (all files: a license file has any name).
    package var chooseFile: String
    package var fileChooserTitle: String
    package var fileChooserAccept: String
    package var allFiles: String

    package init(_ request: LicenseKeyRequest, strings: StringTable) {
        switch request.purpose {
        case .purchase(let product, let checkoutURL):
            title = strings.text("license.purchase.title")
            message = strings.text("license.purchase.message", ["product": product.displayName])
            checkoutAgain = Link(label: strings.text("license.checkout_again"), url: checkoutURL)
        case .restore:
            title = strings.text("license.restore.title")
            message = strings.text("license.restore.message")
            checkoutAgain = nil
        }
        fieldLabel = strings.text("license.key.label")
        activate = strings.text("license.activate")
        activating = strings.text("license.activating")
        cancel = strings.text("license.cancel")
        problem = request.problem.map { Self.problem($0, strings: strings) }
        chooseFile = strings.text("license.file.choose")
        fileChooserTitle = strings.text("license.file.title")
        fileChooserAccept = strings.text("license.file.accept")
        allFiles = strings.text("license.file.all_files")
    }

    /// Why a chosen or dropped file, or what was pasted, is not taken, for the user: what it
    /// is, how big, and what to give instead.
    package static func problem(_ problem: LicenseText.Problem, strings: StringTable) -> String {
        // Sizes in whole KB, rounded up: "65 KB" for one byte over the 64 KB limit.
        func kilobytes(_ bytes: Int) -> String { String((bytes + 1023) / 1024) }
        let limit = kilobytes(LicenseKeyStore.maxLicenseFileBytes)
        switch problem {
        case .fileTooBig(let name, let bytes):
            return strings.text("license.problem.file_too_big", ["file": name, "size": kilobytes(bytes), "limit": limit])
        case .notLicenseFile(let name):
            return strings.text("license.problem.not_license_file", ["file": name])
        case .unreadable(let name, _):
            return strings.text("license.problem.file_unreadable", ["file": name])
        case .tooLong:
            return strings.text("license.problem.too_long")
        }
    }

    /// What went wrong with a license, for the user: the key's refusal told apart (expired,
    /// disabled, activation limit), the rest by kind. The English `message` is for logs.
    package static func problem(_ error: LicenseError, strings: StringTable) -> String {
        strings.text("license.problem.\(problemKey(error))")
    }

    static func problemKey(_ error: LicenseError) -> String {
        switch error.kind {
        case .notFound: return "not_found"
        case .rejected:
            guard let key = error.licenseKey else { return "rejected" }
            if key.status == .expired { return "expired" }
            if key.status == .disabled { return "disabled" }
            if let limit = key.activationLimit, key.activationUsage >= limit { return "limit" }
            return "rejected"
        case .rateLimited, .serverError, .malformedResponse, .cryptography: return "unavailable"
        case .network: return "network"
        case .insecureURL: return "insecure_url"
        case .emptyKey: return "empty_key"
        case .unknownProduct: return "unknown_product"
        case .noLicense: return "no_license"
        case .storage: return "storage"
        case .unsupported: return "unsupported"
        case .invalidSignature: return "invalid_signature"
        case .otherMachine: return "other_machine"
        }
    }
}
