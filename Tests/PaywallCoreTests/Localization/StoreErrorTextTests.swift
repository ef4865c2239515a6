import Foundation
import XCTest

@testable import PaywallCore

/// Store errors in dialogs read in the user's language, the store's code after them.
final class StoreErrorTextTests: XCTestCase {
    private let locales = TestPaths.locales

    func testAKnownCodeHasItsOwnTextInTheUsersLanguage() throws {
        let russian = try StringTable(directory: locales, locale: "ru_RU.UTF-8")
        let reason = StoreErrorText.reason(for: FakeStoreError.purchaseFailed(reason: "card_declined"), strings: russian)
        XCTAssertEqual(reason, russian.text("store.error.card_declined") + " (card_declined)")
        XCTAssertFalse(reason.contains("declined the purchase"), "no English inside a Russian dialog: \(reason)")
        let message = russian.text("purchase.failed.message", ["reason": reason])
        XCTAssertFalse(message.contains("the store"), message)
    }

    func testAnUnknownCodeIsTheStoresRefusalWithTheCode() throws {
        let english = try StringTable(directory: locales, locale: "en")
        XCTAssertEqual(
            StoreErrorText.reason(for: FakeStoreError.purchaseFailed(reason: "x42"), strings: english),
            "the store declined the purchase (x42)")
    }

    /// An app's 1 MB `failed` message would stall the main loop for seconds in its dialog.
    func testAnAppsTextIsShownBounded() throws {
        struct Long: LocalizedError { var errorDescription: String? { String(repeating: "card declined ", count: 80_000) } }
        let english = try StringTable(directory: locales, locale: "en")
        let reason = StoreErrorText.reason(for: Long(), strings: english)
        XCTAssertEqual(reason.count, StoreErrorText.maxShownCharacters)
        XCTAssertTrue(reason.hasPrefix("card declined card declined"))
        XCTAssertTrue(reason.hasSuffix("…"))
    }

    func testAnErrorWithoutACodeIsAnUnknownError() throws {
        struct Opaque: Error {}
        let english = try StringTable(directory: locales, locale: "en")
        XCTAssertEqual(StoreErrorText.reason(for: Opaque(), strings: english), "an unknown error occurred")
        XCTAssertEqual(StoreErrorText.reason(for: nil, strings: english), "an unknown error occurred")
    }

    func testAnAppsLocalizedErrorSpeaksForItself() throws {
        struct Translated: LocalizedError { var errorDescription: String? { "la tarjeta fue rechazada" } }
        let english = try StringTable(directory: locales, locale: "en")
        XCTAssertEqual(StoreErrorText.reason(for: Translated(), strings: english), "la tarjeta fue rechazada")
    }

    /// The dialog ends the reason with its own full stop: an app's sentences lose theirs
    /// ("...Try another card.. You have not been charged." was what an app's answer gave).
    func testAnAppsSentenceEndsWithTheDialogsFullStop() throws {
        struct Sentences: LocalizedError { var errorDescription: String? { "Your card was declined. Try another card. " } }
        struct Japanese: LocalizedError { var errorDescription: String? { "カードが拒否されました。" } }
        let english = try StringTable(directory: locales, locale: "en")
        XCTAssertEqual(
            english.text("purchase.failed.message", ["reason": StoreErrorText.reason(for: Sentences(), strings: english)]),
            "The purchase could not be completed: Your card was declined. Try another card. You have not been charged.")
        XCTAssertEqual(StoreErrorText.reason(for: Japanese(), strings: english), "カードが拒否されました")
    }

    /// A failed restore's dialog speaks the user's language too; the event keeps the store's words.
    func testAFailedRestoreExplainsItselfInTheUsersLanguage() throws {
        let german = try StringTable(directory: locales, locale: "de_DE")
        let outcome = Purchases.RestoreOutcome.failed(
            reason: "the store declined the purchase (network)", cause: .init(FakeStoreError.purchaseFailed(reason: "network")))
        let dialog = try XCTUnwrap(outcome.failureDialog(strings: german))
        XCTAssertEqual(dialog.key, "restore.failed")
        XCTAssertEqual(dialog.arguments["reason"], german.text("store.error.network") + " (network)")
        XCTAssertEqual(outcome.event.params["message"], "the store declined the purchase (network)")
    }
}
