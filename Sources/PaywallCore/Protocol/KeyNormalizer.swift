/// Maps camelCase protocol keys to the snake_case the protocol documents, so pages written
/// either way decode the same. Only protocol keys are normalized, never user data inside them.
enum KeyNormalizer {
    static func snakeCased(_ object: [String: JSONValue]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in object {
            let normalized = snakeCase(key)
            // An explicit snake_case key wins over its camelCase twin.
            if result[normalized] == nil || key == normalized { result[normalized] = value }
        }
        return result
    }

    /// `productIdentifier` -> `product_identifier`, `requestID` -> `request_id`, `openURL` -> `open_url`.
    static func snakeCase(_ key: String) -> String {
        // Most keys are snake_case already: nothing to convert.
        guard key.utf8.contains(where: { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 }) else {
            return key
        }
        let chars = Array(key)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0 {
                let prev = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if prev.isLowercase || prev.isNumber || (prev.isUppercase && nextIsLower) { out.append("_") }
            }
            out.append(contentsOf: c.lowercased())
        }
        return out
    }
}
