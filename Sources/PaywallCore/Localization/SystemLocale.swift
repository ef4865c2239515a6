import Foundation

/// The user's locale as POSIX programs see it: the first non-empty of `LC_ALL`,
/// `LC_MESSAGES` and `LANG`, else `en`.
public enum SystemLocale {
    public static func identifier(environment: [String: String]) -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "en"
    }

    /// A POSIX locale name (`de_DE.UTF-8@euro`) as a Foundation locale (`de_DE`); `C`/`POSIX` is `en_US`.
    public static func locale(_ identifier: String) -> Locale {
        let base = identifier.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? ""
        let normalized = base.replacingOccurrences(of: "-", with: "_")
        return Locale(identifier: normalized.isEmpty || normalized == "C" || normalized == "POSIX" ? "en_US" : normalized)
    }
}
