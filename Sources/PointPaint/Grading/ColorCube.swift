/// A 3D colour lookup table: `size³` RGB entries on a regular lattice over the unit cube, as
/// Core Image's `CIColorCube` and the `.cube` / Hald CLUT formats hold them.
///
/// Entry `r + g·size + b·size²` is the output for the input
/// `(r, g, b) / (size − 1)`: red varies fastest, then green, then blue. Inputs and outputs are
/// encoded (gamma) R′G′B′ in 0…1. Between lattice points the table is interpolated
/// (`Interpolation.trilinear` by default).
///
/// A cube is a plain value, exactly `size` and `entries`, so a renderer can upload the entries
/// as a 3D texture of `size × size × size` (x = red). `SIMD3<Float>` has a stride of 16 bytes,
/// so the array's memory is RGBx with an unused fourth float; repack it for a tightly packed RGB
/// upload. To grade 8-bit colours fast, prepare the cube once (`prepared8Bit()`) and apply the
/// prepared value as often as needed.
public struct ColorCube: Sendable, Equatable {
    /// Lattice points along each axis, 2…256.
    public let size: Int
    /// `size³` output colours, red index fastest, then green, then blue; encoded values, nominally
    /// 0…1 (values outside are kept and clamped when applied to 8-bit colours).
    public var entries: [SIMD3<Float>]

    /// The sizes a cube may have: 2…256 points per axis.
    public static let sizeRange = 2 ... 256

    /// How a lookup blends the lattice points around an input colour.
    public enum Interpolation: String, Sendable, CaseIterable, Codable, Hashable {
        /// Blend of the 8 surrounding points (ffmpeg `lut3d` `interp=trilinear`, Core Image).
        case trilinear
        /// Blend of the 4 points of the enclosing tetrahedron (`interp=tetrahedral`): cheaper and
        /// exact on the grey axis.
        case tetrahedral
    }

    /// A cube from its entries. `size` must be in `sizeRange` and `entries.count` equal `size³`.
    public init(size: Int, entries: [SIMD3<Float>]) {
        precondition(Self.sizeRange.contains(size), "cube size \(size) is outside 2…256")
        precondition(entries.count == size * size * size, "a \(size)³ cube needs \(size * size * size) entries, got \(entries.count)")
        self.size = size
        self.entries = entries
    }

    /// A cube holding `transform` evaluated at each lattice point (input in 0…1, encoded).
    /// - Complexity: `size³` calls of `transform`.
    public init(size: Int, sampling transform: (SIMD3<Double>) -> SIMD3<Double>) {
        precondition(Self.sizeRange.contains(size), "cube size \(size) is outside 2…256")
        let ramp = (0 ..< size).map { Double($0) / Double(size - 1) }
        var entries = [SIMD3<Float>]()
        entries.reserveCapacity(size * size * size)
        for b in ramp {
            for g in ramp {
                for r in ramp {
                    entries.append(SIMD3<Float>(transform(SIMD3(r, g, b))))
                }
            }
        }
        self.init(size: size, entries: entries)
    }

    /// The cube that leaves every colour unchanged (up to interpolation rounding).
    public static func identity(size: Int) -> ColorCube {
        precondition(sizeRange.contains(size), "cube size \(size) is outside 2…256")
        // One ramp i/(size − 1), computed in double precision and rounded once.
        let ramp = latticeRamp(size: size)
        var entries = [SIMD3<Float>](repeating: .zero, count: size * size * size)
        entries.withUnsafeMutableBufferPointer { e in
            var i = 0
            for b in ramp {
                for g in ramp {
                    for r in ramp {
                        e[i] = SIMD3(r, g, b)
                        i += 1
                    }
                }
            }
        }
        return ColorCube(size: size, entries: entries)
    }

    /// The lattice coordinates along one axis: `i/(size − 1)` for i in 0..<size, each computed in
    /// double precision and rounded once, the values of an identity cube.
    package static func latticeRamp(size: Int) -> [Float] {
        (0 ..< size).map { Float(Double($0) / Double(size - 1)) }
    }

