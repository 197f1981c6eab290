extension ColorCube {
    /// Grades interleaved 8-bit colours in place: each pixel's first three samples are R′G′B′,
    /// any further samples (alpha) are left alone. Output is rounded to the nearest code and
    /// clamped to 0…255.
    /// - Parameters:
    ///   - pixels: `count · channels` samples; a trailing partial pixel is left untouched.
    ///   - channels: 3 (RGB) or 4 (RGBA, or any 4-byte layout with colour first).
    /// - Complexity: O(pixels) plus one copy of the table; with a 64³ cube about 9–15 ms per
    ///   million colours on one core (photo-like to random colours; release build, baseline x86-64).
    public func apply(to pixels: UnsafeMutableBufferPointer<UInt8>, channels: Int = 3,
                      interpolation: Interpolation = .trilinear) {
        precondition(channels >= 3, "colours need at least 3 channels")
        guard let start = pixels.baseAddress else { return }
        let count = pixels.count / channels
        let table = CubeTable(self)
        let codes = CubeCodeTable(size: size)
        table.values.withUnsafeBufferPointer { t in
            codes.offsets.withUnsafeBufferPointer { offsets in
                codes.fractions.withUnsafeBufferPointer { fractions in
                    let kernel = Kernel8(table: t.baseAddress!, offsets: offsets.baseAddress!,
                                         fractions: fractions.baseAddress!, n: size)
                    switch interpolation {
                    case .trilinear: kernel.run(start, count: count, channels: channels, interpolation: .trilinear)
                    case .tetrahedral: kernel.run(start, count: count, channels: channels, interpolation: .tetrahedral)
                    }
                }
            }
        }
    }

    /// Grades interleaved 8-bit colours in an array in place (see `apply(to:channels:interpolation:)`).
    public func apply(to pixels: inout [UInt8], channels: Int = 3, interpolation: Interpolation = .trilinear) {
        pixels.withUnsafeMutableBufferPointer { apply(to: $0, channels: channels, interpolation: interpolation) }
    }

    /// Grades interleaved 16-bit colours in place (first three samples of each pixel), rounding to
    /// the nearest code and clamping to 0…65535.
    public func apply(to pixels: inout [UInt16], channels: Int = 3, interpolation: Interpolation = .trilinear) {
        precondition(channels >= 3, "colours need at least 3 channels")
        let table = CubeTable(self)
        let count = pixels.count / channels
        table.values.withUnsafeBufferPointer { t in
            pixels.withUnsafeMutableBufferPointer { p in
                for i in 0 ..< count {
                    let o = i * channels
                    let input = SIMD3<Float>(Float(p[o]), Float(p[o + 1]), Float(p[o + 2])) / 65535
                    let c = table.lookup(input, in: t, interpolation: interpolation) * 65535 + 0.5
                    p[o] = UInt16(min(max(0, c.x), 65535))
                    p[o + 1] = UInt16(min(max(0, c.y), 65535))
                    p[o + 2] = UInt16(min(max(0, c.z), 65535))
                }
            }
        }
    }

    /// Grades a `PNGImage` (grey, grey+alpha, RGB or RGBA; 8 or 16 bit). Grey images are returned as
    /// RGB (or RGBA), since a graded grey is generally coloured.
    public func applied(to image: PNGImage, interpolation: Interpolation = .trilinear) -> PNGImage {
        let expanded = image.channels >= 3 ? image : Self.expandGrey(image)
        var out = expanded
        if out.bitDepth == 16 {
            apply(to: &out.samples16, channels: out.channels, interpolation: interpolation)
        } else {
            apply(to: &out.samples8, channels: out.channels, interpolation: interpolation)
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
        if image.bitDepth == 16 {
            return PNGImage(width: image.width, height: image.height, channels: outC, samples16: expand(image.samples16))
        }
        return PNGImage(width: image.width, height: image.height, channels: outC, samples: expand(image.samples8))
    }
}

/// The 8-bit inner loop: per colour, three table reads give the cell and fractions, then 8 (or 4)
/// 16-byte loads and vector blends give the output. Pointers are valid for the call that made it.
private struct Kernel8 {
    /// Widened cube entries.
    let table: UnsafePointer<SIMD4<Float>>
    /// Cell offsets for red, green, blue codes (`CubeCodeTable.offsets`).
    let offsets: UnsafePointer<Int32>
    /// Fractions per code.
    let fractions: UnsafePointer<Float>
    /// Points per axis.
    let n: Int

    /// 1.5·2²³: adding it to a float of magnitude below 2²² leaves the value rounded to the nearest
    /// integer in the low mantissa bits.
    static let roundingMagic = SIMD4<Float>(repeating: 12_582_912)
    /// The bit pattern of `roundingMagic` (0x4B40_0000), subtracted to recover the integer.
    static let roundingMagicBits = SIMD4<Int32>(repeating: 0x4B40_0000)

    @inline(__always)
    func run(_ start: UnsafeMutablePointer<UInt8>, count: Int, channels: Int,
             interpolation: ColorCube.Interpolation) {
        let nn = n * n
        let maximumBase = (n - 2) * (1 + n + nn)
        var p = start
        for _ in 0 ..< count {
            let r = Int(p[0]), g = Int(p[1]), b = Int(p[2])
            let base = Int(offsets[r]) + Int(offsets[256 + g]) + Int(offsets[512 + b])
            assert(base >= 0 && base <= maximumBase)
            let fr = fractions[r], fg = fractions[g], fb = fractions[b]
            let c: SIMD4<Float>
            switch interpolation {
            case .trilinear:
                let q = table + base
                let c000 = q[0], c100 = q[1], c010 = q[n], c110 = q[n + 1]
                let c001 = q[nn], c101 = q[nn + 1], c011 = q[nn + n], c111 = q[nn + n + 1]
                let c00 = c000 + (c100 - c000) * fr, c10 = c010 + (c110 - c010) * fr
                let c01 = c001 + (c101 - c001) * fr, c11 = c011 + (c111 - c011) * fr
                let c0 = c00 + (c10 - c00) * fg, c1 = c01 + (c11 - c01) * fg
                c = c0 + (c1 - c0) * fb
            case .tetrahedral:
                c = CubeTable.blend(table, base: base, fraction: SIMD3(fr, fg, fb), n: n, nn: nn, interpolation: .tetrahedral)
            }
            // Round to nearest by adding 1.5·2²³ (the float's low mantissa bits then hold the integer;
            // table entries are clamped to −1…2, so |c·255| < 2²²), then clamp to 0…255 with
            // shift-and-mask arithmetic, which compiles to plain vector instructions.
            var v = unsafeBitCast(c * 255 + Self.roundingMagic, to: SIMD4<Int32>.self) &- Self.roundingMagicBits
            v &= ~(v &>> 31)
            let d = 255 &- v
            v = 255 &- (d & ~(d &>> 31))
            p[0] = UInt8(truncatingIfNeeded: v.x)
            p[1] = UInt8(truncatingIfNeeded: v.y)
            p[2] = UInt8(truncatingIfNeeded: v.z)
            p += channels
        }
    }
}
