import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall serve`'s server: reads the app's JSON-RPC lines, answers each request, and sends
/// notifications (`event`, `customerInfoChanged`, `purchaseCancelled`) and, with the app's
/// purchase controller, requests of its own (`purchase`, `restorePurchases`). It exposes the
/// app-facing `Paywalls` API (see `SidecarMethods`); nothing of its rules lives here.
@MainActor
package final class SidecarServer {
    /// The wire protocol's version, which `initialize` answers as `protocol_version`: it changes
    /// only on a breaking change (a method, parameter, result key or event removed or changed in
    /// meaning), and a client refuses a sidecar whose version is higher than its own.
    package static let protocolVersion = 1
    package let connection: SidecarConnection
    /// The runtime and presenter, once `initialize` made them.
    package var paywalls: Paywalls?
    /// The app's purchase controller over the wire (`controller: "app"`).
    package var remote: RemotePurchaseController?
    private var requests = RequestTable()
    /// Windows this server opened that have not closed yet.
    package var openWindows = 0
    private(set) var shuttingDown = false
    /// The analytics queue's last send at shutdown is running.
    private var analyticsSending = false
    /// How long a shutdown waits for windows (and a purchase running in one) to close.
    package var shutdownBound = 60.0
    /// Called once everything is closed at shutdown (or the bound passed).
    package var onShutdown: () -> Void = {}
    /// Every request as it is read: its method and when its line was read (`paywall bench`).
    package var onRequestRead: ((String, UInt64) -> Void)?

    package init(connection: SidecarConnection) {
        self.connection = connection
        connection.onFrame = { [unowned self] frame, readAt in handle(frame, readAt: readAt) }
        connection.onClosed = { [unowned self] in shutdown() }
    }

    package func start() {
        connection.start()
    }

    // MARK: Lines in

    private func handle(_ frame: LineFramer.Frame, readAt: UInt64) {
        guard case .line(let line) = frame else {
            return answer(
                .null,
                .failure(
                    .invalidRequest(
                        "the line is over \(LineFramer.maxLineBytes) bytes (1 MiB) and was discarded; no request of this protocol is that long"
                    )))
        }
        switch RPCMessage.decode(line) {
        case .failure(let failure):
            // Not `answer`: that would end a pending request of that id, which would then be
            // answered twice, or its id taken again. Such a line is answered with null.
            let pending = requests.isPending(failure.id)
            let error =
                pending
                ? RPCError(
                    code: failure.error.code,
                    message: failure.error.message + " (its id \(failure.id) belongs to a pending request: answered with null)",
                    data: failure.error.data)
                : failure.error
            send(RPCMessage.response(id: pending ? .null : failure.id, error: error))
        case .success(.response(let id, let outcome)):
            if remote?.receive(id: id.value, outcome: outcome) != true {
                Diagnostics.fail(
                    "serve: ignored an answer to \(id): no request of that id is waiting (answered, timed out or cancelled already)"
                )
            }
        case .success(.notification(let method, let params)):
            onRequestRead?(method, readAt)
            perform(method, params, id: nil)
        case .success(.request(let id, let method, let params)):
            guard requests.begin(id) else {
                return send(
                    RPCMessage.response(
                        id: id,
                        error: .invalidRequest(
                            "id \(id) belongs to a request that is still pending; give every request a new id")))
            }
            onRequestRead?(method, readAt)
            perform(method, params, id: id)
        }
    }

    private func perform(_ method: String, _ params: RPCParams, id: RPCID?) {
        let reply = Reply { [weak self] outcome in
            guard let id else { return }
            self?.answer(id, outcome)
        }
        guard let body = methods[method] else {
            return reply(.failure(.methodNotFound(method, known: methods.keys.sorted())))
        }
        guard !shuttingDown || method == "shutdown" else {
            return reply(.failure(.failed("paywall serve is shutting down; start it again")))
        }
        do {
            try body(self)(params, reply)
        } catch {
            reply(.failure(error))
        }
    }

    private func answer(_ id: RPCID, _ outcome: Result<JSONValue, RPCError>) {
        requests.end(id)
        switch outcome {
        case .success(let result): send(RPCMessage.response(id: id, result: result))
        case .failure(let error): send(RPCMessage.response(id: id, error: error))
        }
    }

    // MARK: Lines out

    package func send(_ line: String) {
        connection.send(line)
    }

    package func notify(_ method: String, _ params: JSONValue) {
        send(RPCMessage.notification(method, params))
    }

    // MARK: Shutting down

    /// Stops reading, closes every window this server opened (a purchase running in one
    /// settles first: its charge is recorded before the process ends), and calls `onShutdown`
    /// once they are closed, or after `shutdownBound` seconds.
    package func shutdown() {
        guard !shuttingDown else { return }
        shuttingDown = true
        connection.stopReading()
        if let paywalls {
            paywalls.dismissPresented()
            paywalls.dismissCustomerCenter()
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(shutdownBound * 1e9)
        // The last send of the analytics queue (2 s at most), beside the windows closing.
        analyticsSending = paywalls != nil
        if let paywalls {
            Task { @MainActor [weak self] in
                await paywalls.shutdownAnalytics()
                self?.analyticsSending = false
            }
        }
        MainLoop.every(seconds: 0.02) { [weak self] in
            guard let self else { return false }
            guard self.openWindows > 0 || self.analyticsSending, DispatchTime.now().uptimeNanoseconds < deadline else {
                if self.openWindows > 0 {
                    Diagnostics.fail(
                        "serve: \(self.openWindows) window(s) still open after \(self.shutdownBound) s; exiting anyway")
                }
                self.onShutdown()
                return false
            }
            return true
        }
    }
}

/// Answers one request, once (a notification's answer goes nowhere).
@MainActor
package struct Reply {
    private let body: (Result<JSONValue, RPCError>) -> Void

    package init(_ body: @escaping (Result<JSONValue, RPCError>) -> Void) {
        self.body = body
    }

    package func callAsFunction(_ outcome: Result<JSONValue, RPCError>) {
        body(outcome)
    }
}
