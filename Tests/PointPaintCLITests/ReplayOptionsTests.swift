import ArgumentParser
import Testing
@testable import PointPaintCLI

/// The replay options `replay` and `view` share: `--frames` in every written form, refusals that
/// say why, and the same reading in both commands.
@Suite struct ReplayOptionsTests {
    /// The two commands that take `ReplayOptions`, with the arguments each needs besides.
    enum Command: CaseIterable {
        case replay, view

        /// Parses the command's options and returns its replay options.
        func parse(_ arguments: [String]) throws -> ReplayOptions {
            switch self {
            case .replay: try ReplayCommand.parse(["-o", "out.ply"] + arguments).replay
            case .view: try ViewCommand.parse(["Captures/sample"] + arguments).live.replay
            }
        }

        /// The one-line message the tool prints for `arguments`, or nil when they parse.
        func refusal(_ arguments: [String]) -> String? {
            do {
                _ = try parse(arguments)
                return nil
            } catch {
                return ReplayCommand.message(for: error)
            }
        }
    }

    /// Parses `replay -o out.ply --frames TEXT` as the command line would.
    static func frames(_ text: String) throws -> Range<Int>? {
        try Command.replay.parse(["--frames=\(text)"]).selection.frames?.range
    }

    /// The one-line message the tool prints for `--frames TEXT`, or nil when it parses.
    static func refusal(_ text: String) -> String? {
        Command.replay.refusal(["--frames=\(text)"])
    }

    @Test("A..B, A..<B, A.., ..B and ..<B", arguments: [
        ("2..5", 2 ..< 6),
        ("2..<5", 2 ..< 5),
        ("3..3", 3 ..< 4),
        ("7..", 7 ..< Int.max),
        ("..4", 0 ..< 5),
        ("..<4", 0 ..< 4),
        ("..", 0 ..< Int.max),
    ])
    func forms(text: String, range: Range<Int>) throws {
        #expect(try Self.frames(text) == range)
    }

    @Test(arguments: Command.allCases)
    func noOptionMeansTheDefaults(command: Command) throws {
        let options = try command.parse([])
        #expect(options.selection.frames == nil && options.firstGiven == nil)
        #expect(options.grid.size == VoxelOptions.defaultVoxelSize && options.grid.policy == .mean)
    }

    @Test("replay and view read the same options alike, a plain number included", arguments: Command.allCases)
    func sameInBoth(command: Command) throws {
        let options = try command.parse(["--frames", "2..<9", "--every", "3", "--interpolation", "nearest", "--voxel-size", "0.5"])
        #expect(options.selection.frames?.range == 2 ..< 9 && options.selection.every == 3 && options.sampling.interpolation == .nearest)
        #expect(options.grid.size == 0.5 && options.firstGiven == "--frames")
        #expect(command.refusal(["--frames", "2"])?.contains("expected A..B (inclusive), A..<B, A.. or ..B") == true)
        #expect(command.refusal(["--every", "0"])?.contains("--every must be at least 1") == true)
        #expect(command.refusal(["--voxel-size=-1"])?.contains("--voxel-size must be a positive number") == true)
    }

    @Test("the largest ends do not overflow", arguments: [
        ("0..9223372036854775807", 0 ..< Int.max),
        ("5..9223372036854775806", 5 ..< Int.max),
        ("..9223372036854775807", 0 ..< Int.max),
    ])
    func hugeEnd(text: String, range: Range<Int>) throws {
        #expect(try Self.frames(text) == range)
    }

    @Test("refusals say what was wrong", arguments: [
        ("5..2", "5..2 runs backwards: in A..B, B must be ≥ A"),
        ("3..<3", "3..<3 selects no frames: in A..<B, B must be greater than A"),
        ("..<0", "..<0 selects no frames"),
        ("abc", "expected A..B (inclusive), A..<B, A.. or ..B with whole frame numbers from 0, found 'abc'"),
        ("-1..4", "'-1' is not a frame number"),
        ("1..x", "'x' is not a frame number"),
        ("0..99999999999999999999", "'99999999999999999999' is not a frame number"),
        ("1..2..3", "found '1..2..3'"),
    ])
    func refusals(text: String, expected: String) {
        let message = Self.refusal(text)
        #expect(message?.contains("--frames") == true, "\(message ?? "parsed")")
        #expect(message?.contains(expected) == true, "\(message ?? "parsed")")
    }
}
