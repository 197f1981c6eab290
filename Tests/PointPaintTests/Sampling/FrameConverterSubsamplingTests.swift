import Testing
@testable import PointPaint

/// Whole-frame conversion of 4:2:2, 4:4:0, 4:4:4 and odd-sized 4:2:0: the reference against
/// the standards, the fast path against the reference and against its scalar model, and the
/// fast path on even 4:2:0 against the NV12 bilinear kernel.
@Suite struct FrameConverterSubsamplingTests {
    typealias Case = CapturedImageSamplerSubsamplingTests.Case
    static let cases = CapturedImageSamplerSubsamplingTests.cases
    static let encodings = CapturedImageSamplerTests.encodings

    /// Sizes below, at and above the passes' vector steps (16 values, 8 chroma pairs), odd and even.
    static let sizes = [(1, 1), (2, 2), (3, 5), (7, 2), (16, 3), (17, 4), (33, 9), (50, 7), (66, 6)]

    /// An image with random codes (padding too), row strides beyond its rows and planes at an
    /// offset in their buffers.
    static func randomImage(_ subsampling: ChromaSubsampling, width: Int, height: Int, rng: inout SplitMix64) -> YCbCrImage {
        let (cw, ch) = subsampling.chromaSize(width: width, height: height)
        let lumaStride = width + Int.random(in: 0 ... 7, using: &rng), chromaStride = 2 * cw + Int.random(in: 0 ... 7, using: &rng)
        let lumaOffset = Int.random(in: 0 ... 5, using: &rng), chromaOffset = Int.random(in: 0 ... 5, using: &rng)
        func bytes(_ count: Int) -> [UInt8] { (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &rng) } }
        return YCbCrImage(width: width, height: height, subsampling: subsampling,
                          luma: MappedBytes(copying: bytes(lumaOffset + lumaStride * height)), lumaOffset: lumaOffset, lumaStride: lumaStride,
                          chroma: MappedBytes(copying: bytes(chromaOffset + chromaStride * ch)), chromaOffset: chromaOffset,
                          chromaStride: chromaStride)
    }

    /// `convertSubsampledScalar` over the whole image.
    static func scalarModel(_ image: YCbCrImage, _ converter: FrameConverter, _ layout: PixelLayout, _ interpolation: Interpolation) -> [UInt8] {
        scalarConversion(image, converter, layout) { planes, k in
            planes.convertSubsampledScalar(rows: 0 ..< image.height, subsampling: image.subsampling, interpolation: interpolation, k)
        }
    }

    /// The output of `convert`, a scalar model of the converter, run on the whole image's planes
    /// with the converter's constants.
    static func scalarConversion(_ image: YCbCrImage, _ converter: FrameConverter, _ layout: PixelLayout,
                                 _ convert: (FramePlanes, FrameConverterConstants) -> Void) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.width * image.height * layout.bytesPerPixel)
        let k = FrameConverterConstants(encoding: converter.encoding, siting: converter.siting)
        image.luma.withUnsafeBytes { luma in
            image.chroma.withUnsafeBytes { chroma in
                out.withUnsafeMutableBytes { o in
                    convert(FramePlanes(image: image, luma: luma, chroma: chroma, output: o, layout: layout), k)
                }
            }
        }
        return out
    }

    /// Largest difference between two byte arrays of the same size.
    static func worst(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count)
        return zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test("The reference's nearest rounds the standard's value of each block's chroma", arguments: ChromaSubsampling.allCases)
    func referenceMatchesTheStandard(_ subsampling: ChromaSubsampling) {
        var rng = SplitMix64(seed: 41)
        let image = Self.randomImage(subsampling, width: 13, height: 7, rng: &rng)
        for encoding in Self.encodings {
            var out: [UInt8] = []
            FrameConverter(encoding: encoding).convertReference(image, to: .rgb8, into: &out)
            var worst = 0.0
            for y in 0 ..< image.height {
                for x in 0 ..< image.width {
                    let c = image.chromaValue(x: x / subsampling.horizontal, y: y / subsampling.vertical)
                    let v = Reference.rgb(Double(image.lumaValue(x: x, y: y)), Double(c.cb), Double(c.cr), encoding.matrix, encoding.range)
                    for channel in 0 ..< 3 {
                        worst = max(worst, abs(Double(out[(y * image.width + x) * 3 + channel]) - min(max(v[channel], 0), 255)))
                    }
                }
            }
            // Nearest integer to the clamped value (exact ties may go either way in floating point).
            #expect(worst <= 0.5 + 1e-9, "\(encoding): \(worst)")
        }
    }

    @Test("Fast conversion is within 1 level of the reference and equals its scalar model", arguments: cases)
    func fastMatchesReferenceAndModel(_ test: Case) {
        var rng = SplitMix64(seed: 43)
        for encoding in Self.encodings {
            let converter = FrameConverter(encoding: encoding, siting: test.siting)
            for (width, height) in Self.sizes {
                // Even 4:2:0 takes the NV12 kernels (tested in FrameConverterTests).
                if test.subsampling == .yuv420, width % 2 == 0, height % 2 == 0 { continue }
                let image = Self.randomImage(test.subsampling, width: width, height: height, rng: &rng)
                for interpolation in Interpolation.allCases {
                    let label = "\(encoding) \(width)x\(height) \(interpolation)"
                    let rgba = converter.converted(image, to: .rgba8, interpolation: interpolation)
                    var reference: [UInt8] = []
                    converter.convertReference(image, to: .rgba8, interpolation: interpolation, into: &reference)
                    #expect(Self.worst(rgba, reference) <= Tolerance.levels, "\(label)")
                    #expect(rgba == Self.scalarModel(image, converter, .rgba8, interpolation), "\(label): differs from the scalar model")
                    let rgb = converter.converted(image, to: .rgb8, interpolation: interpolation)
                    #expect(rgb == rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element), "\(label): rgb8 is not rgba8 less alpha")
                    #expect(converter.converted(image, to: .rgba8, interpolation: interpolation, threads: 3) == rgba, "\(label): bands differ")
                }
            }
        }
    }

    @Test("Extreme codes reach both clamps as the scalar model does", arguments: ChromaSubsampling.allCases)
    func extremeCodes(_ subsampling: ChromaSubsampling) {
        var rng = SplitMix64(seed: 47)
        let (width, height) = (51, 7)
        let (cw, ch) = subsampling.chromaSize(width: width, height: height)
        let image = YCbCrImage(width: width, height: height, subsampling: subsampling,
                               lumaPlane: (0 ..< width * height).map { _ in UInt8.random(in: 0 ... 1, using: &rng) * 255 },
                               chromaPlane: (0 ..< 2 * cw * ch).map { _ in UInt8.random(in: 0 ... 1, using: &rng) * 255 })
        for encoding in Self.encodings {
            for siting in ChromaSiting.allCases {
                let converter = FrameConverter(encoding: encoding, siting: siting)
                for interpolation in Interpolation.allCases {
                    #expect(converter.converted(image, interpolation: interpolation) == Self.scalarModel(image, converter, .rgba8, interpolation),
                            "\(encoding) \(siting) \(interpolation)")
                }
            }
        }
    }

    @Test("On even 4:2:0 the general passes give the NV12 bilinear kernel's bytes", arguments: ChromaSiting.allCases)
    func generalPassesEqualTheBilinearKernel(_ siting: ChromaSiting) {
        var rng = SplitMix64(seed: 53)
        for (width, height) in [(2, 2), (18, 6), (34, 10), (66, 4)] {
            let image = Self.randomImage(.yuv420, width: width, height: height, rng: &rng)
            for encoding in Self.encodings {
                let converter = FrameConverter(encoding: encoding, siting: siting)
                let k = FrameConverterConstants(encoding: encoding, siting: siting)
                var general = [UInt8](repeating: 0, count: width * height * 4), model = general
                image.luma.withUnsafeBytes { luma in
                    image.chroma.withUnsafeBytes { chroma in
                        general.withUnsafeMutableBytes { o in
                            FramePlanes(image: image, luma: luma, chroma: chroma, output: o, layout: .rgba8)
                                .convertSubsampled(rows: 0 ..< height, subsampling: .yuv420, interpolation: .bilinear, k)
                        }
                        model.withUnsafeMutableBytes { o in
                            FramePlanes(image: image, luma: luma, chroma: chroma, output: o, layout: .rgba8)
                                .convertBilinearScalar(rowPairs: 0 ..< height / 2, k)
                        }
                    }
                }
                #expect(general == converter.converted(image, interpolation: .bilinear), "\(encoding) \(width)x\(height)")
                #expect(general == model, "\(encoding) \(width)x\(height): differs from the NV12 bilinear scalar model")
            }
        }
    }

    @Test("Half-width chroma: hand-computed weights on an odd width")
    func halfWidthWeights() {
        // 5 × 1 in 4:2:2, Y = 128, Cr = 128, Cb = 100, 200, 160: B = 128 + 1.772·(Cb − 128).
        let image = YCbCrImage(width: 5, height: 1, subsampling: .yuv422, lumaPlane: [UInt8](repeating: 128, count: 5),
                               chromaPlane: [100, 128, 200, 128, 160, 128])
        func blues(_ siting: ChromaSiting, _ interpolation: Interpolation) -> [UInt8] {
            let rgb = FrameConverter(encoding: .arkit, siting: siting).converted(image, to: .rgb8, interpolation: interpolation)
            return (0 ..< 5).map { rgb[3 * $0 + 2] }
        }
        // Centre: chroma positions −0.25 (clamped: 100), 0.25 (125), 0.75 (175), 1.25 (190), 1.75
        // (¼·200 + ¾·160 = 170; pair 2's sample sits on the right edge, x = 5).
        // B: 78.38, 122.68, 211.28, 237.86, 202.42.
        #expect(blues(.center, .bilinear) == [78, 123, 211, 238, 202])
        // Left: positions 0, 0.5, 1, 1.5, 2 → 100, 150, 200, 180, 160 → 78.38, 166.98, 255.58, 220.14, 184.70.
        #expect(blues(.left, .bilinear) == [78, 167, 255, 220, 185])
        // Nearest: pairs 0, 0, 1, 1, 2 whatever the siting.
        #expect(blues(.left, .nearest) == [78, 78, 255, 255, 185])
        #expect(blues(.center, .nearest) == blues(.left, .nearest))
    }

    @Test("4:4:4: every pixel decodes its own chroma, bilinear or nearest, either siting")
    func fullResolutionChroma() {
        var rng = SplitMix64(seed: 59)
        let image = Self.randomImage(.yuv444, width: 23, height: 5, rng: &rng)
        let nearest = FrameConverter(encoding: .arkit).converted(image, interpolation: .nearest)
        for siting in ChromaSiting.allCases {
            #expect(FrameConverter(encoding: .arkit, siting: siting).converted(image, interpolation: .bilinear) == nearest)
        }
        var reference: [UInt8] = []
        FrameConverter(encoding: .arkit).convertReference(image, interpolation: .nearest, into: &reference)
        #expect(Self.worst(nearest, reference) <= Tolerance.levels)
    }
}
