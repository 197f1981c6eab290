import Foundation

/// A cube's entries widened to `SIMD4<Float>` with a zero fourth lane, so each lattice point is
/// one aligned 16-byte load with no stray bits in the unused lane; the working form of the fast
/// lookups (8-bit apply, composition). Unsafe pointer use is confined to the closures here.
struct CubeTable: Sendable {
    /// Points per axis.
    let size: Int
    /// `size³` entries, red fastest, fourth lane 0.
    let values: [SIMD4<Float>]

    /// Widens `cube`'s entries.
    init(_ cube: ColorCube) {
        size = cube.size
        let count = cube.entries.count
        // SIMD3<Float> is stored in 16 bytes like SIMD4<Float>: copy the bytes, then set each fourth
        // lane to 0 (the padding's contents are unspecified and could hold a NaN or a denormal).
        precondition(MemoryLayout<SIMD3<Float>>.stride == MemoryLayout<SIMD4<Float>>.stride)
        values = [SIMD4<Float>](unsafeUninitializedCapacity: count) { buffer, initialized in
            let destination = UnsafeMutableRawBufferPointer(buffer)
            cube.entries.withUnsafeBytes { destination.copyMemory(from: $0) }
            let stride = MemoryLayout<SIMD4<Float>>.stride
            // Entries are also clamped to −1…2 here, which keeps the 8-bit kernel's rounding trick
            // valid and changes no 8-bit output (anything outside 0…1 clamps to 0 or 255 anyway).
            for i in 0 ..< count {
                for lane in 0 ..< 3 {
                    let offset = i * stride + 4 * lane
                    let value = destination.load(fromByteOffset: offset, as: Float.self)
                    let clamped: Float = value > -1 ? min(value, 2) : -1  // NaN becomes −1
                    destination.storeBytes(of: clamped, toByteOffset: offset, as: Float.self)
                }
                destination.storeBytes(of: 0 as Float, toByteOffset: i * stride + 12, as: Float.self)
            }
            initialized = count
        }
    }

    /// The lattice cell holding an encoded input and the position within it: the entry index of the
    /// cell's lowest corner and the fractions along red, green, blue (each 0…1). Inputs are clamped
    /// to 0…1 (NaN counts as 0); the top face uses the last cell with fraction 1.
    @inline(__always)
    static func position(of rgb: SIMD3<Float>, size: Int) -> (base: Int, fraction: SIMD3<Float>) {
        let top = Float(size - 1)
        @inline(__always) func axis(_ x: Float) -> (Int, Float) {
            let clamped = x > 0 ? min(x, 1) : 0
            let p = clamped * top
            let i = min(Int(p), size - 2)
            return (i, p - Float(i))
        }
        let (r, fr) = axis(rgb.x), (g, fg) = axis(rgb.y), (b, fb) = axis(rgb.z)
        return (r + size * (g + size * b), SIMD3(fr, fg, fb))
    }

    /// The tetrahedron of a cell holding the fractions `f`: offsets of its four corners from the
    /// cell's lowest corner (the first is 0, the last the opposite corner `1 + n + nn`) and their
    /// weights, which sum to 1. The same six cases as ffmpeg's `interp_tetrahedral`.
    @inline(__always)
    static func tetrahedron(_ f: SIMD3<Float>, n: Int, nn: Int) -> (offsets: SIMD4<Int>, weights: SIMD4<Float>) {
        let (r, g, b) = (f.x, f.y, f.z)
        let far = 1 + n + nn
        if r > g {
            if g > b { return (SIMD4(0, 1, 1 + n, far), SIMD4(1 - r, r - g, g - b, b)) }
            if r > b { return (SIMD4(0, 1, 1 + nn, far), SIMD4(1 - r, r - b, b - g, g)) }
            return (SIMD4(0, nn, 1 + nn, far), SIMD4(1 - b, b - r, r - g, g))
        }
        if b > g { return (SIMD4(0, nn, n + nn, far), SIMD4(1 - b, b - g, g - r, r)) }
        if b > r { return (SIMD4(0, n, n + nn, far), SIMD4(1 - g, g - b, b - r, r)) }
        return (SIMD4(0, n, 1 + n, far), SIMD4(1 - g, g - r, r - b, b))
    }

