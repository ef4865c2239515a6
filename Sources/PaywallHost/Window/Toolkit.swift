import CGtk

/// Process-wide GTK setup and the main loop the host runs in.
@MainActor
public enum Toolkit {
    public struct NoDisplay: Error, CustomStringConvertible {
        public var description: String {
            "cannot open a display (DISPLAY/WAYLAND_DISPLAY); run inside a desktop session or under `xvfb-run -a`"
        }
    }

    /// Initializes GTK and lets Swift concurrency run inside its loop.
    public static func initialize() throws(NoDisplay) {
        guard gtk_init_check(nil, nil) != 0 else { throw NoDisplay() }
        MainLoop.integrateDispatch()
    }

    /// Runs the main loop until `quit()`.
    public static func run() {
        gtk_main()
    }

    public static func quit() {
        gtk_main_quit()
    }
}
