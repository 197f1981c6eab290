import Foundation

extension CaptureSynthesizer {
    /// How the recorded pose of frame `index` is off the true one (`Options.poseDriftMetres`,
    /// `poseDriftDegrees`), as visual-inertial odometry drifts: the camera centre moved and the
    /// camera turned about its centre, both growing with the distance along the capture from
    /// none at frame 0 (the recording's world is the first frame's, as ARKit's is) to the full
    /// amounts at the last frame, in directions that turn slowly along the way (from the seed).
    /// Returned as the world-space transform E with recorded pose = E · true pose: a point seen
    /// from frame `index` is recorded at E · p.
    public func poseDrift(frame index: Int) -> Matrix4x4 {
        let metres = options.poseDriftMetres, radians = options.poseDriftDegrees * .pi / 180
        guard metres > 0 || radians > 0 else { return .identity }
        let progress = options.frameCount > 1 ? Double(index) / Double(options.frameCount - 1) : 0
        var random = SplitMix64(seed: options.seed &+ 0x5EED_D81F7)
        func unit() -> SIMD3<Double> {
            let v = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
            return v / (v * v).sum().squareRoot()
        }
        // Each direction turns from a towards b over the capture: a slow random walk.
        func direction(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            let v = a * cos(progress * .pi / 3) + b * sin(progress * .pi / 3)
            return v / (v * v).sum().squareRoot()
        }
        let (ta, tb, ra, rb) = (unit(), unit(), unit(), unit())
        let shift = direction(ta, tb) * (metres * progress)
        let turn = Matrix4x4(axis: direction(ra, rb), angle: radians * progress)
        // About the true camera centre c: p ↦ R (p − c) + c + shift.
        let c = camera(frame: index).position
        let rc = turn.transformPoint(c)
        return Matrix4x4(columns: turn.columns.0, turn.columns.1, turn.columns.2, SIMD4(c - rc + shift, 1))
    }

    /// The camera of frame `index` as the recording holds it: the true camera (`camera(frame:)`,
    /// which renders the frame) with `poseDrift(frame:)`; the true camera without drift.
    public func recordedCamera(frame index: Int) -> Camera {
        let truth = camera(frame: index)
        guard options.poseDriftMetres > 0 || options.poseDriftDegrees > 0 else { return truth }
        return Camera(intrinsics: truth.intrinsics, transform: poseDrift(frame: index) * truth.transform)!
    }

    /// The true poses of a drifted recording as a poses file (method `truth`): every frame's
    /// recorded pose and, as the refined one, its true pose. `replay --poses` with it replays
    /// the recording as if it had not drifted.
    public func truePoses() -> CameraPoses {
        CameraPoses(method: "truth", recordingFrames: options.frameCount, anchor: 0, frames: (0 ..< options.frameCount).map {
            CameraPoses.Frame(index: $0, recorded: recordedCamera(frame: $0).transform, refined: camera(frame: $0).transform)
        })
    }
}
