import Foundation
import Testing
@testable import PointPaint

/// `FramePass`, the walk over a capture's frames that replay and paint share: which frames, the
/// count-mismatch error in each one's words, and pieces handed over in order whatever the
/// threads, a failing frame's error after everything before it.
@Suite struct FramePassTests {
    /// `CloudPainterTests`' six-frame capture, with a count mismatch, video-like decoding starts,
    /// or a frame that fails to load, as a test asks.
    struct Source: WrappingCaptureSource {
        let inner: any CaptureSource
        var mismatch: String?
        var starts: [Int]?
        var failing = -1
        var countMismatch: String? { mismatch }
        func decodingStarts() throws -> [Int]? { starts }
        func frame(at index: Int) throws -> CaptureFrame {
            guard index != failing else { throw PointPaintError(.malformed, file: path, place: .frame(index), "unreadable") }
            return try inner.frame(at: index)
        }
    }

    static func pass(_ source: Source, frames: Range<Int>? = nil, every: Int = 1, shard: Shard? = nil, threads: Int = 1,
                     verb: String = "replay") throws -> FramePass {
        var options = FramePassOptions()
        options.frames = frames
        options.every = every
        options.threads = threads
        return try FramePass(source: source, options: options, shard: shard, verb: verb)
    }

    @Test("frames, every and shard select; a shard of frame files is round-robin, of a video contiguous runs at its starts")
    func selection() throws {
        let plain = Source(inner: try CloudPainterTests.source())
        #expect(try Self.pass(plain).indices == [0, 1, 2, 3, 4, 5])
        #expect(try Self.pass(plain, frames: 1 ..< 99, every: 2).indices == [1, 3, 5])
        #expect(try Self.pass(plain, shard: Shard(index: 1, count: 2)).indices == [1, 3, 5])
        let video = Source(inner: plain.inner, starts: [0, 3])
        #expect(try Self.pass(video, shard: Shard(index: 0, count: 2)).indices == [0, 1, 2])
        #expect(try Self.pass(video, shard: Shard(index: 1, count: 2)).indices == [3, 4, 5])
        #expect(try Self.pass(video, shard: Shard(index: 1, count: 2)).selected == [0, 1, 2, 3, 4, 5])
    }

    @Test("parts of different lengths: frames past the shortest are refused in the command's own words")
    func mismatch() throws {
        let source = Source(inner: try CloudPainterTests.source(), mismatch: "rgb/ holds 6 images, 5 cameras")
        for verb in ["replay", "paint from"] {
            let error = try #require(throws: PointPaintError.self) { try Self.pass(source, verb: verb) }
            #expect(error.kind == .malformed)
            #expect(error.message.hasSuffix("rgb/ holds 6 images, 5 cameras: frames past 5 lack a part; \(verb) a range within frames 0 to 5"))
        }
        #expect(try Self.pass(source, frames: 0 ..< 5).indices.count == 5)
    }

    @Test("pieces come in frame and piece order whatever the threads; a failing frame ends the walk after those before it",
          arguments: [1, 2, 4])
    func order(threads: Int) throws {
        let inner = try CloudPainterTests.source()
        for failing in [-1, 0, 4] {
            let pass = try Self.pass(Source(inner: inner, failing: failing), threads: threads)
            var seen: [String] = []
            let walk = {
                try pass.run(pieces: { frame in (0 ..< frame.index % 3 + 1).map { $0 } },
                             transform: { frame, piece in "\(frame.index).\(piece)" },
                             body: { seen.append($0); return true })
            }
            let expected = (0 ..< (failing < 0 ? 6 : failing)).flatMap { f in (0 ..< f % 3 + 1).map { "\(f).\($0)" } }
            if failing < 0 {
                try walk()
            } else {
                let error = try #require(throws: PointPaintError.self) { try walk() }
                #expect(error.place == .frame(failing))
            }
            #expect(seen == expected, "threads \(threads), frame \(failing) failing")
        }
    }
}
