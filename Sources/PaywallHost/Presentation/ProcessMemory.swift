import Foundation

/// What this process and the processes it started (WebKit's) hold in memory, from `/proc`.
package enum ProcessMemory {
    /// Resident memory of this process and every process it started (WebKit's), in bytes.
    package static func treeRSS() -> Int {
        var total = 0
        var pending = [Int32(getpid())]
        while let pid = pending.popLast() {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                total += kb * 1024
            }
            for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
                let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                pending += children.split(separator: " ").compactMap { Int32($0) }
            }
        }
        return total
    }
}
