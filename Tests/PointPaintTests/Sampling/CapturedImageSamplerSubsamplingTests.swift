import Foundation
import Testing
@testable import PointPaint

/// A float64 sampler written from docs/DESIGN.md ("Texel positions and chroma siting"), not from
/// the library's code: luma texel (i, j) sits at luma position (i + ½, j + ½); chroma texel
/// (i, j) of a plane subsampled by (fx, fy) at ((i + ½)·fx, (j + ½)·fy) for centre siting and
/// (i·fx + ½, (j + ½)·fy) for left siting. Nearest takes the texel whose position is nearest
/// (halfway: the later one), bilinear the four around, both clamped at the edges.
enum SubsampledReference {
    /// Y, Cb, Cr at scalar coordinates (s, t) already within [0, 1].
    static func codes(_ image: YCbCrImage, siting: ChromaSiting, interpolation: Interpolation, s: Double, t: Double) -> SIMD3<Double> {
        let x = s * Double(image.width), y = t * Double(image.height)
        let fx = Double(image.subsampling.horizontal), fy = Double(image.subsampling.vertical)
        // Position → texel coordinates (texel i at coordinate i), per plane.
        let luma = (x - 0.5, y - 0.5)
        let chroma = (siting == .center ? x / fx - 0.5 : (x - 0.5) / fx, y / fy - 0.5)
        let yv = sample(luma, width: image.width, height: image.height, interpolation, nearestLuma: (x, y)) {
            Double(image.lumaValue(x: $0, y: $1))
        }
        let cb = sample(chroma, width: image.chromaWidth, height: image.chromaHeight, interpolation, nearestLuma: nil) {
            Double(image.chromaValue(x: $0, y: $1).cb)
        }
        let cr = sample(chroma, width: image.chromaWidth, height: image.chromaHeight, interpolation, nearestLuma: nil) {
            Double(image.chromaValue(x: $0, y: $1).cr)
        }
        return SIMD3(yv, cb, cr)
    }

    /// A plane sampled at texel coordinates `p`. Nearest luma is the pixel whose square holds the
    /// point (`nearestLuma`: the point in pixel units), the same texel as the nearest centre.
    private static func sample(_ p: (Double, Double), width: Int, height: Int, _ interpolation: Interpolation,
                               nearestLuma: (Double, Double)?, _ at: (Int, Int) -> Double) -> Double {
        func clamp(_ v: Int, _ n: Int) -> Int { min(max(v, 0), n - 1) }
        switch interpolation {
        case .nearest:
            if let (x, y) = nearestLuma { return at(clamp(Int(x.rounded(.down)), width), clamp(Int(y.rounded(.down)), height)) }
            return at(clamp(Int((p.0 + 0.5).rounded(.down)), width), clamp(Int((p.1 + 0.5).rounded(.down)), height))
        case .bilinear:
            let x0 = p.0.rounded(.down), y0 = p.1.rounded(.down)
            let ax = p.0 - x0, ay = p.1 - y0
            let i = Int(x0), j = Int(y0)
            let top = at(clamp(i, width), clamp(j, height)) * (1 - ax) + at(clamp(i + 1, width), clamp(j, height)) * ax
            let bottom = at(clamp(i, width), clamp(j + 1, height)) * (1 - ax) + at(clamp(i + 1, width), clamp(j + 1, height)) * ax
            return top * (1 - ay) + bottom * ay
        }
    }

    /// Whether a nearest sample at (s, t) lies within `margin` texel of a boundary between two
    /// texels of a plane, where single and double precision may pick different ones. A
    /// coordinate of exactly 0 or 1 (an edge, or a point clamped to one) is exact in both.
    static func nearBoundary(_ image: YCbCrImage, siting: ChromaSiting, s: Double, t: Double, margin: Double = 1e-3) -> Bool {
        let x = s * Double(image.width), y = t * Double(image.height)
        let fx = Double(image.subsampling.horizontal), fy = Double(image.subsampling.vertical)
        let boundaries = (s == 0 || s == 1 ? [] : [x, (siting == .center ? x / fx - 0.5 : (x - 0.5) / fx) + 0.5])
            + (t == 0 || t == 1 ? [] : [y, y / fy])
        return boundaries.contains { abs($0 - $0.rounded()) < margin }
    }
}

