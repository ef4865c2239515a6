import Foundation

/// What one paywall page may make the machine do, so that a broken or hostile page cannot
/// exhaust it: desktop notifications are counted, and URLs reach the system opener only right
/// after the user clicked or typed in the view, and not in bursts. A refusal comes back as a
/// reason, which the session reports as `pageAction_refused`.
package struct PageActionLimits: Sendable {
    /// Desktop notifications one presentation may schedule.
    package var notificationsPerPresentation = 10
    /// How recent (seconds) the user's last click or key press on the view must be for the page
    /// to hand a URL to the system. WebKitGTK's script messages carry no user-gesture flag, so
    /// the host watches GTK input on the view instead.
    package var gestureWindow: TimeInterval = 1
    /// The shortest time (seconds) between two URLs handed to the system.
    package var systemOpenInterval: TimeInterval = 1

    /// Whether a URL reaches the system opener only right after the user's input. The
    /// runtime's own pages (the customer center) are not a third party's code: their links
    /// need no gesture check, only the rate limit.
    package var requiresGesture = true

    /// Refusals one presentation reports; a page looping on refused requests would otherwise
    /// fill the event log (and the disk under it) as fast as it can post.
    package var refusalsReported = 100

    private var notificationsScheduled = 0
    private var refusals = 0
    private var lastUserInput: Date?
    private var lastSystemOpen: Date?

    package init() {}

    /// Counts one refusal: whether to report it, and whether it is the last one reported.
    package mutating func countRefusal() -> (report: Bool, last: Bool) {
        refusals += 1
        return (refusals <= refusalsReported, refusals == refusalsReported)
    }

    /// The user clicked or pressed a key in the view at `now`.
    package mutating func userInput(at now: Date) {
        lastUserInput = now
    }

    /// Counts one notification; the reason it is refused when the presentation used them up.
    package mutating func scheduleNotification() -> String? {
        guard notificationsScheduled < notificationsPerPresentation else {
            return "a paywall may schedule at most \(notificationsPerPresentation) notifications"
        }
        notificationsScheduled += 1
        return nil
    }

    /// Records one URL handed to the system at `now`; the reason it is refused when no user
    /// input came just before it, or the last one went less than `systemOpenInterval` ago.
    package mutating func openInSystem(at now: Date) -> String? {
        if requiresGesture, !(lastUserInput.map { now.timeIntervalSince($0) <= gestureWindow && now >= $0 } ?? false) {
            let within = gestureWindow == 1 ? "a second" : "\(gestureWindow.formatted()) seconds"
            return "a page's URL goes to the system only within \(within) of a click or key press in the paywall"
        }
        if let last = lastSystemOpen, now.timeIntervalSince(last) < systemOpenInterval {
            let every = systemOpenInterval == 1 ? "second" : "\(systemOpenInterval.formatted()) seconds"
            return "a page's URLs go to the system at most once every \(every)"
        }
        lastSystemOpen = now
        return nil
    }
}
