/// One protocol message that must be answered with what it carried, exactly: its value, and
/// the text of each of its top-level numbers as written (a request id of 2^53+1, 1.23e29 or -0
/// does not survive a `Double`). Duplicate keys are refused or, to find the id to answer a
/// refused message with, read as `JSON.parse` does (the last wins).
package struct JSONMessage {
    package let value: JSONValue
    /// Each top-level member that is a number, by key: its text as sent.
    package let numberTexts: [String: String]

    /// Why a message is not JSON: the words, and the key written twice when that is why.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package let duplicateKey: String?
    }

    package init(_ bytes: [UInt8], refusingDuplicateKeys: Bool) throws(Failure) {
        let tree: NumberText
        do {
            tree =
                refusingDuplicateKeys
                ? try JSONParser.parseFile(bytes, as: NumberText.self)
                : try JSONParser.parseKeepingLastKey(bytes, as: NumberText.self)
        } catch {
            throw Failure(description: error.description, duplicateKey: error.duplicateKey)
        }
        value = tree.value
        if case .object(let members) = tree {
            numberTexts = members.compactMapValues { if case .number(let text, _) = $0 { text } else { nil } }
        } else {
            numberTexts = [:]
        }
    }

    /// A parse tree that keeps numbers' text.
    private indirect enum NumberText: JSONTree {
        case null
        case bool(Bool)
        case number(String, Double)
        case string(String)
        case array([NumberText])
        case object([String: NumberText])

        static func number(text: String, value: Double) -> NumberText? { .number(text, value) }

        var value: JSONValue {
            switch self {
            case .null: .null
            case .bool(let flag): .bool(flag)
            case .number(_, let number): .number(number)
            case .string(let text): .string(text)
            case .array(let items): .array(items.map(\.value))
            case .object(let members): .object(members.mapValues(\.value))
            }
        }
    }
}
