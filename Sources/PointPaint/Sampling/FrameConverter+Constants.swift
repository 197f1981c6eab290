/// Fixed-point constants of the conversion, derived once from the encoding.
///
/// Nearest chroma (the fast path) is all 16-bit, in F6 (1/64 level), so that each step is one
/// 16-bit vector instruction (`pmulhuw`, `paddw`, `psraw`, `packuswb`, SSE2 or AVX2):
/// - luma: `yv = (Y · luma) >> 8` with `luma = round(s · 64 · 256)` (s = 1 full range,
///   255/219 video range: 16,384 or 19,077), a high multiply of `Y << 8`;
/// - chroma: `rT = ((Cr · red) >> 8) + redBias`,
///   `gT = greenBias − ((Cb · greenCb) >> 8) − ((Cr · greenCr) >> 8)`,
///   `bT = ((Cb · blue) >> 8) + blueBias`, coefficients unsigned with 14 fraction bits (the
///   largest, BT.2020 video-range blue, 2.142 · 16384 = 35,091, fits `UInt16`), so each product
///   is a high multiply of `C << 8`; the biases (F6) fold in −128 on the chroma codes with the
///   rounded coefficient (so its rounding error scales with |C − 128| ≤ 128: at most 1/256
///   level), the video-range luma offset, half a level for rounding, and the mean loss of each
///   floor, less half a unit (an integer approximating 64·(v + ½) must round it down for the
///   final floor to round v);
/// - a channel is `(yv + term) >> 6`, clamped to 0…255.
///
/// Ranges: `yv` ≤ 19,002 and every term lies within −18,705…16,250, so both fit `Int16`; their
/// sum exceeds 32,767 only where the channel clamps to 255 (kernels add with saturation, or
/// with an offset in `UInt16`).
///
/// Error against the exact value before rounding, over every Y × Cb × Cr code: at most 0.026
/// level full range, 0.042 video range (each floor loses up to one F6 unit, centred by the bias;
/// each bias rounds by up to half a unit; video range's luma 19077/512 against 37.2603 adds up
/// to 0.005 level). Within 1 level after rounding; 99.6–99.9 % of R, G, B samples over all code
/// triples equal the rounded double-precision reference, 99.4–99.9 % on the tests' grid (every
/// Y, every fifth Cb and Cr; the previous F5 model with 32-bit chroma terms: 98.7–99.6 %).
///
/// Every nearest kernel (C AVX2 / AVX-512BW in `CPointPaintKernels`, Swift SIMD) computes
/// exactly `nearestPixel`.
struct FrameConverterConstants: Sendable {
    /// Fraction bits of the per-pixel arithmetic (F6).
    static let fractionBits = 6
    /// Fraction bits of the chroma coefficients: a high multiply of `C << 8` gives F6.
    static let coefficientFractionBits = 14

    /// Luma scale: `(Y · luma) >> 8` is F6.
    let luma: UInt16
    /// Chroma coefficients, 14 fraction bits, unsigned (green's are subtracted).
    let red: UInt16, greenCb: UInt16, greenCr: UInt16, blue: UInt16
    /// Biases in F6.
    let redBias: Int16, greenBias: Int16, blueBias: Int16

    /// Bilinear chroma arrives in sixteenths of a code: these are the chroma coefficients in
    /// 1/65536 level per 1/16 code, and the luma coefficient in 1/65536 level per code.
    let bilinearLuma: Int32, bilinearLumaBias: Int32
    let bilinearRed: Int32, bilinearGreenCb: Int32, bilinearGreenCr: Int32, bilinearBlue: Int32
    /// Chroma x offset in quarter chroma texels: 0 for centre siting, 1 for left siting.
    let leftSited: Bool

