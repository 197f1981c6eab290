import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint replay`: a capture into a coloured voxel cloud in a PLY file.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a capture: colour its feature points (or the points of its depth maps) from the camera frames and write the voxels as PLY, LAS or a store.")

    @OptionGroup var capture: CaptureArgument
    @OptionGroup var output: CloudOutputOptions
    @OptionGroup var replay: ReplayOptions
    @OptionGroup var shard: ShardOptions
    @OptionGroup(title: "Colour grading (folded into one colour cube, applied to every sample)") var grading: GradingOptions
    @Flag(help: "Print only the summary, no progress.")
    var quiet = false

    func run() throws {
        let grade = grading.foldedCube()
        let capture = try replay.replay(of: capture.path, format: capture.sourceFormat, grade: grade, shard: shard.shard)
        var store = replay.grid.makeStore()
        var reporter = ProgressReporter(label: "frames", total: capture.frameIndices.count)
        let start = Date()
        let statistics = try capture.run(into: &store) { progress in
            if !quiet { reporter.update(done: progress.done, detail: "\(progress.voxels) voxels") }
            return true
        }
        let seconds = Date().timeIntervalSince(start)
        let provenance = StoreProvenance(kind: .replay, source: self.capture.path, grade: grade == nil ? nil : grading.summary,
                                         frameCount: statistics.frames)
        try output.write(store.sortedVoxels(provenance: provenance))
        print(Self.summary(statistics, voxels: store.count, seconds: seconds, output: output.output))
    }

    static func summary(_ s: CaptureReplay.Statistics, voxels: Int, seconds: Double, output: String) -> String {
        var text = String(format: "replayed %d frames in %.2f s (%.0f frames/s): %d points seen, %d painted, %d skipped (%d behind the camera, %d outside the image)",
                          s.frames, seconds, Double(s.frames) / max(seconds, 1e-9), s.pointsSeen, s.painted, s.behind + s.outside, s.behind, s.outside)
        if s.depthFrames > 0 {
            let d = s.depth
            text += String(format: "; points from depth in %d frame%@: %d of %d depth pixels (%d without depth, %d below the confidence, %d too far)",
                           s.depthFrames, s.depthFrames == 1 ? "" : "s", d.points, d.considered, d.noDepth, d.lowConfidence, d.tooFar)
        }
        if s.rejected > 0 { text += String(format: ", %d refused by the store", s.rejected) }
        if s.outOfSRGB > 0 { text += String(format: ", %d (%.1f%%) outside sRGB", s.outOfSRGB, 100 * Double(s.outOfSRGB) / Double(max(s.painted, 1))) }
        text += "\nwrote \(voxels) voxels to \(output)"
        return text
    }
}
