// swift-tools-version:6.0
import PackageDescription

// Layers, one direction of dependency:
//   C shims (CGtk, CWebKit, CSQLite, CPluralRules over ICU) -> PaywallCore (pure Swift, no GTK) -> PaywallHost (GTK/WebKit) -> paywall (CLI)
let package = Package(
    name: "paywall",
    products: [
        .library(name: "PaywallCore", targets: ["PaywallCore"]),
        .library(name: "PaywallHost", targets: ["PaywallHost"]),
        .executable(name: "paywall", targets: ["paywall"]),
    ],
    targets: [
        .systemLibrary(name: "CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(name: "CWebKit", pkgConfig: "webkit2gtk-4.1",
                       providers: [.apt(["libwebkit2gtk-4.1-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // Debian's ICU (libicu-dev) for CLDR plural rules, behind a plain-C API.
        .target(name: "CPluralRules", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        .target(name: "PaywallCore", dependencies: ["CSQLite", "CPluralRules"]),
        .target(name: "PaywallHost", dependencies: ["PaywallCore", "CGtk", "CWebKit"]),
        .executableTarget(name: "paywall", dependencies: ["PaywallCore", "PaywallHost"]),
        // A minimal Swift Foundation program: `paywall bench`'s reference for a process's start.
        .executableTarget(name: "paywall-bench-baseline"),
        .testTarget(name: "PaywallCoreTests", dependencies: ["PaywallCore"], exclude: ["Fixtures"]),
        .testTarget(name: "PaywallHostTests", dependencies: ["PaywallHost", "CGtk", "CWebKit"]),
        .testTarget(name: "PaywallEndToEndTests", dependencies: ["paywall", "PaywallCore", "PaywallHost", "CGtk"],
                    exclude: ["Fixtures", "Selenium"]),
    ],
    swiftLanguageModes: [.v6]
)
