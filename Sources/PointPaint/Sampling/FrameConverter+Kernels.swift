import CPointPaintKernels

/// Which kernel converts frames with nearest chroma. `.automatic` (the default) takes the
/// fastest this CPU runs; tests force each one against the scalar model.
enum NearestKernel: Sendable, CaseIterable, CustomStringConvertible {
    case automatic
    /// C, 512-bit vectors (x86-64 with AVX-512 F, BW and VL), 64 pixels × 2 rows a step.
    case avx512bw
    /// C, 256-bit vectors (x86-64 with AVX2), 32 pixels × 2 rows a step.
    case avx2
    /// Swift SIMD, 16 pixels × 2 rows a step: the portable path (SSE2 in the baseline x86-64
    /// build, NEON on arm64).
    case simd
    /// C, one pixel at a time: the C variants' reference (`pointpaint_nv12_nearest_rgba_c`),
    /// on every architecture. Never chosen by `.automatic`.
    case c

    /// Whether this CPU can run the kernel.
    var isAvailable: Bool {
        switch self {
        case .automatic, .simd, .c: true
        case .avx2: CPUKernel.cpu & Int(POINTPAINT_KERNELS_AVX2) != 0
        case .avx512bw: CPUKernel.cpu & Int(POINTPAINT_KERNELS_AVX512BW) != 0
        }
    }

    /// What `.automatic` runs on this CPU.
    static let best: NearestKernel = [.avx512bw, .avx2].first { $0.isAvailable } ?? .simd

    var description: String {
        switch self {
        case .automatic: "automatic"
        case .avx512bw: "AVX-512BW"
        case .avx2: "AVX2"
        case .simd: "Swift SIMD"
        case .c: "C reference"
        }
    }
}

/// The unsafe part of whole-frame conversion: plane and output addresses, reached only inside
/// `FrameConverter.convert`'s `withUnsafeBytes` scopes, and the row kernels. Each kernel writes
/// only the rows of the row pairs it is given, so bands may run on different threads.
struct FramePlanes: @unchecked Sendable {
    let width: Int
    let height: Int
    let luma: UnsafeRawPointer
    let lumaStride: Int
    let chroma: UnsafeRawPointer
    let chromaStride: Int
    let output: UnsafeMutableRawPointer
    let layout: PixelLayout

    init(image: YCbCrImage, luma: UnsafeRawBufferPointer, chroma: UnsafeRawBufferPointer,
         output: UnsafeMutableRawBufferPointer, layout: PixelLayout) {
        // YCbCrImage's initialiser already checked that both planes fit their buffers.
        precondition(output.count >= image.width * image.height * layout.bytesPerPixel, "output too small")
        width = image.width
        height = image.height
        self.luma = luma.baseAddress! + image.lumaOffset
        lumaStride = image.lumaStride
        self.chroma = chroma.baseAddress! + image.chromaOffset
        chromaStride = image.chromaStride
        self.output = output.baseAddress!
        self.layout = layout
    }

    // MARK: Nearest (fast path)

    /// Converts row pairs `pairs` with nearest chroma, with `kernel` (`.automatic`: the fastest
    /// this CPU runs). Every kernel computes `FrameConverterConstants.nearestPixel` exactly.
    func convertNearest(rowPairs pairs: Range<Int>, _ k: FrameConverterConstants, kernel: NearestKernel = .automatic) {
        precondition(pairs.lowerBound >= 0 && pairs.upperBound <= height / 2)
        let kernel = kernel == .automatic ? NearestKernel.best : kernel
        precondition(kernel.isAvailable, "the \(kernel) kernel needs an instruction set this CPU lacks")
        switch kernel {
        case .automatic, .simd:
            convertNearestSIMD(rowPairs: pairs, NearestTerms(k))
        case .c:
            convertNearestC(rowPairs: pairs, k, pointpaint_nv12_nearest_rgba_c)
        case .avx2, .avx512bw:
            #if arch(x86_64)
            convertNearestC(rowPairs: pairs, k,
                            kernel == .avx512bw ? pointpaint_nv12_nearest_rgba_avx512bw : pointpaint_nv12_nearest_rgba_avx2)
            #else
            preconditionFailure("the \(kernel) kernel is x86-64 only")
            #endif
        }
    }

