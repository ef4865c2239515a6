import Foundation

/// This machine's fingerprint for one app: HMAC-SHA256 of the machine id (systemd's
/// `/etc/machine-id`, else D-Bus's `/var/lib/dbus/machine-id`), keyed by the app's id, in
/// lowercase hex. Signed licenses and Keygen activations are bound to it. The raw machine id
/// never leaves: it is the key of nothing else, and the same machine gives each app another
/// fingerprint, so one app's licenses say nothing of another's.
package enum MachineFingerprint {
    package static let machineIdPaths = ["/etc/machine-id", "/var/lib/dbus/machine-id"]

    /// The fingerprint of this machine for `appId`, from the first readable, non-empty of `paths`.
    package static func current(appId: String, paths: [String] = machineIdPaths) throws(LicenseError) -> String {
        for path in paths {
            // A machine id is 33 bytes; anything past 4 KB is not one.
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            let data = (try? handle.read(upToCount: 4096)) ?? nil
            try? handle.close()
            let id = String(decoding: data ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return try fingerprint(machineId: id, appId: appId) }
        }
        throw LicenseError(
            .rejected,
            "this machine has no machine id (\(paths.joined(separator: " or ")) is missing or empty), which licenses "
                + "bound to a machine need; run `systemd-machine-id-setup` (or `dbus-uuidgen --ensure`) as root")
    }

    package static func fingerprint(machineId: String, appId: String) throws(LicenseError) -> String {
        try HMACSHA256.mac(Array(machineId.utf8), key: Array(appId.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