    /// The index in `entries` of lattice point `red`, `green`, `blue` (each 0..<size).
    @inlinable
    public func index(red: Int, green: Int, blue: Int) -> Int {
        assert((0 ..< size).contains(red) && (0 ..< size).contains(green) && (0 ..< size).contains(blue))
        return red + size * (green + size * blue)
    }

    /// The entry at lattice point `red`, `green`, `blue` (each 0..<size).
    @inlinable
    public subscript(red red: Int, green green: Int, blue blue: Int) -> SIMD3<Float> {
        get { entries[index(red: red, green: green, blue: blue)] }
        set { entries[index(red: red, green: green, blue: blue)] = newValue }
    }

    /// The cube's output for an encoded input colour; inputs outside 0…1 are clamped to it.
    ///
    /// This is the plain reference lookup; `Prepared8Bit.apply(to:channels:interpolation:)` is
    /// the fast path for 8-bit buffers and agrees with it (tests check both).
    public func lookup(_ rgb: SIMD3<Float>, interpolation: Interpolation = .trilinear) -> SIMD3<Float> {
        let (base, f) = CubeTable.position(of: rgb, size: size)
        return entries.withUnsafeBufferPointer { e in
            let n = size, nn = size * size
            func at(_ offset: Int) -> SIMD3<Float> { e[base + offset] }
            switch interpolation {
            case .trilinear:
                let c00 = at(0) + (at(1) - at(0)) * f.x
                let c10 = at(n) + (at(n + 1) - at(n)) * f.x
                let c01 = at(nn) + (at(nn + 1) - at(nn)) * f.x
                let c11 = at(nn + n) + (at(nn + n + 1) - at(nn + n)) * f.x
                let c0 = c00 + (c10 - c00) * f.y
                let c1 = c01 + (c11 - c01) * f.y
                return c0 + (c1 - c0) * f.z
            case .tetrahedral:
                let w = CubeTable.tetrahedron(f, n: n, nn: nn)
                return at(0) * w.weights.x + at(w.offsets.y) * w.weights.y
                    + at(w.offsets.z) * w.weights.z + at(n + nn + 1) * w.weights.w
            }
        }
    }

    /// One cube equal to applying `self` and then `next`: each of this cube's entries looked up in
    /// `next`. The result has this cube's size; it is exact at the lattice points and differs from
    /// applying the two in turn only by interpolation between them.
    /// - Complexity: `size³` lookups of `next` (Benchmarks/README.md, "Grading").
    public func then(_ next: ColorCube, interpolation: Interpolation = .trilinear) -> ColorCube {
        let table = CubeTable(next)
        var out = entries
        out.withUnsafeMutableBufferPointer { out in
            table.values.withUnsafeBufferPointer { t in
                for i in out.indices {
                    out[i] = table.lookup(out[i], in: t, interpolation: interpolation)
                }
            }
        }
        return ColorCube(size: size, entries: out)
    }

    /// The effect scaled against the identity: `identity + strength · (self − identity)` at every
    /// lattice point. 0 gives the identity, 1 this cube; values above 1 exaggerate the effect.
    public func withStrength(_ strength: Float) -> ColorCube {
        if strength == 1 { return self }
        var out = entries
        let ramp = Self.latticeRamp(size: size)
        var i = 0
        for b in ramp {
            for g in ramp {
                for r in ramp {
                    let identity = SIMD3(r, g, b)
                    out[i] = identity + (out[i] - identity) * strength
                    i += 1
                }
            }
        }
        return ColorCube(size: size, entries: out)
    }

    /// This cube sampled onto a lattice of `newSize` points per axis (interpolating between its own).
    public func resampled(size newSize: Int, interpolation: Interpolation = .trilinear) -> ColorCube {
        if newSize == size { return self }
        return ColorCube.identity(size: newSize).then(self, interpolation: interpolation)
    }

    /// The largest difference, in any channel of any entry, from `other` (which must be the same size).
    package func maximumDifference(from other: ColorCube) -> Float {
        precondition(other.size == size, "cubes of different sizes")
        var worst: Float = 0
        for (a, b) in zip(entries, other.entries) {
            let d = a - b
            worst = max(worst, d.max(), (-d).max())
        }
        return worst
    }
}
