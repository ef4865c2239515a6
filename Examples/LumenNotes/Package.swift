// swift-tools-version:6.0
import PackageDescription

// The example app as an app builds it: its own package, with the runtime as a dependency, so
// it can use nothing but the runtime's public API (`import PaywallHost`).
// Build and run: swift run --package-path Examples/LumenNotes
let package = Package(
    name: "LumenNotes",
    dependencies: [.package(name: "paywall", path: "../..")],
    targets: [
        .systemLibrary(name: "CGtk3", path: "CGtk3", pkgConfig: "gtk+-3.0", providers: [.apt(["libgtk-3-dev"])]),
        .executableTarget(
            name: "LumenNotesExample", dependencies: [.product(name: "PaywallHost", package: "paywall"), "CGtk3"],
            path: ".", exclude: ["data", "CGtk3"], sources: ["main.swift"]),
    ],
    swiftLanguageModes: [.v6]
)
