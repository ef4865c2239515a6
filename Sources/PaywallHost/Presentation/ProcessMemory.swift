import Foundation
import PaywallCore

/// What this process and the processes it started (WebKit's) hold in memory, from `/proc`.
/// Read with `FileSystem.contents`, which keeps nothing per read (a preload reads it twice).
package enum ProcessMemory {
    /// Resident memory of this process and every process it started (WebKit's), in bytes.
    package static func treeRSS() -> Int {
        tree().reduce(0) { $0 + $1.bytes }
    }

    /// This process and every process it started, each with its resident memory in bytes
    /// (this process first).
    package static func tree() -> [(pid: Int32, bytes: Int)] {
        var found: [(pid: Int32, bytes: Int)] = []
        var pending = [Int32(getpid())]
        while !pending.isEmpty {
            let pid = pending.removeFirst()
            found.append((pid, residentBytes(of: pid)))
            for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
                let children = text("/proc/\(pid)/task/\(task)/children")
                pending += children.split(separator: " ").compactMap { Int32($0) }
            }
        }
        return found
    }

    /// The WebKit web processes among the processes this one started (not the network process).
    package static func webProcesses() -> [Int32] {
        // `comm` holds the first 15 bytes of the executable's name, `WebKitWebProcess`.
        tree().dropFirst().map(\.pid).filter { text("/proc/\($0)/comm").hasPrefix("WebKitWebProces") }
    }

    /// `VmRSS` of `pid` in bytes; 0 once it has ended.
    package static func residentBytes(of pid: Int32) -> Int {
        guard let line = text("/proc/\(pid)/status").split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb * 1024
    }

    private static func text(_ path: String) -> String {
        FileSystem.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
