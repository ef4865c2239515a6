import Foundation
import PaywallCore

/// Says something on stderr, prefixed `paywall:` (errors, warnings, advice).
package enum Diagnostics {
    package static func fail(_ message: String) {
        FileHandle.standardError.write(Data("paywall: \(message)\n".utf8))
    }

    /// Says on stderr when the user's locale has no string table.
    package static func warnOfFallback(_ strings: StringTable) {
        let resolution = strings.resolution
        if resolution.fellBack {
            Diagnostics.fail("no strings for the locale '\(resolution.requested)'; showing \(resolution.resolved) texts")
        }
    }

    /// Says on stderr which slots' products `catalog` lacks (a page of them gets the fallback
    /// paywall), or that nothing could be checked without a catalog; returns the missing ones.
    package static func checkProducts(_ slots: ProductSlots, in catalog: Catalog?) -> [MissingProduct] {
        let missing = slots.missingProducts(in: catalog)
        for product in missing { Diagnostics.fail("\(product); the fallback paywall is shown instead") }
        if catalog == nil, !slots.entries.isEmpty {
            Diagnostics.fail(
                "warning: no catalog, so the page's products are not checked and have no prices; pass --store CATALOG")
        }
        return missing
    }
}
