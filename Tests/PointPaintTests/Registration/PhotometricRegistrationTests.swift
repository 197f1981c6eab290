import Testing
@testable import PointPaint

/// Colour registration against a fixed cloud, on recordings `synth --pose-drift` makes: a drifted
/// recording's colours come into agreement, an undrifted one is left alone, and the result does
/// not depend on the thread count. (How the poses then paint: `PosesCommandTests`.)
@Suite struct PhotometricRegistrationTests {
    /// The scene's surfaces every 2 cm, as the cloud registered against.
    static func sceneCloud(_ synth: CaptureSynthesizer) throws -> PaintCloud {
        let samples = synth.scene.surfaceSamples(spacing: 0.02)
        return try PaintCloud(path: "scene", positions: samples.map { SIMD3<Float>($0.position) }, colors: nil)
    }

    @Test func aDriftedRecordingsColoursComeIntoAgreement() throws {
        let dir = TemporaryDirectory()
        let (source, synth) = try GeometricRegistrationTests.recording(in: dir, metres: 0.025, degrees: 0.75)
        let (poses, report) = try PhotometricRegistration.run(cloud: try Self.sceneCloud(synth), source: source, options: PhotometricRegistration.Options())
        #expect(report.frames == 8 && report.corrected >= 5 && report.refused.isEmpty, "\(report)")
        #expect(report.residual.after < 0.6 * report.residual.before, "\(report.residual)")
        #expect(poses.method == "photometric" && poses.anchor == 0 && poses.frames[0].refined == poses.frames[0].recorded)
        // The drift's largest error (the last frame's) falls.
        let before = GeometricRegistrationTests.errors(poses, truth: synth, recorded: true), after = GeometricRegistrationTests.errors(poses, truth: synth)
        #expect(after.degrees < before.degrees / 2, "\(before) → \(after)")
    }

    @Test func anUndriftedRecordingIsLeftAlone() throws {
        let dir = TemporaryDirectory()
        let (source, synth) = try GeometricRegistrationTests.recording(in: dir, metres: 0, degrees: 0)
        let (poses, report) = try PhotometricRegistration.run(cloud: try Self.sceneCloud(synth), source: source, options: PhotometricRegistration.Options())
        #expect(report.corrected == 0 && report.held == 7, "\(report)")
        for frame in poses.frames { #expect(frame.refined == frame.recorded, "frame \(frame.index)") }
    }

    @Test func theResultIsTheSameWhateverTheThreadCount() throws {
        let dir = TemporaryDirectory()
        let (source, synth) = try GeometricRegistrationTests.recording(in: dir, frames: 4, metres: 0.02, degrees: 0.5)
        let cloud = try Self.sceneCloud(synth)
        var options = PhotometricRegistration.Options()
        options.pass.threads = 1
        let one = try PhotometricRegistration.run(cloud: cloud, source: source, options: options).poses
        options.pass.threads = 3
        let three = try PhotometricRegistration.run(cloud: cloud, source: source, options: options).poses
        #expect(one == three)
    }

    @Test func depthThenColourLeavesAnUndriftedRecordingWithinAMillimetre() throws {
        let dir = TemporaryDirectory()
        let (source, _) = try GeometricRegistrationTests.recording(in: dir, metres: 0, degrees: 0)
        for always in [false, true] {
            let (poses, reports) = try PoseRefinement.run(source: source, geometric: GeometricRegistration.Options(),
                                                          photometric: PhotometricRegistration.Options(), alwaysColour: always)
            // The scene's frames see several surfaces each: depth holds them all, so colour runs
            // only when asked to, and then holds every frame too.
            #expect(reports.loose == 0 && reports.loosest.metres < DepthLooseness.limits.metres, "\(reports.loosest)")
            if always {
                #expect(poses.method == "geometric+photometric" && reports.photometric?.refused.isEmpty == true)
                #expect(reports.photometric?.corrected == 0)
            } else {
                #expect(poses.method == "geometric" && reports.photometric == nil)
            }
            for frame in poses.frames {
                #expect(frame.moved < 0.001 && frame.turned < 0.05, "frame \(frame.index): \(frame.moved) m, \(frame.turned)°")
            }
        }
    }
}
