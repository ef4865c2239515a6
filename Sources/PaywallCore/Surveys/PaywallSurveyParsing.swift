extension PaywallSurvey {
    /// The keys a survey object may have, in the order the Config and Caching article lists them.
    static let keys = [
        "id", "assignment_key", "title", "message", "trigger", "presentation_probability",
        "include_other", "include_close", "options",
    ]

    /// Reads a survey from an app's paywall config (a `paywalls[i].survey` object, snake_case):
    ///
    /// ```json
    /// {"id": "close_survey", "assignment_key": "close_v1", "title": "Why not today?",
    ///  "message": "One tap helps us", "trigger": "on_manual_close", "presentation_probability": 0.5,
    ///  "include_other": true, "include_close": true,
    ///  "options": [{"id": "too_expensive", "title": "Too expensive"}]}
    /// ```
    ///
    /// `message`, `include_other` and `include_close` are optional (empty, false, false).
    /// An error names the field by its path from `path` and says what it must be.
    package init(json: JSONValue, path: String) throws(PaywallConfig.ParseError) {
        func fail(_ field: String, _ message: String) -> PaywallConfig.ParseError {
            PaywallConfig.ParseError(description: "\(path)\(field.isEmpty ? "" : ".\(field)"): \(message)")
        }
        guard let object = json.objectValue else { throw fail("", "must be an object, like {\"id\": \"close_survey\", ...}") }
        if let unknown = object.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw fail(unknown, "unknown key; a survey's keys are \(Self.keys.joined(separator: ", "))")
        }
        func text(_ key: String, required: Bool = true) throws(PaywallConfig.ParseError) -> String {
            guard let value = object[key] else {
                if required { throw fail(key, "missing; it must be a non-empty string") }
                return ""
            }
            guard let string = value.stringValue, !required || !string.isEmpty else {
                throw fail(key, required ? "must be a non-empty string" : "must be a string")
            }
            return string
        }
        func flag(_ key: String) throws(PaywallConfig.ParseError) -> Bool {
            guard let value = object[key] else { return false }
            guard let bool = value.boolValue else { throw fail(key, "must be true or false") }
            return bool
        }
        let id = try text("id")
        let assignmentKey = try text("assignment_key")
        let title = try text("title")
        let message = try text("message", required: false)
        let triggers = Trigger.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard let triggerText = object["trigger"] else { throw fail("trigger", "missing; it must be \(triggers)") }
        guard let trigger = triggerText.stringValue.flatMap(Trigger.init(rawValue:)) else {
            throw fail("trigger", "must be \(triggers)")
        }
        guard case .number(let probability) = object["presentation_probability"], probability >= 0, probability <= 1 else {
            throw fail("presentation_probability", "must be a number from 0 to 1 (the share of users asked)")
        }
        let includeOther = try flag("include_other")
        let includeClose = try flag("include_close")
        guard let list = object["options"]?.arrayValue else {
            throw fail("options", "must be a list of {\"id\": ..., \"title\": ...}")
        }
        guard list.count <= Self.maxOptions else {
            throw fail("options", "has \(list.count) options; a survey may have at most \(Self.maxOptions)")
        }
        guard !list.isEmpty || includeOther else {
            throw fail("options", "is empty; list at least one option, or set \"include_other\": true")
        }
        var options: [Option] = []
        for (index, item) in list.enumerated() {
            let at = "options[\(index)]"
            guard let option = item.objectValue else { throw fail(at, "must be an object {\"id\": ..., \"title\": ...}") }
            if let unknown = option.keys.sorted().first(where: { !["id", "title"].contains($0) }) {
                throw fail("\(at).\(unknown)", "unknown key; an option's keys are id, title")
            }
            guard let optionId = option["id"]?.stringValue, !optionId.isEmpty else {
                throw fail("\(at).id", "must be a non-empty string")
            }
            guard let optionTitle = option["title"]?.stringValue, !optionTitle.isEmpty else {
                throw fail("\(at).title", "must be a non-empty string")
            }
            guard optionId != Self.otherOptionId else {
                throw fail(
                    "\(at).id",
                    "\"\(Self.otherOptionId)\" is the id of the free-text answer; use \"include_other\": true, or another id")
            }
            guard !options.contains(where: { $0.id == optionId }) else {
                throw fail("\(at).id", "\"\(optionId)\" appears twice; each option needs its own id")
            }
            options.append(Option(id: optionId, title: optionTitle))
        }
        self.init(
            id: id, assignmentKey: assignmentKey, title: title, message: message, trigger: trigger,
            presentationProbability: probability, options: options, includeOther: includeOther, includeClose: includeClose)
    }
}
