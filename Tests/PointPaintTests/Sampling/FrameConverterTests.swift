import Testing
@testable import PointPaint

/// Every matrix × range, for `@Test(arguments:)`.
private let allEncodings: [YCbCrEncoding] = YCbCrMatrix.allCases.flatMap { m in
    YCbCrRange.allCases.map { YCbCrEncoding(matrix: m, range: $0) }
}

/// A float64 decode written from the standards' texts (T.871 / BT.601, BT.709, BT.2020), not
/// from `YCbCrEncoding`: normalised E′Y, E′Pb, E′Pr, then R and B from their colour differences
/// and G from the luma equation.
private enum StandardDecode {
    static func weights(_ matrix: YCbCrMatrix) -> (kr: Double, kb: Double) {
        switch matrix {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
    }

    /// R′G′B′ in 0…1, unclamped.
    static func rgb(_ y: Double, _ cb: Double, _ cr: Double, _ e: YCbCrEncoding) -> SIMD3<Double> {
        let (kr, kb) = weights(e.matrix)
        let ey, pb, pr: Double
        switch e.range {
        case .full: (ey, pb, pr) = (y / 255, (cb - 128) / 255, (cr - 128) / 255)
        case .video: (ey, pb, pr) = ((y - 16) / 219, (cb - 128) / 224, (cr - 128) / 224)
        }
        let r = ey + 2 * (1 - kr) * pr
        let b = ey + 2 * (1 - kb) * pb
        let g = (ey - kr * r - kb * b) / (1 - kr - kb)
        return SIMD3(r, g, b)
    }
}

/// An image with the given strides and plane offsets, every byte (padding too) random.
private func randomImage(width: Int, height: Int, lumaStride: Int, chromaStride: Int, lumaOffset: Int = 0,
                         chromaOffset: Int = 0, rng: inout SplitMix64) -> YCbCrImage {
    let lumaCount = lumaOffset + lumaStride * height
    let chromaCount = chromaOffset + chromaStride * height / 2
    let luma = (0 ..< lumaCount).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
    let chroma = (0 ..< chromaCount).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
    return YCbCrImage(width: width, height: height, luma: MappedBytes(copying: luma), lumaOffset: lumaOffset, lumaStride: lumaStride,
                     chroma: MappedBytes(copying: chroma), chromaOffset: chromaOffset, chromaStride: chromaStride)
}

/// A 2×2-block image whose blocks enumerate every chroma pair on a grid (step `chromaStep`)
/// with every luma code spread over the blocks' four pixels.
private func codeGridImage(chromaStep: Int) -> YCbCrImage {
    let chromaCodes = Array(stride(from: 0, through: 255, by: chromaStep))
    let pairs = chromaCodes.flatMap { cb in chromaCodes.map { cr in (UInt8(cb), UInt8(cr)) } }
    let blocks = pairs.count * 64                       // 64 blocks × 4 pixels = all 256 luma codes
    var side = 1
    while side * side < blocks { side += 1 }
    let width = 2 * side, height = 2 * side
    var luma = [UInt8](repeating: 0, count: width * height)
    var chroma = [UInt8](repeating: 128, count: width * height / 2)
    for block in 0 ..< side * side {
        let bx = block % side, by = block / side
        let (cb, cr) = pairs[(block / 64) % pairs.count]
        chroma[by * width + 2 * bx] = cb
        chroma[by * width + 2 * bx + 1] = cr
        for i in 0 ..< 4 {
            luma[(2 * by + i / 2) * width + 2 * bx + i % 2] = UInt8((4 * (block % 64) + i) % 256)
        }
    }
    return YCbCrImage(width: width, height: height, lumaPlane: luma, chromaPlane: chroma)
}

/// Largest per-sample difference, and the fraction of samples that are equal.
private func compare(_ a: [UInt8], _ b: [UInt8]) -> (maxDifference: Int, equalFraction: Double) {
    precondition(a.count == b.count)
    var worst = 0, equal = 0
    for i in a.indices {
        let d = abs(Int(a[i]) - Int(b[i]))
        worst = max(worst, d)
        if d == 0 { equal += 1 }
    }
    return (worst, Double(equal) / Double(max(a.count, 1)))
}

/// A one-block-per-chroma-sample image filled with the given codes.
private func uniformImage(width: Int = 2, height: Int = 2, y: UInt8, cb: UInt8, cr: UInt8) -> YCbCrImage {
    YCbCrImage(width: width, height: height, lumaPlane: [UInt8](repeating: y, count: width * height),
              chromaPlane: (0 ..< width * height / 2).map { $0 % 2 == 0 ? cb : cr })
}

/// `FramePlanes.convertBilinearScalar` over the whole image: the bilinear kernel's scalar model.
private func bilinearScalarModel(_ image: YCbCrImage, _ converter: FrameConverter, _ layout: PixelLayout) -> [UInt8] {
    FrameConverterSubsamplingTests.scalarConversion(image, converter, layout) { planes, k in
        planes.convertBilinearScalar(rowPairs: 0 ..< image.height / 2, k)
    }
}

@Suite struct FrameConverterTests {
    // MARK: The reference and YCbCrEncoding against the standards

