import Foundation
import Testing
@testable import PointPaint

/// An independent double-precision reference of the standards, written from the texts
/// (ITU-T T.871 / ITU-R BT.601, BT.709, BT.2020) and not from the library's code.
enum Reference {
    static func weights(_ matrix: YCbCrMatrix) -> (kr: Double, kb: Double) {
        switch matrix {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
    }

    /// 8-bit codes → R′G′B′ on a 0…255 scale (unclamped).
    static func rgb(_ y: Double, _ cb: Double, _ cr: Double, _ matrix: YCbCrMatrix, _ range: YCbCrRange) -> SIMD3<Double> {
        let (kr, kb) = weights(matrix)
        let kg = 1 - kr - kb
        // Normalised E'Y in 0…1 and E'Pb, E'Pr in −0.5…0.5.
        let ey: Double, pb: Double, pr: Double
        if range == .full {
            ey = y / 255
            pb = (cb - 128) / 255
            pr = (cr - 128) / 255
        } else {
            ey = (y - 16) / 219
            pb = (cb - 128) / 224
            pr = (cr - 128) / 224
        }
        let r = ey + 2 * (1 - kr) * pr
        let b = ey + 2 * (1 - kb) * pb
        let g = (ey - kr * r - kb * b) / kg
        return SIMD3(r, g, b) * 255
    }

    static func byte(_ v: Double) -> Int { Int(min(max(v, 0), 255).rounded()) }
}

@Suite struct CapturedImageSamplerTests {
    /// An image whose 2×2 blocks each hold one (Y, Cb, Cr) combination from a dense grid.
    static func gridImage(step: Int) -> (YCbCrImage, [SIMD3<Int>]) {
        var values = Array(stride(from: 0, through: 255, by: step))
        if values.last != 255 { values.append(255) }
        var combos: [SIMD3<Int>] = []
        for y in values { for cb in values { for cr in values { combos.append(SIMD3(y, cb, cr)) } } }
        let blocksPerRow = 512
        let rows = (combos.count + blocksPerRow - 1) / blocksPerRow
        let w = blocksPerRow * 2, h = rows * 2
        var luma = [UInt8](repeating: 0, count: w * h), chroma = [UInt8](repeating: 128, count: w * h / 2)
        for (i, c) in combos.enumerated() {
            let bx = i % blocksPerRow, by = i / blocksPerRow
            for dy in 0 ..< 2 { for dx in 0 ..< 2 { luma[(2 * by + dy) * w + 2 * bx + dx] = UInt8(c.x) } }
            chroma[by * w + 2 * bx] = UInt8(c.y)
            chroma[by * w + 2 * bx + 1] = UInt8(c.z)
        }
        return (YCbCrImage(width: w, height: h, lumaPlane: luma, chromaPlane: chroma), combos)
    }

    static let encodings: [YCbCrEncoding] = YCbCrMatrix.allCases.flatMap { m in YCbCrRange.allCases.map { YCbCrEncoding(matrix: m, range: $0) } }

    @Test(arguments: encodings, [Interpolation.nearest, .bilinear])
    func denseGridMatchesTheStandardWithinOneLevel(encoding: YCbCrEncoding, interpolation: Interpolation) {
        let (image, combos) = Self.gridImage(step: 5)
        let sampler = CapturedImageSampler(image: image, encoding: encoding, interpolation: interpolation)
        var worst = 0
        for (i, c) in combos.enumerated() {
            let bx = i % 512, by = i / 512
            // Nearest: two of the block's pixel centres. Bilinear: the block's centre, the one point
            // where both the luma and the chroma interpolation read this block alone.
            let offsets = interpolation == .nearest ? [(0.5, 0.5), (1.5, 1.5)] : [(1.0, 1.0)]
            for (dx, dy) in offsets {
                let s = (Double(2 * bx) + dx) / Double(image.width), t = (Double(2 * by) + dy) / Double(image.height)
                guard let got = sampler.color(at: SIMD2(s, t), space: .capture) else {
                    Issue.record("no sample at \(s), \(t)")
                    return
                }
                let want = Reference.rgb(Double(c.x), Double(c.y), Double(c.z), encoding.matrix, encoding.range)
                for k in 0 ..< 3 {
                    worst = max(worst, abs(Reference.byte(Double(got[k]) * 255) - Reference.byte(want[k])))
                }
            }
        }
        #expect(worst <= Tolerance.levels, "largest difference \(worst) levels for \(encoding)")
    }

