import Foundation

/// Facts about this machine and app for the page's `device` variables, read from the real
/// system: the OS from `/etc/os-release`, the model from DMI, the time zone and the clock.
package struct DeviceInfo: Equatable, Sendable {
    package var osName: String
    package var osVersion: String
    package var deviceModel: String
    /// `light` or `dark`, from the desktop's theme (or `--theme`).
    package var interfaceStyle: String
    /// The version of the app showing the paywall, as the app gives it.
    package var appVersion: String

    package init(osName: String, osVersion: String, deviceModel: String, interfaceStyle: String, appVersion: String) {
        self.osName = osName
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.interfaceStyle = interfaceStyle
        self.appVersion = appVersion
    }

    /// The runtime's version, reported as `sdkVersion`.
    package static let runtimeVersion = "0.1.0"

    /// This machine's OS and model with the desktop's `interfaceStyle` and the app's version.
    /// The files behind them are read once a process: they do not change while it runs.
    package static func current(interfaceStyle: String, appVersion: String) -> DeviceInfo {
        var info = machine
        info.interfaceStyle = interfaceStyle
        info.appVersion = appVersion
        return info
    }

    private static let machine = read()

    /// Reads the OS and model of this machine from its os-release and DMI files.
    static func read(osRelease: String = "/etc/os-release", productName: String = "/sys/class/dmi/id/product_name") -> DeviceInfo
    {
        let release = parseOSRelease((try? String(contentsOfFile: osRelease, encoding: .utf8)) ?? "")
        let model = ((try? String(contentsOfFile: productName, encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return DeviceInfo(
            osName: release["NAME"] ?? "Linux", osVersion: release["VERSION_ID"] ?? release["VERSION"] ?? "",
            deviceModel: model.isEmpty ? "Linux PC" : model, interfaceStyle: "light", appVersion: "")
    }

    /// `KEY=value` and `KEY="quoted value"` lines of an os-release file.
    static func parseOSRelease(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].hasPrefix("#") else { continue }
            var value = parts[1]
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            result[parts[0]] = value
        }
        return result
    }
}
