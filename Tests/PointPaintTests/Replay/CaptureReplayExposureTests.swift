import Testing
@testable import PointPaint

/// Replay's `--exposure auto`: gains solved from voxels several frames see undo the
/// synthesized drift (relative to the median frame), and applying them changes the cloud.
@Suite struct CaptureReplayExposureTests {
    @Test func gainsUndoTheSynthesizedDrift() throws {
        let directory = TemporaryDirectory("replay-exposure")
        var options = CaptureSynthesizer.Options(frames: 8, width: 160, height: 120, pointsPerFrame: 10)
        options.exposureDrift = 0.5
        let synth = CaptureSynthesizer(options: options)
        try synth.writeStray(to: directory.file("stray"))
        var replayOptions = CaptureReplay.Options()
        replayOptions.points = .depth
        let replay = try CaptureReplay(source: try CaptureFormat.open(directory.file("stray")), options: replayOptions)
        let gains = try replay.solveExposure(voxelSize: 0.04)
        #expect(gains.points > 500, "\(gains.summary)")
        // gain × drift is the same for every frame (the drift of the median frame).
        let products = (0 ..< 8).map { SIMD3<Float>(synth.exposureGain(frame: $0)) * gains.gain(frame: $0) }
        for (f, p) in products.enumerated() {
            let d = p / products[0]
            #expect(max(abs(d.x - 1), abs(d.y - 1), abs(d.z - 1)) < 0.04, "frame \(f): \(p) against \(products[0])")
        }
        replayOptions.gains = gains
        var plain = SceneStore(voxelSize: 0.04), evened = SceneStore(voxelSize: 0.04)
        try replay.run(into: &plain)
        try CaptureReplay(source: replay.source, options: replayOptions).run(into: &evened)
        #expect(plain.count == evened.count && plain.cloud().colors != evened.cloud().colors)
    }
}