    /// Random planes; bilinear samples against a float64 bilinear reference of each plane.
    @Test(arguments: encodings)
    func bilinearMatchesAReferenceAwayFromTheBorder(encoding: YCbCrEncoding) {
        var random = SplitMix64(seed: 42)
        let w = 64, h = 48
        let luma = (0 ..< w * h).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let chroma = (0 ..< w * h / 2).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let image = YCbCrImage(width: w, height: h, lumaPlane: luma, chromaPlane: chroma)
        for siting in ChromaSiting.allCases {
            let sampler = CapturedImageSampler(image: image, encoding: encoding, siting: siting, interpolation: .bilinear)
            func bilerp(_ at: (Int, Int) -> Double, _ x: Double, _ y: Double) -> Double {
                let x0 = floor(x), y0 = floor(y), fx = x - x0, fy = y - y0
                let a = at(Int(x0), Int(y0)), b = at(Int(x0) + 1, Int(y0)), c = at(Int(x0), Int(y0) + 1), d = at(Int(x0) + 1, Int(y0) + 1)
                return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
            }
            var worst = 0
            for _ in 0 ..< 2000 {
                let s = 0.1 + 0.8 * random.unit(), t = 0.1 + 0.8 * random.unit()
                let yv = bilerp({ Double(luma[$1 * w + $0]) }, s * Double(w) - 0.5, t * Double(h) - 0.5)
                let shift = siting == .center ? 0.5 : 0.25
                let cx = s * Double(w) / 2 - shift, cy = t * Double(h) / 2 - 0.5
                let cb = bilerp({ Double(chroma[$1 * w + 2 * $0]) }, cx, cy)
                let cr = bilerp({ Double(chroma[$1 * w + 2 * $0 + 1]) }, cx, cy)
                let want = Reference.rgb(yv, cb, cr, encoding.matrix, encoding.range)
                let got = sampler.color(at: SIMD2(s, t), space: .capture)!
                for k in 0 ..< 3 { worst = max(worst, abs(Reference.byte(Double(got[k]) * 255) - Reference.byte(want[k]))) }
            }
            #expect(worst <= Tolerance.levels, "largest difference \(worst) levels, \(siting) siting")
        }
    }

    @Test func knownColours() throws {
        // Full-range BT.601: the JPEG equations.
        let white = YCbCrImage(width: 2, height: 2, lumaPlane: [255, 255, 255, 255], chromaPlane: [128, 128])
        #expect(CapturedImageSampler(image: white).rgb8(at: SIMD2(0.5, 0.5)) == SIMD3(255, 255, 255))
        let red = YCbCrImage(width: 2, height: 2, lumaPlane: [76, 76, 76, 76], chromaPlane: [85, 255])
        let got = try #require(CapturedImageSampler(image: red).rgb8(at: SIMD2(0.25, 0.75)))
        #expect(got.x >= 253 && got.y <= 1 && got.z <= 1, "\(got)")
        // The gist's mistake: the BT.709 matrix on BT.601 data is visibly wrong.
        let wrong = try #require(CapturedImageSampler(image: red, encoding: YCbCrEncoding(matrix: .bt709, range: .full)).rgb8(at: SIMD2(0.5, 0.5)))
        #expect(abs(Int(wrong.y) - Int(got.y)) > 20)
    }

