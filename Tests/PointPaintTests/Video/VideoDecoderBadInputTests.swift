import Foundation
import PointPaint
import Testing

/// Videos PointPaint cannot decode exactly are refused in one line naming the file; damaged
/// ones end in an error, never a crash or a hang.
struct VideoDecoderBadInputTests {
    /// The bytes of the test pattern encoded as lossless H.264 MP4 (`video.mp4` in `directory`).
    private static func patternVideo(in directory: TemporaryDirectory) throws -> [UInt8] {
        let video = directory.file("video.mp4")
        try VideoFixture.encode(VideoFixture.pattern(), to: video, VideoFixture.losslessH264)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: video)))
    }

    /// Where the four-character `name` (a box type) first stands in `bytes`, at or after `from`.
    private static func box(_ name: String, in bytes: [UInt8], from: Int = 0) -> Int? {
        (from ..< bytes.count - 4).first { Array(bytes[$0 ..< $0 + 4]) == Array(name.utf8) }
    }

    /// Expects decoding `path` to stop with an error of `kind` that reads `description`.
    private func expectFailure(_ path: String, _ kind: PointPaintError.Kind, _ description: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let error = failure(path)
        #expect(error?.kind == kind && error?.description == description, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    /// Opens `path` and decodes every frame, returning the error that stopped it.
    private func failure(_ path: String, maximumDimension: Int = VideoDecoder.defaultMaximumDimension) -> PointPaintError? {
        thrownError {
            let decoder = try VideoDecoder(path: path, maximumDimension: maximumDimension)
            _ = try VideoFixture.decodeAll(decoder)
        }
    }

    @Test("a 10-bit HEVC stream is refused, naming its pixel format and bit depth")
    func tenBit() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("ten.mp4")
        try VideoFixture.encode(VideoFixture.pattern(), to: path,
                                ["-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-x265-params", "log-level=error"])
        let error = try #require(failure(path))
        #expect(error.kind == .unsupported)
        #expect(error.file == path)
        #expect(error.description.contains("yuv420p10le") && error.description.contains("10-bit"))
        #expect(!error.description.contains("\n"))
    }

    @Test("HDR transfers are refused", arguments: ["arib-std-b67", "smpte2084"])
    func hdrTransfer(_ transfer: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("hdr.mp4")
        try VideoFixture.encode(VideoFixture.pattern(), to: path, VideoFixture.losslessH264
            + ["-color_trc", transfer, "-color_primaries", "bt2020", "-colorspace", "bt2020nc"])
        let error = try #require(failure(path))
        #expect(error.kind == .unsupported)
        #expect(error.place == nil)
    }

    @Test("matrices, primaries and 4:2:0 chroma locations PointPaint cannot reproduce are refused",
          arguments: [["-colorspace", "smpte240m"], ["-color_primaries", "smpte431"], ["-color_trc", "linear"],
                      ["-chroma_sample_location", "topleft"]])
    func unsupportedDescription(_ tags: [String]) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("tagged.mp4")
        try VideoFixture.encode(VideoFixture.pattern(), to: path, VideoFixture.losslessH264 + tags)
        #expect(failure(path)?.kind == .unsupported)
    }

    @Test("top-left chroma of 4:4:4 video is exact (only the horizontal siting counts) and reads as left")
    func topLeftFourFourFour() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("444.mp4")
        try VideoFixture.encode(VideoFixture.pattern(subsampling: .yuv444), to: path,
                                VideoFixture.losslessH264 + ["-chroma_sample_location", "topleft"])
        #expect(try VideoDecoder(path: path).info.color.chromaSiting == .left)
    }

    @Test("a truncated video gives an error, after only exact frames, wherever it is cut",
          arguments: [false, true])
    func truncated(indexFirst: Bool) throws {
        let directory = TemporaryDirectory()
        let whole = directory.file("whole.mp4")
        let planes = VideoFixture.pattern()
        try VideoFixture.encode(planes, to: whole, VideoFixture.losslessHEVC + (indexFirst ? ["-movflags", "+faststart"] : []))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        for fraction in [0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99] {
            let path = directory.file("cut-\(fraction).mp4")
            try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: path))
            var delivered: [VideoFrame] = []
            var thrown: PointPaintError?
            do {
                let decoder = try VideoDecoder(path: path)
                while let frame = try decoder.next() { delivered.append(frame) }
            } catch let error as PointPaintError {
                thrown = error
            }
            #expect(thrown?.file == path, "cut at \(fraction)")
            #expect(thrown?.kind == .malformed || thrown?.kind == .missing, "cut at \(fraction): \(String(describing: thrown))")
            #expect(delivered.count < planes.count)
            for frame in delivered { #expect(frame.planes == planes[frame.index], "cut at \(fraction)") }
        }
    }

    @Test("container timestamps that disagree with the stream's picture order are refused")
    func timestampsOutOfOrder() throws {
        let directory = TemporaryDirectory()
        let video = directory.file("b.mp4"), path = directory.file("scrambled.mkv")
        try VideoFixture.encode(VideoFixture.pattern(), to: video, VideoFixture.losslessHEVC)
        // Presentation timestamps rewritten to the decode order: B-frames now look early.
        try VideoFixture.ffmpeg(["-i", video, "-c", "copy", "-bsf:v", "setts=pts=DTS", path])
        let error = try #require(failure(path))
        #expect(error.kind == .malformed)
        #expect(error.place.map { if case .frame = $0 { true } else { false } } == true)
    }

    @Test("a PNG named .mp4 is refused in one line")
    func pngNamedMP4() throws {
        let directory = TemporaryDirectory()
        let png = directory.file("image.png"), path = directory.file("image.mp4")
        try PNGImage(width: 4, height: 2, channels: 3, samples: [UInt8](repeating: 200, count: 24)).write(to: png)
        try FileManager.default.moveItem(atPath: png, toPath: path)
        expectFailure(path, .unsupported, "\(path): holds a png image, not H.264 or HEVC video")
    }

    /// Found by fuzzing: a damaged sample entry read "holds none video" (libav's name for no
    /// codec).
    @Test("a video of a codec FFmpeg does not know is refused in words, naming the file's tag")
    func unknownCodec() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("unknown.mp4")
        // The sample entry's format, avc1, becomes a tag no codec has.
        var bytes = try Self.patternVideo(in: directory)
        let table = try #require(Self.box("stsd", in: bytes))
        let entry = try #require(Self.box("avc1", in: bytes, from: table))
        bytes.replaceSubrange(entry ..< entry + 4, with: Array("zzzz".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        expectFailure(path, .unsupported, "\(path): holds video of a codec FFmpeg does not know (tag 'zzzz'), not H.264 or HEVC video")
    }

    @Test("an audio-only file has no video stream")
    func audioOnly() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("audio.m4a")
        try VideoFixture.ffmpeg(["-f", "lavfi", "-i", "sine=duration=0.2", "-c:a", "aac", path])
        let error = try #require(failure(path))
        #expect(error.kind == .missing)
        #expect(error.description.contains("only audio"))
    }

    @Test("a video track without samples holds no frames")
    func zeroFrames() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("empty.mp4")
        // Empty the sample tables: no sizes (stsz sample count), no durations (stts entry count).
        var bytes = try Self.patternVideo(in: directory)
        for (box, countOffset) in [("stsz", 12), ("stts", 8)] {
            let at = try #require(Self.box(box, in: bytes))
            bytes.replaceSubrange(at + countOffset ..< at + countOffset + 4, with: [0, 0, 0, 0])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(failure(path)?.kind == .missing)
    }

    @Test("a raw stream of parameter sets and no pictures has nothing to decode")
    func noPictures() throws {
        let directory = TemporaryDirectory()
        let mp4 = directory.file("video.mp4"), raw = directory.file("video.h264"), empty = directory.file("empty.h264")
        try VideoFixture.encode(VideoFixture.pattern(), to: mp4, VideoFixture.losslessH264)
        try VideoFixture.ffmpeg(["-i", mp4, "-c", "copy", raw])
        // Keep the NAL units before the first slice (types 1 and 5): SPS, PPS, SEI.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let isSlice = { (i: Int) in bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1 && [1, 5].contains(bytes[i + 3] & 0x1F) }
        let slice = try #require((0 ..< bytes.count - 3).first(where: isSlice))
        try Data(bytes[..<slice]).write(to: URL(fileURLWithPath: empty))
        #expect(failure(empty)?.kind == .malformed)
    }

    @Test("files that are not videos, or not there, give one line each")
    func notVideos() throws {
        let directory = TemporaryDirectory()
        try directory.write("this is not a video\n", to: "text.mp4")
        try directory.write(Data(), to: "empty.mp4")
        #expect(failure(directory.file("text.mp4"))?.kind == .malformed)
        #expect(failure(directory.file("empty.mp4"))?.kind == .malformed)
        #expect(failure(directory.file("absent.mp4"))?.kind == .missing)
        #expect(failure(directory.path)?.kind != nil)
    }

    @Test("pictures larger than the limit are refused before decoding", arguments: [(8208, 16, 8192), (64, 48, 32)])
    func tooLarge(width: Int, height: Int, limit: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("large.mp4")
        try VideoFixture.encode(VideoFixture.pattern(width: width, height: height, count: 1), to: path, VideoFixture.losslessH264)
        #expect(failure(path, maximumDimension: limit)?.kind == .tooLarge)
    }

    @Test("after an error, next() returns nil")
    func nilAfterError() throws {
        let directory = TemporaryDirectory()
        let whole = directory.file("whole.mp4"), path = directory.file("cut.mp4")
        try VideoFixture.encode(VideoFixture.pattern(), to: whole, VideoFixture.losslessHEVC + ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let decoder = try VideoDecoder(path: path)
        #expect(throws: PointPaintError.self) { _ = try VideoFixture.decodeAll(decoder) }
        #expect(try decoder.next() == nil)
    }
}
