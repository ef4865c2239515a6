/// `--strict`: checks that otherwise only warn end the run at once, with one JSON line on
/// stdout saying what failed and exit 4. Today: an `--eval` script that throws or does not
/// settle (`{"result":"script_error","message":...}`). Every later check (a missing product)
/// is switched on here and ends with the same exit code.
package struct StrictChecks {
    package let enabled: Bool

    package init(_ arguments: ParsedArguments) {
        enabled = arguments.has(Commands.strictOption.name)
    }
}