    @Test func edgesOfTheCoordinateRange() throws {
        // Four columns with distinct luma; the last column must be reachable at s = 1 and just below.
        let image = YCbCrImage(width: 4, height: 2, lumaPlane: [10, 20, 30, 40, 10, 20, 30, 40], chromaPlane: [128, 128, 128, 128])
        for interpolation in Interpolation.allCases {
            let sampler = CapturedImageSampler(image: image, interpolation: interpolation)
            #expect(try #require(sampler.codes(at: SIMD2(0, 0))).x == 10)
            #expect(try #require(sampler.codes(at: SIMD2(1, 1))).x == 40)
            // Just below 1 in the sampler's own precision (Double(1).nextDown would round to 1 as a Float).
            #expect(Float(Double(Float(1).nextDown)) < 1)
            #expect(try #require(sampler.codes(at: SIMD2(Double(Float(1).nextDown), 0.5))).x == 40)
            #expect(sampler.codes(at: SIMD2(1.0001, 0.5)) == nil)
            #expect(sampler.codes(at: SIMD2(-0.0001, 0.5)) == nil)
            #expect(sampler.codes(at: SIMD2(.nan, 0.5)) == nil)
            #expect(sampler.codes(at: SIMD2(0.5, .infinity)) == nil)
            var clamping = sampler
            clamping.edgePolicy = .clamp
            #expect(try #require(clamping.codes(at: SIMD2(7, -3))).x == 40)
            #expect(clamping.codes(at: SIMD2(.nan, 0)) == nil)
        }
        // Nearest picks the pixel whose square holds the coordinate.
        let nearest = CapturedImageSampler(image: image, interpolation: .nearest)
        #expect(try #require(nearest.codes(at: SIMD2(0.2499, 0))).x == 10)
        #expect(try #require(nearest.codes(at: SIMD2(0.25, 0))).x == 20)
        // Bilinear halfway between pixel centres 1 and 2 (x = 2.0 of 4).
        #expect(try #require(CapturedImageSampler(image: image).codes(at: SIMD2(0.5, 0.5))).x == 25)
    }

    @Test func tinyImagesAndOddStrides() throws {
        // 2×2 image: Y rows 3 bytes apart, the CbCr row after 5 bytes of padding.
        let bytes: [UInt8] = [50, 60, 0xFF, 70, 80, 0xFF, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 100, 200, 0xEE]
        let image = YCbCrImage(width: 2, height: 2, luma: MappedBytes(copying: bytes), lumaOffset: 0, lumaStride: 3,
                              chroma: MappedBytes(copying: bytes), chromaOffset: 11, chromaStride: 3)
        let sampler = CapturedImageSampler(image: image, interpolation: .nearest)
        #expect(try #require(sampler.codes(at: SIMD2(0.9, 0.9))) == SIMD3(80, 100, 200))
        #expect(try #require(sampler.codes(at: SIMD2(0.1, 0.1))) == SIMD3(50, 100, 200))
        let bilinear = CapturedImageSampler(image: image)
        #expect(try #require(bilinear.codes(at: SIMD2(0.5, 0.5))) == SIMD3(65, 100, 200))
    }

    @Test func leftSitingShiftsChromaByAQuarterTexel() throws {
        // Cb rises 10 a chroma texel; at x = 0.5 (luma pixel 4 of 8 → chroma position 1.5 centre,
        // 1.75 left) the two sitings differ by 2.5 codes.
        let chroma: [UInt8] = [100, 128, 110, 128, 120, 128, 130, 128, 100, 128, 110, 128, 120, 128, 130, 128]
        let image = YCbCrImage(width: 8, height: 4, lumaPlane: .init(repeating: 128, count: 32), chromaPlane: chroma)
        let centre = try #require(CapturedImageSampler(image: image, siting: .center).codes(at: SIMD2(0.5, 0.5)))
        let left = try #require(CapturedImageSampler(image: image, siting: .left).codes(at: SIMD2(0.5, 0.5)))
        #expect(isApproximatelyEqual(centre.y, 115, tolerance: 1e-4))
        #expect(isApproximatelyEqual(left.y, 117.5, tolerance: 1e-4))
    }

