/// What colour a sample decoded from a capture becomes: the one colour policy shared by
/// `CapturedImageSampler` (and so `pointpaint sample`), `CaptureReplay` (and so `replay` and
/// the viewer) and any other source of decoded capture colour (planes decoded from JPEG or
/// video frames).
///
/// The input is R′G′B′ in the capture's own primaries as decoded from Y′CbCr, 0…1 nominal but
/// unclamped. Every output space that converts (`SampleSpace.srgb`, `.extendedSRGB`, `.linear`,
/// `.displayP3`) takes the same steps:
/// 1. **Clamp to the capture's own gamut**: each channel to 0…1 in the capture's primaries.
///    Values outside come from 4:2:0 chroma subsampling and rounding, not from the scene (no
///    camera records a colour outside its own primaries).
/// 2. **Convert** to the output primaries in linear light (`ColorConversion`, exact matrix),
///    unclamped: a wide-colour capture's colours outside sRGB stay outside in extended sRGB.
///    `.srgb` alone then clips to 0…1 (what an sRGB display shows).
/// 3. **Grade**, when a grade is set: the encoded sRGB colour, clamped to 0…1 (so a grade gives
///    up wide colour), is looked up in the cube; the other spaces are derived from its output.
///
/// `.capture` and `.captureLinear` skip all three: they exist to inspect the decode itself.
///
/// Replay stores `linear(_:)`: linear-light extended sRGB, with a flag for colours outside sRGB.
/// So the exact float colour `replay` writes for a voxel holding one sample equals what
/// `sample --space extended-srgb` prints at that point.
///
/// ```swift
/// let policy = SampleColorPolicy(primaries: .displayP3)
/// let (linear, wide) = policy.linear(decoded)      // what replay adds to the store
/// let shown = policy.color(decoded, in: .srgb)     // what an sRGB display shows
/// ```
public struct SampleColorPolicy: Sendable {
    /// The primaries of the decoded R′G′B′ (the capture's).
    public let primaries: ColorPrimaries
    /// A cube applied to encoded sRGB (clamped to 0…1), or nil.
    public let grade: ColorCube?
    @usableFromInline let toSRGB: ColorConversion
    @usableFromInline let toP3: ColorConversion
    @usableFromInline let srgbToP3: ColorConversion

    /// The policy for R′G′B′ decoded in `primaries`, graded by `grade` when given.
    public init(primaries: ColorPrimaries = .srgb, grade: ColorCube? = nil) {
        self.primaries = primaries
        self.grade = grade
        toSRGB = ColorConversion(from: primaries, to: .srgb)
        toP3 = ColorConversion(from: primaries, to: .displayP3)
        srgbToP3 = ColorConversion(from: .srgb, to: .displayP3)
    }

    /// Decoded R′G′B′ in `space`, by the steps above.
    @inlinable
    public func color(_ decoded: SIMD3<Float>, in space: SampleSpace) -> SIMD3<Float> {
        switch space {
        case .capture:
            return decoded
        case .captureLinear:
            return SRGBTransfer.decode(decoded)
        case .srgb, .extendedSRGB, .linear, .displayP3:
            let inGamut = ColorMath.clampedToUnit(decoded)
            return grade == nil ? converted(inGamut, to: space) : graded(inGamut, to: space)
        }
    }

    /// Steps 2 and 3 without a grade: R′G′B′ within the capture's gamut in `space` (one of the
    /// spaces that convert).
    @inlinable @inline(__always)
    func converted(_ inGamut: SIMD3<Float>, to space: SampleSpace) -> SIMD3<Float> {
        switch space {
        case .srgb:
            return ColorMath.clampedToUnit(primaries == .srgb ? inGamut : toSRGB.encoded(inGamut))
        case .linear:
            return primaries == .srgb ? SRGBTransfer.decode(inGamut) : toSRGB.linear(inGamut)
        case .displayP3:
            return primaries == .displayP3 ? inGamut : toP3.encoded(inGamut)
        case .extendedSRGB, .capture, .captureLinear:
            return primaries == .srgb ? inGamut : toSRGB.encoded(inGamut)
        }
    }

    /// Steps 2 and 3 with the grade: the cube's output for the clamped encoded sRGB colour, in
    /// `space`. Kept out of line: the cube lookup dominates, and the ungraded path stays small.
    @usableFromInline
    func graded(_ inGamut: SIMD3<Float>, to space: SampleSpace) -> SIMD3<Float> {
        guard let grade else { return converted(inGamut, to: space) }
        let graded = grade.lookup(ColorMath.clampedToUnit(toSRGB.encoded(inGamut)))
        switch space {
        case .srgb: return ColorMath.clampedToUnit(graded)
        case .linear: return SRGBTransfer.decode(graded)
        case .displayP3: return srgbToP3.encoded(graded)
        case .extendedSRGB, .capture, .captureLinear: return graded
        }
    }

    /// The colour a replay stores for decoded R′G′B′: `color(_:in: .linear)`, linear-light
    /// extended sRGB, and whether it lies outside sRGB (`ColorGamut.isInsideSRGB` of its encoded
    /// form; never for a graded colour or a capture in sRGB primaries, which the clamp keeps
    /// inside).
    @inlinable
    public func linear(_ decoded: SIMD3<Float>) -> (color: SIMD3<Float>, outsideSRGB: Bool) {
        let linear = color(decoded, in: .linear)
        guard grade == nil, primaries != .srgb else { return (linear, false) }
        return (linear, !ColorGamut.isInsideSRGB(SRGBTransfer.encode(linear)))
    }

    /// Replaces each decoded R′G′B′ in `colors` by `linear(_:)`'s colour.
    /// - Returns: how many lie outside sRGB.
    /// - Complexity: O(n).
    @discardableResult
    public func linearize(_ colors: inout [SIMD3<Float>]) -> Int {
        var outside = 0
        for i in colors.indices {
            let (c, wide) = linear(colors[i])
            colors[i] = c
            if wide { outside += 1 }
        }
        return outside
    }

    /// `linearize(_:)` for a batch of samples, through `SRGBDecodeTable` (no `powf` per
    /// channel) where the capture is in sRGB primaries without a grade, so that every colour lies
    /// inside sRGB: there within 2.5e-7 of `linearize`'s colours, elsewhere equal to them.
    /// - Returns: how many lie outside sRGB.
    /// - Complexity: O(n).
    @discardableResult
    public func linearizeBatch(_ colors: inout [SIMD3<Float>]) -> Int {
        guard primaries == .srgb, grade == nil else { return linearize(&colors) }
        SRGBDecodeTable.linearize(&colors)
        return 0
    }
}
