/// How a runtime page (a paywall or the customer center) is shown: the same three ways for
/// both, with the same words on the command line (`--presentation`) and in events.
public enum PresentationStyle: String, Sendable, CaseIterable {
    /// Its own window, modal over the app's window when it has one, with a close button.
    case sheet
    /// Pushed onto the app's navigation stack: the app's back button leaves it.
    case pushed
    /// A widget inside the app's own container.
    case embedded
}