    @Test func displayOrientationMapsOntoTheSensorImage() throws {
        // Sensor image in quadrants: top-left 10, top-right 20, bottom-left 30, bottom-right 40.
        let w = 8, h = 4
        var luma = [UInt8](repeating: 0, count: w * h)
        for y in 0 ..< h { for x in 0 ..< w { luma[y * w + x] = UInt8(10 + (x >= w / 2 ? 10 : 0) + (y >= h / 2 ? 20 : 0)) } }
        let sampler = CapturedImageSampler(image: YCbCrImage(width: w, height: h, lumaPlane: luma, chromaPlane: .init(repeating: 128, count: 16)),
                                           interpolation: .nearest)
        func lumaAt(_ orientation: DisplayOrientation, _ p: SIMD2<Double>) -> Float {
            let mapping = DisplayMapping(orientation: orientation, imageWidth: w, imageHeight: h)
            return sampler.codes(at: mapping.imageCoordinates(viewport: p))!.x
        }
        // The display's top-left corner shows, per orientation, this sensor quadrant:
        #expect(lumaAt(.landscapeRight, SIMD2(0.1, 0.1)) == 10)
        #expect(lumaAt(.portrait, SIMD2(0.1, 0.1)) == 30) // image rotated clockwise: its bottom-left comes to the top-left
        #expect(lumaAt(.portraitUpsideDown, SIMD2(0.1, 0.1)) == 20)
        #expect(lumaAt(.landscapeLeft, SIMD2(0.1, 0.1)) == 40)
        #expect(lumaAt(.portrait, SIMD2(0.9, 0.1)) == 10)
        for o in DisplayOrientation.allCases {
            let p = SIMD2(0.3, 0.8)
            let back = o.displayCoordinates(o.sensorCoordinates(p))
            #expect(isApproximatelyEqual(back.x, p.x, tolerance: Tolerance.doubleExact))
            #expect(isApproximatelyEqual(back.y, p.y, tolerance: Tolerance.doubleExact))
        }
    }

    @Test func aScreenTapOnAnAspectFilledViewportSamplesTheRightPixel() throws {
        // 1920×1440 sensor image shown upright on a 390×844 portrait screen: the rotated image
        // (1440×1920) is scaled by 844/1920 and its sides cropped.
        let mapping = DisplayMapping(orientation: .portrait, imageWidth: 1920, imageHeight: 1440, viewport: SIMD2(390, 844))
        let centre = mapping.imageCoordinates(viewport: SIMD2(0.5, 0.5))
        #expect(isApproximatelyEqual(centre.x, 0.5, tolerance: Tolerance.double))
        #expect(isApproximatelyEqual(centre.y, 0.5, tolerance: Tolerance.double))
        // The screen's left edge shows rotated-image x = 0.5 − 0.5·(390/(1440·844/1920)).
        let visible = 390 / (1440 * 844 / 1920.0)
        let leftEdge = mapping.imageCoordinates(viewport: SIMD2(0, 0))
        // Portrait: sensor t = 1 − display x (rotated), sensor s = display y.
        #expect(isApproximatelyEqual(leftEdge.y, 1 - (0.5 - 0.5 * visible), tolerance: Tolerance.double))
        #expect(isApproximatelyEqual(leftEdge.x, 0, tolerance: Tolerance.double))
    }

    @Test func batchMatchesSingleSamples() throws {
        let synth = CaptureSynthesizer(options: CaptureRoundTripTests.options())
        let image = synth.encode(synth.render(frame: 1))
        let sampler = CapturedImageSampler(image: image)
        var random = SplitMix64(seed: 3)
        let coordinates = (0 ..< 500).map { _ in SIMD2<Float>(Float(random.unit() * 1.2 - 0.1), Float(random.unit() * 1.2 - 0.1)) }
        for space in SampleSpace.allCases {
            var output: [SIMD3<Float>] = []
            let valid = sampler.sample(coordinates, into: &output, space: space)
            var expectedValid = 0
            for (c, o) in zip(coordinates, output) {
                if let single = sampler.color(at: SIMD2<Double>(c), space: space) {
                    expectedValid += 1
                    #expect(single == o)
                } else {
                    #expect(o.x.isNaN)
                }
            }
            #expect(valid == expectedValid)
            #expect(valid > 300 && valid < 500)
        }
    }

