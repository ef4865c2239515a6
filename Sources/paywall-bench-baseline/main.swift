// The least a Swift program with Foundation costs to start and end: `paywall bench` runs it
// as the reference for the commands that show no window (`swift_baseline_process_ms`).
import Foundation

FileHandle.standardOutput.write(Data("\(ProcessInfo.processInfo.processIdentifier)\n".utf8))
