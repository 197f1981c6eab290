/// Whole-frame conversion with bilinear chroma, and of the images the nearest 4:2:0 fast path does
/// not take: 4:2:2, 4:4:0, 4:4:4, and 4:2:0 of odd width or height.
///
/// One row at a time, in three passes over scratch rows of `Int16` (which stay in L1):
/// 1. vertical: `3·near + far` of the chroma rows the luma row reads (quarters of a code); a row
///    read whole (full-height chroma, or nearest) is blended with itself, `4·row`;
/// 2. horizontal, to one Cb,Cr pair a pixel in sixteenths: half-width chroma upsampled as the
///    bilinear kernel does (centre or left siting) or, for nearest, each pair given to both its
///    pixels; full-width chroma scaled by 4;
/// 3. the bilinear kernel's decode (32-bit arithmetic in 16-bit fractions of a level).
///
/// Nearest shares each chroma sample among the block of pixels it covers (2×1, 1×2 or 1×1), as
/// the 4:2:0 path shares it among 2×2 blocks; siting is ignored. Bilinear places chroma samples
/// per docs/DESIGN.md, "Texel positions and chroma siting", scaled per axis by the subsampling
/// factor. Every weight is a multiple of 1/4 on each axis, so the chroma passes are exact and
/// the output equals `convertSubsampledScalar` bit for bit. Even 4:2:0 with bilinear chroma
/// (`convertBilinear`) takes these passes too, and equals `convertBilinearScalar` bit for bit.
extension FramePlanes {
    /// The chroma rows luma row `row` reads: `near` weighs ¾ and `far` ¼ (or both are the same
    /// row, read whole).
    @inline(__always)
    static func chromaRows(row: Int, subsampling: ChromaSubsampling, chromaHeight: Int,
                           interpolation: Interpolation) -> (near: Int, far: Int) {
        guard subsampling.vertical == 2 else { return (row, row) }
        let near = row >> 1
        guard interpolation == .bilinear else { return (near, near) }
        // Position (row + ½)/2 − ½: chroma row row/2 at ¾, with the one above (even rows) or
        // below (odd rows) at ¼, clamped.
        return (near, min(max(row & 1 == 0 ? near - 1 : near + 1, 0), chromaHeight - 1))
    }

