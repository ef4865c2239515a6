import Foundation

/// Builds the JavaScript that delivers host events to the page: `window.paywall.accept64(BASE64)`
/// with standard base64 of a JSON array of events. It calls whatever `window.paywall` is there
/// at that moment, so a page that brings its own Superwall page script receives the events too.
package enum PageDelivery {
    package static func script(for events: [JSONValue]) -> String {
        let base64 = Data(JSONValue.array(events).jsonText.utf8).base64EncodedString()
        return "window.paywall && typeof window.paywall.accept64 === 'function' && window.paywall.accept64('\(base64)');"
    }
}
