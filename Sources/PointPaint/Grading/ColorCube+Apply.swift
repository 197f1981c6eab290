import CPointPaintSupport

extension ColorCube {
    /// A cube made ready to grade 8-bit colours fast: its entries quantised to 16-bit fixed point
    /// (`CompactCubeTable`) and the lattice cell and fraction of every 8-bit code
    /// (`CubeCodeTable`). Make it once with `ColorCube.prepared8Bit()` and apply it to as many
    /// buffers as needed, from any number of threads; it does not change when the cube does.
    ///
    /// ```swift
    /// let grader = cube.prepared8Bit()
    /// for var frame in frames { grader.apply(to: &frame, channels: 4) }
    /// ```
    public struct Prepared8Bit: Sendable {
        /// Lattice points along each axis of the cube it was made from.
        public var size: Int { table.size }
        let table: CompactCubeTable
        let codes: CubeCodeTable

        init(_ cube: ColorCube) {
            table = CompactCubeTable(cube)
            codes = CubeCodeTable(size: cube.size)
        }

        /// Grades interleaved 8-bit colours in place: each pixel's first three samples are
        /// R′G′B′, any further samples (alpha) are left alone. Output is rounded to the nearest
        /// code and clamped to 0…255, within one level of `ColorCube.lookup` (tests check).
        /// - Parameters:
        ///   - pixels: `count · channels` samples; a trailing partial pixel is left untouched.
        ///   - channels: 3 (RGB) or 4 (RGBA, or any 4-byte layout with colour first).
        /// - Complexity: O(pixels), with no allocation (figures in Benchmarks/README.md,
        ///   "Grading").
        public func apply(to pixels: UnsafeMutableBufferPointer<UInt8>, channels: Int = 3,
                          interpolation: Interpolation = .trilinear) {
            precondition(channels >= 3, "colours need at least 3 channels")
            guard let start = pixels.baseAddress else { return }
            let count = pixels.count / channels
            table.values.withUnsafeBufferPointer { t in
                codes.offsets.withUnsafeBufferPointer { offsets in
                    codes.fractions.withUnsafeBufferPointer { fractions in
                        let kernel = Kernel8(table: t.baseAddress!, offsets: offsets.baseAddress!,
                                             fractions: fractions.baseAddress!, n: size,
                                             scale: table.scale, offset: table.offset)
                        switch interpolation {
                        case .trilinear: kernel.trilinear(start, count: count, channels: channels)
                        case .tetrahedral: kernel.tetrahedral(start, count: count, channels: channels)
                        }
                    }
                }
            }
        }

        /// Grades interleaved 8-bit colours in an array in place (see
        /// `apply(to:channels:interpolation:)`).
        public func apply(to pixels: inout [UInt8], channels: Int = 3, interpolation: Interpolation = .trilinear) {
            pixels.withUnsafeMutableBufferPointer { apply(to: $0, channels: channels, interpolation: interpolation) }
        }
    }

    /// The cube prepared for grading 8-bit colours (see `Prepared8Bit`).
    /// - Complexity: O(size³): one pass over the entries and an allocation of half their size.
    public func prepared8Bit() -> Prepared8Bit {
        Prepared8Bit(self)
    }

    /// Grades interleaved 8-bit colours in an array in place: `prepared8Bit()` applied once.
    /// Each call prepares the cube again (O(size³)): to grade many buffers with one cube, prepare
    /// it once and keep the `Prepared8Bit`.
    public func apply(to pixels: inout [UInt8], channels: Int = 3, interpolation: Interpolation = .trilinear) {
        prepared8Bit().apply(to: &pixels, channels: channels, interpolation: interpolation)
    }

