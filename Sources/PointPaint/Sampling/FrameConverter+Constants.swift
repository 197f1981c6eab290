/// Fixed-point constants of the conversion, derived once from the encoding.
///
/// Units: per-pixel work is 16-bit with 5 fraction bits (1/32 level, "F5"); per-chroma terms are
/// computed in 32-bit with 13 fraction bits (1/8192 level) and brought to F5 with `>> 8`. With
/// 13 bits every chroma coefficient fits `Int16` (the largest, BT.2020 video-range blue,
/// 2.142 · 8192 = 17,546), so code × coefficient is a 16 × 16 → 32-bit product, which LLVM
/// compiles to one `vpmaddwd` instead of a two-µop, ten-cycle `vpmulld`.
///
/// - luma: `yv = (Y * lumaScale) >> lumaShift` in F5, unsigned 16-bit
///   (`lumaScale = round(s · 32 · 2^lumaShift)`, s = 1 full range or 255/219 video range,
///   `lumaShift` the largest with `255 · lumaScale ≤ 65535`, so the product fits UInt16);
/// - chroma: `rT = (Cr·red + redBias) >> 8`, `gT = (greenBias − Cb·greenCb − Cr·greenCr) >> 8`,
///   `bT = (Cb·blue + blueBias) >> 8` in F5; the biases fold in −128 on the chroma codes (with
///   the rounded coefficient, so its rounding error scales with |C − 128| ≤ 128: at most
///   1/128 level), the video-range luma offset, half a level for rounding and half a unit for
///   each floor;
/// - a channel is `(yv + term) >> 5`, clamped to 0…255.
///
/// Worst case against the exact value before rounding: about 2.5/32 level for full range (luma
/// exact), about 0.15 level for video range (luma scale 149/4 against 37.26). Within 1 level after
/// rounding, and equal to the rounded reference except next to a half-level boundary.
struct FrameConverterConstants: Sendable {
    /// F5 fraction bits of the per-pixel arithmetic.
    static let fractionBits = 5
    /// Fraction bits of the chroma coefficients and biases.
    static let termFractionBits = 13
    /// Shift from 13-bit fractions to F5: 13 − 5.
    static let termShift: Int32 = 8

    let lumaScale: UInt16
    let lumaShift: UInt16
    /// Chroma coefficients, 13 fraction bits (see above: they fit `Int16`).
    let red: Int16, greenCb: Int16, greenCr: Int16, blue: Int16
    /// Biases, 13 fraction bits.
    let redBias: Int32, greenBias: Int32, blueBias: Int32

    /// Bilinear chroma arrives in sixteenths of a code: these are the chroma coefficients in
    /// 1/65536 level per 1/16 code, and the luma coefficient in 1/65536 level per code.
    let bilinearLuma: Int32, bilinearLumaBias: Int32
    let bilinearRed: Int32, bilinearGreenCb: Int32, bilinearGreenCr: Int32, bilinearBlue: Int32
    /// Chroma x offset in quarter chroma texels: 0 for centre siting, 1 for left siting.
    let leftSited: Bool

    init(encoding: YCbCrEncoding, siting: ChromaSiting) {
        let c = encoding.matrix.decodeCoefficients
        let (ys, yo, cs): (Double, Double, Double) = switch encoding.range {
        case .full: (1, 0, 1)
        case .video: (255.0 / 219, 16 * 255.0 / 219, 255.0 / 224)  // Y′ = (Y − 16)·255/219, C′ = (C − 128)·255/224
        }
        // Luma: the largest shift keeping 255 · scale within UInt16.
        var shift = 0
        while shift < 8, (ys * 32 * Double(1 << (shift + 1))).rounded() * 255 <= 65535 { shift += 1 }
        let scale = (ys * 32 * Double(1 << shift)).rounded()
        lumaScale = UInt16(scale)
        lumaShift = UInt16(shift)
        // Mean loss of the luma floor, in F5 units, when the product is not a multiple of 2^shift.
        let lumaFloor = Int(scale) % (1 << shift) == 0 ? 0 : 0.5 * (1 - 1 / Double(1 << shift))

        let fine = Double(1 << Self.termFractionBits)     // 13 fraction bits
        let f5 = Double(1 << Self.termShift)                 // one F5 unit in 13-bit fractions
        // Constant part of every channel, in 1/8192 level: −luma offset, +0.5 level so the final
        // floor rounds, +0.5 F5 unit for the term's floor, + the luma floor's mean loss.
        let base = (-yo + 0.5) * fine + 0.5 * f5 + lumaFloor * f5
        red = Int16((c.rCr * cs * fine).rounded())
        blue = Int16((c.bCb * cs * fine).rounded())
        greenCb = Int16((c.gCb * cs * fine).rounded())
        greenCr = Int16((c.gCr * cs * fine).rounded())
        redBias = Int32((base - 128 * Double(red)).rounded())
        blueBias = Int32((base - 128 * Double(blue)).rounded())
        greenBias = Int32((base + 128 * (Double(greenCb) + Double(greenCr))).rounded())

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

    /// One pixel with the fast path's arithmetic, scalar: for the columns a 16-pixel step
    /// cannot cover (images narrower than 16 pixels). Returns R, G, B.
    @inline(__always)
    func nearestPixel(y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let yv = Int32((UInt16(y) &* lumaScale) >> lumaShift)
        let cb = Int32(cb), cr = Int32(cr)
        let r = (cr &* Int32(red) &+ redBias) >> Self.termShift
        let g = (greenBias &- cb &* Int32(greenCb) &- cr &* Int32(greenCr)) >> Self.termShift
        let b = (cb &* Int32(blue) &+ blueBias) >> Self.termShift
        return (Self.clamp8((yv + r) >> 5), Self.clamp8((yv + g) >> 5), Self.clamp8((yv + b) >> 5))
    }

    @inline(__always)
    static func clamp8(_ v: Int32) -> UInt8 { UInt8(min(max(v, 0), 255)) }
}
