import Foundation
import XCTest

@testable import PaywallCore

/// POSIX locale names and identifiers onto the 41 tables, with the fallbacks the issue lists.
final class LocaleResolutionTests: XCTestCase {
    private let tables: Set<String> = [
        "ar", "ca", "cs", "da", "de", "el", "en", "en_AU", "en_GB", "es", "es_419", "fi", "fr", "fr_CA", "he", "hi", "hr",
        "hu", "id", "it", "ja", "ko", "ms", "nb", "nl", "nn", "pl", "pt", "pt_BR", "pt_PT", "ro", "ru", "sk", "sl", "sv",
        "th", "tr", "uk", "vi", "zh_Hans", "zh_Hant",
    ]

    private func resolve(_ text: String) -> LocaleResolution { LocaleResolution(requested: text, available: tables) }

    func testTheResolutionTable() {
        let cases: [(String, [String])] = [
            ("pt_BR.UTF-8", ["pt_BR", "pt", "en"]),
            ("pt_PT", ["pt_PT", "pt", "en"]),
            ("pt_AO", ["pt_PT", "pt", "en"]),
            ("pt", ["pt", "en"]),
            ("zh_TW", ["zh_Hant", "en"]),
            ("zh_HK.UTF-8", ["zh_Hant", "en"]),
            ("zh-Hant-TW", ["zh_Hant", "en"]),
            ("zh_CN", ["zh_Hans", "en"]),
            ("zh_SG", ["zh_Hans", "en"]),
            ("zh", ["zh_Hans", "en"]),
            ("no", ["nb", "en"]),
            ("no_NO.UTF-8", ["nb", "en"]),
            ("nn_NO", ["nn", "en"]),
            ("C", ["en"]),
            ("C.UTF-8", ["en"]),
            ("POSIX", ["en"]),
            ("de_DE.UTF-8@euro", ["de", "en"]),
            ("de-AT", ["de", "en"]),
            ("es_MX", ["es_419", "es", "en"]),
            ("es_ES", ["es", "en"]),
            ("fr_CA", ["fr_CA", "fr", "en"]),
            ("fr_BE", ["fr", "en"]),
            ("en_GB", ["en_GB", "en"]),
            ("en_NZ", ["en_AU", "en"]),
            ("en_US", ["en"]),
            ("iw_IL", ["he", "en"]),
            ("sr@latin", ["en"]),
            ("xx_YY", ["en"]),
            ("CS_CZ", ["cs", "en"]),
            ("PT-br", ["pt_BR", "pt", "en"]),
        ]
        for (requested, chain) in cases {
            XCTAssertEqual(resolve(requested).chain, chain, requested)
        }
    }

    func testFallingBackToEnglishIsReportedOnlyWhenTheLanguageHasNoTable() {
        XCTAssertTrue(resolve("xx_YY").fellBack)
        XCTAssertTrue(resolve("sr@latin").fellBack)
        XCTAssertTrue(resolve("garbage!!@#").fellBack, "garbage in the environment falls back to en")
        XCTAssertEqual(resolve("garbage!!@#").chain, ["en"])
        XCTAssertFalse(resolve("de_AT").fellBack)
        XCTAssertFalse(resolve("C").fellBack)
        XCTAssertFalse(resolve("en_US.UTF-8").fellBack)
    }

    func testFormattingKeepsTheRequestedRegion() {
        XCTAssertEqual(resolve("de_AT.UTF-8").formattingIdentifier, "de_AT")
        XCTAssertEqual(resolve("zh_TW").formattingIdentifier, "zh_TW")
        XCTAssertEqual(resolve("C").formattingIdentifier, "en_US")
        XCTAssertEqual(resolve("garbage!!@#").formattingIdentifier, "en_US")
    }

    func testWellFormedIdentifiers() {
        for good in [
            "en", "pt_BR", "pt-BR", "pt_BR.UTF-8", "sr@latin", "zh_Hant", "zh-Hant-TW", "es_419", "C", "POSIX", "C.UTF-8",
            "xx_YY", "ast",
        ] {
            XCTAssertTrue(LocaleResolution.isWellFormed(good), good)
        }
        for bad in ["garbage!!@#", "", "e", "english", "pt_BRA_x", "de DE", "../en", "pt_BR.UTF-8\n"] {
            XCTAssertFalse(LocaleResolution.isWellFormed(bad), bad)
        }
    }
}
