// swift-tools-version:6.2
import PackageDescription

// Layers, one direction of dependency:
//   C shims (CGtk, CWebKit, CSQLite, CCurl over CLazyCurl, CLazyCrypto) -> PaywallCore (pure Swift, no GTK; plural rules from Foundation's ICU)
//   -> PaywallHost (GTK/WebKit; the app API, `Paywalls`)
//   -> PaywallCLI (parsing, output, the commands without a window; no GTK) -> paywall (the command line; execs
//      paywall-window for the window commands)
//   -> PaywallSidecar (`paywall serve`) and PaywallBench (`paywall bench`) -> paywall-window
let package = Package(
    name: "paywall",
    products: [
        // The app API: `import PaywallHost` brings the models of PaywallCore with it.
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
        // CLDR plural rules come from Foundation's own ICU (`_FoundationICU`, static with
        // `--static-swift-stdlib`): released binaries need no versioned libicu soname.
        // libcurl, the one HTTP client (its write callback can stop reading; URLSession cannot):
        // CCurl is its header alone (no link); CLazyCurl defines the curl functions called and
        // loads libcurl at their first use, so no binary needs libcurl to start.
        .systemLibrary(name: "CCurl"),
        .target(name: "CLazyCurl"),
        // libcrypto (OpenSSL 3), for signed offline licenses (Ed25519, HMAC-SHA256): CLazyCrypto
        // loads it at its first use, so no binary needs it to start, and Swift calls only its
        // few functions (OpenSSL's headers are read at build time alone).
        .target(name: "CLazyCrypto"),
        .target(
            name: "PaywallCore", dependencies: ["CSQLite", "CCurl", "CLazyCurl", "CLazyCrypto"],
            linkerSettings: [.linkedLibrary("_FoundationICU")]),
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
                "paywall", "PaywallWindow", "paywall-bench-baseline", "PaywallCore", "PaywallHost", "CGtk",
            ],
            exclude: [
                "Fixtures", "App/public-api.txt", "Tester/Selenium", "Designer/Accessibility", "Sidecar/sidecar_test.py",
                "Sidecar/sidecar_redeem_test.py", "Platform/openuri_portal.py",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
