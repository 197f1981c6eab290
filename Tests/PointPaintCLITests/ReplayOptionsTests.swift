import ArgumentParser
import Testing
@testable import PointPaintCLI

/// `replay --frames`: every written form, and refusals that say why.
@Suite struct ReplayCommandTests {
    /// Parses `replay -o out.ply --frames TEXT` as the command line would.
    static func frames(_ text: String) throws -> Range<Int>? {
        try ReplayCommand.parse(["-o", "out.ply", "--frames=\(text)"]).frames?.range
    }

    /// The one-line message the tool prints for `--frames TEXT`, or nil when it parses.
    static func refusal(_ text: String) -> String? {
        do {
            _ = try ReplayCommand.parse(["-o", "out.ply", "--frames=\(text)"])
            return nil
        } catch {
            return ReplayCommand.message(for: error)
        }
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

    @Test func noFramesOptionMeansAll() throws {
        #expect(try ReplayCommand.parse(["-o", "out.ply"]).frames == nil)
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
