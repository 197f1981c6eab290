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

    /// The wide-colour count skipped, without a word, any frame it could not sample (`try?`), so
    /// a capture whose image failed to decode (only its header is checked) read as sound, with a
    /// count over fewer frames than it said.
    @Test func aFrameTheWideColourCountCannotSampleIsAProblem() throws {
        var options = CaptureSourceTruth.synthesizer(frames: 3).options
        options.primaries = .displayP3
        let dir = TemporaryDirectory()
        try CaptureSynthesizer(options: options).write(to: dir.path, encoding: .png)
        let sound = CaptureSummary(reader: try CaptureReader(path: dir.path))
        #expect(sound.problems.isEmpty && sound.unsampledFrames.isEmpty, "\(sound.problems)")
        #expect(!sound.report.contains("could not be sampled"))
        // Cut the end off frame 1's luma plane: its header still checks out, its data does not.
        let reader = try CaptureReader(path: dir.path)
        guard case .planes(let y, _, _) = reader.manifest.frames[1].image else {
            Issue.record("expected PNG planes")
            return
        }
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file(y))))
        try PNGFixture.write(Array(whole.prefix(whole.count - 30)), to: dir.file(y))
        let summary = CaptureSummary(reader: reader)
        #expect(summary.unsampledFrames == [1])
        #expect(summary.problems.count == 1)
        let problem = try #require(summary.problems.first)
        #expect(problem.hasPrefix("left out of the wide-colour count: ") && problem.contains(y) && problem.contains("frame 1"), "\(problem)")
        // The count covers the other frames, exactly as a replay samples them.
        let replay = try CaptureReplay(source: reader)
        let counted = try [0, 2].map { try replay.samples(ofFrame: $0) }
        let wideColor = try #require(summary.wideColor)
        #expect(wideColor.samples == counted.reduce(0) { $0 + $1.colors.count } && wideColor.samples > 0)
        #expect(wideColor.outsideSRGB == counted.reduce(0) { $0 + $1.statistics.outOfSRGB })
        let report = summary.report
        #expect(report.contains("; 1 of 3 frames could not be sampled (see problems)") && report.contains("problems:     1"), "\(report)")
    }
}
