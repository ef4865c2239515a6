import PaywallCore

/// The `paywall` command that fixes a core error, added where the CLI prints it. The core's
/// messages say what is wrong in terms an embedding app understands; which command of this
/// tool fixes it is the CLI's to say.
package enum CommandAdvice {
    /// The error's message (as `FileError.describe` words it), then the command that fixes it
    /// when there is one.
    package static func describe(_ error: Error) -> String {
        let message = FileError.describe(error)
        return advice(for: error).map { "\(message); \($0)" } ?? message
    }

    /// The command that fixes `error`, if one does.
    package static func advice(for error: Error) -> String? {
        switch error {
        case BundleCache.CacheError.notCached: "add it with `paywall cache add URL|DIR`"
        case BundleCache.CacheError.versionConflict(let id, _): "`paywall cache remove \(id)` removes the cached one"
        case BundleCache.CacheError.unpacked, BundleSource.FetchError.unpacked: "run `paywall bundle pack` on the bundle first"
        case FakeStoreError.unknownTransaction: "list them with `paywall store transactions`"
        case is SeedUnreachable: "--user ID seeds another user; `paywall store reset` resets the store"
        case is RuntimeResources.NotFound: "`paywall install --prefix DIR` reinstalls it"
        case BundleCache.CacheError.tooLarge(_, let limit), BundleSource.FetchError.stopped(_, _, let limit?):
            "raise it with \(option(limit))"
        case is DataDirectoryError: "pass --data-dir DIR"
        case let error as SQLiteError where error.isUnwritable: "pass --data-dir DIR"
        default: nil
        }
    }

    /// The option of `cache add` and `config load` that raises `limit`.
    package static func option(_ limit: DownloadLimits.Limit) -> String {
        switch limit {
        case .maxFileBytes: "--max-file-mb"
        case .maxBundleBytes: "--max-bundle-mb"
        case .deadline: "--deadline"
        }
    }

    /// A problem `paywall validate` prints, with the command that fixes it when one does.
    package static func describe(_ problem: BundleProblem, bundle root: String) -> String {
        problem.fixedByPacking ? "\(problem.description); run `paywall bundle pack \(root)` again" : problem.description
    }
}
