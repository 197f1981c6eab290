import Foundation
import Testing
@testable import PointPaint

/// Geometric registration against the truth `synth --pose-drift` records: a drifted recording's
/// pose errors fall many times over, an undrifted one is left (almost) alone, the result does not
/// depend on the thread count, and a recording without depth is one error.
@Suite struct GeometricRegistrationTests {
    /// A Stray recording of `frames` frames of 320×240 (128×96 depth) drifting by `metres` and
    /// `degrees`, written to `dir`, with its synthesizer.
    static func recording(in dir: TemporaryDirectory, frames: Int = 8, metres: Double, degrees: Double) throws -> (StrayCapture, CaptureSynthesizer) {
        var options = CaptureSynthesizer.Options(frames: frames, width: 320, height: 240, pointsPerFrame: 10)
        options.poseDriftMetres = metres
        options.poseDriftDegrees = degrees
        let synth = CaptureSynthesizer(options: options)
        try synth.writeStray(to: dir.file("stray"))
        return (try StrayCapture(path: dir.file("stray")), synth)
    }

    /// The largest distance (metres) and angle (degrees) between each frame's pose in `poses`
    /// (refined, or recorded when `recorded`) and its true pose.
    static func errors(_ poses: CameraPoses, truth synth: CaptureSynthesizer, recorded: Bool = false) -> (metres: Double, degrees: Double) {
        var worst = (metres: 0.0, degrees: 0.0)
        for frame in poses.frames {
            let error = CameraPoses.Frame(index: frame.index, recorded: synth.camera(frame: frame.index).transform,
                                          refined: recorded ? frame.recorded : frame.refined)
            worst = (max(worst.metres, error.moved), max(worst.degrees, error.turned))
        }
        return worst
    }

    @Test func aDriftedRecordingsPoseErrorsFallFiveFoldAndMore() throws {
        let dir = TemporaryDirectory()
        let (source, synth) = try Self.recording(in: dir, metres: 0.025, degrees: 0.75)
        let (poses, report) = try GeometricRegistration.run(source: source, options: GeometricRegistration.Options())
        let before = Self.errors(poses, truth: synth, recorded: true), after = Self.errors(poses, truth: synth)
        #expect(before.metres > 0.02 && before.degrees > 0.7)
        #expect(after.metres < before.metres / 5 && after.degrees < before.degrees / 5, "\(before) → \(after)")
        #expect(report.frames == 8 && report.corrected == 7 && report.refused.isEmpty)
        #expect(report.residual.after < report.residual.before / 2, "\(report.residual)")
        #expect(poses.anchor == 0 && poses.frames[0].refined == poses.frames[0].recorded && poses.method == "geometric")
    }

    /// A model of neighbours and keyframes (as long recordings use) instead of every frame.
    @Test func aSlidingWindowWithKeyframesStillFindsTheTruth() throws {
        let dir = TemporaryDirectory()
        let (source, synth) = try Self.recording(in: dir, frames: 12, metres: 0.025, degrees: 0.75)
        var options = GeometricRegistration.Options()
        (options.window, options.keyframes) = (2, 4)
        let (poses, report) = try GeometricRegistration.run(source: source, options: options)
        let before = Self.errors(poses, truth: synth, recorded: true), after = Self.errors(poses, truth: synth)
        #expect(after.metres < before.metres / 5 && after.degrees < before.degrees / 5, "\(before) → \(after)")
        #expect(report.frames == 12 && report.corrected == 11 && report.refused.isEmpty)
    }

    @Test func anUndriftedRecordingIsLeftAlmostAlone() throws {
        let dir = TemporaryDirectory()
        let (source, _) = try Self.recording(in: dir, metres: 0, degrees: 0)
        let (poses, _) = try GeometricRegistration.run(source: source, options: GeometricRegistration.Options())
        for frame in poses.frames {
            #expect(frame.moved < 0.001 && frame.turned < 0.05, "frame \(frame.index): \(frame.moved) m, \(frame.turned)°")
        }
    }

    @Test func theResultIsTheSameWhateverTheThreadCount() throws {
        let dir = TemporaryDirectory()
        let (source, _) = try Self.recording(in: dir, frames: 4, metres: 0.02, degrees: 0.5)
        var options = GeometricRegistration.Options()
        options.pass.threads = 1
        let one = try GeometricRegistration.run(source: source, options: options).poses
        options.pass.threads = 3
        let three = try GeometricRegistration.run(source: source, options: options).poses
        #expect(one == three)
    }

    @Test func aRecordingWithoutDepthIsOneError() throws {
        let dir = TemporaryDirectory()
        try CaptureSynthesizer(options: CaptureSynthesizer.Options(frames: 3, width: 64, height: 48)).write(to: dir.file("cap"), encoding: .nv12)
        let error = try #require(throws: PointPaintError.self) {
            _ = try GeometricRegistration.run(source: try CaptureReader(path: dir.file("cap")), options: GeometricRegistration.Options())
        }
        #expect(error.kind == .missing && error.message.hasPrefix("expected depth maps"), "\(error)")
    }
}
