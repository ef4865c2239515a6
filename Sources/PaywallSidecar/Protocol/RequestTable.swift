import PaywallCore

/// The ids of the app's requests still being worked on (a `present` waits for its window to
/// close): an id reused while its request is pending is refused (-32600), since the app
/// could not tell the two answers apart.
package struct RequestTable {
    private var pending: Set<RPCID> = []

    package init() {}

    /// Marks `id` pending; false when it already is.
    package mutating func begin(_ id: RPCID) -> Bool {
        pending.insert(id).inserted
    }

    /// The request with `id` was answered.
    package mutating func end(_ id: RPCID) {
        pending.remove(id)
    }

    /// Whether the request with `id` is still being worked on.
    package func isPending(_ id: RPCID) -> Bool { pending.contains(id) }

    package var count: Int { pending.count }
}
