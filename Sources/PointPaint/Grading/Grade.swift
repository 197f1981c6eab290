/// Everything that grades colour, folded into one `ColorCube`: a look (built-in or from a file),
/// its strength against the identity, then the adjustments.
///
/// This is what replay and the viewer build from their options:
/// ```swift
/// let grade = Grade(look: .cyanotype, strength: 0.7, adjustments: Adjustments(contrast: 0.2))
/// let cube = grade.cube()          // one 33³ cube; apply it, or upload it as a 3D texture
/// ```
public struct Grade: Sendable, Equatable {
    /// The built-in look, used when `lookCube` is nil.
    public var look: Look
    /// A look loaded from a file (`ColorCube(contentsOf:)`); replaces `look` when set.
    public var lookCube: ColorCube?
    /// How much of the look to apply: 0 none, 1 all (the look mixed with the identity).
    /// Adjustments are not scaled by it.
    public var strength: Double
    /// Brightness, contrast, temperature and saturation, applied after the look.
    public var adjustments: Adjustments

    /// The lattice size of a folded cube when no file cube sets it: 33, the common `.cube` size,
    /// within 1/2 level of a 64³ cube for smooth looks and quick to rebuild interactively.
    public static let defaultCubeSize = 33

    /// Creates a grade; the defaults change nothing.
    public init(look: Look = .natural, lookCube: ColorCube? = nil, strength: Double = 1,
                adjustments: Adjustments = .neutral) {
        self.look = look
        self.lookCube = lookCube
        self.strength = strength
        self.adjustments = adjustments
    }

    /// Whether the grade leaves colours unchanged, so callers can skip it.
    public var isIdentity: Bool {
        adjustments.isNeutral && (strength == 0 || (lookCube == nil && look == .natural))
    }

    /// The grade applied to one encoded sRGB colour, without a cube (the exact function `cube`
    /// samples; a file look is interpolated).
    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let looked = lookCube.map { SIMD3<Double>($0.lookup(SIMD3<Float>(rgb))) } ?? look.apply(rgb)
        return adjustments.apply(rgb + (looked - rgb) * strength)
    }

    /// The whole grade as one cube, each lattice point computed directly (not by composing
    /// cubes), so it is exact at the lattice points; entries are clamped to 0…1.
    /// - Parameter size: points per axis; defaults to the file cube's size, else `defaultCubeSize`.
    /// - Complexity: `size³` evaluations (a 33³ fold takes a few milliseconds in a release build).
    public func cube(size: Int? = nil) -> ColorCube {
        let n = size ?? lookCube?.size ?? Self.defaultCubeSize
        let fileCube = lookCube
        let sameLattice = fileCube?.size == n
        var i = 0
        return ColorCube(size: n) { p in
            defer { i += 1 }
            let looked: SIMD3<Double>
            if let fileCube {
                // On the file's own lattice use its entries exactly; otherwise interpolate.
                looked = SIMD3<Double>(sameLattice ? fileCube.entries[i] : fileCube.lookup(SIMD3<Float>(p)))
            } else {
                looked = look.apply(p)
            }
            return GradingMath.clampedToUnit(adjustments.apply(p + (looked - p) * strength))
        }
    }
}

extension ColorCube {
    /// Folds a look (built-in, or `lookCube` from a file, which replaces it), its strength and the
    /// adjustments into one cube; `nil` when they change nothing. See `Grade`.
    public static func folded(look: Look = .natural, lookCube: ColorCube? = nil, strength: Double = 1,
                              adjustments: Adjustments = .neutral, size: Int? = nil) -> ColorCube? {
        let grade = Grade(look: look, lookCube: lookCube, strength: strength, adjustments: adjustments)
        return grade.isIdentity ? nil : grade.cube(size: size)
    }
}
