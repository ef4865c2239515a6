import CWebKit
import PaywallCore
import XCTest

@testable import PaywallHost

/// The process's web context keeps no memory cache of closed pages: each page has a host of
/// its own, so nothing cached could be reused, and a long-running process grew by it.
final class WebRuntimeTests: XCTestCase {
    @MainActor
    func testTheContextCachesNoClosedPages() async throws {
        guard try startToolkitOnDisplay() else { return }
        let runtime = try WebRuntime(resources: RuntimeResources(root: packageRoot))
        XCTAssertEqual(webkit_web_context_get_cache_model(runtime.context), WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER)
    }
}
