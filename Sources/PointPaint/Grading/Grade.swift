/// Everything that grades colour, folded into one `ColorCube`: a look (built-in or from a file),
/// its strength against the identity, then the adjustments.
///
/// This is what replay and the viewer build from their options:
/// ```swift
/// let grade = Grade(look: .builtin(.cyanotype), strength: 0.7, adjustments: Adjustments(contrast: 0.2))
/// let cube = grade.cube()          // one 33³ cube; apply it, or upload it as a 3D texture
/// ```
public struct Grade: Sendable, Equatable {
    /// Where a grade's look comes from.
    public enum LookSource: Sendable, Equatable {
        /// A built-in look.
        case builtin(Look)
        /// A look loaded from a file (`ColorCube(contentsOf:)`).
        case cube(ColorCube)
    }

    /// The look.
    public var look: LookSource
    /// How much of the look to apply: 0 none, 1 all (the look mixed with the identity).
    /// Adjustments are not scaled by it.
    public var strength: Double
    /// Brightness, contrast, temperature and saturation, applied after the look.
    public var adjustments: Adjustments

    /// The lattice size of a folded cube when no file cube sets it: 33, the common `.cube` size,
    /// within 1/2 level of a 64³ cube for smooth looks and quick to rebuild interactively.
    public static let defaultCubeSize = 33

    /// Creates a grade; the defaults change nothing.
    public init(look: LookSource = .builtin(.natural), strength: Double = 1, adjustments: Adjustments = .neutral) {
        self.look = look
        self.strength = strength
        self.adjustments = adjustments
    }

    /// Whether the grade leaves colours unchanged, so callers can skip it.
    public var isIdentity: Bool {
        adjustments.isNeutral && (strength == 0 || look == .builtin(.natural))
    }

    /// The grade applied to one encoded sRGB colour, without a cube (the exact function `cube`
    /// samples; a file look is interpolated).
    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let looked = switch look {
        case .builtin(let builtin): builtin.apply(rgb)
        case .cube(let fileCube): SIMD3<Double>(fileCube.lookup(SIMD3<Float>(rgb)))
        }
        return adjustments.apply(rgb + (looked - rgb) * strength)
    }

    /// The whole grade as one cube, each lattice point computed directly (not by composing
    /// cubes), so it is exact at the lattice points; entries are clamped to 0…1.
    /// - Parameter size: points per axis; defaults to the file cube's size, else `defaultCubeSize`.
    /// - Complexity: `size³` evaluations.
    public func cube(size: Int? = nil) -> ColorCube {
        let look: (Int, SIMD3<Double>) -> SIMD3<Double>
        switch self.look {
        case .builtin(let builtin):
            look = { builtin.apply($1) }
        case .cube(let fileCube):
            // On the file's own lattice use its entries exactly; otherwise interpolate.
            let sameLattice = size == nil || size == fileCube.size
            look = { i, p in SIMD3<Double>(sameLattice ? fileCube.entries[i] : fileCube.lookup(SIMD3<Float>(p))) }
        }
        var i = 0
        return ColorCube(size: size ?? defaultSize) { p in
            defer { i += 1 }
            return ColorMath.clampedToUnit(adjustments.apply(p + (look(i, p) - p) * strength))
        }
    }

    /// The lattice size `cube()` uses: the file cube's, else `defaultCubeSize`.
    private var defaultSize: Int {
        if case .cube(let fileCube) = look { fileCube.size } else { Self.defaultCubeSize }
    }
}
