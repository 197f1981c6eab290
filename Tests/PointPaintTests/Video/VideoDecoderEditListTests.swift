import Foundation
import PointPaint
import Testing

/// An MP4 whose first sample is presented before the edit list's start, as Stray Scanner's
/// writer makes them: decoded as players do, that frame is dropped; with the edit list ignored,
/// every sample comes out.
struct VideoDecoderEditListTests {
    @Test("ignoring the edit list gives the frame presented before time 0, and every other exactly",
          arguments: [VideoFixture.losslessHEVC, VideoFixture.losslessH264])
    func earlyFirstFrame(codec: [String]) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("early.mp4")
        let planes = VideoFixture.pattern(count: 6)
        try VideoFixture.encode(planes, to: path, ["-output_ts_offset", "-0.0333333"] + codec)

        let played = try VideoFixture.decodeAll(VideoDecoder(path: path))
        #expect(played.map(\.planes) == Array(planes.dropFirst()))

        let decoder = try VideoDecoder(path: path, ignoreEditList: true)
        #expect(decoder.info.frameCount == 6)
        let all = try VideoFixture.decodeAll(decoder)
        #expect(all.map(\.index) == Array(0 ..< 6))
        #expect(all.map(\.planes) == planes)
        // Times are the samples' own, from the first sample's.
        for frame in all { #expect(abs(frame.time - Double(frame.index) / 30) < 1e-3, "\(frame.time)") }
    }

    @Test("a file without an early frame decodes the same either way")
    func ordinaryFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("plain.mp4")
        let planes = VideoFixture.pattern(count: 5)
        try VideoFixture.encode(planes, to: path, VideoFixture.losslessHEVC)
        #expect(try VideoFixture.decodeAll(VideoDecoder(path: path, ignoreEditList: true)).map(\.planes) == planes)
        #expect(try VideoFixture.decodeAll(VideoDecoder(path: path)).map(\.planes) == planes)
    }
}
