import PaywallCore

/// What `--compare` found, image by image: written as `report.json`.
package struct SnapshotReport: Equatable, Sendable {
    package enum Status: String, Sendable {
        case same, changed, new, missing
    }

    package struct Entry: Equatable, Sendable {
        let name: String
        let status: Status
        /// Nil when there was nothing to compare with (`new`, `missing`).
        let difference: PixelDifference?

        init(name: String, status: Status, difference: PixelDifference?) {
            self.name = name
            self.status = status
            self.difference = difference
        }

        package var diffFileName: String { name + SnapshotReport.diffSuffix }
    }

    package static let diffSuffix = ".diff.png"

    package var entries: [Entry]

    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// An image changed, or the baseline has one this run did not render (a new image does not count).
    package var hasDifferences: Bool { entries.contains { $0.status == .changed || $0.status == .missing } }

    package func json(_ comparison: SnapshotComparison) -> JSONValue {
        let images: [JSONValue] = entries.map { entry in
            var object: [String: JSONValue] = [
                "name": .string(entry.name), "status": .string(entry.status.rawValue),
                "differing_pixels": entry.difference.map { .number(Double($0.differingPixels)) } ?? .null,
                "max_channel_delta": entry.difference.map { .number(Double($0.maxChannelDelta)) } ?? .null,
            ]
            if entry.status == .changed { object["diff"] = .string(entry.diffFileName) }
            return .object(object)
        }
        return [
            "images": .array(images), "tolerance": .number(Double(comparison.tolerance)),
            "max_diff_ratio": .number(comparison.maxDiffRatio),
        ]
    }

    /// `2 changed, 1 missing, 17 same, 0 new`.
    package var summary: String {
        [Status.changed, .missing, .same, .new].map { status in
            "\(entries.filter { $0.status == status }.count) \(status.rawValue)"
        }.joined(separator: ", ")
    }

    package func entry(named name: String) -> Entry? { entries.first { $0.name == name } }
}
