/// Durations in messages.
package enum Seconds {
    /// "120 s", "0.5 s".
    package static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}
