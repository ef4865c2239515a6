import Foundation
import PaywallCore

/// What `initialize` configures: the runtime's configuration, read from the request's params
/// with each field's name in its error, and how long the app's checkout may take.
package struct SidecarSettings {
    package var configuration: PaywallRuntime.Configuration
    /// `controller: "app"`: purchases and restores are requests to the app.
    package var appController: Bool
    /// `purchase_timeout_s` (default 900).
    package var purchaseTimeout: Double

    package static let fields: Set<String> = [
        "data_dir", "config", "catalog", "controller", "locale", "app_version", "user_id", "purchase_timeout_s", "log_level",
        "analytics",
    ]

    package init(_ params: RPCParams) throws(RPCError) {
        try params.only(Self.fields)
        let catalog = try params.string("catalog")
        let controller = try params.choice("controller", ["app", "fake_store"])
        if controller != nil, catalog == nil {
            throw .invalidParams(
                field: "catalog", "is required with controller: the products on sale (a catalog JSON or .storekit file)")
        }
        if let catalog, !FileManager.default.fileExists(atPath: catalog) {
            throw .invalidParams(field: "catalog", "no file at \(catalog); pass the path of your product catalog")
        }
        let appController = controller == "app"
        self.appController = appController
        let store: PaywallRuntime.Store =
            catalog.map { appController ? .controller(catalog: $0) : .fakeStore(catalog: $0) } ?? .none
        let locale = try params.string("locale")
        if let locale, !LocaleResolution.isWellFormed(locale) {
            throw .invalidParams(field: "locale", "must be a locale identifier such as de, pt_BR or zh_Hant; got \"\(locale)\"")
        }
        let level = try params.choice("log_level", PaywallRuntime.LogLevel.allCases.map(\.rawValue))
        let dataDirectory = try params.string("data_dir")
        if dataDirectory?.isEmpty == true {
            throw .invalidParams(field: "data_dir", "is empty; leave it out for the default data directory, or give a path")
        }
        if dataDirectory?.contains("\0") == true {
            throw .invalidParams(field: "data_dir", "contains a NUL character, which no path can hold; check how it was made")
        }
        configuration = PaywallRuntime.Configuration(
            dataDirectory: dataDirectory, store: store, config: try Self.config(params), locale: locale,
            appVersion: try params.string("app_version") ?? "", userId: try params.string("user_id"),
            logLevel: level.flatMap(PaywallRuntime.LogLevel.init(rawValue:)) ?? .warning, analytics: try Self.analytics(params))
        purchaseTimeout = try params.positiveNumber("purchase_timeout_s") ?? 900
    }

    /// `analytics`: the sinks, as the config's `"analytics"` (which it replaces).
    private static func analytics(_ params: RPCParams) throws(RPCError) -> AnalyticsSettings? {
        guard let object = try params.object("analytics") else { return nil }
        do {
            return try AnalyticsSettings(json: .object(object), path: "analytics")
        } catch {
            throw .invalidParams(field: "analytics", error.description)
        }
    }

    /// `config`: a file's path, an http(s) URL, or the config object itself.
    private static func config(_ params: RPCParams) throws(RPCError) -> PaywallRuntime.ConfigSource? {
        if let object = try? params.object("config") {
            do {
                return .value(
                    try PaywallConfig(data: Data(JSONValue.object(object).jsonText.utf8), origin: "initialize params.config"))
            } catch {
                throw .invalidParams(field: "config", "\(error)")
            }
        }
        guard let text = try params.string("config") else { return nil }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let url = URL(string: text) else { throw .invalidParams(field: "config", "not a URL: \(text)") }
            return .url(url)
        }
        return .file(text)
    }
}