    /// Blends the cell at `base` with fractions `f` from the table `t`.
    @inline(__always)
    static func blend(_ t: UnsafePointer<SIMD4<Float>>, base: Int, fraction f: SIMD3<Float>, n: Int, nn: Int,
                      interpolation: ColorCube.Interpolation) -> SIMD4<Float> {
        let p = t + base
        switch interpolation {
        case .trilinear:
            let c000 = p[0], c100 = p[1], c010 = p[n], c110 = p[n + 1]
            let c001 = p[nn], c101 = p[nn + 1], c011 = p[nn + n], c111 = p[nn + n + 1]
            let c00 = c000 + (c100 - c000) * f.x
            let c10 = c010 + (c110 - c010) * f.x
            let c01 = c001 + (c101 - c001) * f.x
            let c11 = c011 + (c111 - c011) * f.x
            let c0 = c00 + (c10 - c00) * f.y
            let c1 = c01 + (c11 - c01) * f.y
            return c0 + (c1 - c0) * f.z
        case .tetrahedral:
            let (o, w) = tetrahedron(f, n: n, nn: nn)
            return p[0] * w.x + p[o.y] * w.y + p[o.z] * w.z + p[o.w] * w.w
        }
    }

    /// The table's output for one encoded colour.
    @inline(__always)
    func lookup(_ rgb: SIMD3<Float>, in t: UnsafeBufferPointer<SIMD4<Float>>,
                interpolation: ColorCube.Interpolation) -> SIMD3<Float> {
        let (base, f) = Self.position(of: rgb, size: size)
        assert(base >= 0 && base + 1 + size + size * size < t.count)
        let c = Self.blend(t.baseAddress!, base: base, fraction: f, n: size, nn: size * size, interpolation: interpolation)
        return SIMD3(c.x, c.y, c.z)
    }
}

/// Where each 8-bit code falls on a cube's lattice: per code, the cell index along the axis
/// (already multiplied by that axis's stride) and the fraction within the cell. Computed in double
/// precision so an identity cube maps every code exactly back to itself.
struct CubeCodeTable: Sendable {
    /// `offsets[channel * 256 + code]`: cell index × stride (1, size, size²) for red, green, blue.
    let offsets: [Int32]
    /// `fractions[code]`: position within the cell, shared by all three axes.
    let fractions: [Float]

    /// The table for a cube of `size` points and inputs of `maximumCode + 1` levels.
    init(size: Int, maximumCode: Int = 255) {
        var offsets = [Int32](repeating: 0, count: 3 * (maximumCode + 1))
        var fractions = [Float](repeating: 0, count: maximumCode + 1)
        for code in 0 ... maximumCode {
            // position = code / maximumCode · (size − 1), in the last cell at the top.
            let p = Double(code) * Double(size - 1) / Double(maximumCode)
            let i = min(Int(p), size - 2)
            fractions[code] = Float(p - Double(i))
            offsets[code] = Int32(i)
            offsets[maximumCode + 1 + code] = Int32(i * size)
            offsets[2 * (maximumCode + 1) + code] = Int32(i * size * size)
        }
        self.offsets = offsets
        self.fractions = fractions
    }
}

/// A cube's entries in 16-bit fixed point for the 8-bit apply: each lattice point is one aligned
/// 8-byte `SIMD4<UInt16>` (fourth lane 0), so a 64³ table takes 2 MB instead of 4 MB: half the
/// cache lines to miss (it still does not stay in a 2 MB L2 beside the pixels streaming through,
/// hence the kernel's prefetch). Each channel maps its own range of entries (clamped to −1…2, as in
/// `CubeTable`) onto 0…65535, which keeps the quantisation below 1/250 of an 8-bit level for
/// cubes within 0…1: `code = value · scale + offset` gives the output in 8-bit levels.
struct CompactCubeTable: Sendable {
    /// Points per axis.
    let size: Int
    /// `size³` entries, red fastest, fourth lane 0.
    let values: [SIMD4<UInt16>]
    /// 8-bit levels per stored unit, per channel (fourth lane 0).
    let scale: SIMD4<Float>
    /// 8-bit level of stored value 0, per channel (fourth lane 0).
    let offset: SIMD4<Float>

