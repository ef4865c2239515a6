// swift-tools-version:6.0
import PackageDescription

// Layers, one direction of dependency:
//   C shims (CGtk, CWebKit, CSQLite, CCurl, CPluralRules over ICU) -> PaywallCore (pure Swift, no GTK)
//   -> PaywallHost (GTK/WebKit; the app API, `Paywalls`)
//   -> PaywallCLI (parsing, output, the commands without a window; no GTK) -> paywall (the command line; execs
//      paywall-window for the window commands)
//   -> PaywallSidecar (`paywall serve`) and PaywallBench (`paywall bench`) -> paywall-window
let package = Package(
    name: "paywall",
    products: [
        .library(name: "PaywallCore", targets: ["PaywallCore"]),
        .library(name: "PaywallHost", targets: ["PaywallHost"]),
        .executable(name: "paywall", targets: ["paywall"]),
        .executable(name: "paywall-window", targets: ["PaywallWindow"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk", pkgConfig: "gtk+-3.0",
            providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(
            name: "CWebKit", pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // libcurl, the one HTTP client (its write callback can stop reading; URLSession cannot).
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // Debian's ICU (libicu-dev) for CLDR plural rules, behind a plain-C API.
        .target(name: "CPluralRules", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        .target(name: "PaywallCore", dependencies: ["CSQLite", "CPluralRules", "CCurl"]),
        .target(name: "PaywallHost", dependencies: ["PaywallCore", "CGtk", "CWebKit"]),
        .target(name: "PaywallCLI", dependencies: ["PaywallCore"]),
        // The window commands, which `paywall` execs: only this executable loads GTK and WebKit.
        // `paywall serve`: the JSON-RPC sidecar (its protocol, and the server over the app API).
        .target(name: "PaywallSidecar", dependencies: ["PaywallCLI", "PaywallCore", "PaywallHost"]),
        // `paywall bench`: the benchmark and its probes, kept out of the libraries apps link.
        .target(
            name: "PaywallBench",
            dependencies: ["PaywallCLI", "PaywallCore", "PaywallHost", "PaywallSidecar", "CGtk", "CWebKit"]),
        .executableTarget(
            name: "PaywallWindow",
            dependencies: ["PaywallCLI", "PaywallCore", "PaywallHost", "PaywallSidecar", "PaywallBench"]),
        // No dependency on PaywallWindow, not even a build-order one: SwiftPM would link GTK and
        // WebKit into `paywall` with it. `swift build` builds both executables.
        .executableTarget(name: "paywall", dependencies: ["PaywallCLI", "PaywallCore"]),
        // An example app: a GTK 3 app selling Pro through the runtime (see its main.swift).
        .executableTarget(
            name: "LumenNotesExample", dependencies: ["PaywallCore", "PaywallHost", "CGtk"],
            path: "Examples/LumenNotes", exclude: ["data"]),
        // A minimal Swift Foundation program: `paywall bench`'s reference for a process's start.
        .executableTarget(name: "paywall-bench-baseline"),
        .testTarget(name: "PaywallCoreTests", dependencies: ["PaywallCore"], exclude: ["Fixtures"]),
        .testTarget(name: "PaywallHostTests", dependencies: ["PaywallHost", "CGtk", "CWebKit"]),
        .testTarget(name: "PaywallCLITests", dependencies: ["PaywallCLI", "PaywallCore"]),
        .testTarget(name: "PaywallSidecarTests", dependencies: ["PaywallSidecar", "PaywallCLI", "PaywallCore"]),
        // The built executables, driven as users drive them; folders by user (app, sidecar,
        // designer, tester, licensing, platform).
        .testTarget(
            name: "PaywallEndToEndTests",
            dependencies: [
                "paywall", "PaywallWindow", "paywall-bench-baseline", "LumenNotesExample", "PaywallCore", "PaywallHost", "CGtk",
            ],
            exclude: [
                "Fixtures", "Tester/Selenium", "Designer/Accessibility", "Sidecar/sidecar_test.py",
                "Sidecar/sidecar_redeem_test.py",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
