/// The matrix that turns R′G′B′ into Y′CbCr, named by its standard.
///
/// ARKit's `capturedImage` uses BT.601 (the JPEG / T.871 matrix) at full range.
public enum YCbCrMatrix: String, Sendable, CaseIterable, Codable, Hashable {
    /// ITU-R BT.601 / ITU-T T.871: Kr 0.299, Kb 0.114.
    case bt601
    /// ITU-R BT.709: Kr 0.2126, Kb 0.0722.
    case bt709
    /// ITU-R BT.2020 (non-constant luminance): Kr 0.2627, Kb 0.0593.
    case bt2020

    /// The red luma weight Kr.
    public var kr: Double {
        switch self {
        case .bt601: 0.299
        case .bt709: 0.2126
        case .bt2020: 0.2627
        }
    }

    /// The blue luma weight Kb.
    public var kb: Double {
        switch self {
        case .bt601: 0.114
        case .bt709: 0.0722
        case .bt2020: 0.0593
        }
    }

    /// The green luma weight Kg = 1 − Kr − Kb.
    public var kg: Double { 1 - kr - kb }

    /// Coefficients of the decode: R = Y′ + rCr·Cr′, G = Y′ − gCb·Cb′ − gCr·Cr′, B = Y′ + bCb·Cb′.
    public var decodeCoefficients: (rCr: Double, gCb: Double, gCr: Double, bCb: Double) {
        (2 * (1 - kr), 2 * kb * (1 - kb) / kg, 2 * kr * (1 - kr) / kg, 2 * (1 - kb))
    }
}

/// How Y′CbCr codes map onto the 8-bit range.
///
/// The one definition of each range's scale and offset, in 8-bit levels of R′G′B′ (0…255):
/// Y′ = (Y − `lumaOffset`) · `lumaScale` and C′ = (C − `chromaOffset`) · `chromaScale`, the
/// colour differences that the matrix (`YCbCrMatrix.decodeCoefficients`) turns into R′G′B′.
/// The sampler, the whole-frame converter's fixed-point constants and `YCbCrEncoding` all derive
/// their arithmetic from these.
public enum YCbCrRange: String, Sendable, CaseIterable, Codable, Hashable {
    /// Y 0…255, Cb/Cr 0…255 around 128 (ARKit's `420f`).
    case full
    /// Y 16…235, Cb/Cr 16…240 around 128 (`420v`).
    case video

    /// The luma code of black: 0 full range, 16 video range.
    public var lumaOffset: Double {
        switch self {
        case .full: 0
        case .video: 16
        }
    }

    /// Levels of R′G′B′ a luma code is worth: 1 full range, 255/219 video range (Y 16…235
    /// spans 0…255).
    public var lumaScale: Double {
        switch self {
        case .full: 1
        case .video: 255.0 / 219
        }
    }

    /// Levels a chroma code is worth: 1 full range, 255/224 video range (C 16…240 spans
    /// −127.5…127.5 around 128).
    public var chromaScale: Double {
        switch self {
        case .full: 1
        case .video: 255.0 / 224
        }
    }

    /// The chroma code of no colour, in either range: 128.
    public static let chromaOffset: Double = 128
}

/// Where a subsampled chroma sample sits relative to the luma samples it covers, across a row.
/// Down a column it is centred either way; a plane at full resolution (4:4:4, or 4:4:0 across)
/// sits on the luma samples whatever the siting.
public enum ChromaSiting: String, Sendable, CaseIterable, Codable, Hashable {
    /// Centred between the luma samples it covers (JPEG, ARKit).
    case center
    /// Level with the left column of luma samples it covers (MPEG-2, H.264 default).
    case left
}

/// A matrix and a range: everything needed to turn Y′CbCr codes into R′G′B′ and back.
public struct YCbCrEncoding: Sendable, Hashable {
    /// The matrix.
    public var matrix: YCbCrMatrix
    /// The code range.
    public var range: YCbCrRange

    /// Creates an encoding.
    public init(matrix: YCbCrMatrix, range: YCbCrRange) {
        self.matrix = matrix
        self.range = range
    }

    /// ARKit's `capturedImage`: BT.601 at full range.
    public static let arkit = YCbCrEncoding(matrix: .bt601, range: .full)

    /// Decodes 8-bit code values (possibly fractional, after interpolation) to R′G′B′ in 0…1,
    /// unclamped, exactly as docs/DESIGN.md, "Y′CbCr decoding" writes the standard, in double
    /// precision.
    public func rgb(y: Double, cb: Double, cr: Double) -> SIMD3<Double> {
        let yy = (y - range.lumaOffset) * range.lumaScale
        let u = (cb - YCbCrRange.chromaOffset) * range.chromaScale
        let v = (cr - YCbCrRange.chromaOffset) * range.chromaScale
        let c = matrix.decodeCoefficients
        return SIMD3(yy + c.rCr * v, yy - c.gCb * u - c.gCr * v, yy + c.bCb * u) / 255
    }

    /// Encodes R′G′B′ in 0…1 to unrounded 8-bit code values (Y, Cb, Cr).
    public func ycbcr(rgb: SIMD3<Double>) -> SIMD3<Double> {
        let kr = matrix.kr, kb = matrix.kb, kg = matrix.kg
        let r = rgb.x * 255, g = rgb.y * 255, b = rgb.z * 255
        let y = kr * r + kg * g + kb * b
        let cb = (b - y) / (2 * (1 - kb))
        let cr = (r - y) / (2 * (1 - kr))
        return SIMD3(range.lumaOffset + y / range.lumaScale, YCbCrRange.chromaOffset + cb / range.chromaScale,
                     YCbCrRange.chromaOffset + cr / range.chromaScale)
    }
}