    /// Quantises `cube`'s entries.
    init(_ cube: ColorCube) {
        size = cube.size
        let count = cube.entries.count
        // Entries are clamped as in `CubeTable` (NaN becomes −1); each channel's range of clamped
        // values maps onto 0…65535. Two passes, each written the way that compiles to
        // branch-free vector code in a release build (`min`/`max`, whose NaN rules cost a branch
        // per lane, made them 1.5–2× slower).
        @inline(__always) func clamped(_ v: Float) -> Float { v > -1 ? min(v, 2) : -1 }
        // Range: scalar selects (also quick in a debug build) find the unclamped extremes and note
        // NaNs; the extremes of the clamped entries are the clamped extremes, with −1 below where
        // a channel holds a NaN. Both bounds start inside −1…2, so lo ≤ hi whatever the entries.
        var lo: (Float, Float, Float) = (2, 2, 2), hi: (Float, Float, Float) = (-1, -1, -1)
        var nans: UInt32 = 0
        cube.entries.withUnsafeBufferPointer { entries in
            for e in entries {
                lo = (e.x < lo.0 ? e.x : lo.0, e.y < lo.1 ? e.y : lo.1, e.z < lo.2 ? e.z : lo.2)
                hi = (e.x > hi.0 ? e.x : hi.0, e.y > hi.1 ? e.y : hi.1, e.z > hi.2 ? e.z : hi.2)
                nans |= (e.x.isNaN ? 1 : 0) | (e.y.isNaN ? 2 : 0) | (e.z.isNaN ? 4 : 0)
            }
        }
        lo = (nans & 1 != 0 ? -1 : clamped(lo.0), nans & 2 != 0 ? -1 : clamped(lo.1), nans & 4 != 0 ? -1 : clamped(lo.2))
        hi = (clamped(hi.0), clamped(hi.1), clamped(hi.2))
        let low = SIMD4<Float>(lo.0, lo.1, lo.2, 0), span = SIMD4<Float>(hi.0, hi.1, hi.2, 0) - low
        scale = span * (255 / 65535 as Float)
        offset = low * 255
        // Stored units per unit of value; a flat channel (and the fourth lane) stores 0 everywhere.
        @inline(__always) func units(_ s: Float) -> Float { s > 0 ? 65535 / s : 0 }
        let k = SIMD4<Float>(units(span.x), units(span.y), units(span.z), 0)
        // Quantising: each entry read as one 16-byte vector (SIMD3<Float> is stored like
        // SIMD4<Float>; whatever the padding lane holds is clamped and multiplied by 0), clamped,
        // scaled (x in 0…65535; the select guards rounding at the top) and rounded by adding 2²³,
        // which leaves round(x) in the low 16 bits of each lane's bit pattern; the four low halves
        // are one 8-byte store into the uninitialised result. About 2.5× slower than scalar code
        // in a debug build, where generic SIMD operations are calls; 1.4× faster in a release one.
        precondition(MemoryLayout<SIMD3<Float>>.stride == MemoryLayout<SIMD4<Float>>.stride)
        values = [SIMD4<UInt16>](unsafeUninitializedCapacity: count) { buffer, initialized in
            let lowest = SIMD4<Float>(repeating: -1), highest = SIMD4<Float>(repeating: 2)
            let top = SIMD4<Float>(repeating: 65535), magic = SIMD4<Float>(repeating: 8_388_608)
            let out = UnsafeMutableRawPointer(buffer.baseAddress!)
            cube.entries.withUnsafeBytes { entries in
                for i in 0 ..< count {
                    var v = entries.load(fromByteOffset: i * 16, as: SIMD4<Float>.self)
                    v.replace(with: lowest, where: .!(v .> lowest))  // NaN becomes −1
                    v.replace(with: highest, where: v .> highest)
                    var x = (v - low) * k
                    x.replace(with: top, where: x .> top)
                    let bits = unsafeBitCast(x + magic, to: SIMD4<UInt32>.self)
                    out.storeBytes(of: SIMD4<UInt16>(truncatingIfNeeded: bits), toByteOffset: i * 8, as: SIMD4<UInt16>.self)
                }
            }
            initialized = count
        }
    }
}