    /// A C kernel of `CPointPaintKernels`: every variant has this signature (`…_c`, `…_avx2`,
    /// `…_avx512bw`).
    private typealias CKernel = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
                                                UnsafeMutablePointer<UInt8>?, Int, Int, Int,
                                                UnsafePointer<PointPaintNV12Constants>?) -> Void

    /// Converts row pairs `pairs` with the C kernel `kernel`.
    private func convertNearestC(rowPairs pairs: Range<Int>, _ k: FrameConverterConstants, _ kernel: CKernel) {
        var constants = PointPaintNV12Constants(
            luma: k.luma, red: k.red, greenCb: k.greenCb, greenCr: k.greenCr, blue: k.blue,
            redBias: k.redBias, greenBias: k.greenBias, blueBias: k.blueBias)
        let rowBytes = width * 4
        let y = luma.assumingMemoryBound(to: UInt8.self), c = chroma.assumingMemoryBound(to: UInt8.self)
        /// Row pairs `first ..< first + count` into `out` (row 2i at `out + 2 (i − first) · rowBytes`).
        func run(_ first: Int, _ count: Int, into out: UnsafeMutableRawPointer) {
            kernel(y + 2 * first * lumaStride, lumaStride, c + first * chromaStride, chromaStride,
                   out.assumingMemoryBound(to: UInt8.self), rowBytes, width, count, &constants)
        }
        switch layout {
        case .rgba8:
            run(pairs.lowerBound, pairs.count, into: output + 2 * pairs.lowerBound * rowBytes)
        case .rgb8:
            // Convert to RGBA in a scratch pair of rows, then drop alpha. One call a row pair: a
            // call's setup (the kernels' constant vectors, which the compiler folds into loads and
            // broadcasts) measured nothing beside converting the pair.
            withUnsafeTemporaryAllocation(byteCount: 2 * rowBytes, alignment: 64) { scratch in
                let s = scratch.baseAddress!
                for pair in pairs {
                    run(pair, 1, into: s)
                    dropAlpha(from: s, to: output + 2 * pair * width * 3, pixels: 2 * width)
                }
            }
        }
    }

    /// `FrameConverterConstants`' nearest constants for the Swift SIMD kernel: the biases with
    /// an offset of 320 levels (20,480 F6 units), so that `yv + term + offset` lies within
    /// 1,775…55,731 and wrapping `UInt16` arithmetic holds it without saturating adds.
    struct NearestTerms {
        static let offsetLevels: Int16 = 320
        let luma: UInt16, red: UInt16, greenCb: UInt16, greenCr: UInt16, blue: UInt16
        let redBias: UInt16, greenBias: UInt16, blueBias: UInt16
        let k: FrameConverterConstants

        init(_ k: FrameConverterConstants) {
            let offset = Int(Self.offsetLevels) << FrameConverterConstants.fractionBits
            luma = k.luma
            red = k.red; greenCb = k.greenCb; greenCr = k.greenCr; blue = k.blue
            redBias = UInt16(truncatingIfNeeded: Int(k.redBias) + offset)
            greenBias = UInt16(truncatingIfNeeded: Int(k.greenBias) + offset)
            blueBias = UInt16(truncatingIfNeeded: Int(k.blueBias) + offset)
            self.k = k
        }
    }

    /// The Swift SIMD kernel over row pairs `pairs`: the portable path (SSE2 in the baseline
    /// x86-64 build, NEON on arm64).
    private func convertNearestSIMD(rowPairs pairs: Range<Int>, _ t: NearestTerms) {
        // Full range scales luma by exactly 64 (16,384 = 64 · 256): with literal factors the luma
        // product is one shift instead of two multiplies, a shift and an add (about 10 % of the
        // SSE2 loop).
        if t.luma == 64 << 8 {
            convertNearestSIMD(rowPairs: pairs, t, scale: (64, 0))
        } else {
            convertNearestSIMD(rowPairs: pairs, t, scale: (t.luma >> 8, t.luma & 255))
        }
    }

    /// `convertNearestSIMD` with luma scaled by `Y · scale.0 + (Y · scale.1) >> 8`.
    @inline(__always)
    private func convertNearestSIMD(rowPairs pairs: Range<Int>, _ t: NearestTerms, scale: (UInt16, UInt16)) {
        let rowBytes = width * 4
        switch layout {
        case .rgba8:
            for pair in pairs {
                nearestRowPair(pair, into: output + 2 * pair * rowBytes, rowBytes: rowBytes, t, scale)
            }
        case .rgb8:
            // Convert to RGBA in a scratch pair of rows, then drop alpha.
            withUnsafeTemporaryAllocation(byteCount: 2 * rowBytes, alignment: 32) { scratch in
                let s = scratch.baseAddress!
                for pair in pairs {
                    nearestRowPair(pair, into: s, rowBytes: rowBytes, t, scale)
                    dropAlpha(from: s, to: output + 2 * pair * width * 3, pixels: 2 * width)
                }
            }
        }
    }

    /// Rows 2·pair and 2·pair+1 as RGBA into `out` (the second row `rowBytes` after the first).
    @inline(__always)
    private func nearestRowPair(_ pair: Int, into out: UnsafeMutableRawPointer, rowBytes: Int, _ t: NearestTerms,
                                _ scale: (UInt16, UInt16)) {
        let y0 = luma + 2 * pair * lumaStride
        let y1 = y0 + lumaStride
        let c = chroma + pair * chromaStride
        let o1 = out + rowBytes
        guard width >= 16 else {
            for x in 0 ..< width {
                let cb = c.load(fromByteOffset: x & ~1, as: UInt8.self), cr = c.load(fromByteOffset: x | 1, as: UInt8.self)
                for half in 0 ..< 2 {
                    let (r, g, b) = t.k.nearestPixel(y: (half == 0 ? y0 : y1).load(fromByteOffset: x, as: UInt8.self), cb: cb, cr: cr)
                    (half == 0 ? out : o1).storeBytes(of: UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000,
                                                      toByteOffset: 4 * x, as: UInt32.self)
                }
            }
            return
        }
        var x = 0
        while true {
            Self.nearest16x2(y0 + x, y1 + x, c + x, out + 4 * x, o1 + 4 * x, t, scale)
            if x == width - 16 { break }
            // The last step overlaps the previous one when width is not a multiple of 16; it
            // writes the same values again.
            x = min(x + 16, width - 16)
        }
    }

    /// 16 pixels × 2 rows sharing 8 chroma pairs, all in 16-bit lanes (SSE2: `pmullw`, `paddw`,
    /// `psrlw`, `pminsw`/`psubusw`, word unpacks; no 32-bit arithmetic): chroma terms once per
    /// pair (8 lanes), each duplicated into its two pixels' lanes; per row, luma, three adds,
    /// a shift and a clamp a channel, and a word interleave to RGBA.
    @inline(__always)
    private static func nearest16x2(_ y0: UnsafeRawPointer, _ y1: UnsafeRawPointer, _ c: UnsafeRawPointer,
                                    _ o0: UnsafeMutableRawPointer, _ o1: UnsafeMutableRawPointer, _ t: NearestTerms,
                                    _ scale: (UInt16, UInt16)) {
        // Eight Cb,Cr pairs as 16-bit lanes Cb | Cr << 8.
        let pairs = c.loadUnaligned(as: SIMD8<UInt16>.self)
        let cb = pairs & 0xFF, cr = pairs &>> 8
        let r = product(cr, t.red) &+ t.redBias
        let g = t.greenBias &- product(cb, t.greenCb) &- product(cr, t.greenCr)
        let b = product(cb, t.blue) &+ t.blueBias
        let rt = duplicated(r), gt = duplicated(g), bt = duplicated(b)
        row16(y0, o0, rt, gt, bt, scale)
        row16(y1, o1, rt, gt, bt, scale)
    }

    /// `(c · m) >> 8` for codes `c` ≤ 255, in 16-bit lanes only: `c · (m >> 8) + (c · (m & 255)) >> 8`
    /// (both products fit `UInt16`, and the split loses nothing), so two `pmullw`, a shift and an
    /// add. (The high multiply `pmulhuw` of `c << 8` is one instruction, but LLVM forms it from
    /// widened Swift SIMD arithmetic only sometimes, and falls back on 32-bit `pmuludq` emulation.)
    @inline(__always)
    private static func product(_ c: SIMD8<UInt16>, _ m: UInt16) -> SIMD8<UInt16> {
        product(c, (m &>> 8, m & 255))
    }

    /// `product` with the factor already split into its high and low bytes.
    @inline(__always)
    private static func product(_ c: SIMD8<UInt16>, _ m: (UInt16, UInt16)) -> SIMD8<UInt16> {
        c &* m.0 &+ ((c &* m.1) &>> 8)
    }

    /// Lane i into lanes 2i and 2i + 1.
    @inline(__always)
    private static func duplicated(_ t: SIMD8<UInt16>) -> SIMD16<UInt16> {
        SIMD16<UInt16>(t[0], t[0], t[1], t[1], t[2], t[2], t[3], t[3], t[4], t[4], t[5], t[5], t[6], t[6], t[7], t[7])
    }

    @inline(__always)
    private static func row16(_ y: UnsafeRawPointer, _ o: UnsafeMutableRawPointer,
                              _ rt: SIMD16<UInt16>, _ gt: SIMD16<UInt16>, _ bt: SIMD16<UInt16>, _ scale: (UInt16, UInt16)) {
        let bytes = y.loadUnaligned(as: SIMD16<UInt8>.self)
        // Widened by halves: SIMD16's own conversion is an outlined call.
        let yv = SIMD16<UInt16>(lowHalf: product(SIMD8<UInt16>(truncatingIfNeeded: bytes.lowHalf), scale),
                                highHalf: product(SIMD8<UInt16>(truncatingIfNeeded: bytes.highHalf), scale))
        let red = channel(yv &+ rt)
        let green = channel(yv &+ gt) &<< 8
        let blue = channel(yv &+ bt)
        let rg = red | green, ba = blue | -256
        // Interleave: pixels 0–7 and 8–15 as R | G << 8, B | A << 8 word pairs.
        let p0 = SIMD16<Int16>(rg[0], ba[0], rg[1], ba[1], rg[2], ba[2], rg[3], ba[3],
                               rg[4], ba[4], rg[5], ba[5], rg[6], ba[6], rg[7], ba[7])
        let p1 = SIMD16<Int16>(rg[8], ba[8], rg[9], ba[9], rg[10], ba[10], rg[11], ba[11],
                               rg[12], ba[12], rg[13], ba[13], rg[14], ba[14], rg[15], ba[15])
        o.storeBytes(of: p0, as: SIMD16<Int16>.self)
        o.storeBytes(of: p1, toByteOffset: 32, as: SIMD16<Int16>.self)
    }

    /// A channel from `yv + term + offset` (F6, `NearestTerms`' offset): `>> 6`, less the
    /// offset, clamped to 0…255.
    @inline(__always)
    private static func channel(_ v: SIMD16<UInt16>) -> SIMD16<Int16> {
        clamp255(unsafeBitCast(v &>> 6, to: SIMD16<Int16>.self) &- NearestTerms.offsetLevels)
    }

    /// Copies `pixels` RGBA pixels to RGB.
    func dropAlpha(from s: UnsafeRawPointer, to d: UnsafeMutableRawPointer, pixels: Int) {
        var i = 0
        // Four bytes stored a pixel, advancing three: the fourth is overwritten by the next pixel.
        while i < pixels - 1 {
            d.storeBytes(of: s.load(fromByteOffset: 4 * i, as: UInt32.self), toByteOffset: 3 * i, as: UInt32.self)
            i += 1
        }
        for j in 0 ..< 3 { d.storeBytes(of: s.load(fromByteOffset: 4 * i + j, as: UInt8.self), toByteOffset: 3 * i + j, as: UInt8.self) }
    }

    // MARK: Bilinear (vector kernel)

    /// Converts row pairs `pairs` with bilinear chroma (siting per docs/DESIGN.md, "Texel positions
    /// and chroma siting"; edges clamped), in the passes every subsampling shares
    /// (`convertSubsampled`), which for even 4:2:0 are:
    ///
    /// 1. vertical blend `3·near + far` of the two chroma rows, 16 bytes a step, in quarters;
    /// 2. horizontal upsampling to one Cb,Cr pair a pixel, 8 chroma pairs a step, in sixteenths
    ///    (exact: the weights are multiples of 1/4 on each axis);
    /// 3. decode with 32-bit arithmetic in 16-bit fractions of a level, 8 pixels a step,
    ///
    /// each over scratch rows of `Int16` (which stay in L1). The arithmetic is
    /// `convertBilinearScalar`'s with the constant terms folded together (wrapping `Int32` sums,
    /// so the regrouping changes no bit); the output equals it exactly.
    func convertBilinear(rowPairs pairs: Range<Int>, _ k: FrameConverterConstants) {
        precondition(pairs.lowerBound >= 0 && pairs.upperBound <= height / 2)
        convertSubsampled(rows: 2 * pairs.lowerBound ..< 2 * pairs.upperBound, subsampling: .yuv420, interpolation: .bilinear, k)
    }

    /// `convertBilinearScalar`'s decode constants, with the chroma centring (−2048 sixteenths)
    /// and the luma bias folded into one bias a channel, and luma's coefficient split as
    /// `Y·luma = Y << 16 + Y·lumaExtra`.
    ///
    /// The chroma coefficients and `lumaExtra` fit `Int16` and multiply values known to fit 15
    /// bits, so LLVM can compile a product to one `pmaddwd` (SSE2 has no 32-bit multiply; AVX2's
    /// `vpmulld` is two µops and ten cycles). It does so for most of them: coefficients it
    /// spills, or whose sign extension it no longer sees after hoisting, stay `pmulld`.
    struct BilinearTerms {
        let lumaExtra: Int16, red: Int16, greenCb: Int16, greenCr: Int16, blue: Int16
        let redBias: Int32, greenBias: Int32, blueBias: Int32

        init(_ k: FrameConverterConstants) {
            // Luma scales 1 or 255/219 and chroma coefficients below 2.2 levels a code: all fit.
            lumaExtra = Int16(k.bilinearLuma - 65536)
            red = Int16(k.bilinearRed)
            greenCb = Int16(k.bilinearGreenCb)
            greenCr = Int16(k.bilinearGreenCr)
            blue = Int16(k.bilinearBlue)
            redBias = k.bilinearLumaBias &- 2048 &* k.bilinearRed
            greenBias = k.bilinearLumaBias &+ 2048 &* k.bilinearGreenCb &+ 2048 &* k.bilinearGreenCr
            blueBias = k.bilinearLumaBias &- 2048 &* k.bilinearBlue
        }

        /// One pixel as an RGBA word, scalar: the vector step's arithmetic, for the last
        /// `width % 8` pixels.
        @inline(__always)
        func pixel(y: UInt8, cb: Int16, cr: Int16) -> UInt32 {
            let l = Int32(y) << 16 &+ Int32(y) &* Int32(lumaExtra), cb = Int32(cb), cr = Int32(cr)
            let r = FrameConverterConstants.clamp8((l &+ cr &* Int32(red) &+ redBias) >> 16)
            let g = FrameConverterConstants.clamp8((l &- cb &* Int32(greenCb) &- cr &* Int32(greenCr) &+ greenBias) >> 16)
            let b = FrameConverterConstants.clamp8((l &+ cb &* Int32(blue) &+ blueBias) >> 16)
            return UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000
        }
    }

    /// `v[i] = 3·near[i] + far[i]` for `i < count` (0…1020: quarters of a code).
    @inline(__always)
    static func blendRows(near: UnsafeRawPointer, far: UnsafeRawPointer, count: Int, into v: UnsafeMutablePointer<Int16>) {
        let out = UnsafeMutableRawPointer(v)
        var i = 0
        while i + 16 <= count {
            let n = widened(near.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let f = widened(far.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            out.storeBytes(of: n &* 3 &+ f, toByteOffset: 2 * i, as: SIMD16<Int16>.self)
            i += 16
        }
        while i < count {
            v[i] = 3 * Int16(near.load(fromByteOffset: i, as: UInt8.self)) + Int16(far.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
    }

    /// Bytes zero-extended to 16-bit lanes.
    @inline(__always)
    private static func widened(_ bytes: SIMD16<UInt8>) -> SIMD16<Int16> {
        SIMD16<Int16>(lowHalf: SIMD8<Int16>(truncatingIfNeeded: bytes.lowHalf),
                      highHalf: SIMD8<Int16>(truncatingIfNeeded: bytes.highHalf))
    }

    /// `upsample`'s arithmetic, 8 chroma pairs (16 pixels) a step: `v` holds the blended row with
    /// pairs −1 and `cw` set to the clamped edges; the last step reads and writes past the row,
    /// into the scratch rows' spare room.
    @inline(__always)
    static func upsampleRow(_ v: UnsafeMutablePointer<Int16>, into h: UnsafeMutablePointer<Int16>, chromaWidth cw: Int,
                                     left: Bool) {
        let src = UnsafeRawPointer(v), dst = UnsafeMutableRawPointer(h)
        var i = 0
        while i < cw {
            // Lanes 2j, 2j+1: Cb, Cr of pair i + j; `prev` and `next` are the neighbouring pairs.
            let here = src.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Int16>.self)
            let next = src.loadUnaligned(fromByteOffset: 4 * i + 4, as: SIMD16<Int16>.self)
            let even, odd: SIMD16<Int16>
            if left {
                even = here &<< 2
                odd = (here &+ next) &<< 1
            } else {
                let prev = src.loadUnaligned(fromByteOffset: 4 * i - 4, as: SIMD16<Int16>.self)
                even = here &* 3 &+ prev
                odd = here &* 3 &+ next
            }
            // Pixel 2(i+j) takes even pair j, pixel 2(i+j)+1 odd pair j: interleave 32 bits at a time.
            let e = unsafeBitCast(even, to: SIMD8<Int32>.self), o = unsafeBitCast(odd, to: SIMD8<Int32>.self)
            dst.storeBytes(of: SIMD8<Int32>(e[0], o[0], e[1], o[1], e[2], o[2], e[3], o[3]), toByteOffset: 8 * i, as: SIMD8<Int32>.self)
            dst.storeBytes(of: SIMD8<Int32>(e[4], o[4], e[5], o[5], e[6], o[6], e[7], o[7]), toByteOffset: 8 * i + 32,
                           as: SIMD8<Int32>.self)
            i += 8
        }
    }

    /// Decodes one row to RGBA from luma `y` and per-pixel Cb,Cr `h` (sixteenths, `Int16`
    /// pairs), 8 pixels a step, the last `width % 8` scalar.
    ///
    /// A function of its own, called once a row: inlined into the loops of `convertSubsampled`,
    /// its vector conversions stayed calls. The step advances its three pointers, so that they
    /// stay in registers.
    @inline(never)
    func decodeRow(_ y: UnsafeRawPointer, _ h: UnsafeMutablePointer<Int16>, _ o: UnsafeMutableRawPointer, _ t: BilinearTerms) {
        let lumaExtra = SIMD8<Int32>(repeating: Int32(t.lumaExtra)), red = SIMD8<Int32>(repeating: Int32(t.red))
        let greenCb = SIMD8<Int32>(repeating: Int32(t.greenCb)), greenCr = SIMD8<Int32>(repeating: Int32(t.greenCr))
        let blue = SIMD8<Int32>(repeating: Int32(t.blue))
        let vectorPixels = width & ~7
        var yp = y, hp = UnsafeRawPointer(h), op = o
        let end = y + vectorPixels
        while yp < end {
            let yv = SIMD8<Int32>(truncatingIfNeeded: yp.loadUnaligned(as: SIMD8<UInt8>.self))
            let l = (yv &<< 16) &+ yv &* lumaExtra
            // One Cb | Cr << 16 word a pixel, both 0…4080: masking to 12 bits loses nothing and
            // tells LLVM the products are 16 × 16-bit.
            let w = hp.loadUnaligned(as: SIMD8<Int32>.self)
            let cb = w & 0xFFF, cr = (w &>> 16) & 0xFFF
            // Levels before clamping lie within about ±600: 16-bit lanes hold them.
            let r = (l &+ cr &* red &+ t.redBias) &>> 16
            let g = (l &- cb &* greenCb &- cr &* greenCr &+ t.greenBias) &>> 16
            let b = (l &+ cb &* blue &+ t.blueBias) &>> 16
            let rg = Self.clamp255(SIMD16<Int16>(lowHalf: SIMD8<Int16>(truncatingIfNeeded: r), highHalf: SIMD8<Int16>(truncatingIfNeeded: g)))
            let bb = Self.clamp255(SIMD16<Int16>(lowHalf: SIMD8<Int16>(truncatingIfNeeded: b), highHalf: .zero))
            let lo = rg.lowHalf | rg.highHalf &<< 8, hi = bb.lowHalf | -256
            op.storeBytes(of: SIMD16<Int16>(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], lo[3], hi[3],
                                            lo[4], hi[4], lo[5], hi[5], lo[6], hi[6], lo[7], hi[7]),
                          as: SIMD16<Int16>.self)
            yp += 8
            hp += 32
            op += 32
        }
        for x in vectorPixels ..< width {
            o.storeBytes(of: t.pixel(y: y.load(fromByteOffset: x, as: UInt8.self), cb: h[2 * x], cr: h[2 * x + 1]),
                         toByteOffset: 4 * x, as: UInt32.self)
        }
    }

    /// Clamps to 0…255 with shift-and-mask arithmetic (one vector max and one min).
    @inline(__always)
    private static func clamp255(_ v: SIMD16<Int16>) -> SIMD16<Int16> {
        let z = v & ~(v &>> 15)                 // negative → 0
        let over = (255 &- z) &>> 15            // all ones where z > 255
        return (z | over) & 255
    }

    // MARK: Bilinear, scalar model

    /// Converts row pairs `pairs` with bilinear chroma, one value at a time: the model the
    /// vector kernel (`convertBilinear`) must equal bit for bit. Tests only.
    ///
    /// Chroma is interpolated exactly in sixteenths of a code (weights are multiples of 1/4 on
    /// each axis), then decoded with 32-bit arithmetic in 16-bit fractions of a level.
    func convertBilinearScalar(rowPairs pairs: Range<Int>, _ k: FrameConverterConstants) {
        precondition(pairs.lowerBound >= 0 && pairs.upperBound <= height / 2)
        let cw = width / 2, ch = height / 2
        let bpp = layout.bytesPerPixel
        // Vertically blended chroma row (quarters) and horizontally upsampled row (sixteenths).
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * cw + 2 * width) { scratch in
            let v = scratch.baseAddress!, h = v + 2 * cw
            for pair in pairs {
                for half in 0 ..< 2 {
                    let row = 2 * pair + half
                    // Chroma row position (row + 0.5)/2 − 0.5: rows pair−1, pair (¼, ¾) for an
                    // even row, pair, pair+1 (¾, ¼) for an odd one, clamped.
                    let other = min(max(half == 0 ? pair - 1 : pair + 1, 0), ch - 1)
                    let near = chroma + pair * chromaStride, far = chroma + other * chromaStride
                    for i in 0 ..< 2 * cw {
                        v[i] = 3 * Int32(near.load(fromByteOffset: i, as: UInt8.self)) + Int32(far.load(fromByteOffset: i, as: UInt8.self))
                    }
                    upsample(v, into: h, chromaWidth: cw, left: k.leftSited)
                    decodeBilinearRow(luma + row * lumaStride, h, output + row * width * bpp, k)
                }
            }
        }
    }

    /// Horizontal upsampling of a quarter-scaled chroma row to one Cb,Cr pair a pixel, in
    /// sixteenths. Centre siting: x = 2i takes chroma i−1, i (¼, ¾); x = 2i+1 takes i, i+1 (¾, ¼).
    /// Left siting: x = 2i takes chroma i; x = 2i+1 takes i, i+1 (½, ½). Edges clamped.
    private func upsample(_ v: UnsafeMutablePointer<Int32>, into h: UnsafeMutablePointer<Int32>, chromaWidth cw: Int, left: Bool) {
        for i in 0 ..< cw {
            let prev = max(i - 1, 0), next = min(i + 1, cw - 1)
            for c in 0 ..< 2 {
                let here = v[2 * i + c]
                if left {
                    h[4 * i + c] = 4 * here
                    h[4 * i + 2 + c] = 2 * here + 2 * v[2 * next + c]
                } else {
                    h[4 * i + c] = 3 * here + v[2 * prev + c]
                    h[4 * i + 2 + c] = 3 * here + v[2 * next + c]
                }
            }
        }
    }

    /// Decodes one row from luma and per-pixel chroma in sixteenths.
    func decodeBilinearRow(_ y: UnsafeRawPointer, _ h: UnsafeMutablePointer<Int32>, _ o: UnsafeMutableRawPointer,
                                   _ k: FrameConverterConstants) {
        let bpp = layout.bytesPerPixel
        for x in 0 ..< width {
            let yv = Int32(y.load(fromByteOffset: x, as: UInt8.self)) &* k.bilinearLuma &+ k.bilinearLumaBias
            // Chroma in sixteenths, centred on 128 · 16 = 2048.
            let cb = h[2 * x] &- 2048, cr = h[2 * x + 1] &- 2048
            let r = (yv &+ cr &* k.bilinearRed) >> 16
            let g = (yv &- cb &* k.bilinearGreenCb &- cr &* k.bilinearGreenCr) >> 16
            let b = (yv &+ cb &* k.bilinearBlue) >> 16
            let p = o + bpp * x
            p.storeBytes(of: FrameConverterConstants.clamp8(r), as: UInt8.self)
            p.storeBytes(of: FrameConverterConstants.clamp8(g), toByteOffset: 1, as: UInt8.self)
            p.storeBytes(of: FrameConverterConstants.clamp8(b), toByteOffset: 2, as: UInt8.self)
            if bpp == 4 { p.storeBytes(of: 255, toByteOffset: 3, as: UInt8.self) }
        }
    }
}
