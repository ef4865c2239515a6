import Foundation

/// A config's relative `manifest_url`s read as relative to where the config came from, as a
/// web page's links are: a config file's folder, or a config URL. Done on the config's text
/// before it is parsed and cached, so the cached copy (read later by any process, from any
/// working directory) holds absolute sources.
enum RelativeSources {
    /// `data` with each relative `paywalls[].manifest_url` resolved against `origin`; `data`
    /// unchanged when nothing is relative or it is not a config (parsing then says why).
    static func resolve(_ data: Data, against origin: String) -> Data {
        guard case .object(var root)? = try? JSONParser.parseFile(Array(data)),
            case .array(var entries)? = root["paywalls"]
        else { return data }
        var changed = false
        for index in entries.indices {
            guard case .object(var entry) = entries[index], let source = entry["manifest_url"]?.stringValue,
                let absolute = resolve(source, against: origin), absolute != source
            else { continue }
            entry["manifest_url"] = .string(absolute)
            entries[index] = .object(entry)
            changed = true
        }
        guard changed else { return data }
        root["paywalls"] = .array(entries)
        return Data(JSONValue.object(root).jsonText.utf8)
    }

    /// `source` made absolute against `origin`, or nil when it already is (or cannot be).
    static func resolve(_ source: String, against origin: String) -> String? {
        guard !source.isEmpty, URL(string: source)?.scheme == nil, !source.hasPrefix("/") else { return nil }
        if let base = URL(string: origin), ["http", "https"].contains(base.scheme?.lowercased() ?? "") {
            return URL(string: source, relativeTo: base)?.absoluteURL.absoluteString
        }
        let folder = URL(fileURLWithPath: origin).deletingLastPathComponent()
        return folder.appendingPathComponent(source).standardizedFileURL.path
    }
}