    /// Grades interleaved 16-bit colours in place (first three samples of each pixel), each
    /// output through `ColorMath.code(_:as:)` (clamped, rounded to the nearest code).
    public func apply(to pixels: inout [UInt16], channels: Int = 3, interpolation: Interpolation = .trilinear) {
        precondition(channels >= 3, "colours need at least 3 channels")
        let table = CubeTable(self)
        let count = pixels.count / channels
        table.values.withUnsafeBufferPointer { t in
            pixels.withUnsafeMutableBufferPointer { p in
                for i in 0 ..< count {
                    let o = i * channels
                    let input = SIMD3<Float>(Float(p[o]), Float(p[o + 1]), Float(p[o + 2])) / 65535
                    let c = table.lookup(input, in: t, interpolation: interpolation)
                    p[o] = ColorMath.code(c.x, as: UInt16.self)
                    p[o + 1] = ColorMath.code(c.y, as: UInt16.self)
                    p[o + 2] = ColorMath.code(c.z, as: UInt16.self)
                }
            }
        }
    }

    /// The largest image `lut apply` grades: 64 M pixels (8192 × 8192; a 48-megapixel photo
    /// fits). Grading holds the image twice, decoded and graded: 1 GiB at the limit for 16-bit
    /// RGBA, 384 MiB for 8-bit RGB.
    public static let maximumImagePixels = 1 << 26

    /// Grades a `PNGImage` (grey, grey+alpha, RGB or RGBA; 8 or 16 bit). Grey images are returned as
    /// RGB (or RGBA), since a graded grey is generally coloured.
    public func applied(to image: PNGImage, interpolation: Interpolation = .trilinear) -> PNGImage {
        var out = image.channels >= 3 ? image : Self.expandGrey(image)
        switch out.samples {
        case .sixteen(var samples):
            out.samples = .sixteen([])  // `samples` is then the only reference: graded in place
            apply(to: &samples, channels: out.channels, interpolation: interpolation)
            out.samples = .sixteen(samples)
        case .eight(var samples):
            out.samples = .eight([])
            apply(to: &samples, channels: out.channels, interpolation: interpolation)
            out.samples = .eight(samples)
        }
        return out
    }

    /// Grey → RGB and grey+alpha → RGBA by repeating the grey sample.
    private static func expandGrey(_ image: PNGImage) -> PNGImage {
        let inC = image.channels, outC = inC + 2, pixels = image.width * image.height
        func expand<T>(_ s: [T]) -> [T] {
            var out = [T]()
            out.reserveCapacity(pixels * outC)
            for i in 0 ..< pixels {
                let v = s[i * inC]
                out.append(v); out.append(v); out.append(v)
                if inC == 2 { out.append(s[i * inC + 1]) }
            }
            return out
        }
        let samples: PNGSamples = switch image.samples {
        case .eight(let s): .eight(expand(s))
        case .sixteen(let s): .sixteen(expand(s))
        }
        return PNGImage(width: image.width, height: image.height, channels: outC, samples: samples)
    }
}

/// The 8-bit inner loops: per colour, three code-table reads give the cell and fractions, then
/// 8 (trilinear) or 4 (tetrahedral) 8-byte loads from the compact table and vector blends give the
/// output. No per-colour branches. Pointers are valid for the call that made it.
private struct Kernel8 {
    /// Compact cube entries (`CompactCubeTable.values`).
    let table: UnsafePointer<SIMD4<UInt16>>
    /// Cell offsets for red, green, blue codes (`CubeCodeTable.offsets`).
    let offsets: UnsafePointer<Int32>
    /// Fractions per code.
    let fractions: UnsafePointer<Float>
    /// Points per axis.
    let n: Int
    /// Stored units to 8-bit levels (`CompactCubeTable.scale`, `.offset`).
    let scale: SIMD4<Float>, offset: SIMD4<Float>

    /// Pixels between the one a prefetch is issued for and the one being blended. The table
    /// (2 MB for 64³) does not stay in a core's L2 cache beside the pixels streaming through,
    /// so colours that jump about the cube wait for its lines. Distances of 4–8 pixels were best
    /// and 24 lost half the gain; the figures are in Benchmarks/README.md ("Grading").
    static let prefetchDistance = 8
    /// Cell bases kept between the prefetch and the blend: a power of two above the distance.
    static let ringSize = 16