    @Test func samplersRunConcurrentlyOnManyFrames() async throws {
        let synth = CaptureSynthesizer(options: CaptureRoundTripTests.options())
        let images = (0 ..< 3).map { synth.encode(synth.render(frame: $0)) }
        let coordinates = (0 ..< 400).map { i in SIMD2<Float>(Float(i % 20) / 20 + 0.01, Float(i / 20) / 20 + 0.01) }
        func run(_ image: YCbCrImage) -> [SIMD3<Float>] {
            var out: [SIMD3<Float>] = []
            CapturedImageSampler(image: image).sample(coordinates, into: &out, space: .linear)
            return out
        }
        let sequential = images.map(run)
        let concurrent = await withTaskGroup(of: (Int, [SIMD3<Float>]).self) { group in
            for task in 0 ..< 24 {
                let index = task % images.count
                let image = images[index]
                group.addTask { (index, run(image)) }
            }
            var results: [(Int, [SIMD3<Float>])] = []
            for await r in group { results.append(r) }
            return results
        }
        #expect(concurrent.count == 24)
        for (index, result) in concurrent { #expect(result == sequential[index]) }
    }

    /// The float whole-image path against FrameConverter's independent double-precision
    /// reference: within 1 level, any thread count, both layouts.
    @Test(arguments: ChromaSiting.allCases)
    func pixelCentresMatchTheFrameConverterReference(siting: ChromaSiting) throws {
        let synth = CaptureSynthesizer(options: CaptureRoundTripTests.options(siting: siting))
        let image = synth.encode(synth.render(frame: 2))
        for interpolation in Interpolation.allCases {
            // FrameConverter's nearest shares each 2×2 block's chroma: centre siting for the sampler.
            let sampler = CapturedImageSampler(image: image, siting: interpolation == .nearest ? .center : siting, interpolation: interpolation)
            var reference: [UInt8] = []
            FrameConverter(encoding: .arkit, siting: siting).convertReference(image, to: .rgba8, interpolation: interpolation, into: &reference)
            let ours = sampler.pixelCentres(space: .capture, layout: .rgba8, threads: 1)
            #expect(ours.count == reference.count)
            let worst = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= Tolerance.levels, "\(interpolation): largest difference \(worst)")
            #expect(sampler.pixelCentres(space: .capture, layout: .rgba8, threads: 3) == ours)
            let rgb = sampler.pixelCentres(space: .capture, layout: .rgb8, threads: 2)
            #expect(rgb.count == image.width * image.height * 3)
            #expect(rgb[3 ..< 6] == ours[4 ..< 7])
        }
    }

    @Test func wideColourCapturesGiveExtendedValues() throws {
        // Fully saturated Display P3 red, encoded full-range BT.601.
        let encoding = YCbCrEncoding.arkit
        let ycc = encoding.ycbcr(rgb: SIMD3(1, 0, 0))
        let image = YCbCrImage(width: 2, height: 2, lumaPlane: .init(repeating: UInt8(ycc.x.rounded()), count: 4),
                              chromaPlane: [UInt8(ycc.y.rounded()), UInt8(min(ycc.z.rounded(), 255))])
        let sampler = CapturedImageSampler(image: image, primaries: .displayP3)
        let extended = try #require(sampler.color(at: SIMD2(0.5, 0.5), space: .extendedSRGB))
        #expect(extended.x > 1.05 && extended.y < -0.1, "\(extended)")
        let clamped = try #require(sampler.color(at: SIMD2(0.5, 0.5), space: .srgb))
        #expect(clamped.x == 1 && clamped.y == 0)
        let p3 = try #require(sampler.color(at: SIMD2(0.5, 0.5), space: .displayP3))
        #expect(p3.x > 0.99 && p3.y < 0.01)
    }
}
