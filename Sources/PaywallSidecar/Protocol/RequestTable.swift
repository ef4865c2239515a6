import PaywallCore

/// The ids of the app's requests still being worked on (a `present` waits for its window to
/// close): an id reused while its request is pending is refused (-32600), since the app
/// could not tell the two answers apart.
package struct RequestTable {
    private var pending: Set<JSONValue> = []

    package init() {}

    /// Marks `id` pending; false when it already is.
    package mutating func begin(_ id: JSONValue) -> Bool {
        pending.insert(id).inserted
    }

    /// The request with `id` was answered.
    package mutating func end(_ id: JSONValue) {
        pending.remove(id)
    }

    package var count: Int { pending.count }
}
