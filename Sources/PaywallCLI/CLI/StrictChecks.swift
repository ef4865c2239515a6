import Foundation
import PaywallCore

/// `--strict`: checks that otherwise only warn end the run at once, with one JSON line on
/// stdout saying what failed and exit 4: an `--eval` script that throws or does not settle
/// (`{"result":"script_error","message":...}`), a product the catalog lacks
/// (`{"result":"missing_product","slot":...,"product_id":...}`). Every later check is switched
/// on here and ends with the same exit code.
package struct StrictChecks {
    package let enabled: Bool

    package init(_ arguments: ParsedArguments) {
        enabled = arguments.has(Commands.strictOption.name)
    }

    /// Under `--strict`, the first missing product ends the run before anything is shown:
    /// prints its line and returns the exit code. Nil: nothing missing, or not strict.
    package func endOnMissingProduct(_ missing: [MissingProduct]) -> Int32? {
        guard enabled, let first = missing.first else { return nil }
        FileHandle.standardOutput.write(Data((first.jsonLine + "\n").utf8))
        return PresentationResult.strictCheckExitCode
    }
}
