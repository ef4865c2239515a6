import Foundation
import PaywallCore

/// The `paywall` commands and their options: the CLI's contract, documented in the Command Line
/// article (`DocumentationTests` keeps its tables in step with the help).
package enum Commands {
    package static let sizeOption = OptionSpec(name: "--size", valueName: "WxH", help: "View size in pixels (default 400x720).")
    package static let eventsOption = OptionSpec(
        name: "--events", valueName: "FILE", help: "Append every event to FILE, one JSON object per line.")

    package static let storeOption = OptionSpec(
        name: "--store", valueName: "CATALOG",
        help: "Product catalog (our JSON format or an Apple .storekit file) for the fake store.")
    package static let dataDirOption = OptionSpec(
        name: "--data-dir", valueName: "DIR",
        help: "Where the databases live (default $XDG_DATA_HOME/paywall).")
    package static let userOption = OptionSpec(name: "--user", valueName: "ID", help: "The app user id (default $anonymous).")

    package static let productsOption = OptionSpec(
        name: "--products", valueName: "SLOT=ID,...",
        help:
            "Products in the page's slots, laid over the manifest's (a slot given wins), e.g. primary=pro.yearly,secondary=pro.monthly."
    )

    package static let localeOption = OptionSpec(
        name: "--locale", valueName: "LOCALE",
        help: "The user's locale for prices, dates and texts, e.g. de_DE (default: LC_ALL/LC_MESSAGES/LANG).")
    package static let themeOption = OptionSpec(
        name: "--theme", valueName: "light|dark", help: "Light or dark appearance (default: the desktop's).")
    package static let evalOption = OptionSpec(
        name: "--eval", valueName: "JS", repeats: true,
        help:
            "Run JS in the page once it is ready; repeatable. Each runs as an async function body (it may await) after the previous one settled."
    )
    package static let timeoutOption = OptionSpec(
        name: "--timeout", valueName: "SECONDS", help: "Close after SECONDS: prints {\"result\":\"timeout\"}, exit 3.")

    package static let strictOption = OptionSpec(
        name: "--strict", valueName: nil,
        help:
            "Fail loudly, exit 4: an --eval script that throws or does not settle ends the run with {\"result\":\"script_error\",\"message\":\"...\"}; a product the catalog lacks, at once with {\"result\":\"missing_product\",\"slot\":\"...\",\"product_id\":\"...\"}."
    )
    package static let scriptTimeoutOption = OptionSpec(
        name: "--script-timeout", valueName: "SECONDS",
        help: "How long each --eval script's promise may take to settle (default 30); one that does not counts as failed.")
    package static let dialogsOption = OptionSpec(
        name: "--dialogs", valueName: "show|auto",
        help:
            "The runtime's own dialogs (purchase pending/failed, restore found nothing): show them (default) or answer them at once with OK (auto). Logged as \(EventName.dialogShown.rawValue)."
    )
    package static let automationOption = OptionSpec(
        name: "--automation", valueName: nil,
        help: "Let WebKit's WebDriver (WebKitWebDriver, for Selenium) drive the window; the driver launches paywall with it.")

    package static let presentationStyleOption = OptionSpec(
        name: "--presentation", valueName: "sheet|embedded|pushed",
        help:
            "Its own window (default), a widget in a stand-in app window, or pushed onto that window's stack (the app's back button leaves it)."
    )

    package static let conditionOption = OptionSpec(
        name: "--condition", valueName: "always|check_user_subscription",
        help: "Who is shown it: users without an active subscription (check_user_subscription, the default) or everyone (always)."
    )
    package static let entitlementOption = OptionSpec(
        name: "--entitlement", valueName: "ID", repeats: true,
        help: "Show it unless the user has every such entitlement (repeatable; the entitlements condition: a Plus -> Pro upsell)."
    )

    /// Options every presenting command takes.
    package static var presentationOptions: [OptionSpec] {
        [sizeOption, eventsOption, localeOption, themeOption, productsOption, storeOption, dataDirOption, userOption]
    }

    package static let preview = CommandSpec(
        name: "preview", summary: "Open a bundle in a window and reload it whenever one of its files changes.",
        positionals: ["BUNDLE"], options: presentationOptions + [dialogsOption, automationOption],
        discussion: """
            The window closes when the page sends `close` or the window is closed. Without --store, prices come
            from the bundle manifest's preview_store catalog.
            """)

    package static let snapshot = CommandSpec(
        name: "snapshot", summary: "Render a bundle once it is ready and write a PNG of the view.",
        positionals: ["BUNDLE"],
        options: [
            OptionSpec(name: "--out", valueName: "FILE.png", help: "Where to write the PNG (this or --out-dir is required).")
        ] + SnapshotMatrixRequest.options + presentationOptions + [
            OptionSpec(
                name: strictOption.name, valueName: nil,
                help:
                    "A product the catalog lacks ends the run at once with {\"result\":\"missing_product\",\"slot\":\"...\",\"product_id\":\"...\"}, exit 4 (nothing written)."
            )
        ],
        discussion: """
            Ready means: the page's ping and its load event, then images and web fonts loaded, CSS
            animations frozen and two frames painted. When no ping comes within 2 s of the load, the load
            alone counts. With --out-dir, every combination renders in this one process; --compare exits 5 when an image
            changed or a baseline image is missing (see report.json in DIR).
            """)

    package static let present = CommandSpec(
        name: "present", summary: "Present a paywall; print one JSON line with the result when it closes.",
        positionals: ["[BUNDLE]"],
        options: presentationOptions + [
            OptionSpec(
                name: "--placement", valueName: "NAME",
                help: "Present what the config's campaigns decide for placement NAME (instead of BUNDLE)."),
            OptionSpec(
                name: "--config", valueName: "FILE|URL", help: "With --placement: the config (default: the cached config)."),
            evalOption, timeoutOption,
            OptionSpec(
                name: "--load-timeout", valueName: "SECONDS",
                help: "Offer Retry and Close when the page is not ready by then (default 5)."),
            presentationStyleOption, conditionOption, entitlementOption, strictOption, scriptTimeoutOption, dialogsOption,
            automationOption,
        ],
        discussion: """
            Prints exactly one line on stdout and exits 0: {"result":"declined"},
            {"result":"purchased","product_id":"..."} (also when a purchase kept the paywall open and it closed later),
            {"result":"restored"}, or {"result":"skipped","reason":"subscribed"} when the user already has access
            (nothing is shown; with --placement also "holdout" and "noAudienceMatch", as paywall placement decides); {"result":"timeout"} after --timeout (exit 3); with --strict,
            {"result":"script_error","message":"..."} when an --eval script throws or does not settle (exit 4), and
            {"result":"missing_product","slot":"...","product_id":"..."} at once when a slot's product is not in the catalog (exit 4).
            With --store, purchases and restores go to the fake store. With --presentation embedded or pushed,
            the paywall is a widget in a stand-in app window; closing that window (or, pushed, its back button)
            declines as the paywall's own close would.
            """)

    package static let install = CommandSpec(
        name: "install", summary: "Install the paywall executable and its resources under a prefix.",
        positionals: [],
        options: [OptionSpec(name: "--prefix", valueName: "DIR", help: "Install prefix (default /usr/local).")],
        discussion: """
            Writes PREFIX/bin/paywall, PREFIX/libexec/paywall/paywall-window (the executable of the commands that \
            open windows) and PREFIX/share/paywall/{web,templates,locales}.
            """)

    package static let customerCenter = CommandSpec(
        name: "customer-center", summary: "Show the customer center: the user's subscriptions, restore, cancel, refund, support.",
        positionals: [],
        options: [
            Commands.storeOption, Commands.dataDirOption, Commands.userOption,
            OptionSpec(
                name: "--config", valueName: "FILE",
                help: "Customer center configuration (JSON; see the Customer Center article). Default: the built-in one."),
            Commands.localeOption, Commands.themeOption, Commands.eventsOption, Commands.evalOption, Commands.timeoutOption,
            OptionSpec(
                name: "--snapshot", valueName: "FILE.png",
                help: "Render off screen, run the --eval scripts, write a PNG of the screen they lead to, and exit."),
            OptionSpec(
                name: "--app-version", valueName: "VERSION", help: "The app's version, for the update banner and support emails."),
            Commands.presentationStyleOption,
            Commands.sizeOption,
            Commands.strictOption, Commands.scriptTimeoutOption, Commands.dialogsOption, Commands.automationOption,
        ] + SnapshotMatrixRequest.options,
        discussion: """
            Prints exactly one line on stdout: {"result":"closed"} when the user closes it (exit 0; with
            --presentation pushed, the stand-in app's back button closes it),
            {"result":"timeout"} after --timeout (exit 3), or {"path":"...","result":"snapshot"} once --snapshot is
            written ({"message":"...","result":"error"}, exit 1, if it cannot be). With --strict, an --eval script that
            throws or does not settle ends the run with {"message":"...","result":"script_error"} (exit 4), and
            --snapshot then writes nothing; a change-plan product id of --config that --store lacks ends it at once with
            {"result":"missing_product","slot":"management/PATH_ID","product_id":"..."} (exit 4). With --store, its paths act on the fake store's purchases of --user.
            With --out-dir, renders the screen the --eval scripts lead to for every --locales x --themes x --sizes
            combination, as `paywall snapshot` does, and prints {"path":"DIR","result":"snapshot"} (exit 5 when
            --compare found differences).
            """)

    package static let bench = CommandSpec(
        name: "bench",
        summary: "Measure presenting, the bridge, status reads, serving, memory and snapshot matrices; print medians.",
        positionals: [],
        options: [
            OptionSpec(name: "--runs", valueName: "N", help: "Runs per measurement (at least 20, the default)."),
            OptionSpec(
                name: "--soak-warmup", valueName: "N",
                help: "Present/dismiss cycles before the soak's memory is first read (default 100)."),
            OptionSpec(
                name: "--soak-cycles", valueName: "N",
                help: "Present/dismiss cycles the soak's memory growth is measured over (at least 1, default 500)."),
            OptionSpec(name: "--json", valueName: nil, help: "Print one JSON object of medians."),
        ],
        discussion: "Needs a display (run under xvfb-run -a on a server).")

    package static let serve = CommandSpec(
        name: "serve", summary: "Serve the app API over JSON-RPC 2.0 on stdin/stdout, for apps in any language.",
        positionals: [], options: [],
        discussion: """
            One JSON object per line each way. Stdout carries protocol lines only (logs go to stderr). Start with
            initialize; see the From Any Language article for every method, notification and error code. Closing
            stdin shuts it down (a purchase still running settles first) and it exits 0.
            """)

    package static let all = [
        preview, snapshot, present, customerCenter, serve, StoreCommand.spec, StatusCommand.spec, RedeemCommand.spec,
        LicenseCommand.spec,
        BundleCommands.pack,
        BundleCommands.validate, VariablesCommand.spec, CacheCommand.spec, ConfigCommand.spec, AnalyticsCommand.spec,
        NewCommand.spec, TemplatesCommand.spec, PlacementCommand.spec, PlacementCommand.assign, ReportCommand.spec, bench,
        install,
    ]

    /// The commands that open a window: run by the `paywall-window` executable, which links
    /// GTK and WebKit; `paywall` hands them over with `exec`, so every other command starts
    /// without loading either.
    package static let windowCommands: Set<String> = [
        preview.name, snapshot.name, present.name, customerCenter.name, serve.name,
        bench.name,
    ]

    package static let mainHelp = """
        USAGE: paywall <command> [options]

        Show paywalls from local web bundles in a GTK/WebKitGTK window.

        COMMANDS:
        \(all.map { "  " + $0.name.padding(toLength: 16, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run 'paywall <command> --help' for a command's options; 'paywall --version' prints
        the runtime's version.

        EXIT CODES:
          0    done
          1    failure (the message on stderr says what and how to fix it)
          2    usage error
          3    --timeout ended the run
          4    a --strict check failed (an --eval script threw or did not settle, a product is not in the catalog)
          5    a --compare found differences
          128+N  ended by signal N (143 for SIGTERM)
        """

    /// `--timeout SECONDS`, if given.
    package static func timeout(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> Double? {
        guard let text = arguments.value("--timeout") else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds < 31_536_000 else {
            throw .usage("--timeout must be a positive number of seconds; got '\(text)'", command)
        }
        return seconds
    }

    /// `--dialogs show|auto` (default show).
    package static func dialogs(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> DialogPolicy {
        try choice(arguments, dialogsOption, words: "auto or show", default: .show, command)
    }

    /// The value of an option that names one of `T`'s cases (`words` lists them for the error).
    private static func choice<T: RawRepresentable>(
        _ arguments: ParsedArguments, _ option: OptionSpec, words: String,
        default value: T, _ command: CommandSpec
    ) throws(CLIError) -> T
    where T.RawValue == String {
        guard let text = arguments.value(option.name) else { return value }
        guard let chosen = T(rawValue: text) else { throw .usage("\(option.name) must be \(words); got '\(text)'", command) }
        return chosen
    }

    /// `--condition` and `--entitlement`: who is shown the paywall; nil when neither is given.
    package static func condition(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> PresentationCondition?
    {
        let entitlements = arguments.all(entitlementOption.name)
        guard let name = arguments.value(conditionOption.name) else {
            return entitlements.isEmpty ? nil : .entitlements(entitlements)
        }
        guard ["always", "check_user_subscription", "entitlements"].contains(name) else {
            throw .usage(
                "--condition must be always or check_user_subscription (or entitlements, with --entitlement ID); got '\(name)'",
                command)
        }
        guard entitlements.isEmpty || name == "entitlements" else {
            throw .usage("--entitlement goes with the entitlements condition, not --condition \(name)", command)
        }
        guard let condition = PresentationCondition(name: name, entitlements: entitlements) else {
            throw .usage("--condition entitlements needs at least one --entitlement ID", command)
        }
        return condition
    }

    /// `--locale`, which must be a locale identifier (a garbage value in the environment falls
    /// back to English instead: the user did not type it here).
    package static func locale(_ arguments: ParsedArguments, command: CommandSpec) throws(CLIError) -> String {
        guard let value = arguments.value("--locale") else {
            return SystemLocale.identifier(environment: ProcessInfo.processInfo.environment)
        }
        guard LocaleResolution.isWellFormed(value) else {
            throw .usage("--locale must be a locale identifier such as de, pt_BR or zh_Hant; got '\(value)'", command)
        }
        return value
    }

    /// `--presentation`: how the page is shown (default: its own window).
    package static func presentationStyle(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError)
        -> PresentationStyle
    {
        try choice(arguments, presentationStyleOption, words: "sheet, embedded or pushed", default: .sheet, command)
    }

    package static func size(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> ViewSize {
        guard let text = arguments.value("--size") else { return .standard }
        guard let size = ViewSize(parsing: text) else {
            throw .usage(
                "--size must be WIDTHxHEIGHT in pixels, each side from 1 to \(ViewSize.maxSide), e.g. 400x720; got '\(text)'",
                command)
        }
        return size
    }

    /// The PNG file `option` names, checked before anything renders: its folder must exist.
    package static func outputFile(_ arguments: ParsedArguments, _ option: String) throws(CLIError) -> String? {
        guard let path = arguments.value(option) else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw .failure("cannot write \(path) (\(option)): the folder \(folder) does not exist; create it first")
        }
        guard isDirectory.boolValue else {
            throw .failure("cannot write \(path) (\(option)): \(folder) is a file, not a folder")
        }
        return path
    }
}