    @Test("YCbCrEncoding.rgb matches a float64 decode written from the standards", arguments: allEncodings)
    func encodingMatchesStandards(_ encoding: YCbCrEncoding) {
        var worst = 0.0
        for y in stride(from: 0, through: 255, by: 3) {
            for cb in stride(from: 0, through: 255, by: 5) {
                for cr in stride(from: 0, through: 255, by: 5) {
                    let ours = encoding.rgb(y: Double(y), cb: Double(cb), cr: Double(cr))
                    let standard = StandardDecode.rgb(Double(y), Double(cb), Double(cr), encoding)
                    let d = ours - standard
                    worst = max(worst, abs(d.x), abs(d.y), abs(d.z))
                }
            }
        }
        #expect(worst < 1e-12, "YCbCrEncoding differs from the standard by \(worst)")
    }

    @Test("The reference conversion rounds the standard's value", arguments: allEncodings)
    func referenceMatchesStandards(_ encoding: YCbCrEncoding) {
        var rng = SplitMix64(seed: 11)
        let image = randomImage(width: 24, height: 12, lumaStride: 24, chromaStride: 24, rng: &rng)
        var out: [UInt8] = []
        FrameConverter(encoding: encoding).convertReference(image, to: .rgb8, into: &out)
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let c = image.chromaValue(x: x / 2, y: y / 2)
                let v = StandardDecode.rgb(Double(image.lumaValue(x: x, y: y)), Double(c.cb), Double(c.cr), encoding)
                for ch in 0 ..< 3 {
                    // Nearest integer to the clamped value; exact ties (Y + 1.772·125 = Y + 221.5) may
                    // go either way in floating point, hence the tolerance of 1e-9.
                    let exact = min(max(v[ch] * 255, 0), 255)
                    #expect(abs(Double(out[(y * image.width + x) * 3 + ch]) - exact) <= 0.5 + 1e-9, "pixel \(x),\(y) channel \(ch)")
                }
            }
        }
    }

    // MARK: Fast path against the reference

    @Test("Fast nearest is within 1 level of the reference over a dense Y×Cb×Cr grid", arguments: allEncodings)
    func fastMatchesReferenceOnCodeGrid(_ encoding: YCbCrEncoding) {
        // All 256 luma codes × Cb, Cr every 5 codes (0…255): 692,224 combinations.
        let image = codeGridImage(chromaStep: 5)
        let converter = FrameConverter(encoding: encoding)
        var fast: [UInt8] = [], reference: [UInt8] = []
        converter.convert(image, into: &fast)
        converter.convertReference(image, into: &reference)
        let (worst, equal) = compare(fast, reference)
        #expect(worst <= Tolerance.levels)
        // Near-exact by design: only values next to a half-level boundary may round the other way
        // (fixed-point errors within 0.026 level full range, 0.042 video range). Measured: 99.4–99.9 %
        // of R, G, B samples equal.
        #expect(equal > 0.99, "only \(equal) of samples equal the reference")
    }

    @Test("Fast nearest is within 1 level of the reference on random frames with odd strides and offsets",
          arguments: allEncodings)
    func fastMatchesReferenceOnRandomFrames(_ encoding: YCbCrEncoding) {
        var rng = SplitMix64(seed: 7)
        let converter = FrameConverter(encoding: encoding)
        // Widths below, at and above one 16-pixel step, not multiples of it, and tiny ones.
        for (width, height) in [(2, 2), (4, 2), (14, 4), (16, 2), (18, 6), (34, 4), (50, 8), (96, 6)] {
            let image = randomImage(width: width, height: height, lumaStride: width + Int.random(in: 0 ... 7, using: &rng),
                                    chromaStride: width + Int.random(in: 0 ... 7, using: &rng),
                                    lumaOffset: Int.random(in: 0 ... 5, using: &rng), chromaOffset: Int.random(in: 0 ... 5, using: &rng),
                                    rng: &rng)
            var fast: [UInt8] = [], reference: [UInt8] = []
            converter.convert(image, into: &fast)
            converter.convertReference(image, into: &reference)
            #expect(compare(fast, reference).maxDifference <= Tolerance.levels, "\(width)×\(height)")
        }
    }

    @Test("The automatic kernel equals its scalar fixed-point model bit for bit", arguments: allEncodings)
    func fastMatchesScalarModel(_ encoding: YCbCrEncoding) {
        // The scalar model (`nearestPixel`, also used for images narrower than 16 pixels) is the
        // kernels' arithmetic one pixel at a time; this is the kernel `convert` picks on this CPU.
        var rng = SplitMix64(seed: 13)
        let converter = FrameConverter(encoding: encoding)
        for (width, height) in [(16, 2), (18, 4), (34, 2), (66, 6)] {
            let image = randomImage(width: width, height: height, lumaStride: width + 3, chromaStride: width + 5,
                                    lumaOffset: 2, chromaOffset: 1, rng: &rng)
            let mismatches = scalarModelMismatches(image, converter.converted(image, to: .rgba8), encoding)
            #expect(mismatches == 0, "\(width)×\(height): \(mismatches) pixels differ from the scalar model")
        }
    }

    @Test("The Swift SIMD kernel equals the scalar model bit for bit")
    func simdKernelMatchesScalarModel() { checkKernelAgainstScalarModel(.simd) }

    @Test("The C reference kernel equals the scalar model bit for bit")
    func cKernelMatchesScalarModel() { checkKernelAgainstScalarModel(.c) }

    @Test("The AVX2 kernel equals the scalar model bit for bit", .enabled(if: NearestKernel.avx2.isAvailable, "CPU lacks AVX2"))
    func avx2KernelMatchesScalarModel() { checkKernelAgainstScalarModel(.avx2) }

    @Test("The AVX-512BW kernel equals the scalar model bit for bit",
          .enabled(if: NearestKernel.avx512bw.isAvailable, "CPU lacks AVX-512BW"))
    func avx512KernelMatchesScalarModel() { checkKernelAgainstScalarModel(.avx512bw) }

    /// `kernel` against `nearestPixel` for every matrix × range: random frames of widths below,
    /// at and above each kernel's step (16, 32, 64 pixels) and not multiples of it, odd strides
    /// and offsets; a frame of codes 0 and 255 only (both clamps, the largest sums); both
    /// layouts; and split over threads.
    private func checkKernelAgainstScalarModel(_ kernel: NearestKernel) {
        let sizes = [(2, 2), (6, 4), (14, 2), (16, 2), (18, 4), (30, 2), (32, 4), (34, 2), (46, 2), (62, 4), (64, 2), (66, 6),
                     (96, 2), (128, 2), (130, 4), (190, 6)]
        var rng = SplitMix64(seed: 17)
        for encoding in allEncodings {
            let converter = FrameConverter(encoding: encoding)
            var images = sizes.map { width, height in
                randomImage(width: width, height: height, lumaStride: width + Int.random(in: 0 ... 9, using: &rng),
                            chromaStride: width + Int.random(in: 0 ... 9, using: &rng), lumaOffset: Int.random(in: 0 ... 5, using: &rng),
                            chromaOffset: Int.random(in: 0 ... 5, using: &rng), rng: &rng)
            }
            let (w, h) = (98, 8)
            images.append(YCbCrImage(width: w, height: h, lumaPlane: (0 ..< w * h).map { _ in UInt8.random(in: 0 ... 1, using: &rng) * 255 },
                                    chromaPlane: (0 ..< w * h / 2).map { _ in UInt8.random(in: 0 ... 1, using: &rng) * 255 }))
            for image in images {
                var rgba: [UInt8] = [], rgb: [UInt8] = [], banded: [UInt8] = []
                converter.convert(image, to: .rgba8, interpolation: .nearest, threads: 1, kernel: kernel, into: &rgba)
                let mismatches = scalarModelMismatches(image, rgba, encoding)
                #expect(mismatches == 0, "\(kernel) \(encoding) \(image.width)×\(image.height): \(mismatches) pixels differ")
                converter.convert(image, to: .rgb8, interpolation: .nearest, threads: 1, kernel: kernel, into: &rgb)
                let withoutAlpha: [UInt8] = rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
                #expect(rgb == withoutAlpha, "\(kernel) \(encoding) \(image.width)×\(image.height): rgb8 is not rgba8 without alpha")
                converter.convert(image, to: .rgba8, interpolation: .nearest, threads: 3, kernel: kernel, into: &banded)
                #expect(banded == rgba, "\(kernel) \(encoding) \(image.width)×\(image.height): bands differ")
            }
        }
    }

    /// Pixels of RGBA `output` that differ from `nearestPixel` (alpha must be 255).
    private func scalarModelMismatches(_ image: YCbCrImage, _ output: [UInt8], _ encoding: YCbCrEncoding) -> Int {
        let k = FrameConverterConstants(encoding: encoding, siting: .center)
        var mismatches = 0
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let c = image.chromaValue(x: x / 2, y: y / 2)
                let (r, g, b) = k.nearestPixel(y: image.lumaValue(x: x, y: y), cb: c.cb, cr: c.cr)
                let i = 4 * (y * image.width + x)
                if Array(output[i ..< i + 4]) != [r, g, b, 255] { mismatches += 1 }
            }
        }
        return mismatches
    }

    @Test("The scalar model's fixed-point error is as documented", arguments: allEncodings)
    func scalarModelError(_ encoding: YCbCrEncoding) {
        // Every Y, every third Cb and Cr (0, 3, …, 255; 1.9 million triples): the worst error of
        // the fixed-point sum before the final floor, against FrameConverterConstants' figures
        // (0.026 level full, 0.042 video range, measured over all 16.7 million triples).
        let k = FrameConverterConstants(encoding: encoding, siting: .center)
        let c = encoding.matrix.decodeCoefficients
        let (ys, yo, cs): (Double, Double, Double) = encoding.range == .full ? (1, 0, 1) : (255.0 / 219, 16 * 255.0 / 219, 255.0 / 224)
        var worst = 0.0
        for cb in stride(from: 0, through: 255, by: 3) {
            for cr in stride(from: 0, through: 255, by: 3) {
                let u = Double(cb - 128) * cs, v = Double(cr - 128) * cs
                let terms = (c.rCr * v, -c.gCb * u - c.gCr * v, c.bCb * u)
                for y in 0 ... 255 {
                    let l = Double(y) * ys - yo
                    let s = k.nearestSums(y: UInt8(y), cb: UInt8(cb), cr: UInt8(cr))
                    // A sum approximates 64 · (value + ½); values far outside 0…255 clamp anyway.
                    func check(_ sum: Int32, _ exact: Double) {
                        if exact > -1 && exact < 256 { worst = max(worst, abs(Double(sum) / 64 - 0.5 - exact)) }
                    }
                    check(s.0, l + terms.0)
                    check(s.1, l + terms.1)
                    check(s.2, l + terms.2)
                }
            }
        }
        #expect(worst < (encoding.range == .full ? 0.026 : 0.042), "worst error \(worst) level")
    }

    @Test("Bilinear (centre and left siting) is within 1 level of the reference", arguments: allEncodings)
    func bilinearMatchesReference(_ encoding: YCbCrEncoding) {
        var rng = SplitMix64(seed: 3)
        for siting in ChromaSiting.allCases {
            let converter = FrameConverter(encoding: encoding, siting: siting)
            for (width, height) in [(2, 2), (6, 4), (22, 10), (40, 6)] {
                let image = randomImage(width: width, height: height, lumaStride: width + 3, chromaStride: width + 1,
                                        lumaOffset: 1, rng: &rng)
                for layout in PixelLayout.allCases {
                    var fast: [UInt8] = [], reference: [UInt8] = []
                    converter.convert(image, to: layout, interpolation: .bilinear, into: &fast)
                    converter.convertReference(image, to: layout, interpolation: .bilinear, into: &reference)
                    #expect(compare(fast, reference).maxDifference <= Tolerance.levels, "\(siting) \(width)×\(height) \(layout)")
                }
            }
        }
    }

    @Test("The bilinear vector kernel equals its scalar model bit for bit", arguments: allEncodings)
    func bilinearMatchesScalarModel(_ encoding: YCbCrEncoding) {
        // Widths below one 8-pixel step (2, 4, 6), with scalar tails (18, 22, 34, 66: chroma rows
        // of 18…66 bytes against 16-byte blend steps and 8-pair upsampling steps), and exact
        // multiples (16, 32); odd strides and plane offsets. Random codes reach both clamps.
        var rng = SplitMix64(seed: 29)
        let sizes = [(2, 2), (4, 2), (6, 4), (16, 2), (18, 6), (22, 4), (32, 4), (34, 10), (66, 6)]
        for siting in ChromaSiting.allCases {
            let converter = FrameConverter(encoding: encoding, siting: siting)
            for (width, height) in sizes {
                let image = randomImage(width: width, height: height, lumaStride: width + 3, chromaStride: width + 5,
                                        lumaOffset: 2, chromaOffset: 1, rng: &rng)
                for layout in PixelLayout.allCases {
                    let vector = converter.converted(image, to: layout, interpolation: .bilinear)
                    let model = bilinearScalarModel(image, converter, layout)
                    let differing = zip(vector, model).filter { $0 != $1 }.count
                    #expect(differing == 0, "\(siting) \(width)×\(height) \(layout): \(differing) bytes differ from the scalar model")
                }
            }
        }
    }

    @Test("The bilinear vector kernel equals its scalar model on extreme codes", arguments: ChromaSiting.allCases)
    func bilinearMatchesScalarModelAtExtremes(_ siting: ChromaSiting) {
        // Codes 0 and 255 only, in every plane: the largest chroma sums and the clamps at both ends.
        var rng = SplitMix64(seed: 31)
        let (width, height) = (50, 8)
        let luma = (0 ..< width * height).map { _ in UInt8.random(in: 0 ... 1, using: &rng) * 255 }
        let chroma = (0 ..< width * height / 2).map { _ in UInt8.random(in: 0 ... 1, using: &rng) * 255 }
        let image = YCbCrImage(width: width, height: height, lumaPlane: luma, chromaPlane: chroma)
        for encoding in allEncodings {
            let converter = FrameConverter(encoding: encoding, siting: siting)
            #expect(converter.converted(image, interpolation: .bilinear) == bilinearScalarModel(image, converter, .rgba8),
                    "\(encoding)")
        }
    }

    // MARK: Layouts and threads

    @Test("RGB8 is RGBA8 without alpha, and alpha is 255", arguments: [Interpolation.nearest, .bilinear])
    func rgbMatchesRGBA(_ interpolation: Interpolation) {
        var rng = SplitMix64(seed: 5)
        let image = randomImage(width: 38, height: 6, lumaStride: 41, chromaStride: 39, rng: &rng)
        let converter = FrameConverter(encoding: .arkit)
        let rgba = converter.converted(image, to: .rgba8, interpolation: interpolation)
        let rgb = converter.converted(image, to: .rgb8, interpolation: interpolation)
        #expect(rgba.count == 38 * 6 * 4 && rgb.count == 38 * 6 * 3)
        for i in 0 ..< 38 * 6 {
            #expect(Array(rgba[4 * i ..< 4 * i + 3]) == Array(rgb[3 * i ..< 3 * i + 3]))
            #expect(rgba[4 * i + 3] == 255)
        }
    }

    @Test("Rows split over several threads give identical output", arguments: [Interpolation.nearest, .bilinear])
    func multiCoreIdentical(_ interpolation: Interpolation) {
        var rng = SplitMix64(seed: 9)
        let image = randomImage(width: 66, height: 46, lumaStride: 70, chromaStride: 67, rng: &rng)
        let converter = FrameConverter(encoding: YCbCrEncoding(matrix: .bt709, range: .video), siting: .left)
        for layout in PixelLayout.allCases {
            let single = converter.converted(image, to: layout, interpolation: interpolation, threads: 1)
            for threads in [2, 3, 8, 64] {
                #expect(converter.converted(image, to: layout, interpolation: interpolation, threads: threads) == single,
                        "\(threads) threads, \(layout)")
            }
        }
    }

    @Test("A reused output array is resized, not trusted")
    func outputResized() {
        let image = uniformImage(width: 4, height: 2, y: 255, cb: 128, cr: 128)
        var out = [UInt8](repeating: 7, count: 3)
        FrameConverter().convert(image, to: .rgb8, into: &out)
        #expect(out == [UInt8](repeating: 255, count: 24))
    }

    // MARK: Hand-computed pixels

    @Test("White, black and grey decode exactly", arguments: allEncodings)
    func neutralColours(_ encoding: YCbCrEncoding) {
        let (black, white): (UInt8, UInt8) = encoding.range == .full ? (0, 255) : (16, 235)
        let converter = FrameConverter(encoding: encoding)
        for interpolation in Interpolation.allCases {
            #expect(converter.converted(uniformImage(y: white, cb: 128, cr: 128), to: .rgb8, interpolation: interpolation)
                == [UInt8](repeating: 255, count: 12))
            #expect(converter.converted(uniformImage(y: black, cb: 128, cr: 128), to: .rgb8, interpolation: interpolation)
                == [UInt8](repeating: 0, count: 12))
        }
        // Mid grey: full range Y = 128 → 128; video range Y = 126 → (126 − 16)·255/219 = 128.08 → 128.
        let grey: UInt8 = encoding.range == .full ? 128 : 126
        #expect(converter.converted(uniformImage(y: grey, cb: 128, cr: 128), to: .rgb8) == [UInt8](repeating: 128, count: 12))
    }

    @Test("Full-range BT.601 Y=76 Cb=85 Cr=255 is red")
    func red() {
        // R = 76 + 1.402·127 = 254.05; G = 76 + 0.344136·43 − 0.714136·127 = 0.10; B = 76 − 1.772·43 = −0.20.
        let image = uniformImage(y: 76, cb: 85, cr: 255)
        let converter = FrameConverter(encoding: .arkit)
        #expect(converter.converted(image, to: .rgba8) == [254, 0, 0, 255, 254, 0, 0, 255, 254, 0, 0, 255, 254, 0, 0, 255])
        var reference: [UInt8] = []
        converter.convertReference(image, to: .rgb8, into: &reference)
        #expect(Array(reference[0 ..< 3]) == [254, 0, 0])
    }

    @Test("Bilinear chroma weights follow the siting")
    func bilinearWeights() {
        // 4×2, Y = 128, Cr = 128, Cb = 100 then 200: B = 128 + 1.772·(Cb − 128).
        let image = YCbCrImage(width: 4, height: 2, lumaPlane: [UInt8](repeating: 128, count: 8), chromaPlane: [100, 128, 200, 128])
        func blues(_ siting: ChromaSiting) -> [UInt8] {
            let rgb = FrameConverter(encoding: .arkit, siting: siting).converted(image, to: .rgb8, interpolation: .bilinear)
            return (0 ..< 4).map { rgb[3 * $0 + 2] }
        }
        // Centre: positions −0.25 (clamped: 100), 0.25 (125), 0.75 (175), 1.25 (clamped: 200).
        // B: 78.39, 122.68, 211.28, 255.6 → 78, 123, 211, 255.
        #expect(blues(.center) == [78, 123, 211, 255])
        // Left: positions 0 (100), 0.5 (150), 1 (200), 1.5 (clamped: 200) → 78.39, 166.98, 255.6, 255.6.
        #expect(blues(.left) == [78, 167, 255, 255])
        // Nearest ignores siting: each 2×2 block keeps its own sample.
        let nearest = FrameConverter(encoding: .arkit, siting: .left).converted(image, to: .rgb8)
        #expect((0 ..< 4).map { nearest[3 * $0 + 2] } == [78, 78, 255, 255])
    }

    @Test("PNG export carries the converted samples")
    func pngImage() {
        let image = uniformImage(width: 4, height: 2, y: 76, cb: 85, cr: 255)
        let png = FrameConverter(encoding: .arkit).image(image)
        #expect(png.width == 4 && png.height == 2 && png.channels == 3 && png.bitDepth == 8)
        #expect(Array(png.samples8[0 ..< 3]) == [254, 0, 0])
    }
}
