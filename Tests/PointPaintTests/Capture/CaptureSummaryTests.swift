import Foundation
import Testing
@testable import PointPaint

/// What `pointpaint info` reports about a PointPaint capture.
@Suite struct CaptureSummaryTests {
    /// Found by fuzzing (for LAS files; a manifest's strings reach the report the same way): a
    /// path in a file reached the terminal with its ESC and BEL bytes, so a capture could clear
    /// the screen (`ESC[2J`) when summarised.
    @Test func theReportSpellsOutControlCharactersOfTheManifestsStrings() throws {
        let dir = TemporaryDirectory()
        try CaptureSourceTruth.synthesizer(frames: 2).write(to: dir.path, encoding: .png)
        let cloud = "c\u{1B}[2J\u{7}.ply"
        try dir.write("ply\n", to: cloud)
        let manifest = try String(contentsOfFile: dir.file("capture.json"), encoding: .utf8)
        let open = try #require(manifest.firstIndex(of: "{"))
        try dir.write(manifest.replacingCharacters(in: open ... open, with: "{\"cloud\": \"c\\u001b[2J\\u0007.ply\", "), to: "capture.json")
        let reader = try CaptureReader(path: dir.path)
        #expect(reader.manifest.cloud == cloud, "the manifest holds the raw characters")
        let summary = CaptureSummary(reader: reader)
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        let report = summary.report
        #expect(report.split(separator: "\n").contains("  - cloud: c\\u{1B}[2J\\u{7}.ply"), "\(report)")
        #expect(!report.utf8.contains(0x1B) && !report.utf8.contains(0x07))
    }
}
