import Foundation
import PointPaint
import Testing

/// Videos encoded losslessly from known planes decode to exactly those planes, with the colour
/// description the encoder was told to write.
struct VideoDecoderTests {
    /// One lossless encoding and the description it must decode to.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let subsampling: ChromaSubsampling
        let encoder: [String]
        let codec: String
        let pixelFormat: String
        let color: VideoColorDescription
        var testDescription: String { name }
    }

    /// The encoder options that write a colour description.
    static func tags(range: String, matrix: String, primaries: String, transfer: String, chroma: String? = nil) -> [String] {
        ["-color_range", range, "-colorspace", matrix, "-color_primaries", primaries, "-color_trc", transfer]
            + (chroma.map { ["-chroma_sample_location", $0] } ?? [])
    }

    static let cases: [Case] = [
        Case(name: "H.264 4:2:0, BT.709 video range, left", subsampling: .yuv420,
             encoder: VideoFixture.losslessH264 + tags(range: "tv", matrix: "bt709", primaries: "bt709", transfer: "bt709", chroma: "left"),
             codec: "h264", pixelFormat: "yuv420p",
             color: VideoColorDescription(matrix: .bt709, range: .video, primaries: .srgb, transfer: .bt709, chromaSiting: .left)),
        // x264 writes a chroma location for 4:2:0 only; FFmpeg's H.264 decoder reports left when
        // the stream has none (siting means nothing at 4:4:4).
        Case(name: "H.264 4:4:4, BT.601 full range", subsampling: .yuv444,
             encoder: VideoFixture.losslessH264 + tags(range: "pc", matrix: "smpte170m", primaries: "bt709", transfer: "smpte170m"),
             codec: "h264", pixelFormat: "yuvj444p",
             color: VideoColorDescription(matrix: .bt601, range: .full, primaries: .srgb, transfer: .bt601, chromaSiting: .left)),
        Case(name: "H.264 4:2:0, BT.601 full range, centre", subsampling: .yuv420,
             encoder: VideoFixture.losslessH264
                 + tags(range: "pc", matrix: "bt470bg", primaries: "bt709", transfer: "iec61966-2-1", chroma: "center"),
             codec: "h264", pixelFormat: "yuvj420p",
             color: VideoColorDescription(matrix: .bt601, range: .full, primaries: .srgb, transfer: .srgb, chromaSiting: .center)),
        Case(name: "H.264 4:2:2, Display P3 (smpte432)", subsampling: .yuv422,
             encoder: VideoFixture.losslessH264
                 + tags(range: "tv", matrix: "bt709", primaries: "smpte432", transfer: "iec61966-2-1", chroma: "left"),
             codec: "h264", pixelFormat: "yuv422p",
             color: VideoColorDescription(matrix: .bt709, range: .video, primaries: .displayP3, transfer: .srgb, chromaSiting: .left)),
        Case(name: "HEVC 4:2:0, BT.2020", subsampling: .yuv420,
             encoder: VideoFixture.losslessHEVC
                 + tags(range: "tv", matrix: "bt2020nc", primaries: "bt2020", transfer: "bt2020-10", chroma: "left"),
             codec: "hevc", pixelFormat: "yuv420p",
             color: VideoColorDescription(matrix: .bt2020, range: .video, primaries: .bt2020, transfer: .bt2020, chromaSiting: .left)),
        // FFmpeg's decoders report left-sited chroma for a stream that says nothing (and its HEVC
        // decoder video range), so those are the stream's word as far as PointPaint can tell.
        Case(name: "H.264 4:2:0, untagged: players' defaults", subsampling: .yuv420,
             encoder: VideoFixture.losslessH264, codec: "h264", pixelFormat: "yuv420p",
             color: VideoColorDescription(matrix: .bt601, range: .video, primaries: .srgb, transfer: .bt709, chromaSiting: .left,
                                          defaults: [.matrix, .range, .primaries, .transfer])),
        Case(name: "HEVC 4:2:0, untagged: players' defaults", subsampling: .yuv420,
             encoder: VideoFixture.losslessHEVC, codec: "hevc", pixelFormat: "yuv420p",
             color: VideoColorDescription(matrix: .bt601, range: .video, primaries: .srgb, transfer: .bt709, chromaSiting: .left,
                                          defaults: [.matrix, .primaries, .transfer])),
    ]

    @Test("lossless videos decode to the exact planes and the tagged colour description", arguments: cases)
    func losslessRoundTrip(_ test: Case) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("video.mp4")
        let planes = VideoFixture.pattern(subsampling: test.subsampling)
        try VideoFixture.encode(planes, to: path, test.encoder)

        let decoder = try VideoDecoder(path: path)
        #expect(decoder.info.codec == test.codec)
        #expect(decoder.info.pixelFormat == test.pixelFormat)
        #expect(decoder.info.width == 64 && decoder.info.height == 48)
        #expect(decoder.info.subsampling == test.subsampling)
        #expect(decoder.info.frameCount == 8)
        #expect(decoder.info.frameRate == 30)
        #expect(decoder.info.color == test.color)
        let frames = try VideoFixture.decodeAll(decoder)
        #expect(frames.map(\.index) == Array(0 ..< 8))
        #expect(frames.map(\.planes) == planes)
        #expect(try decoder.next() == nil)

        // The images replay samples: the decoder's own luma plane, chroma interleaved, the same codes.
        let images = try Self.decodeImages(VideoDecoder(path: path))
        #expect(images.map(\.index) == Array(0 ..< 8))
        #expect(images.map(\.time) == frames.map(\.time))
        #expect(images.map { YCbCrPlanes($0.image) } == planes)
    }

    /// Every image `decoder` delivers through `nextImage(where:)`, after which the decoder is
    /// released: the images must stay readable without it.
    static func decodeImages(_ decoder: VideoDecoder) throws -> [(index: Int, time: Double, image: YCbCrImage)] {
        var images: [(index: Int, time: Double, image: YCbCrImage)] = []
        while let image = try decoder.nextImage(where: { _ in true }) { images.append(image) }
        #expect(try decoder.nextImage(where: { _ in true }) == nil)
        return images
    }

    @Test("HD untagged video defaults to BT.709; the description says which fields are defaults")
    func hdDefaultsToBT709() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("hd.mp4")
        try VideoFixture.encode(VideoFixture.pattern(width: 1280, height: 16, count: 1), to: path, VideoFixture.losslessH264)
        let info = try VideoDecoder(path: path).info
        #expect(info.color.matrix == .bt709)
        #expect(info.color.defaults.contains(.matrix))
        #expect(info.description == "h264 1280×16 yuv420p (4:2:0), 1 frame, 30 fps, 0.033 s; bt709 (default), "
            + "video range (default), srgb primaries (default), bt709 transfer (default), left-sited chroma")
    }

    @Test("B-frames come out in presentation order, at their presentation times")
    func bFramesInPresentationOrder() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("b.mp4")
        let planes = VideoFixture.pattern()
        try VideoFixture.encode(planes, to: path, VideoFixture.losslessHEVC)
        let types = try VideoFixture.run("ffprobe", ["-v", "error", "-show_entries", "frame=pict_type", "-of", "csv=p=0", path])
        #expect(String(decoding: types, as: UTF8.self).contains("B"), "the fixture must hold B-frames")

        let frames = try VideoFixture.decodeAll(VideoDecoder(path: path))
        #expect(frames.map(\.index) == Array(0 ..< 8))
        #expect(frames.map(\.planes) == planes)
        for frame in frames {
            #expect(abs(frame.time - Double(frame.index) / 30) < 1e-9)
        }
    }

    @Test("a display rotation in the container is reported, not applied")
    func displayRotationIsReportedNotApplied() throws {
        let directory = TemporaryDirectory()
        let plain = directory.file("plain.mp4"), rotated = directory.file("rotated.mp4")
        let planes = VideoFixture.pattern()
        try VideoFixture.encode(planes, to: plain, VideoFixture.losslessH264)
        try VideoFixture.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated])
        let decoder = try VideoDecoder(path: rotated)
        #expect(try VideoDecoder(path: plain).info.displayRotation == nil)
        #expect(decoder.info.displayRotation == 90)
        #expect(decoder.info.description.hasSuffix("; a display rotation of 90° in the container, not applied (pictures read as stored)"))
        // The pictures as stored: 64×48, the planes encoded.
        #expect(decoder.info.width == 64 && decoder.info.height == 48)
        #expect(try VideoFixture.decodeAll(decoder).map(\.planes) == planes)
    }

    @Test("a raw HEVC stream with B-frames, without container timestamps, comes out in order")
    func rawStreamBFrames() throws {
        let directory = TemporaryDirectory()
        let mp4 = directory.file("b.mp4"), raw = directory.file("b.hevc")
        let planes = VideoFixture.pattern()
        try VideoFixture.encode(planes, to: mp4, VideoFixture.losslessHEVC)
        try VideoFixture.ffmpeg(["-i", mp4, "-c", "copy", raw])
        let frames = try VideoFixture.decodeAll(VideoDecoder(path: raw))
        #expect(frames.map(\.planes) == planes)
        #expect(frames.map(\.time) == frames.map(\.time).sorted())
    }

    @Test("lossy H.264 with B-frames decodes to what the ffmpeg tool decodes, at an odd size and one thread or three",
          arguments: [1, 3])
    func lossyMatchesFFmpeg(threads: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("lossy.mp4"), reference = directory.file("reference.yuv")
        let planes = VideoFixture.pattern(width: 70, height: 46, count: 12)
        try VideoFixture.encode(planes, to: path, ["-c:v", "libx264", "-qp", "24", "-bf", "2", "-x264-params", "b-adapt=0:scenecut=0"])
        try VideoFixture.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", reference])
        let expected = try Data(contentsOf: URL(fileURLWithPath: reference))

        let frames = try VideoFixture.decodeAll(VideoDecoder(path: path, threads: threads))
        #expect(frames.count == 12)
        var decoded = Data()
        for frame in frames { decoded.append(contentsOf: frame.planes.luma + frame.planes.cb + frame.planes.cr) }
        #expect(decoded == expected)
        #expect(frames.map(\.planes) != planes, "lossy: the test must not pass by the encoder being lossless")
        // Odd size: 35 × 23 chroma pairs, and luma rows the decoder pads past 70 bytes, which the
        // images keep (they read the decoder's own plane; a copy would be packed).
        let images = try Self.decodeImages(VideoDecoder(path: path, threads: threads))
        #expect(images.map { YCbCrPlanes($0.image) } == frames.map(\.planes))
        #expect(images.allSatisfy { $0.image.lumaStride > 70 })
    }

    @Test("next(where:) delivers only the wanted frames, with their own indices and planes")
    func selectedFrames() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("video.mp4")
        let planes = VideoFixture.pattern()
        try VideoFixture.encode(planes, to: path, VideoFixture.losslessHEVC)
        let decoder = try VideoDecoder(path: path)
        let wanted: Set = [1, 4, 7]
        var frames: [VideoFrame] = []
        while let frame = try decoder.next(where: wanted.contains) { frames.append(frame) }
        #expect(frames.map(\.index) == [1, 4, 7])
        #expect(frames.map(\.planes) == [planes[1], planes[4], planes[7]])
        let imageDecoder = try VideoDecoder(path: path)
        var images: [(index: Int, image: YCbCrImage)] = []
        while let image = try imageDecoder.nextImage(where: wanted.contains) { images.append((image.index, image.image)) }
        #expect(images.map(\.index) == [1, 4, 7])
        #expect(images.map { YCbCrPlanes($0.image) } == [planes[1], planes[4], planes[7]])
    }

    @Test("frameCount reads the container's count without decoding; nil for a raw stream")
    func frameCount() throws {
        let directory = TemporaryDirectory()
        let mp4 = directory.file("video.mp4"), raw = directory.file("video.h264")
        try VideoFixture.encode(VideoFixture.pattern(), to: mp4, VideoFixture.losslessH264)
        try VideoFixture.ffmpeg(["-i", mp4, "-c", "copy", raw])
        #expect(try VideoDecoder.frameCount(path: mp4) == 8)
        #expect(try VideoDecoder.frameCount(path: raw) == nil)
        let frames = try VideoFixture.decodeAll(VideoDecoder(path: raw))
        #expect(frames.count == 8)
    }

    @Test("a decoder moves to another thread and decodes there")
    func decodesOnAnotherThread() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("video.mp4")
        try VideoFixture.encode(VideoFixture.pattern(), to: path, VideoFixture.losslessH264)
        let decoder = try VideoDecoder(path: path)
        let count = try await Task.detached { try VideoFixture.decodeAll(decoder).count }.value
        #expect(count == 8)
    }
}
