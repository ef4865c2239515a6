import Foundation

/// The user's locale as POSIX programs see it: the first non-empty of `LC_ALL`,
/// `LC_MESSAGES` and `LANG`, else `en`.
package enum SystemLocale {
    package static func identifier(environment: [String: String]) -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "en"
    }
}