    @inline(__always)
    func corner(_ q: UnsafePointer<SIMD4<UInt16>>, _ i: Int) -> SIMD4<Float> {
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: q[i]))
    }

    /// Converts a blend in stored units to codes, clamped to 0…255, one per lane.
    @inline(__always)
    func codes(_ c: SIMD4<Float>) -> SIMD4<Int32> {
        // Round to nearest by adding 1.5·2²³ (the float's low mantissa bits then hold the integer;
        // table entries lie in −1…2, so |levels| < 2²²), then clamp to 0…255 with shift-and-mask
        // arithmetic, which compiles to plain vector instructions.
        let magic = SIMD4<Float>(repeating: 12_582_912)
        var v = unsafeBitCast(c * scale + offset + magic, to: SIMD4<Int32>.self) &- SIMD4(repeating: 0x4B40_0000)
        v &= ~(v &>> 31)
        let d = 255 &- v
        return 255 &- (d & ~(d &>> 31))
    }

    /// Runs `colour` (codes in, codes out) over `count` pixels of `channels` samples.
    @inline(__always)
    func run(_ start: UnsafeMutablePointer<UInt8>, count: Int, channels: Int,
             _ colour: (_ r: Int, _ g: Int, _ b: Int, _ base: Int) -> SIMD4<Int32>) {
        let nn = n * n
        let distance = Self.prefetchDistance
        // Each pixel is read and written as one 4-byte word whose fourth byte (alpha, or the next
        // pixel's red) is written back unchanged; only that word's three lanes stay live, so the
        // compiler keeps the blend in vector registers. Each word is loaded before the previous
        // pixel's store (which may overlap it): reading bytes just stored would chain every pixel
        // to the one before through store forwarding and serialise the loop. With 3 channels the
        // last pixel's word would end past the buffer: it takes single-byte stores instead.
        let words = channels >= 4 ? count : max(count - 1, 0)
        var p = UnsafeMutableRawPointer(start)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.ringSize) { ring in
            let ring = ring.baseAddress!
            // The cell of a pixel `distance` ahead: its four rows (each row's two corners are 16
            // bytes, one cache line or rarely two) are asked for now, and its base kept in the
            // ring until that pixel is blended.
            @inline(__always) func ahead(_ k: Int, _ w: UInt32) {
                let base = cellBase(Int(w & 0xFF), Int((w >> 8) & 0xFF), Int((w >> 16) & 0xFF))
                ring[k & (Self.ringSize - 1)] = base
                let q = table + base
                pp_prefetch(q); pp_prefetch(q + n); pp_prefetch(q + nn); pp_prefetch(q + nn + n)
            }
            for k in 0 ..< min(distance, words) { ahead(k, (p + k * channels).loadUnaligned(as: UInt32.self)) }
            var word = words > 0 ? p.loadUnaligned(as: UInt32.self) : 0
            for i in 0 ..< words {
                if i + distance < words { ahead(i + distance, (p + distance * channels).loadUnaligned(as: UInt32.self)) }
                let next = i + 1 < words ? (p + channels).loadUnaligned(as: UInt32.self) : 0
                let c = colour(Int(word & 0xFF), Int((word >> 8) & 0xFF), Int((word >> 16) & 0xFF), ring[i & (Self.ringSize - 1)])
                let out = unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: c), to: UInt32.self)
                p.storeBytes(of: (out & 0x00FF_FFFF) | (word & 0xFF00_0000), as: UInt32.self)
                word = next
                p += channels
            }
        }
        let q = p.assumingMemoryBound(to: UInt8.self)
        for i in words ..< count {
            let o = (i - words) * channels
            let r = Int(q[o]), g = Int(q[o + 1]), b = Int(q[o + 2])
            let c = colour(r, g, b, cellBase(r, g, b))
            q[o] = UInt8(truncatingIfNeeded: c.x)
            q[o + 1] = UInt8(truncatingIfNeeded: c.y)
            q[o + 2] = UInt8(truncatingIfNeeded: c.z)
        }
    }

    /// The entry index of the lowest corner of the cell holding codes `r`, `g`, `b`.
    @inline(__always)
    func cellBase(_ r: Int, _ g: Int, _ b: Int) -> Int {
        Int(offsets[r]) + Int(offsets[256 + g]) + Int(offsets[512 + b])
    }

    @inline(__always)
    func trilinear(_ start: UnsafeMutablePointer<UInt8>, count: Int, channels: Int) {
        let nn = n * n
        let maximumBase = (n - 2) * (1 + n + nn)
        run(start, count: count, channels: channels) { r, g, b, base in
            assert(base >= 0 && base <= maximumBase)
            let fr = fractions[r], fg = fractions[g], fb = fractions[b]
            let q = table + base
            let c000 = corner(q, 0), c100 = corner(q, 1), c010 = corner(q, n), c110 = corner(q, n + 1)
            let c001 = corner(q, nn), c101 = corner(q, nn + 1), c011 = corner(q, nn + n), c111 = corner(q, nn + n + 1)
            let c00 = c000 + (c100 - c000) * fr, c10 = c010 + (c110 - c010) * fr
            let c01 = c001 + (c101 - c001) * fr, c11 = c011 + (c111 - c011) * fr
            let c0 = c00 + (c10 - c00) * fg, c1 = c01 + (c11 - c01) * fg
            return codes(c0 + (c1 - c0) * fb)
        }
    }

    @inline(__always)
    func tetrahedral(_ start: UnsafeMutablePointer<UInt8>, count: Int, channels: Int) {
        let nn = n * n, far = 1 + n + nn
        let maximumBase = (n - 2) * far
        // The tetrahedron's second and third corners by the order of the fractions, indexed by
        // (r > g) | (g > b) << 1 | (r > b) << 2 (the same six cases as `CubeTable.tetrahedron`;
        // 3 and 4 cannot occur). Second corner: one step along the largest fraction's axis; third:
        // the far corner less one step along the smallest's.
        let steps = (red: 1, green: n, blue: nn)
        let second: [Int] = [steps.blue, steps.blue, steps.green, 0, 0, steps.red, steps.green, steps.red]
        let third: [Int] = [far - steps.red, far - steps.green, far - steps.red, 0, 0,
                            far - steps.green, far - steps.blue, far - steps.blue]
        second.withUnsafeBufferPointer { second in
            third.withUnsafeBufferPointer { third in
                run(start, count: count, channels: channels) { r, g, b, base in
                    assert(base >= 0 && base <= maximumBase)
                    let fr = fractions[r], fg = fractions[g], fb = fractions[b]
                    // x − y is negative (sign bit set) exactly when y > x (equal gives +0): the
                    // order index without comparisons, which the compiler would turn into branches.
                    let order = Int((fg - fr).bitPattern >> 31) | Int((fb - fg).bitPattern >> 31) << 1
                        | Int((fb - fr).bitPattern >> 31) << 2
                    let rgMax = fr > fg ? fr : fg, rgMin = fr > fg ? fg : fr
                    let high = rgMax > fb ? rgMax : fb, low = rgMin > fb ? fb : rgMin
                    let middle = rgMax > fb ? (rgMin > fb ? rgMin : fb) : rgMax
                    // The blend as steps along the tetrahedron's edges, c₀ + (c₁ − c₀)·high + …:
                    // the weighted sum c₀·(1 − high) + c₁·(high − middle) + … led the compiler to
                    // pair corners in one register, assembled from 16-bit lane loads, and took
                    // 50% longer.
                    let q = table + base
                    let c0 = corner(q, 0), c1 = corner(q, second[order]), c2 = corner(q, third[order])
                    let c3 = corner(q, far)
                    return codes(c0 + (c1 - c0) * high + (c2 - c1) * middle + (c3 - c2) * low)
                }
            }
        }
    }
}