/// Every subsampling × siting, sampled in its own planes against `SubsampledReference` and the
/// standards' decode (`Reference`): the whole code range, whole images of odd and even size,
/// the edges under both policies.
@Suite struct CapturedImageSamplerSubsamplingTests {
    struct Case: CustomStringConvertible, Sendable {
        var subsampling: ChromaSubsampling
        var siting: ChromaSiting
        var description: String { "\(subsampling.rawValue) \(siting)" }
    }

    static let cases = ChromaSubsampling.allCases.flatMap { s in ChromaSiting.allCases.map { Case(subsampling: s, siting: $0) } }
    static let encodings = CapturedImageSamplerTests.encodings

    /// Single precision against the float64 reference: `s·W` in `Float` moves a point by at most
    /// half an ulp of the image size (under 10⁻⁵ texel here), at most 255 codes a texel.
    static let codeTolerance = 0.01
    /// The same in levels once decoded (coefficients below 2.2 levels a code), 0…255 scale.
    static let levelTolerance = 0.05

    /// Blocks of fx × fy pixels sharing one chroma texel, each block one (Y, Cb, Cr) of a grid
    /// over 0…255 (step `step`, 255 included), luma the same across the block.
    static func gridImage(_ subsampling: ChromaSubsampling, step: Int) -> (YCbCrImage, [SIMD3<Int>]) {
        var values = Array(stride(from: 0, through: 255, by: step))
        if values.last != 255 { values.append(255) }
        let combos = values.flatMap { y in values.flatMap { cb in values.map { SIMD3(y, cb, $0) } } }
        let fx = subsampling.horizontal, fy = subsampling.vertical
        let blocksPerRow = 256, rows = (combos.count + blocksPerRow - 1) / blocksPerRow
        let w = blocksPerRow * fx, h = rows * fy
        var luma = [UInt8](repeating: 0, count: w * h), chroma = [UInt8](repeating: 128, count: 2 * blocksPerRow * rows)
        for (i, c) in combos.enumerated() {
            let bx = i % blocksPerRow, by = i / blocksPerRow
            for dy in 0 ..< fy { for dx in 0 ..< fx { luma[(fy * by + dy) * w + fx * bx + dx] = UInt8(c.x) } }
            chroma[2 * (by * blocksPerRow + bx)] = UInt8(c.y)
            chroma[2 * (by * blocksPerRow + bx) + 1] = UInt8(c.z)
        }
        return (YCbCrImage(width: w, height: h, subsampling: subsampling, lumaPlane: luma, chromaPlane: chroma), combos)
    }

    @Test(arguments: cases, encodings)
    func everyCodeOfTheGridDecodesToTheStandard(_ test: Case, encoding: YCbCrEncoding) throws {
        let (image, combos) = Self.gridImage(test.subsampling, step: 5)
        let fx = Double(test.subsampling.horizontal), fy = Double(test.subsampling.vertical)
        for interpolation in Interpolation.allCases {
            let sampler = CapturedImageSampler(image: image, encoding: encoding, siting: test.siting, interpolation: interpolation)
            var worstCode: Float = 0, worstLevel = 0
            for (i, c) in combos.enumerated() {
                // At the block's chroma sample (its position per siting, docs/DESIGN.md, "Texel
                // positions and chroma siting"): both planes read this block alone, nearest and
                // bilinear alike.
                let bx = Double(i % 256), by = Double(i / 256)
                let x = test.siting == .center ? (bx + 0.5) * fx : bx * fx + 0.5, y = (by + 0.5) * fy
                let p = SIMD2(x / Double(image.width), y / Double(image.height))
                let codes = try #require(sampler.codes(at: p))
                worstCode = max(worstCode, maximumDifference(codes, SIMD3<Float>(c)))
                let got = try #require(sampler.color(at: p, space: .capture))
                let want = Reference.rgb(Double(c.x), Double(c.y), Double(c.z), encoding.matrix, encoding.range)
                for k in 0 ..< 3 { worstLevel = max(worstLevel, abs(Reference.byte(Double(got[k]) * 255) - Reference.byte(want[k]))) }
            }
            #expect(Double(worstCode) <= Self.codeTolerance, "\(interpolation): codes off by \(worstCode)")
            #expect(worstLevel <= Tolerance.levels, "\(interpolation): \(worstLevel) levels")
        }
    }

