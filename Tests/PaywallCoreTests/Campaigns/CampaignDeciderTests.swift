import Foundation
import XCTest

@testable import PaywallCore

/// Deciding placements through the runtime: audiences in order, occurrence caps on the fake
/// store's clock, kept assignments through percentage changes, a removed variant reassigned,
/// the anonymous install's variant kept through the first identify, refused campaigns reported.
final class CampaignDeciderTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("CampaignDeciderTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private var catalog: String { TestPaths.repository.appendingPathComponent("templates/classic/store.json").path }
    private let german: [String: JSONValue] = ["deviceLanguageCode": "de", "daysSinceInstall": 0]

    @MainActor
    private func runtime(
        _ configText: String = CampaignConfigTests.issueExample, user: String? = nil, events: EventDispatcher = EventDispatcher()
    )
        throws -> PaywallRuntime
    {
        let config = try PaywallConfig(data: Data(configText.utf8), origin: "c.json")
        return try PaywallRuntime(
            .init(
                dataDirectory: dir.path, store: .fakeStore(catalog: catalog), config: .value(config), userId: user,
                logLevel: .none),
            events: events)
    }

    @MainActor
    private func decide(_ runtime: PaywallRuntime, device: [String: JSONValue]? = nil) async throws
        -> (CampaignDecider, CampaignDecider.Decision)
    {
        let found = await runtime.campaignDecider(device: device ?? german, params: [:])
        let decider = try XCTUnwrap(found, "the config is loaded")
        return (decider, decider.decide(placement: "export_pdf"))
    }

    @MainActor
    func testAudiencesInOrderAndTheOutcomeVocabulary() async throws {
        let runtime = try runtime(user: "alice")
        let (_, german) = try await decide(runtime)
        XCTAssertEqual(
            german.outcome,
            PlacementOutcome(
                result: .paywall, paywall: "upsell_a", campaignId: "launch", audienceId: "de_new", experimentId: "exp1",
                variantId: "a"))
        let (_, english) = try await decide(runtime, device: ["deviceLanguageCode": "en", "daysSinceInstall": 0])
        XCTAssertEqual(english.outcome.audienceId, "everyone")
        XCTAssertEqual(english.audiences.map(\.matched), [false, true])
        let (decider, _) = try await decide(runtime)
        XCTAssertEqual(decider.decide(placement: "nowhere").outcome.result, .placementNotFound)
        let held = try await self.decide(try self.runtime(user: "u1")).1
        XCTAssertEqual(held.outcome.result, .holdout)
    }

    /// No audience matching is its own outcome (a gated feature runs, no paywall), not a
    /// missing placement: the config lists the placement, its audiences just do not take the user.
    @MainActor
    func testNoAudienceMatchingIsNoAudienceMatch() async throws {
        let config = CampaignConfigTests.issueExample.replacingOccurrences(
            of: #"{"id": "everyone", "experiment""#, with: #"{"id": "everyone", "filter": "user.beta == true", "experiment""#)
        XCTAssertNotEqual(config, CampaignConfigTests.issueExample, "the example's catch-all audience is narrowed")
        let (_, english) = try await decide(
            try runtime(config, user: "alice"), device: ["deviceLanguageCode": "en", "daysSinceInstall": 0])
        XCTAssertEqual(english.outcome.result, .noAudienceMatch)
        XCTAssertEqual(english.outcome.campaignId, "launch")
        XCTAssertNil(english.outcome.paywall)
        XCTAssertEqual(english.audiences.map(\.matched), [false, false])
        XCTAssertEqual(english.outcome.triggerFireParams(placement: "export_pdf")["result"], "no_audience_match")
    }

    @MainActor
    func testTheCapCountsOnTheFakeStoresClock() async throws {
        let runtime = try runtime(user: "alice")
        for _ in 0..<3 {
            let (decider, decision) = try await decide(runtime)
            XCTAssertEqual(decision.outcome.audienceId, "de_new")
            runtime.confirm(decision, by: decider)
        }
        let (_, capped) = try await decide(runtime)
        XCTAssertEqual(capped.outcome.audienceId, "everyone", "three of three within 1440 minutes")
        XCTAssertEqual(capped.audiences.first?.cap?.count, 3)
        try runtime.fakeStore!.advance(ClockAdvance(value: 1441, unit: .minute))
        let (_, later) = try await decide(runtime)
        XCTAssertEqual(later.outcome.audienceId, "de_new", "the interval passed on the store's clock")
    }

    @MainActor
    func testAKeptAssignmentSurvivesAPercentageChangeAndARemovedVariantIsReassigned() async throws {
        var runtime = try runtime(user: "alice")
        let (decider, decision) = try await decide(runtime)
        XCTAssertEqual(decision.outcome.variantId, "a")
        runtime.confirm(decision, by: decider)
        // a shrinks to 10%: alice's bucket (2071) now falls in b, but her kept variant stays.
        let shrunk = CampaignConfigTests.issueExample.replacingOccurrences(
            of: #""paywall": "upsell_a", "percentage": 45"#, with: #""paywall": "upsell_a", "percentage": 10"#
        ).replacingOccurrences(of: #""paywall": "upsell_b", "percentage": 45"#, with: #""paywall": "upsell_b", "percentage": 80"#)
        XCTAssertEqual(try PaywallConfig(data: Data(shrunk.utf8), origin: "c").problems, [])
        runtime = try self.runtime(shrunk, user: "alice")
        let (_, kept) = try await decide(runtime)
        XCTAssertEqual(kept.outcome.variantId, "a")
        XCTAssertEqual(kept.assignment, "kept")
        // a removed: reassigned by bucket, reported.
        let removed = CampaignConfigTests.issueExample.replacingOccurrences(
            of: #"{"id": "a", "paywall": "upsell_a", "percentage": 45},"#, with: ""
        ).replacingOccurrences(of: #""paywall": "upsell_b", "percentage": 45"#, with: #""paywall": "upsell_b", "percentage": 90"#)
        let events = EventDispatcher()
        var reported: [PaywallEvent] = []
        _ = events.observe { if $0.name == .assignmentReassign { reported.append($0) } }
        runtime = try self.runtime(removed, user: "alice", events: events)
        let (reassigner, reassigned) = try await decide(runtime)
        XCTAssertEqual(reassigned.reassignedFrom, "a")
        XCTAssertEqual(reassigned.outcome.variantId, "b")
        runtime.confirm(reassigned, by: reassigner)
        XCTAssertEqual(reported.map { $0.params["previous_variant_id"] }, ["a"])
        let again = try await decide(runtime).1
        XCTAssertEqual(again.assignment, "kept")
    }

    @MainActor
    func testTheAnonymousInstallsVariantIsKeptThroughTheFirstIdentify() async throws {
        let runtime = try runtime()
        let (decider, anonymous) = try await decide(runtime)
        XCTAssertTrue(decider.userKey.hasPrefix("install:"), decider.userKey)
        runtime.confirm(anonymous, by: decider)
        try runtime.identify("zed")
        let (_, identified) = try await decide(runtime)
        XCTAssertEqual(identified.outcome.variantId, anonymous.outcome.variantId)
        XCTAssertEqual(identified.assignment, "kept")
    }

    @MainActor
    func testConfirmAllAssignmentsKeepsEveryExperimentAndGetPresentationResultKeepsNothing() async throws {
        let runtime = try runtime(user: "u5")
        _ = try await decide(runtime)
        XCTAssertNil(runtime.assignmentStore()?.assignment(userKey: "u5", experiment: "exp1"), "deciding confirms nothing")
        let confirmed = try await runtime.confirmAllAssignments()
        XCTAssertEqual(confirmed.map(\.experimentId), ["exp1", "exp0"])
        XCTAssertEqual(runtime.assignmentStore()?.assignment(userKey: "u5", experiment: "exp1")?.variant, "b")
    }

    @MainActor
    func testARefusedCampaignIsReported() async throws {
        let events = EventDispatcher()
        var refused: [PaywallEvent] = []
        _ = events.observe { if $0.name == .campaignRefused { refused.append($0) } }
        let broken = CampaignConfigTests.issueExample.replacingOccurrences(
            of: "device.daysSinceInstall < 7", with: "device.daysSinceInstall <")
        _ = try runtime(broken, events: events)
        XCTAssertEqual(refused.map { $0.params["path"] }, ["campaigns[0].audiences[0].filter"])
        XCTAssertEqual(refused.first?.params["campaign_id"], "launch")
        XCTAssertEqual(refused.first?.params["reason"], "1:63: unexpected end of filter")
    }
}
