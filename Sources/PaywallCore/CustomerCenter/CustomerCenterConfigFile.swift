import Foundation

/// Reads a `CustomerCenterConfiguration` from JSON (the CLI's `--config FILE`). Keys may be
/// snake_case or camelCase; an omitted screen or option keeps its default. See the Customer Center
/// article, "Configuration", for the format.
extension CustomerCenterConfiguration {
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    package init(data: Data, origin: String) throws(ParseError) {
        let reader = Reader(origin: origin)
        let root: JSONValue
        do {
            root = try JSONParser.parseFile(Array(data))
        } catch {
            throw reader.fail("", "not JSON text (\(error))")
        }
        try self.init(reader: reader, root: root)
    }

    private init(reader r: Reader, root: JSONValue) throws(ParseError) {
        let top = try r.object(root, at: "")
        try r.onlyKeys(
            top, at: "",
            [
                "management", "no_purchases", "support", "appearance", "shows_account_details",
                "warns_about_duplicate_subscriptions",
            ])
        self.init()
        if let screen = top["management"] { managementScreen = try r.screen(screen, at: "management", default: managementScreen) }
        if let screen = top["no_purchases"] {
            noPurchasesScreen = try r.screen(screen, at: "no_purchases", default: noPurchasesScreen)
        }
        if let value = top["support"] { support = try r.support(value, at: "support") }
        if let value = top["appearance"] {
            let object = try r.object(value, at: "appearance")
            try r.onlyKeys(object, at: "appearance", ["accent"])
            if let accent = object["accent"] {
                let pair = try r.object(accent, at: "appearance.accent")
                appearance.accent = ColorPair(
                    light: try r.color(pair["light"], at: "appearance.accent.light"),
                    dark: try r.color(pair["dark"], at: "appearance.accent.dark"))
            }
        }
        showsAccountDetails = try r.bool(top["shows_account_details"], at: "shows_account_details") ?? true
        warnsAboutDuplicateSubscriptions =
            try r.bool(
                top["warns_about_duplicate_subscriptions"],
                at: "warns_about_duplicate_subscriptions") ?? true
    }

    /// Typed access with errors that name the field's path.
    private struct Reader {
        let origin: String

        func fail(_ path: String, _ message: String) -> ParseError {
            ParseError(description: "\(origin)\(path.isEmpty ? "" : ": \(path)"): \(message)")
        }

        func object(_ value: JSONValue, at path: String) throws(ParseError) -> [String: JSONValue] {
            guard let object = value.objectValue else { throw fail(path, "must be an object") }
            // Both spellings of one key are a duplicate too: refuse rather than pick one.
            var spellings: [String: String] = [:]
            for key in object.keys.sorted() {
                let normalized = KeyNormalizer.snakeCase(key)
                if let other = spellings[normalized] {
                    throw fail(path, "\"\(other)\" and \"\(key)\" are the same key; keep one")
                }
                spellings[normalized] = key
            }
            return KeyNormalizer.snakeCased(object)
        }

        func onlyKeys(_ object: [String: JSONValue], at path: String, _ known: [String]) throws(ParseError) {
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw fail(path, "unknown key \"\(unknown)\"; known keys: \(known.joined(separator: ", "))")
            }
        }

        func string(_ value: JSONValue?, at path: String) throws(ParseError) -> String? {
            guard let value, value != .null else { return nil }
            guard let text = value.stringValue else { throw fail(path, "must be a string") }
            return text
        }

        func required(_ value: JSONValue?, at path: String) throws(ParseError) -> String {
            guard let text = try string(value, at: path), !text.isEmpty else { throw fail(path, "is required") }
            return text
        }

        /// A plain `local@domain` address: what a mailto: link can open, with no name or list around it.
        func email(_ value: JSONValue?, at path: String) throws(ParseError) -> String? {
            guard let text = try string(value, at: path) else { return nil }
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            let forbidden = CharacterSet.whitespacesAndNewlines.union(.controlCharacters).union(
                CharacterSet(charactersIn: "<>,;:\"()[]\\"))
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
                text.unicodeScalars.allSatisfy({ !forbidden.contains($0) })
            else {
                throw fail(path, "must be an email address like \"support@example.com\"; got \(JSONWriter.text(.string(text)))")
            }
            return text
        }

        func bool(_ value: JSONValue?, at path: String) throws(ParseError) -> Bool? {
            guard let value, value != .null else { return nil }
            guard let flag = value.boolValue else { throw fail(path, "must be true or false") }
            return flag
        }

