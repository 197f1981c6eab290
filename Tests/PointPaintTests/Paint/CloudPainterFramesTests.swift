import Foundation
import Testing
@testable import PointPaint

/// `CloudPainter.forEachFrame`: frames are handed over in order whatever the thread count, while
/// the frames after them are observed; a frame that fails to load ends the painting after the frames
/// before it, and a body that stops ends it at once.
@Suite struct CloudPainterFramesTests {
    /// `CloudPainterTests`' capture, whose frame `failing` cannot be loaded.
    struct FailingSource: WrappingCaptureSource {
        let inner: any CaptureSource
        let failing: Int
        func frame(at index: Int) throws -> CaptureFrame {
            guard index != failing else { throw PointPaintError(.malformed, file: path, place: .frame(index), "unreadable") }
            return try inner.frame(at: index)
        }
    }

    static func painter(failing: Int, threads: Int) throws -> CloudPainter {
        let cloud = try PaintCloud(path: "truth", positions: CloudPainterTests.capture.truth.map(\.position), colors: nil)
        var options = CloudPainter.Options()
        options.pass.threads = threads
        options.weighted = false
        return try CloudPainter(cloud: cloud, source: FailingSource(inner: CloudPainterTests.source(), failing: failing), options: options)
    }

    @Test(arguments: [1, 2, 3])
    func framesBeforeAFailureAreHandedOverInOrder(threads: Int) throws {
        // 6 frames; with 2 threads the batches are 0…3 and 4…5, so frame 5 fails in the second.
        for failing in [0, 3, 5] {
            let painter = try Self.painter(failing: failing, threads: threads)
            var handed: [Int] = []
            let error = try #require(throws: PointPaintError.self) {
                try painter.forEachFrame { frame in
                    handed.append(frame.frame)
                    return true
                }
            }
            #expect(handed == Array(0 ..< failing), "threads \(threads), frame \(failing) failing")
            #expect(error.place == .frame(failing))
        }
    }

    @Test(arguments: [1, 2, 3])
    func observationsDoNotDependOnThreadsAndStopWhenAsked(threads: Int) throws {
        let painter = try Self.painter(failing: -1, threads: threads)
        let serial = try Self.painter(failing: -1, threads: 1)
        var expected: [[UInt32]] = []
        try serial.forEachFrame { frame in
            expected.append(frame.points)
            return true
        }
        var seen: [[UInt32]] = []
        try painter.forEachFrame { frame in
            seen.append(frame.points)
            return true
        }
        #expect(seen == expected && seen.count == 6 && seen.contains { !$0.isEmpty })
        var stopped: [Int] = []
        try painter.forEachFrame { frame in
            stopped.append(frame.frame)
            return stopped.count < 2
        }
        #expect(stopped == [0, 1], "no frame is handed over after the body stops")
    }
}
