import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost
import PaywallSidecar

/// `sidecar_preloaded_present_ms`: what an app driving `paywall serve` waits for a preloaded
/// paywall, from the moment it writes the `present` request line to the first painted frame
/// showing the page (`FirstFrameWatch`).
///
/// The sidecar's server runs in this process, fed through real pipes by a client built on the
/// same connection code: the request is written to a pipe, the server's GLib watch on the
/// pipe's read end wakes, reads and decodes the line, and runs `present` through the
/// `Paywalls` facade, as in `paywall serve`. The first frame can only be seen from inside the
/// process that paints it, so there is no child process: left out are the app's own process
/// and the kernel waking another process (microseconds). Beside it, each run also times the
/// same facade's `present(paywall:)` called in process: what a Swift app sees.
extension Bench {
    struct SidecarFigures {
        /// Request line written -> first content frame, over the pipe.
        var sidecar = FirstFrames()
        /// `Paywalls.present(paywall:)` of the same preloaded paywall in this process -> first content frame.
        var facade = FirstFrames()
        /// Request line written -> the server has read it (the pipe and the main loop's wake-up).
        var lineRead: [Double] = []
        /// Request line written (or the facade called) -> the window shown (`paywall_open`):
        /// what the sidecar adds before the paint, which is the rest of the time.
        var sidecarShown: [Double] = [], facadeShown: [Double] = []

        /// The table's lines, beside the bench's in-process `presentPreloaded` (`inProcess` ms).
        func table(inProcess: Double) -> String {
            func ms(_ v: Double) -> String { String(format: "%8.2f ms", v) }
            return """
                present request to paywall serve, preloaded \(ms(sidecar.median))   \(String(format: "%+.2f", sidecar.median - inProcess)) ms against presentPreloaded, \(sidecar.mostBlank) blank frames at most
                  line read by the server after             \(ms(Bench.median(lineRead)))
                  window shown (paywall_open) after         \(ms(Bench.median(sidecarShown)))   in process \(ms(Bench.median(facadeShown)))
                Paywalls.present(paywall:), preloaded       \(ms(facade.median))   (in process, the runs beside the sidecar's)
                  sidecar minus in process, run by run      \(ms(Bench.median(zip(sidecar.times, facade.times).map { $0 - $1 })))   (median)
                """
        }
    }

    func sidecarPresents(_ bundle: PaywallBundle, catalog: URL, work: URL) async throws -> SidecarFigures {
        let client = try SidecarBenchClient()
        defer { client.close() }
        var read: UInt64 = 0
        client.server.onRequestRead = { method, at in if method == "present" { read = at } }
        _ = try await client.call(
            "initialize",
            [
                "data_dir": .string(work.appendingPathComponent("sidecar-data").path),
                "catalog": .string(catalog.path),
            ])
        guard let paywalls = client.server.paywalls else { throw BenchError("the sidecar did not initialize") }
        let name = bundle.root.path
        var figures = SidecarFigures()
        var shownAt = 0.0
        paywalls.events.observe { if $0.name == .paywallOpen { shownAt = Self.now() } }
        for _ in 0..<runs {
            for overThePipe in [true, false] {
                _ = try await client.call("preload", ["paywall": .string(name)])
                try await pause()  // preloaded ahead of time, not a moment ago
                guard let widget = paywalls.preloadedPresentation(name)?.webView.widget else {
                    throw BenchError("the sidecar's preloaded paywall is missing")
                }
                let start = Self.now()
                let watch = FirstFrameWatch(widget, start: start)
                if overThePipe {
                    let shown = client.request("present", ["paywall": .string(name)])
                    figures.sidecar.add(try await watch.result())
                    figures.sidecarShown.append(shownAt - start)
                    figures.lineRead.append(Double(read) / 1e6 - start)
                    _ = try await client.call("dismiss", [:])
                    _ = try await shown.value
                } else {
                    let presentation = try await paywalls.present(paywall: name) { _ in }
                    figures.facade.add(try await watch.result())
                    figures.facadeShown.append(shownAt - start)
                    presentation.dismiss()
                }
            }
        }
        return figures
    }
}

/// The app's side of a sidecar in this process: `SidecarServer` on one pair of pipes, and a
/// `SidecarConnection` on their other ends writing requests and reading the answers.
@MainActor
private final class SidecarBenchClient {
    /// One request's answer: kept when it comes before anyone waits for it.
    @MainActor
    final class Answer {
        fileprivate var outcome: Result<JSONValue, RPCError>?
        fileprivate var waiter: CheckedContinuation<JSONValue, Error>?

        var value: JSONValue {
            get async throws {
                if let outcome { return try outcome.get() }
                return try await withCheckedThrowingContinuation { waiter = $0 }
            }
        }

        fileprivate func settle(_ result: Result<JSONValue, RPCError>) {
            outcome = result
            waiter?.resume(with: result.mapError { $0 as Error })
            waiter = nil
        }
    }

    let server: SidecarServer
    private let connection: SidecarConnection
    private let descriptors: [Int32]
    private var nextId = 0
    private var waiting: [JSONValue: Answer] = [:]

    init() throws {
        var requests: [Int32] = [0, 0]
        var answers: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&answers) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        descriptors = requests + answers
        // Room for every event of a run: the server's writes never wait for this reader.
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (Linux), which Glibc's module does not export
        _ = fcntl(answers[1], setPipeSize, 1 << 20)
        server = SidecarServer(connection: SidecarConnection(input: requests[0], output: answers[1]))
        connection = SidecarConnection(input: answers[0], output: requests[1])
        connection.onFrame = { [unowned self] frame, _ in
            // Notifications (events) are not measured.
            guard case .line(let line) = frame, case .success(.response(let id, let outcome)) = RPCMessage.decode(line) else {
                return
            }
            waiting.removeValue(forKey: id.value)?.settle(outcome)
        }
        server.start()
        connection.start()
    }

    /// Writes a request line now; its answer comes later.
    func request(_ method: String, _ params: [String: JSONValue]) -> Answer {
        nextId += 1
        let id = JSONValue.number(Double(nextId))
        let answer = Answer()
        waiting[id] = answer
        connection.send(RPCMessage.request(id: id, method: method, params: .object(params)))
        return answer
    }

    func call(_ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
        let answer = request(method, params)
        do { return try await answer.value } catch { throw BenchError("\(method): \(error)") }
    }

    func close() {
        connection.stopReading()
        server.connection.stopReading()
        for fd in descriptors { Foundation.close(fd) }
    }
}