    /// Converts rows `rows` of an image subsampled as `subsampling` (any size).
    func convertSubsampled(rows: Range<Int>, subsampling: ChromaSubsampling, interpolation: Interpolation,
                           _ k: FrameConverterConstants) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height)
        let (cw, ch) = subsampling.chromaSize(width: width, height: height)
        let halfWidth = subsampling.horizontal == 2
        let terms = BilinearTerms(k)
        // Scratch, 2-byte units, as the bilinear kernel's: the blended row with one clamped pair
        // before and after and room for the horizontal steps to read past it; the per-pixel row
        // with room for their writes (a half-width row of cw pairs gives 2·cw ≤ width + 1
        // pixels); an RGBA row for rgb8.
        let vCount = 2 * cw + 36, hCount = 2 * width + 32, rgbaCount = layout == .rgb8 ? 2 * width : 0
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: vCount + hCount + rgbaCount) { scratch in
            let base = scratch.baseAddress!
            base.initialize(repeating: 0, count: vCount + hCount + rgbaCount)
            let v = base + 2, h = base + vCount, rgba = UnsafeMutableRawPointer(h + hCount)
            for row in rows {
                let (near, far) = Self.chromaRows(row: row, subsampling: subsampling, chromaHeight: ch, interpolation: interpolation)
                Self.blendRows(near: chroma + near * chromaStride, far: chroma + far * chromaStride, count: 2 * cw, into: v)
                // Clamped edges: pair −1 repeats pair 0, pair cw repeats pair cw − 1.
                v[-2] = v[0]; v[-1] = v[1]
                v[2 * cw] = v[2 * cw - 2]; v[2 * cw + 1] = v[2 * cw - 1]
                if !halfWidth {
                    Self.quadrupleRow(v, into: h, count: 2 * width)
                } else if interpolation == .nearest {
                    Self.duplicateRow(v, into: h, chromaWidth: cw)
                } else if k.leftSited {
                    Self.upsampleRow(v, into: h, chromaWidth: cw, left: true)
                } else {
                    Self.upsampleRow(v, into: h, chromaWidth: cw, left: false)
                }
                let y = luma + row * lumaStride
                switch layout {
                case .rgba8:
                    decodeRow(y, h, output + row * width * 4, terms)
                case .rgb8:
                    decodeRow(y, h, rgba, terms)
                    dropAlpha(from: rgba, to: output + row * width * 3, pixels: width)
                }
            }
        }
    }

    /// Full-width chroma to sixteenths: `h[i] = 4·v[i]` for `i < count`, 16 values a step (the
    /// last step reads and writes past `count`, into the scratch rows' spare room).
    @inline(__always)
    static func quadrupleRow(_ v: UnsafeMutablePointer<Int16>, into h: UnsafeMutablePointer<Int16>, count: Int) {
        let src = UnsafeRawPointer(v), dst = UnsafeMutableRawPointer(h)
        var i = 0
        while i < count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 2 * i, as: SIMD16<Int16>.self) &<< 2, toByteOffset: 2 * i,
                           as: SIMD16<Int16>.self)
            i += 16
        }
    }

    /// Half-width chroma to sixteenths with nearest chroma: pair i to pixels 2i and 2i + 1, 8
    /// pairs a step (the last step reads and writes past the row, into the spare room).
    @inline(__always)
    static func duplicateRow(_ v: UnsafeMutablePointer<Int16>, into h: UnsafeMutablePointer<Int16>, chromaWidth cw: Int) {
        let src = UnsafeRawPointer(v), dst = UnsafeMutableRawPointer(h)
        var i = 0
        while i < cw {
            // Lanes 2j, 2j+1: Cb, Cr of pair i + j, as one 32-bit lane each.
            let e = unsafeBitCast(src.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Int16>.self) &<< 2, to: SIMD8<Int32>.self)
            dst.storeBytes(of: SIMD8<Int32>(e[0], e[0], e[1], e[1], e[2], e[2], e[3], e[3]), toByteOffset: 8 * i, as: SIMD8<Int32>.self)
            dst.storeBytes(of: SIMD8<Int32>(e[4], e[4], e[5], e[5], e[6], e[6], e[7], e[7]), toByteOffset: 8 * i + 32,
                           as: SIMD8<Int32>.self)
            i += 8
        }
    }

    // MARK: Scalar model

    /// `convertSubsampled` one value at a time: each pixel's chroma summed from its (at most four)
    /// texels with integer weights in sixteenths, then `convertBilinearScalar`'s decode. The
    /// model the vector passes must equal bit for bit. Tests only.
    func convertSubsampledScalar(rows: Range<Int>, subsampling: ChromaSubsampling, interpolation: Interpolation,
                                 _ k: FrameConverterConstants) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height)
        let (cw, ch) = subsampling.chromaSize(width: width, height: height)
        let bpp = layout.bytesPerPixel
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * width) { scratch in
            let h = scratch.baseAddress!
            for row in rows {
                // Vertical taps: rows near (¾) and far (¼), weights in quarters.
                let (near, far) = Self.chromaRows(row: row, subsampling: subsampling, chromaHeight: ch, interpolation: interpolation)
                for x in 0 ..< width {
                    // Horizontal taps: columns i0 and i1 with weights w0 + w1 = 4 quarters.
                    let i0 = x / subsampling.horizontal
                    var (w0, i1, w1) = (Int32(4), i0, Int32(0))
                    if subsampling.horizontal == 2, interpolation == .bilinear {
                        if k.leftSited {
                            // Sample i at pixel 2i: even pixels on it, odd ones halfway to the next.
                            if x % 2 == 1 { (w0, i1, w1) = (2, min(i0 + 1, cw - 1), 2) }
                        } else {
                            // Sample i between pixels 2i and 2i + 1: ¾ of it, ¼ of the one beyond.
                            (w0, i1, w1) = (3, x % 2 == 0 ? max(i0 - 1, 0) : min(i0 + 1, cw - 1), 1)
                        }
                    }
                    for c in 0 ..< 2 {
                        func code(_ row: Int, _ column: Int) -> Int32 {
                            Int32(chroma.load(fromByteOffset: row * chromaStride + 2 * column + c, as: UInt8.self))
                        }
                        let nearSum = w0 * code(near, i0) + w1 * code(near, i1)
                        let farSum = w0 * code(far, i0) + w1 * code(far, i1)
                        h[2 * x + c] = 3 * nearSum + farSum
                    }
                }
                decodeBilinearRow(luma + row * lumaStride, h, output + row * width * bpp, k)
            }
        }
    }
}
