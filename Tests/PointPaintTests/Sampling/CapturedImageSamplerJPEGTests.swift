import Foundation
import Testing
@testable import PointPaint

/// JPEGs that libjpeg's `cjpeg` writes in each subsampling, decoded to their planes and sampled
/// in them, against a float64 decode of the planes an independent decoder (ffmpeg's, with the
/// reference IDCT) gives for the same file: within the JPEG decoder tests' tolerance.
@Suite struct CapturedImageSamplerJPEGTests {
    /// cjpeg's `-sample` option and ffmpeg's pixel format for each subsampling.
    static let kinds: [(subsampling: ChromaSubsampling, sample: String, ffmpeg: String)] = [
        (.yuv422, "2x1", "yuvj422p"), (.yuv444, "1x1", "yuvj444p"), (.yuv420, "2x2", "yuvj420p"), (.yuv440, "1x2", "yuvj440p"),
    ]

    /// Two conforming IDCTs give planes within `JPEGDecoderTests.idctTolerance` codes of each
    /// other: one code of Y′ and of Cb or Cr moves an R′G′B′ channel by at most 1 + 1.772 levels
    /// (full-range BT.601's largest coefficient, blue from Cb); plus the sampler's own float error.
    static let levels = Double(JPEGDecoderTests.idctTolerance) * (1 + 1.772) + CapturedImageSamplerSubsamplingTests.levelTolerance

    /// The mean of the largest channel difference from ffmpeg's planes: IDCTs agree on almost
    /// every code, so almost every sample is within rounding of the other decoder's.
    static let meanLevels = 0.25

    @Test(arguments: kinds.indices, [(96, 64), (95, 63)])
    func samplesEqualAFloat64DecodeOfTheJPEG(kind: Int, size: (Int, Int)) throws {
        let (subsampling, sample, format) = Self.kinds[kind]
        let dir = TemporaryDirectory()
        let path = try JPEGDecoderTests.cjpegPattern(width: size.0, height: size.1, options: ["-sample", sample], in: dir)
        let (planes, info) = try JPEGDecoder.decode(try FileBytes.read(path), file: path)
        let image = YCbCrImage(planes)
        #expect(image.subsampling == subsampling)

        // ffmpeg's planes, Y then Cb then Cr, held in an image for the reference to read.
        let raw = try ExternalTool.ffmpegJPEGPlanes(path, pixelFormat: format)
        let (w, h) = size, (cw, ch) = subsampling.chromaSize(width: w, height: h)
        try #require(raw.count == w * h + 2 * cw * ch)
        let theirs = YCbCrImage(YCbCrPlanes(width: w, height: h, subsampling: subsampling, luma: Array(raw[0 ..< w * h]),
                                            cb: Array(raw[w * h ..< w * h + cw * ch]), cr: Array(raw[(w * h + cw * ch)...])))

        // The image holds the JPEG's own planes: those of the independent decoder, within the
        // JPEG decoder tests' tolerance.
        let ours = YCbCrPlanes(image), reference = YCbCrPlanes(theirs)
        JPEGDecoderTests().expectClose(ours.luma + ours.cb + ours.cr, reference.luma + reference.cb + reference.cr)

        let encoding = JPEGInfo.encoding
        var rng = SplitMix64(seed: 99)
        for interpolation in Interpolation.allCases {
            let sampler = CapturedImageSampler(image: image, encoding: encoding, siting: JPEGInfo.siting, primaries: info.primaries,
                                               interpolation: interpolation)
            // Every pixel centre, then random points.
            var points = (0 ..< h).flatMap { y in (0 ..< w).map { x in SIMD2((Double(x) + 0.5) / Double(w), (Double(y) + 0.5) / Double(h)) } }
            points += (0 ..< 2000).map { _ in SIMD2(Double(Float(rng.unit())), Double(Float(rng.unit()))) }
            var worstOwn = 0.0, worst = 0.0, sum = 0.0, compared = 0
            for p in points {
                if interpolation == .nearest, SubsampledReference.nearBoundary(image, siting: JPEGInfo.siting, s: p.x, t: p.y) { continue }
                let got = SIMD3<Double>(try #require(sampler.color(at: p, space: .capture))) * 255
                func decode(_ planes: YCbCrImage) -> SIMD3<Double> {
                    let c = SubsampledReference.codes(planes, siting: JPEGInfo.siting, interpolation: interpolation, s: p.x, t: p.y)
                    return Reference.rgb(c.x, c.y, c.z, encoding.matrix, encoding.range)
                }
                // Exact on the planes sampled; within the IDCTs' difference of the other decoder's.
                worstOwn = max(worstOwn, maximumDifference(got, decode(image)))
                let d = maximumDifference(got, decode(theirs))
                worst = max(worst, d)
                sum += d
                compared += 1
            }
            let label = "\(subsampling.rawValue) \(size) \(interpolation)"
            #expect(compared >= w * h, "\(label): \(compared) points compared")
            #expect(worstOwn <= CapturedImageSamplerSubsamplingTests.levelTolerance, "\(label): \(worstOwn) levels from its own planes")
            #expect(worst <= Self.levels, "\(label): \(worst) levels from ffmpeg's planes")
            #expect(sum / Double(compared) <= Self.meanLevels, "\(label): \(sum / Double(compared)) levels on average from ffmpeg's planes")
        }
    }
}