    @Test(arguments: cases)
    func randomPlanesMatchTheReferenceEverywhere(_ test: Case) throws {
        var rng = SplitMix64(seed: 77)
        let encoding = YCbCrEncoding(matrix: .bt709, range: .video)
        for (width, height) in [(1, 1), (1, 3), (2, 2), (3, 1), (5, 3), (7, 8), (33, 17), (64, 48)] {
            let image = YCbCrImage(YCbCrImageTests.randomPlanes(test.subsampling, width: width, height: height, rng: &rng))
            for interpolation in Interpolation.allCases {
                for policy in CapturedImageSampler.EdgePolicy.allCases {
                    let sampler = CapturedImageSampler(image: image, encoding: encoding, siting: test.siting,
                                                       interpolation: interpolation, edgePolicy: policy)
                    // Random points over the image and a margin around it, then the corners and
                    // edge midpoints exactly.
                    var points = (0 ..< 600).map { _ in SIMD2(Float(rng.unit() * 1.2 - 0.1), Float(rng.unit() * 1.2 - 0.1)) }
                    points += [SIMD2(0, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(1, 0), SIMD2(0.5, 0), SIMD2(1, 0.5), SIMD2(0.5, 1), SIMD2(0, 0.5)]
                    var worstCode = 0.0, worstLevel = 0.0, compared = 0
                    for p in points {
                        // The sampler's own input point (a Float), in double precision.
                        var s = Double(p.x), t = Double(p.y)
                        let inside = (0 ... 1).contains(s) && (0 ... 1).contains(t)
                        let got = sampler.codes(at: SIMD2(s, t))
                        guard inside || policy == .clamp else {
                            #expect(got == nil, "\(width)x\(height) \(interpolation): a sample at \(p) under reject")
                            continue
                        }
                        (s, t) = (min(max(s, 0), 1), min(max(t, 0), 1))
                        if interpolation == .nearest, SubsampledReference.nearBoundary(image, siting: test.siting, s: s, t: t) { continue }
                        let codes = try #require(got)
                        let want = SubsampledReference.codes(image, siting: test.siting, interpolation: interpolation, s: s, t: t)
                        worstCode = max(worstCode, maximumDifference(SIMD3<Double>(codes), want))
                        let colour = try #require(sampler.color(at: SIMD2(Double(p.x), Double(p.y)), space: .capture))
                        let reference = Reference.rgb(want.x, want.y, want.z, encoding.matrix, encoding.range)
                        worstLevel = max(worstLevel, maximumDifference(SIMD3<Double>(colour) * 255, reference))
                        compared += 1
                    }
                    #expect(compared > 350, "\(width)x\(height) \(interpolation) \(policy): \(compared) samples compared")
                    #expect(worstCode <= Self.codeTolerance, "\(width)x\(height) \(interpolation) \(policy): codes off by \(worstCode)")
                    #expect(worstLevel <= Self.levelTolerance, "\(width)x\(height) \(interpolation) \(policy): \(worstLevel) levels")
                }
            }
        }
    }

    @Test func fourFourFourChromaSitsAtTheLumaCentresWhateverTheSiting() throws {
        var rng = SplitMix64(seed: 5)
        let image = YCbCrImage(YCbCrImageTests.randomPlanes(.yuv444, width: 9, height: 7, rng: &rng))
        for interpolation in Interpolation.allCases {
            let centre = CapturedImageSampler(image: image, siting: .center, interpolation: interpolation)
            let left = CapturedImageSampler(image: image, siting: .left, interpolation: interpolation)
            for _ in 0 ..< 200 {
                let p = SIMD2(rng.unit(), rng.unit())
                #expect(centre.codes(at: p) == left.codes(at: p))
            }
            // At a pixel centre, every plane reads that pixel exactly.
            let codes = try #require(centre.codes(at: SIMD2(3.5 / 9, 4.5 / 7)))
            let c = image.chromaValue(x: 3, y: 4)
            #expect(codes == SIMD3(Float(image.lumaValue(x: 3, y: 4)), Float(c.cb), Float(c.cr)))
        }
    }

    @Test func halfWidthChromaFollowsTheSitingOnOddWidths() throws {
        // 3 × 1 in 4:2:2: chroma pairs 0 and 1 (Cb 100 and 200) for pixels 0–1 and 2.
        let image = YCbCrImage(width: 3, height: 1, subsampling: .yuv422, lumaPlane: [128, 128, 128], chromaPlane: [100, 50, 200, 60])
        func cb(_ siting: ChromaSiting, _ x: Double, _ interpolation: Interpolation = .bilinear) throws -> Float {
            try #require(CapturedImageSampler(image: image, siting: siting, interpolation: interpolation).codes(at: SIMD2(x / 3, 0.5))).y
        }
        func expectCb(_ siting: ChromaSiting, _ x: Double, _ interpolation: Interpolation = .bilinear, want: Float,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
            let got = try cb(siting, x, interpolation)
            #expect(isApproximatelyEqual(got, want, tolerance: Float(Self.codeTolerance)), "\(siting) x \(x): \(got)", sourceLocation: sourceLocation)
        }
        // Centre: samples at x = 1 and 3 (the right edge: a pair of which one pixel exists).
        try expectCb(.center, 0.5, want: 100)                   // clamped before the first sample
        try expectCb(.center, 1.5, want: 125)                   // ¾ of pair 0, ¼ of pair 1
        try expectCb(.center, 2.5, want: 175)
        try expectCb(.center, 3, want: 200)                     // s = 1: on the last sample
        // Left: samples at pixel centres 0.5 and 2.5.
        try expectCb(.left, 0.5, want: 100)
        try expectCb(.left, 1.5, want: 150)
        try expectCb(.left, 2.5, want: 200)
        // Nearest, left: the pixel halfway between two samples takes the later one.
        try expectCb(.left, 1.5, .nearest, want: 200)
        try expectCb(.center, 1.5, .nearest, want: 100)
        // Luma is read at full resolution throughout, and s = 1 lies on the image.
        #expect(try #require(CapturedImageSampler(image: image).codes(at: SIMD2(1, 1))).x == 128)
    }

    @Test func halfHeightChromaOnOddHeights() throws {
        // 1 × 3 in 4:4:0: chroma rows 0 and 1 (Cr 40 and 80) for rows 0–1 and 2.
        let image = YCbCrImage(width: 1, height: 3, subsampling: .yuv440, lumaPlane: [1, 2, 3], chromaPlane: [128, 40, 128, 80])
        for siting in ChromaSiting.allCases {
            let sampler = CapturedImageSampler(image: image, siting: siting)
            #expect(try #require(sampler.codes(at: SIMD2(0.5, 1.5 / 3))).z == 50)  // ¾ row 0, ¼ row 1
            #expect(try #require(sampler.codes(at: SIMD2(0.5, 1))).z == 80)
            #expect(try #require(sampler.codes(at: SIMD2(0.5, 0))).z == 40)
            var clamping = sampler
            clamping.edgePolicy = .clamp
            #expect(try #require(clamping.codes(at: SIMD2(-4, 9))) == SIMD3(3, 128, 80))
            #expect(sampler.codes(at: SIMD2(0.5, 1.01)) == nil)
        }
    }

    /// The float whole-image path against FrameConverter's double-precision reference, every
    /// subsampling and siting (as `pixelCentresMatchTheFrameConverterReference` for NV12).
    @Test(arguments: cases)
    func pixelCentresMatchTheFrameConverterReference(_ test: Case) throws {
        var rng = SplitMix64(seed: 8)
        let image = YCbCrImage(YCbCrImageTests.randomPlanes(test.subsampling, width: 37, height: 21, rng: &rng))
        for interpolation in Interpolation.allCases {
            // FrameConverter's nearest shares each block's chroma: centre siting for the sampler.
            let sampler = CapturedImageSampler(image: image, siting: interpolation == .nearest ? .center : test.siting,
                                               interpolation: interpolation)
            var reference: [UInt8] = []
            FrameConverter(encoding: .arkit, siting: test.siting).convertReference(image, to: .rgba8, interpolation: interpolation,
                                                                                    into: &reference)
            let ours = sampler.pixelCentres(space: .capture, layout: .rgba8)
            let worst = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(ours.count == reference.count && worst <= Tolerance.levels, "\(interpolation): \(worst) levels")
        }
    }
}
