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
    @Option(help: "Even out exposure and white balance between frames: auto solves one RGB gain per frame (linear light) from voxels several frames see, in a first pass over the frames.")
    var exposure: ExposureMode = .off
    @Flag(help: "Print only the summary, no progress.")
    var quiet = false

    func validate() throws {
        // Gains solved over one shard's frames would differ from the whole capture's, and the
        // shards' stores would no longer merge into the whole replay.
        if exposure == .auto, shard.shard != nil {
            throw ValidationError("--exposure auto needs the whole capture's frames to solve its gains; it cannot be combined with --shard")
        }
    }

    func run() throws {
        let grade = grading.foldedCube()
        var capture = try replay.replay(of: capture.path, format: capture.sourceFormat, grade: grade, shard: shard.shard)
        if exposure == .auto {
            var options = capture.options
            options.gains = try capture.solveExposure(voxelSize: replay.grid.size)
            capture = try CaptureReplay(source: capture.source, options: options)
        }
        var store = replay.grid.makeStore(origin: capture.origin)
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
        if let gains = capture.options.gains { print(gains.summary) }
        if let note = Self.noPointsNote(statistics, points: capture.options.points, cloudFile: capture.source.cloudFile) {
            FileHandle.standardError.write(Data("note: \(self.capture.path): \(note)\n".utf8))
        }
    }

    /// What to do when frames were replayed but none gave a point (a recording without feature
    /// points or depth maps, such as a NeRF dataset, or depth maps none of whose pixels passed
    /// the confidence and distance limits), or nil when some did.
    static func noPointsNote(_ s: CaptureReplay.Statistics, points: CaptureReplay.PointSource, cloudFile: String?) -> String? {
        guard s.frames > 0, s.pointsSeen == 0 else { return nil }
        if s.depthFrames > 0 {
            // Depth maps were read, and every pixel of them was left out.
            let d = s.depth
            return "nothing to colour: no depth pixel made a point (\(d.noDepth) without depth, \(d.lowConfidence) below --min-confidence, "
                + "\(d.tooFar) beyond --max-depth); lower --min-confidence or raise --max-depth"
        }
        let why = switch points {
        case .auto: "no frame has feature points or a depth map"
        case .features: "no frame has feature points (--points features)"
        case .depth: "no frame has a depth map (--points depth)"
        case .cloud: "the recording's own cloud holds no points"
        }
        let remedy = cloudFile != nil && points != .cloud
            ? "--points cloud replays the recording's own cloud"
            : "pointpaint paint CLOUD CAPTURE colours an existing cloud from these frames"
        return "nothing to colour: \(why); \(remedy)"
    }

    static func summary(_ s: CaptureReplay.Statistics, voxels: Int, seconds: Double, output: String) -> String {
        var text = String(format: "replayed %d frames in %.2f s (%@ frames/s): %d points seen, %d painted, %d skipped (%d behind the camera, %d outside the image)",
                          s.frames, seconds, ProgressReporter.rate(frames: s.frames, seconds: seconds), s.pointsSeen, s.painted, s.behind + s.outside, s.behind, s.outside)
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
