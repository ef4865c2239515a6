import Foundation
import XCTest

/// A catalog that sells one product (an app sold with one license) shown with each shipped
/// template: the template's other slots are dropped (`--products secondary=`), the page hides
/// what they would sell and shows the one product with its price; without the drop, the
/// result says which slots' products are missing.
final class OneProductCatalogTests: EndToEndTestCase {
    private var catalog: URL { workDir.appendingPathComponent("pdfapp.json") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try #"""
        {"products": [{"id": "pdfapp.pro", "display_name": "PDF App Pro", "description": "Every PDF App feature, for good",
                       "price": "49.00", "currency": "USD", "kind": "non_consumable", "entitlements": ["pro"]}]}
        """#.write(to: catalog, atomically: true, encoding: .utf8)
    }

    private func template(_ name: String) -> String {
        EndToEndTestCase.packageRoot.appendingPathComponent("templates/\(name)").path
    }

    /// `primary=pdfapp.pro` and every other slot of the template's manifest dropped.
    private func products(_ name: String) throws -> String {
        let manifest = try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: template(name)).appendingPathComponent("manifest.json")))
                as? [String: Any])
        let slots = try XCTUnwrap(manifest["products"] as? [String: String]).keys.sorted()
        return (["primary=pdfapp.pro"] + slots.filter { $0 != "primary" }.map { "\($0)=" }).joined(separator: ",")
    }

    /// What a one-time product's page says in English and in German (its price, as the locale
    /// writes it, and that it is paid once), and what it must not say there: no period after the
    /// price, no billing or cancelling, no plan named for a period, no trial.
    private static let wording: [(locale: String, price: String, oneTime: String, never: [String])] = [
        (
            "en_US", "$49.00", "One payment. No subscription.",
            ["/", "billed", "cancel anytime", "yearly", "year", "month", "trial"]
        ),
        (
            "de_DE", "49,00\u{a0}$", "Einmalige Zahlung. Kein Abo.",
            ["/", "abgerechnet", "kündbar", "jährlich", "jahr", "monat", "test"]
        ),
    ]

    func testEachTemplateShowsTheOneProductWithItsOtherSlotsDropped() throws {
        for name in TemplateGalleryTests.gallery {
            let products = try products(name)
            for (locale, price, oneTime, never) in Self.wording {
                // Visible text only: the price is on screen with the one-time wording, no {{ }} is
                // left, nothing of a dropped slot shows or can be chosen, no badge is empty and
                // nothing speaks of a subscription.
                let check = """
                    while (!Paywall.variables) await new Promise(r => setTimeout(r, 20));
                    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                    const text = document.body.innerText;
                    if (!text.includes(\(try json(price)))) throw new Error('no price: ' + text);
                    if (!text.includes(\(try json(oneTime)))) throw new Error('no one-time wording: ' + text);
                    if (text.includes('{{')) throw new Error('raw variables: ' + text);
                    for (const word of \(try json(never)))
                      if (text.toLowerCase().includes(word)) throw new Error('"' + word + '" on a one-time page: ' + text);
                    for (const e of document.querySelectorAll('[data-product-slot]'))
                      if (e.getAttribute('data-product-slot') !== 'primary' && e.offsetParent) throw new Error('dropped slot shown');
                    for (const e of document.querySelectorAll('input'))
                      if (e.value !== 'primary' && !e.disabled && e.getClientRects().length) throw new Error('dropped ' + e.value + ' can be chosen');
                    for (const e of document.querySelectorAll('.badge, .save, [data-savings]'))
                      if (e.offsetParent && !e.innerText.trim()) throw new Error('empty badge shown');
                    const primary = [...document.querySelectorAll('[data-product-slot=primary]')];
                    if (primary.length && !primary.some(e => e.offsetParent)) throw new Error('the product is hidden');
                    Paywall.close();
                    """
                let data = workDir.appendingPathComponent("data-\(name)").path
                let shown = try PaywallProcess.run(
                    [
                        "present", template(name), "--strict", "--store", catalog.path, "--data-dir", data, "--products",
                        products, "--timeout", "60", "--locale", locale, "--eval", check,
                    ], in: workDir, timeout: 90)
                XCTAssertEqual(shown.stdout, "{\"result\":\"declined\"}\n", "\(name) \(locale): \(shown.stderr)")
                XCTAssertEqual(shown.status, 0, "\(name) \(locale): \(shown.stderr)")
            }

            let png = workDir.appendingPathComponent("\(name).png")
            let shot = try PaywallProcess.run(
                [
                    "snapshot", template(name), "--strict", "--store", catalog.path, "--products", products, "--out",
                    png.path, "--size", "360x640", "--locale", "en_US",
                ], in: workDir, timeout: 90)
            XCTAssertEqual(shot.status, 0, "\(name): \(shot.stderr)")
            let image = try PNGImage(path: png.path)
            XCTAssertEqual([image.width, image.height], [360, 640], name)
        }
    }

    /// `value` as a JavaScript literal.
    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// `classic` describes a one-time product with its lifetime plan's texts, not a yearly plan's.
    func testClassicSellsAOneTimeProductAsOne() throws {
        let check = """
            while (!Paywall.variables) await new Promise(r => setTimeout(r, 20));
            const card = document.querySelector('[data-product-slot=primary]').innerText;
            for (const text of ['Lifetime', 'Pay once, yours forever', '$49.00', 'one-time'])
              if (!card.includes(text)) throw new Error('no ' + text + ': ' + card);
            for (const text of ['Yearly', 'Billed', 'Save', '/month'])
              if (card.includes(text)) throw new Error(text + ': ' + card);
            if (document.querySelector('[data-note-for=primary]').innerText !== 'One payment. No subscription.')
              throw new Error('note: ' + document.querySelector('[data-note-for=primary]').innerText);
            Paywall.close();
            """
        let shown = try PaywallProcess.run(
            [
                "present", template("classic"), "--strict", "--store", catalog.path, "--products", try products("classic"),
                "--timeout", "60", "--locale", "en_US", "--eval", check,
            ], in: workDir, timeout: 90)
        XCTAssertEqual(shown.stdout, "{\"result\":\"declined\"}\n", shown.stderr)
    }

    /// Without the drops the template's other slots name products this catalog lacks: the
    /// result's `problem` lists them and stderr says so once; the fallback paywall is shown.
    func testMissingProductsAreTheResultsProblem() throws {
        let shown = try PaywallProcess.run(
            [
                "present", template("comparison"), "--store", catalog.path, "--products", "primary=pdfapp.pro",
                "--timeout", "60", "--eval", "Paywall.close()",
            ], in: workDir, timeout: 90)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(
            shown.stdout,
            #"{"result":"declined","problem":{"kind":"missing_products","slots":[{"product_id":"lumen.pro.monthly","#
                + #""reason":"not_in_catalog","slot":"secondary"}]}}"# + "\n")
        XCTAssertEqual(
            shown.stderr.components(separatedBy: "lumen.pro.monthly is not in the catalog").count - 1, 1, shown.stderr)
    }
}
