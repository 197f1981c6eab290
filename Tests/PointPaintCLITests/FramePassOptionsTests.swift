import ArgumentParser
import Foundation
import Testing
import PointPaint
@testable import PointPaintCLI

/// The frame-pass options `paint` shares with `replay` and `view` (`FrameSelectionOptions`,
/// `SamplingOptions`, and the one `--voxel-size` check): the same refusals in the same words, and
/// paint's values where the painter reads them.
@Suite struct FramePassOptionsTests {
    /// The commands that take the shared options, with the arguments each needs besides.
    enum Command: String, CaseIterable {
        case paint, replay, view

        /// What the tool prints for `arguments` besides its usage lines (which name the
        /// command), or nil when it exits 0.
        func refusal(_ arguments: [String]) throws -> String? {
            let result = switch self {
            case .paint: try Tool.run(["paint", "cloud.ply", "-o", "/nonexistent/out.ply"] + arguments)
            case .replay: try Tool.run(["replay", "-o", "/nonexistent/out.ply"] + arguments)
            case .view: try Tool.run(["view", "Captures/sample", "--screenshot", "/nonexistent/out.png"] + arguments)
            }
            guard result.status != 0 else { return nil }
            return result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("  See ") }.joined(separator: "\n")
        }
    }

    @Test("paint, replay and view refuse the same bad values with the same one line", arguments: [
        (["--voxel-size=-1"], "--voxel-size must be a positive number from 1.1754944e-38 to 3.4028235e+38, found -1.0"),
        (["--voxel-size", "0"], "found 0.0"),
        (["--voxel-size", "1e-300"], "found 1e-300"),
        (["--voxel-size", "1e39"], "found 1e+39"),
        (["--voxel-size", "nan"], "found nan"),
        (["--voxel-size", "inf"], "found inf"),
        (["--frames", "2"], "expected A..B (inclusive), A..<B, A.. or ..B"),
        (["--frames", "5..2"], "5..2 runs backwards"),
        (["--frames", "3..<3"], "3..<3 selects no frames"),
        (["--frames=-1..4"], "'-1' is not a frame number"),
        (["--every", "0"], "--every must be at least 1"),
        (["--every=-3"], "--every must be at least 1"),
        (["--every", "x"], "--every"),
        (["--threads", "0"], "--threads must be at least 1"),
        (["--interpolation", "cubic"], "--interpolation"),
    ])
    func sameRefusals(arguments: [String], expected: String) throws {
        let messages = try Command.allCases.map { try $0.refusal(arguments) }
        let paint = try #require(messages[0], "paint accepted \(arguments)")
        let errors = paint.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].contains(expected), "one line: \(paint)")
        for (command, message) in zip(Command.allCases, messages) {
            #expect(message == paint, "\(command.rawValue): \(message ?? "parsed"); paint: \(paint)")
        }
    }

    @Test("paint's values land in the painter's options, as replay's in the replay's")
    func paintOptionsLand() throws {
        let shared = ["--frames", "2..<9", "--every", "3", "--interpolation", "nearest", "--threads", "2"]
        let paint = try PaintCommand.parse(["cloud.ply", "-o", "out.ply", "--voxel-size", "0.5", "--visibility", "depth",
                                            "--accumulate", "latest", "--point-spacing", "0.25", "--unseen", "drop"] + shared)
        #expect(paint.selection.frames?.range == 2 ..< 9 && paint.selection.every == 3)
        #expect(paint.sampling.interpolation == .nearest && paint.sampling.threads == 2)
        let options = paint.painterOptions
        #expect(options.pass.frames == 2 ..< 9 && options.pass.every == 3 && options.pass.interpolation == .nearest && options.pass.threads == 2)
        #expect(options.voxelSize == 0.5 && options.pointSpacing == 0.25)
        #expect(options.visibility == .depth && options.accumulate == .latest && options.unseen == .drop)

        let replay = try ReplayCommand.parse(["-o", "out.ply"] + shared).replay.options()
        #expect(replay.pass == options.pass)
    }

    @Test("without the options paint and replay use the same defaults")
    func defaults() throws {
        let paint = try PaintCommand.parse(["cloud.ply", "-o", "out.ply"]).painterOptions
        let replay = try ReplayCommand.parse(["-o", "out.ply"]).replay.options()
        #expect(paint.pass.frames == nil && paint.pass.every == 1 && paint.pass.interpolation == .bilinear && paint.voxelSize == nil)
        #expect(paint.pass.threads == ProcessInfo.processInfo.activeProcessorCount)
        #expect(replay.pass == paint.pass)
    }

    /// A selection past the capture's end is refused at run time, in one line worded alike.
    @Test func noFramesSelectedIsOneLineInBoth() throws {
        let dir = temporaryDirectory()
        let paint = try Tool.run(["paint", "Captures/sample/truth.ply", "Captures/sample", "-o", dir + "/p.ply", "--frames", "100000..", "--quiet"])
        let replay = try Tool.run(["replay", "Captures/sample", "-o", dir + "/r.ply", "--frames", "100000..", "--quiet"])
        #expect(paint.status != 0 && replay.status != 0)
        #expect(paint.stderr.contains("Captures/sample: --frames: no frames selected: the capture has "), "\(paint.stderr)")
        #expect(paint.stderr == replay.stderr && paint.stderr.split(separator: "\n").count == 1, "\(paint.stderr) \(replay.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/p.ply") && !FileManager.default.fileExists(atPath: dir + "/r.ply"))
    }
}
