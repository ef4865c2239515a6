import Foundation

/// The name a license is activated under, so the customer's list of activations says which
/// machine is which: `hostnamectl`'s pretty hostname (`PRETTY_HOSTNAME` in /etc/machine-info),
/// else the hostname.
package enum InstanceName {
    package static func current(machineInfo: String = "/etc/machine-info") -> String {
        if let text = try? String(contentsOfFile: machineInfo, encoding: .utf8), let pretty = prettyHostname(in: text) {
            return pretty
        }
        var buffer = [CChar](repeating: 0, count: 256)
        let name =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return name.isEmpty ? "Linux" : name
    }

    /// `PRETTY_HOSTNAME=...` of an env-style file: unquoted, or in single or double quotes
    /// (with `\` escapes in double quotes, as systemd writes them).
    static func prettyHostname(in text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let line = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("PRETTY_HOSTNAME=") else { continue }
            var value = String(line.dropFirst("PRETTY_HOSTNAME=".count))
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
                if first == "\"" {
                    var unescaped = ""
                    var escaping = false
                    for c in value {
                        if escaping || c != "\\" {
                            unescaped.append(c)
                            escaping = false
                        } else {
                            escaping = true
                        }
                    }
                    value = unescaped
                }
            }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        return nil
    }
}
