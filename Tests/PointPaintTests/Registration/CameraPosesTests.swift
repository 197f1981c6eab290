import Foundation
import Testing
@testable import PointPaint

/// Poses files: what `synth --pose-drift` records and writes as the truth, read back exactly,
/// checked against their recording, and refused in one line when damaged or another recording's.
@Suite struct CameraPosesTests {
    static func drifted(frames: Int = 6, metres: Double = 0.025, degrees: Double = 0.75) -> CaptureSynthesizer {
        var options = CaptureSynthesizer.Options(frames: frames, width: 64, height: 48, pointsPerFrame: 10)
        options.poseDriftMetres = metres
        options.poseDriftDegrees = degrees
        return CaptureSynthesizer(options: options)
    }

    @Test func driftGrowsFromNoneAtTheFirstFrameToTheAmountsAtTheLast() throws {
        let synth = Self.drifted()
        let poses = synth.truePoses()
        #expect(poses.frames.count == 6 && poses.anchor == 0 && poses.method == "truth")
        #expect(poses.frames[0].recorded == poses.frames[0].refined)
        let last = poses.frames[5]
        #expect(abs(last.moved - 0.025) < 1e-12, "\(last.moved)")
        #expect(abs(last.turned - 0.75) < 1e-9, "\(last.turned)")
        let middle = poses.frames[3]
        #expect(middle.moved > 0.01 && middle.moved < 0.02 && middle.turned > 0.3 && middle.turned < 0.6)
        // The drift is rigid, and undrifted options record the true cameras.
        #expect(synth.poseDrift(frame: 4).rigidError < 1e-12)
        let clean = CaptureSynthesizer(options: CaptureSynthesizer.Options(frames: 6, width: 64, height: 48))
        #expect(clean.recordedCamera(frame: 5).transform == clean.camera(frame: 5).transform)
    }

    @Test func aPosesFileReadsBackExactly() throws {
        let dir = TemporaryDirectory()
        var poses = Self.drifted().truePoses()
        poses.frames[2].residual = CameraPoses.Residual(before: 0.0125, after: 0.002)
        poses.residual = CameraPoses.Residual(before: 0.01, after: 0.0025)
        try poses.write(to: dir.file("poses.json"))
        let read = try CameraPoses(contentsOf: dir.file("poses.json"))
        #expect(read == poses)
        #expect(read.frame(3) == poses.frames[3] && read.frame(6) == nil)
    }

    @Test func theRecordingsOwnPosesPassItsCheckAndAnotherRecordingsDoNot() throws {
        let dir = TemporaryDirectory()
        let synth = Self.drifted()
        try synth.write(to: dir.file("cap"), encoding: .nv12)
        let source = try CaptureReader(path: dir.file("cap"))
        try synth.truePoses().check(against: source, file: "poses.json")
        // Another recording's: more frames, or other recorded poses.
        let longer = Self.drifted(frames: 7).truePoses()
        let count = try #require(throws: PointPaintError.self) { try longer.check(against: source, file: "poses.json") }
        #expect(count.kind == .malformed && count.place == .jsonPath("recording.frames") && count.file == "poses.json")
        #expect(count.message.hasPrefix("expected the 6 frames of"), "\(count)")
        let other = Self.drifted(metres: 0.05).truePoses()
        let pose = try #require(throws: PointPaintError.self) { try other.check(against: source, file: "poses.json") }
        #expect(pose.place == .jsonPath("frames[index 1].recorded") && pose.message.hasSuffix("poses of another recording"), "\(pose)")
    }

    /// Damaged files: one error each, at the JSON path of what is wrong.
    @Test func damagedFilesAreOneLineAtTheirPlace() throws {
        try expectRefused(editing: "\"version\": 1", to: "\"version\": 2", .malformed, at: "version")
        try expectRefused(editing: "\"frames\": 6", to: "\"frames\": 0", .outOfRange, at: "recording.frames")
        try expectRefused(editing: "{\"index\": 2,", to: "{\"index\": 9,", .outOfRange, at: "frames[2].index")
        try expectRefused(editing: "{\"index\": 2,", to: "{\"index\": 1,", .malformed, at: "frames[2].index")
        try expectRefused(editing: "\"refined\": [[", to: "\"refined\": [[NaN, ", .malformed, at: "frames[0].refined[0]")
        try expectRefused(editing: "\"refined\": [[", to: "\"refined\": [[2, 0, 0, 0], [", .malformed, at: "frames[0].refined")
    }

    /// Expects the truth poses file, with its first `old` replaced by `new`, to be refused with
    /// one error of `kind` at JSON path `path`.
    private func expectRefused(editing old: String, to new: String, _ kind: PointPaintError.Kind, at path: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = TemporaryDirectory()
        let text = Self.drifted().truePoses().jsonText()
        let range = try #require(text.range(of: old), sourceLocation: sourceLocation)
        try dir.write(text.replacingCharacters(in: range, with: new), to: "poses.json")
        let error = try #require(throws: PointPaintError.self, sourceLocation: sourceLocation) { try CameraPoses(contentsOf: dir.file("poses.json")) }
        #expect(error.kind == kind && error.place == .jsonPath(path) && !error.description.contains("\n"), "\(error)",
                sourceLocation: sourceLocation)
    }

    @Test func aScaledOrShearedPoseIsNotRigid() throws {
        let dir = TemporaryDirectory()
        var poses = Self.drifted().truePoses()
        poses.frames[1].refined.columns.0 *= 1.01
        try dir.write(poses.jsonText(), to: "poses.json")
        let error = try #require(throws: PointPaintError.self) { try CameraPoses(contentsOf: dir.file("poses.json")) }
        #expect(error.kind == .outOfRange && error.place == .jsonPath("frames[1].refined"), "\(error)")
        #expect(error.message.hasPrefix("expected a rigid camera-to-world matrix"))
    }
}
