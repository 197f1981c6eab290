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
public enum YCbCrRange: String, Sendable, CaseIterable, Codable, Hashable {
    /// Y 0…255, Cb/Cr 0…255 around 128 (ARKit's `420f`).
    case full
    /// Y 16…235, Cb/Cr 16…240 around 128 (`420v`).
    case video
}

/// Where a 4:2:0 chroma sample sits relative to the luma samples it covers.
public enum ChromaSiting: String, Sendable, CaseIterable, Codable, Hashable {
    /// Centred between the four luma samples (JPEG, ARKit).
    case center
    /// Level with the left column of luma samples (MPEG-2, H.264 default).
    case left
}

/// The RGB primaries (and white point) a capture's R′G′B′ values refer to. All three use the
/// sRGB transfer curve in PointPaint captures, as Apple's Display P3 does.
public enum ColorPrimaries: String, Sendable, CaseIterable, Codable, Hashable {
    /// BT.709 / sRGB primaries, D65.
    case srgb
    /// Display P3: DCI-P3 primaries with a D65 white.
    case displayP3 = "display-p3"
    /// BT.2020 primaries, D65.
    case bt2020
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
    /// unclamped, exactly as DESIGN.md writes the standard in double precision.
    public func rgb(y: Double, cb: Double, cr: Double) -> SIMD3<Double> {
        let yy: Double, u: Double, v: Double
        switch range {
        case .full:
            yy = y
            u = cb - 128
            v = cr - 128
        case .video:
            yy = (y - 16) * 255 / 219
            u = (cb - 128) * 255 / 224
            v = (cr - 128) * 255 / 224
        }
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
        switch range {
        case .full:
            return SIMD3(y, cb + 128, cr + 128)
        case .video:
            return SIMD3(16 + y * 219 / 255, 128 + cb * 224 / 255, 128 + cr * 224 / 255)
        }
    }
}
