import Foundation
import PaywallCore

/// Which web process the views made now go to, and what it held when young.
struct WebProcessWatch {
    private(set) var current: Int32?
    private var youngBytes = 0

    /// How many MB the current web process grew by since first seen; nil when it was just
    /// found (this reading is its young size) or cannot be told apart from others.
    /// - Parameters:
    ///   - running: the web processes running now.
    ///   - others: those that are not the current one (running before its first view was made).
    mutating func growth(running: [Int32], others: Set<Int32>, residentBytes: (Int32) -> Int) -> Double? {
        let candidates = running.filter { !others.contains($0) }
        if let current, candidates.contains(current) {
            return Double(residentBytes(current) - youngBytes) / 1_048_576
        }
        // The first paywall after a start or a recycle is in the one new process.
        guard candidates.count == 1, let found = candidates.first else { return nil }
        current = found
        youngBytes = residentBytes(found)
        return nil
    }

    /// The current process takes no new views: the next one found is its successor.
    mutating func retire() {
        current = nil
    }
}

extension PaywallPresenter {
    /// When nothing is on screen and the web process grew past `webProcessGrowthBudgetMB`,
    /// views made from now on get a fresh web process. Whatever WebKit keeps per page (tens of
    /// MB over hundreds of pages, not found), a long-running process then stays bounded.
    func recycleWebProcessIfGrown() {
        guard let budget = webProcessGrowthBudgetMB, budget > 0, !runtime.allowsAutomation,
            active.isEmpty, customerCenterOnScreen == nil
        else { return }
        guard
            let grown = webProcessWatch.growth(
                running: ProcessMemory.webProcesses(), others: runtime.webProcessesBeforeCurrent,
                residentBytes: webProcessMemoryReader),
            grown > budget
        else { return }
        webProcessWatch.retire()
        runtime.startFreshWebProcess()
        events.emit(
            .webProcessRecycle,
            [
                "grown_mb": .number((grown * 10).rounded() / 10), "budget_mb": .number(budget),
            ])
    }
}