        func url(_ value: JSONValue?, at path: String) throws(ParseError) -> URL? {
            guard let text = try string(value, at: path) else { return nil }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw fail(path, "must be an http or https URL; got \"\(text)\"")
            }
            return url
        }

        func color(_ value: JSONValue?, at path: String) throws(ParseError) -> String {
            let text = try required(value, at: path)
            guard text.count == 7, text.first == "#", text.dropFirst().allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
                throw fail(path, "must be a #RRGGBB colour; got \"\(text)\"")
            }
            return text
        }

        /// A screen; without `paths` it keeps those of `fallback` (retitling needs no paths).
        func screen(_ value: JSONValue, at path: String, default fallback: Screen) throws(ParseError) -> Screen {
            let object = try self.object(value, at: path)
            try onlyKeys(object, at: path, ["title", "subtitle", "paths"])
            let title = try string(object["title"], at: "\(path).title")
            let subtitle = try string(object["subtitle"], at: "\(path).subtitle")
            guard let given = object["paths"] else { return Screen(title: title, subtitle: subtitle, paths: fallback.paths) }
            guard let list = given.arrayValue else { throw fail("\(path).paths", "must be an array of paths") }
            var paths: [Path] = []
            for (index, item) in list.enumerated() {
                let p = try self.path(item, at: "\(path).paths[\(index)]")
                if paths.contains(where: { $0.id == p.id }) {
                    throw fail("\(path).paths[\(index)]", "path id \"\(p.id)\" appears twice")
                }
                paths.append(p)
            }
            return Screen(title: title, subtitle: subtitle, paths: paths)
        }

        func path(_ value: JSONValue, at path: String) throws(ParseError) -> Path {
            let o = try object(value, at: path)
            try onlyKeys(
                o, at: path, ["id", "type", "title", "survey", "window", "product_ids", "url", "open_method", "identifier"])
            let id = try required(o["id"], at: "\(path).id")
            let typeName = KeyNormalizer.snakeCase(try required(o["type"], at: "\(path).type"))
            let title = try string(o["title"], at: "\(path).title")
            let type: PathType
            switch typeName {
            case "restore": type = .restore
            case "manage_subscription": type = .manageSubscription
            case "contact_support": type = .contactSupport
            case "refund":
                var window: TimeInterval?
                if let raw = o["window"], raw != .null {
                    guard case .number(let seconds) = raw, seconds > 0 else {
                        throw fail("\(path).window", "must be a positive number of seconds")
                    }
                    window = seconds
                }
                type = .refund(window: window)
            case "change_plan":
                var ids: [String]?
                if let raw = o["product_ids"], raw != .null {
                    guard let list = raw.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                        throw fail("\(path).product_ids", "must be an array of product ids")
                    }
                    ids = list.compactMap(\.stringValue)
                }
                type = .changePlan(productIds: ids)
            case "url":
                guard let url = try self.url(o["url"], at: "\(path).url") else {
                    throw fail("\(path).url", "is required for a url path")
                }
                guard let title else { throw fail("\(path).title", "is required for a url path (it has no default title)") }
                let method = KeyNormalizer.snakeCase(try string(o["open_method"], at: "\(path).open_method") ?? "external")
                guard let open = OpenMethod(rawValue: method) else {
                    throw fail("\(path).open_method", "must be in_app or external; got \"\(method)\"")
                }
                type = .url(url, title: title, openMethod: open)
            case "custom":
                let identifier = try required(o["identifier"], at: "\(path).identifier")
                // Without one the row would show the identifier, which is meant for the app, not the user.
                guard title != nil else { throw fail("\(path).title", "is required for a custom path (it has no default title)") }
                type = .custom(identifier: identifier)
            default:
                throw fail(
                    "\(path).type",
                    "unknown path type \"\(typeName)\"; use restore, manage_subscription, refund, change_plan, contact_support, url or custom"
                )
            }
            let survey = try o["survey"].flatMap { v throws(ParseError) in
                v == .null ? nil : try self.survey(v, at: "\(path).survey")
            }
            return Path(id: id, type: type, title: title, survey: survey)
        }

        func survey(_ value: JSONValue, at path: String) throws(ParseError) -> Survey {
            let o = try object(value, at: path)
            try onlyKeys(o, at: path, ["id", "title", "options"])
            guard let list = o["options"]?.arrayValue, !list.isEmpty else {
                throw fail("\(path).options", "must be a non-empty array")
            }
            var options: [Survey.Option] = []
            for (index, item) in list.enumerated() {
                let at = "\(path).options[\(index)]"
                let option = try object(item, at: at)
                try onlyKeys(option, at: at, ["id", "title"])
                options.append(
                    .init(id: try required(option["id"], at: "\(at).id"), title: try string(option["title"], at: "\(at).title")))
            }
            return Survey(
                id: try required(o["id"], at: "\(path).id"), title: try string(o["title"], at: "\(path).title"), options: options)
        }

        func support(_ value: JSONValue, at path: String) throws(ParseError) -> Support {
            let o = try object(value, at: path)
            try onlyKeys(
                o, at: path,
                [
                    "email", "latest_app_version", "should_warn_to_update", "checks_for_updates",
                    "update_feed_url", "web_management_url",
                ])
            return Support(
                email: try email(o["email"], at: "\(path).email"),
                latestAppVersion: try string(o["latest_app_version"], at: "\(path).latest_app_version"),
                shouldWarnToUpdate: try bool(o["should_warn_to_update"], at: "\(path).should_warn_to_update") ?? true,
                checksForUpdates: try bool(o["checks_for_updates"], at: "\(path).checks_for_updates") ?? true,
                updateFeedURL: try url(o["update_feed_url"], at: "\(path).update_feed_url"),
                webManagementURL: try url(o["web_management_url"], at: "\(path).web_management_url"))
        }
    }
}
