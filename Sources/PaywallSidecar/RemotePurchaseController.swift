import Foundation
import PaywallCLI
import PaywallCore

/// The app's own purchase controller, across a process boundary (`paywall serve` with
/// `controller: "app"`): a purchase or restore becomes a `purchase` / `restorePurchases`
/// request to the app, answered whenever its checkout finishes. It is plugged into the one
/// purchase path (`Purchases.purchase`) like any controller.
///
/// An answer that does not come within `timeout` seconds fails the purchase
/// (`transaction_fail`); a paywall closed meanwhile ends it as cancelled and tells the app
/// with the notification `purchaseCancelled` (`{"id": <the request's id>}`). An answer after
/// either is ignored: the app owns the status (`setSubscriptionStatus`).
@MainActor
package final class RemotePurchaseController: PurchaseController, PurchaseCancelling {
    /// Seconds an answer may take.
    package let timeout: Double
    /// Writes one protocol line to the app.
    private let send: @MainActor (String) -> Void
    private var sent = 0
    private var waiting: [JSONValue: (continuation: CheckedContinuation<Answer, Never>, timer: Task<Void, Never>)] = [:]
    /// The paywall each product's purchase started from, from its `transaction_start`.
    private var startedFrom: [String: String] = [:]

    private enum Answer {
        case answered(Result<JSONValue, RPCError>)
        case timedOut
        case cancelled
    }

    /// Why a purchase or restore failed on the app's side or on the way. The app's own
    /// `message` of a `failed` answer is shown in the paywall's dialog (the app wrote it in the
    /// user's language); anything else is the dialog's "unknown error", its details in the event.
    package struct AppAnswerError: Error, CustomStringConvertible, LocalizedError {
        package let description: String
        var fromApp = false
        package var errorDescription: String? { fromApp ? description : nil }
    }

    package init(timeout: Double, send: @escaping @MainActor (String) -> Void) {
        self.timeout = timeout
        self.send = send
    }

    /// Follows `events`, where the purchase path reports `transaction_start` with the paywall's
    /// id (the runtime's, once it is made with this controller).
    package func follow(_ events: EventDispatcher) {
        events.observe { [weak self] event in
            guard event.name == .transactionStart, let product = event.params["product_identifier"]?.stringValue else { return }
            self?.startedFrom[product] = event.params["paywall_identifier"]?.stringValue
        }
    }

    /// Requests sent and not answered yet.
    package var pendingCount: Int { waiting.count }

    package func purchase(_ product: Product) async -> PurchaseResult {
        let paywall = startedFrom.removeValue(forKey: product.id)
        let answer = await ask(
            "purchase", ["product": StoreReport.product(product), "paywall_id": paywall.map(JSONValue.string) ?? .null])
        switch read(answer, "purchase", words: ["purchased", "cancelled", "pending", "failed"]) {
        case .cancelled, .word("cancelled"): return .cancelled
        case .failed(let error): return .failed(error)
        case .word("purchased"): return .purchased
        case .word: return .pending
        }
    }

    package func restorePurchases() async -> RestorationResult {
        switch read(await ask("restorePurchases", [:]), "restorePurchases", words: ["restored", "failed"]) {
        case .cancelled:
            return .failed(AppAnswerError(description: "the paywall closed before the app answered restorePurchases"))
        case .failed(let error): return .failed(error)
        case .word: return .restored
        }
    }

    /// What an answer says: one of `words` (`failed` read as a failure with the app's
    /// message), cancelled, or why it cannot be taken.
    private enum Reading {
        case word(String)
        case cancelled
        case failed(AppAnswerError)
    }

    private func read(_ answer: Answer, _ method: String, words: [String]) -> Reading {
        switch answer {
        case .cancelled: return .cancelled
        case .timedOut:
            return .failed(
                AppAnswerError(
                    description:
                        "the app did not answer \(method) within \(JSONValue.number(timeout).jsonText) s (purchase_timeout_s)"))
        case .answered(.failure(let error)):
            return .failed(AppAnswerError(description: "the app answered \(method) with an error: \(error.message)"))
        case .answered(.success(let value)):
            guard let word = value["result"]?.stringValue, words.contains(word) else {
                let expected = words.map { "\"\($0)\"" }.joined(separator: "|")
                return .failed(
                    AppAnswerError(
                        description: "the app answered \(method) with \(value.jsonText); "
                            + "expected {\"result\": \(expected), \"message\": ...}"))
            }
            guard word == "failed" else { return .word(word) }
            guard let message = value["message"]?.stringValue else {
                return .failed(AppAnswerError(description: "the app's \(method) failed without a message"))
            }
            return .failed(AppAnswerError(description: message, fromApp: true))
        }
    }

    /// The app's response to request `id`; false when no such request is waiting (answered,
    /// timed out or cancelled already, or never sent).
    @discardableResult
    package func receive(id: JSONValue, outcome: Result<JSONValue, RPCError>) -> Bool {
        settle(id, .answered(outcome))
    }

    /// The paywall closed while requests wait: each ends as cancelled, and the app hears `purchaseCancelled`.
    package func paywallClosedDuringPurchase() {
        cancelAll()
    }

    /// Ends every waiting request as cancelled (the paywall closed, or the app went away).
    package func cancelAll() {
        for id in waiting.keys.sorted(by: { $0.jsonText < $1.jsonText }) {
            send(RPCMessage.notification("purchaseCancelled", ["id": id]))
            settle(id, .cancelled)
        }
    }

    private func ask(_ method: String, _ params: [String: JSONValue]) async -> Answer {
        sent += 1
        let id = JSONValue.string("paywall-\(sent)")
        return await withCheckedContinuation { continuation in
            let timeout = self.timeout
            let timer = Task { @MainActor [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(min(timeout, 31_536_000) * 1_000_000_000))
                guard !Task.isCancelled else { return }
                self?.settle(id, .timedOut)
            }
            waiting[id] = (continuation, timer)
            send(RPCMessage.request(id: id, method: method, params: .object(params)))
        }
    }

    @discardableResult
    private func settle(_ id: JSONValue, _ answer: Answer) -> Bool {
        guard let entry = waiting.removeValue(forKey: id) else { return false }
        entry.timer.cancel()
        entry.continuation.resume(returning: answer)
        return true
    }
}