    init(encoding: YCbCrEncoding, siting: ChromaSiting) {
        let c = encoding.matrix.decodeCoefficients
        // Y′ = Y·ys − yo and C′ = (C − 128)·cs, in levels (`YCbCrRange`): the luma offset is
        // folded into the biases as levels, 16·255/219 for video range.
        let range = encoding.range
        let ys = range.lumaScale, yo = range.lumaOffset * range.lumaScale, cs = range.chromaScale
        let f6 = Double(1 << Self.fractionBits), fine = Double(1 << Self.coefficientFractionBits)
        let luma = (ys * f6 * 256).rounded()
        self.luma = UInt16(luma)
        /// Mean over the 256 codes of what `(code · m) >> 8` loses against `code · exact`, in F6.
        func meanLoss(_ m: Double, exact: Double) -> Double {
            (0 ..< 256).reduce(0.0) { sum, code in
                let v = Double(code)
                return sum + v * exact - (v * m / 256).rounded(.down)
            } / 256
        }
        red = UInt16((c.rCr * cs * fine).rounded())
        blue = UInt16((c.bCb * cs * fine).rounded())
        greenCb = UInt16((c.gCb * cs * fine).rounded())
        greenCr = UInt16((c.gCr * cs * fine).rounded())
        // Constant part of every channel, F6: −luma offset, +0.5 level so the final floor rounds,
        // −0.5 unit (the sum must approximate from below), + the luma term's mean loss.
        let base = (-yo + 0.5) * f6 - 0.5 + meanLoss(luma, exact: ys * f6)
        // A term's mean loss against its own (rounded) coefficient: the floor's.
        func loss(_ m: UInt16) -> Double { meanLoss(Double(m), exact: Double(m) / 256) }
        let zero = YCbCrRange.chromaOffset  // chroma code of no colour
        redBias = Int16((base - zero * Double(red) / 256 + loss(red)).rounded())
        blueBias = Int16((base - zero * Double(blue) / 256 + loss(blue)).rounded())
        greenBias = Int16((base + zero * Double(greenCb) / 256 + zero * Double(greenCr) / 256
                               - loss(greenCb) - loss(greenCr)).rounded())

        // Bilinear: all in 1/65536 level; chroma in 1/16 code, so coefficients / 16.
        let one = 65536.0
        bilinearLuma = Int32((ys * one).rounded())
        bilinearLumaBias = Int32(((-yo + 0.5) * one).rounded())
        bilinearRed = Int32((c.rCr * cs * one / 16).rounded())
        bilinearGreenCb = Int32((c.gCb * cs * one / 16).rounded())
        bilinearGreenCr = Int32((c.gCr * cs * one / 16).rounded())
        bilinearBlue = Int32((c.bCb * cs * one / 16).rounded())
        leftSited = siting == .left
    }

    /// One pixel with the fast path's arithmetic, scalar: the model every nearest kernel equals
    /// bit for bit, and the path for images narrower than a vector step. Returns R, G, B.
    @inline(__always)
    func nearestPixel(y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let (r, g, b) = nearestSums(y: y, cb: cb, cr: cr)
        return (Self.clamp8(r >> 6), Self.clamp8(g >> 6), Self.clamp8(b >> 6))
    }

    /// `nearestPixel`'s channels before the final shift and clamp: `yv + term`, F6.
    @inline(__always)
    func nearestSums(y: UInt8, cb: UInt8, cr: UInt8) -> (Int32, Int32, Int32) {
        let yv = Int32((UInt32(y) &* UInt32(luma)) >> 8)
        let cb = UInt32(cb), cr = UInt32(cr)
        let r = Int32((cr &* UInt32(red)) >> 8) &+ Int32(redBias)
        let g = Int32(greenBias) &- Int32((cb &* UInt32(greenCb)) >> 8) &- Int32((cr &* UInt32(greenCr)) >> 8)
        let b = Int32((cb &* UInt32(blue)) >> 8) &+ Int32(blueBias)
        return (yv &+ r, yv &+ g, yv &+ b)
    }

    @inline(__always)
    static func clamp8(_ v: Int32) -> UInt8 { UInt8(min(max(v, 0), 255)) }
}
