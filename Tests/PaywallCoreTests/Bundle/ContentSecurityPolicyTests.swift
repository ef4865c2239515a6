import XCTest

@testable import PaywallCore

final class ContentSecurityPolicyTests: XCTestCase {
    /// The sources of one directive of a policy header, or nil when the directive is absent.
    private func sources(of directive: String, in header: String) -> [String]? {
        for part in header.split(separator: ";") {
            let tokens = part.split(separator: " ").map(String.init)
            if tokens.first == directive { return Array(tokens.dropFirst()) }
        }
        return nil
    }

    func testDefaultPolicyBlocksRemoteScripts() throws {
        let header = ContentSecurityPolicy().headerValue
        let script = try XCTUnwrap(sources(of: "script-src", in: header))
        XCTAssertEqual(script, ["'self'", "'unsafe-inline'"])
        for source in script {
            XCTAssertFalse(source.hasPrefix("http"), source)
            XCTAssertFalse(source.contains("*"), source)
        }
        let defaults = try XCTUnwrap(sources(of: "default-src", in: header))
        XCTAssertEqual(defaults, ["'self'"])
    }

    func testDefaultPolicyBlocksFramesObjectsAndForms() throws {
        let header = ContentSecurityPolicy().headerValue
        XCTAssertEqual(sources(of: "frame-src", in: header), ["'none'"])
        XCTAssertEqual(sources(of: "object-src", in: header), ["'none'"])
        XCTAssertEqual(sources(of: "form-action", in: header), ["'none'"])
        XCTAssertEqual(sources(of: "connect-src", in: header), ["'self'"])
    }

    func testAllowedOriginsAppearInScriptSrc() throws {
        let policy = ContentSecurityPolicy(allowedOrigins: ["https://js.stripe.com", "https://cdn.example.com"])
        let header = policy.headerValue
        XCTAssertEqual(
            sources(of: "script-src", in: header),
            ["'self'", "'unsafe-inline'", "https://js.stripe.com", "https://cdn.example.com"])
        XCTAssertEqual(
            sources(of: "connect-src", in: header), ["'self'", "https://js.stripe.com", "https://cdn.example.com"])
        // Frames stay blocked even with extra origins.
        XCTAssertEqual(sources(of: "frame-src", in: header), ["'none'"])
    }

    /// Origins that reach the policy without a manifest (an app's own code) cannot open it to every host either.
    func testOriginsThatCoverEveryHostOrInjectADirectiveAreLeftOut() throws {
        let policy = ContentSecurityPolicy(allowedOrigins: [
            "https://*", "https://a.com; script-src *", "https://cdn.example.com",
        ])
        XCTAssertEqual(
            sources(of: "script-src", in: policy.headerValue), ["'self'", "'unsafe-inline'", "https://cdn.example.com"])
    }
}
