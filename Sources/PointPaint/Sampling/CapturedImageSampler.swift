import Foundation

/// Samples the colour of a captured Y′CbCr image at scalar coordinates (0…1, origin at the
/// top-left of the sensor-oriented image), exactly per the standard and without converting the
/// whole frame.
///
/// Every subsampling is sampled in its own planes: bilinear sampling interpolates Y and CbCr
/// separately (each at its own plane's texel positions, edges clamped) and then applies the
/// matrix; nearest sampling takes the texel of each plane whose sample lies nearest the point.
/// Chroma sample positions follow the siting, scaled per axis by the subsampling factor
/// (docs/DESIGN.md, "Texel positions and chroma siting"): chroma texel (i, j) of a plane
/// subsampled by (fx, fy) sits at luma position ((i + ½)·fx, (j + ½)·fy) for centre siting and
/// (i·fx + ½, (j + ½)·fy) for left siting, so 4:4:4 chroma sits at the luma centres whatever the
/// siting. Colours in the spaces that convert follow `SampleColorPolicy` (clamped to the capture's gamut, then converted), the same
/// policy replay uses. A sampler is an immutable value holding a reference to immutable image
/// bytes: share it freely between threads.
///
/// ```swift
/// let sampler = CapturedImageSampler(frame: frame, info: reader.imageInfo)
/// let colour = sampler.color(at: SIMD2(0.5, 0.5), space: .srgb)   // centre of the image
/// ```
public struct CapturedImageSampler: Sendable {
    /// Where coordinates outside 0…1 go.
    public enum EdgePolicy: String, Sendable, CaseIterable {
        /// Coordinates outside [0, 1] give no sample (nil, or NaN in batches).
        case reject
        /// Coordinates are clamped into [0, 1] first.
        case clamp
    }

    /// The image.
    public let image: YCbCrImage
    /// Matrix and range used to decode.
    public let encoding: YCbCrEncoding
    /// Chroma siting of the image.
    public let siting: ChromaSiting
    /// Primaries of the decoded R′G′B′.
    public var primaries: ColorPrimaries { colorPolicy.primaries }
    /// What decoded R′G′B′ becomes in each `SampleSpace` (ungraded).
    public let colorPolicy: SampleColorPolicy
    /// Nearest or bilinear.
    public var interpolation: Interpolation
    /// Which kernel samples a batch bilinearly in the capture's own space (tests force each).
    var kernel: CPUKernel = .automatic
    /// What happens to coordinates outside 0…1.
    public var edgePolicy: EdgePolicy

    // Decode constants, folded for the range (`YCbCrRange`) and scaled to 0…1:
    // component = yScale·(Y − yOffset) + k·(C − 128).
    @usableFromInline let yScale: Float
    @usableFromInline let yOffset: Float
    @usableFromInline let rCr: Float
    @usableFromInline let gCb: Float
    @usableFromInline let gCr: Float
    @usableFromInline let bCb: Float
    // Chroma texel position of luma position (x, y) (pixel units, 0…width): (x·scale.x + shift.x,
    // y·scale.y + shift.y); scale is 1 / the subsampling factor (½ or 1, exact), shift is −½ for
    // centre siting and −½/factor (−¼ for a factor of 2) horizontally for left siting. Nearest
    // sampling floors the position plus ½, folded into `nearestShift`.
    @usableFromInline let chromaScale: SIMD2<Float>
    @usableFromInline let chromaShift: SIMD2<Float>
    @usableFromInline let nearestShift: SIMD2<Float>
    /// The chroma plane's size in texels (computed once: it divides by the factors).
    @usableFromInline let chromaSize: SIMD2<Int>

    /// A sampler over `image` decoded with `encoding`.
    public init(image: YCbCrImage, encoding: YCbCrEncoding = .arkit, siting: ChromaSiting = .center,
                primaries: ColorPrimaries = .srgb, interpolation: Interpolation = .bilinear, edgePolicy: EdgePolicy = .reject) {
        self.image = image
        self.encoding = encoding
        self.siting = siting
        colorPolicy = SampleColorPolicy(primaries: primaries)
        self.interpolation = interpolation
        self.edgePolicy = edgePolicy
        let c = encoding.matrix.decodeCoefficients
        let range = encoding.range
        let cs = range.chromaScale
        yScale = Float(range.lumaScale / 255)
        yOffset = Float(range.lumaOffset)
        rCr = Float(c.rCr * cs / 255)
        gCb = Float(c.gCb * cs / 255)
        gCr = Float(c.gCr * cs / 255)
        bCb = Float(c.bCb * cs / 255)
        let factor = SIMD2(Float(image.subsampling.horizontal), Float(image.subsampling.vertical))
        chromaScale = 1 / factor
        chromaShift = SIMD2(siting == .center ? -0.5 : -0.5 / factor.x, -0.5)
        nearestShift = chromaShift + 0.5
        chromaSize = SIMD2(image.chromaWidth, image.chromaHeight)
    }

    /// A sampler over a frame, decoding as the capture's manifest says. Pass `encoding` to
    /// override the manifest's matrix and range.
    public init(frame: CaptureFrame, info: CaptureImageInfo, encoding: YCbCrEncoding? = nil, interpolation: Interpolation = .bilinear) {
        self.init(image: frame.image, encoding: encoding ?? info.encoding, siting: info.chromaSiting,
                  primaries: info.primaries, interpolation: interpolation)
    }

    // MARK: Single samples

    /// Interpolated Y, Cb, Cr code values (8-bit scale) at scalar coordinates, or nil outside
    /// the image under `.reject`.
    public func codes(at p: SIMD2<Double>) -> SIMD3<Float>? {
        guard let q = admit(SIMD2<Float>(p)) else { return nil }
        return image.luma.withUnsafeBytes { luma in
            image.chroma.withUnsafeBytes { chroma in
                codes(q, luma.baseAddress!, chroma.baseAddress!)
            }
        }
    }

    /// The colour at scalar coordinates in `space`, or nil outside the image under `.reject`.
    public func color(at p: SIMD2<Double>, space: SampleSpace = .capture) -> SIMD3<Float>? {
        guard let ycc = codes(at: p) else { return nil }
        return convert(decode(ycc), to: space)
    }

    /// 8-bit sRGB at scalar coordinates: the `.srgb` colour through `ColorMath.bytes`.
    public func rgb8(at p: SIMD2<Double>) -> SIMD3<UInt8>? {
        color(at: p, space: .srgb).map(ColorMath.bytes)
    }

    /// The pixel (column, row) whose square holds the sampled point — the luma texel nearest
    /// sampling reads — or nil when `p` gives no sample. Never traps, whatever `p` is.
    public func pixel(at p: SIMD2<Double>) -> SIMD2<Int>? {
        guard let q = admit(SIMD2<Float>(p)) else { return nil }
        return SIMD2(min(Int(q.x * Float(image.width)), image.width - 1), min(Int(q.y * Float(image.height)), image.height - 1))
    }

    // MARK: Batches

    /// Samples many scalar coordinates in one pass into a caller-owned buffer, with no
    /// allocation per sample. Rejected coordinates give NaN in every channel.
    /// - Returns: the number of coordinates that gave a colour.
    /// - Complexity: O(n), one sample at a time with no allocation (figures beside plain C in
    ///   Benchmarks/README.md, "Sampling").
    @discardableResult
    public func sample(_ coordinates: UnsafeBufferPointer<SIMD2<Float>>, into output: UnsafeMutableBufferPointer<SIMD3<Float>>,
                       space: SampleSpace = .capture) -> Int {
        precondition(output.count >= coordinates.count, "output buffer is shorter than the coordinates")
        if interpolation == .bilinear, space == .capture {
            return sampleBilinear(coordinates, into: output)
        }
        var valid = 0
        // One copy of the policy for the batch: reached through `self` inside the loop, the
        // compiler copied all of it (three conversions) for every sample.
        let policy = colorPolicy
        image.luma.withUnsafeBytes { luma in
            image.chroma.withUnsafeBytes { chroma in
                let lumaBase = luma.baseAddress!, chromaBase = chroma.baseAddress!
                for i in coordinates.indices {
                    if let q = admit(coordinates[i]) {
                        output[i] = policy.color(decode(codes(q, lumaBase, chromaBase)), in: space)
                        valid += 1
                    } else {
                        output[i] = SIMD3(repeating: .nan)
                    }
                }
            }
        }
        return valid
    }

    /// Array form of the batch call: `output` is resized to match and reused between calls.
    @discardableResult
    public func sample(_ coordinates: [SIMD2<Float>], into output: inout [SIMD3<Float>], space: SampleSpace = .capture) -> Int {
        if output.count != coordinates.count { output = [SIMD3<Float>](repeating: .zero, count: coordinates.count) }
        return coordinates.withUnsafeBufferPointer { c in
            output.withUnsafeMutableBufferPointer { o in sample(c, into: o, space: space) }
        }
    }

    // MARK: Whole images

    /// Every pixel centre sampled into 8-bit R′G′B′ in `space`, each channel quantised once from
    /// the float colour (`ColorMath.byte`). This is the float path for whole frames that need a
    /// colour conversion (wide-colour captures shown as sRGB); frames already in sRGB primaries
    /// convert much faster with `FrameConverter`, whose bilinear output this matches within a
    /// level (for nearest, give the sampler centre siting to match `FrameConverter`'s blocks of
    /// pixels sharing one chroma sample).
    /// - Parameter threads: cores to split the rows over; the output is the same for any count.
    /// - Returns: `width * height * layout.bytesPerPixel` bytes, row by row (alpha 255).
    /// - Complexity: O(width × height).
    public func pixelCentres(space: SampleSpace, layout: PixelLayout = .rgb8, threads: Int = 1) -> [UInt8] {
        let w = image.width, h = image.height, channels = layout.bytesPerPixel
        var output = [UInt8](repeating: 255, count: w * h * channels)
        var clamping = self
        clamping.edgePolicy = .clamp
        let sampler = clamping
        output.withUnsafeMutableBufferPointer { buffer in
            let out = SendablePointer(buffer.baseAddress!)
            let bands = min(max(threads, 1) == 1 ? 1 : threads * 4, h)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                var coordinates = [SIMD2<Float>](repeating: .zero, count: w)
                var colors = [SIMD3<Float>](repeating: .zero, count: w)
                for row in h * band / bands ..< h * (band + 1) / bands {
                    let t = (Float(row) + 0.5) / Float(h)
                    for col in 0 ..< w { coordinates[col] = SIMD2((Float(col) + 0.5) / Float(w), t) }
                    sampler.sample(coordinates, into: &colors, space: space)
                    let rowStart = out.base + row * w * channels
                    for col in 0 ..< w {
                        let c = ColorMath.bytes(colors[col])
                        rowStart[col * channels] = c.x
                        rowStart[col * channels + 1] = c.y
                        rowStart[col * channels + 2] = c.z
                    }
                }
            }
        }
        return output
    }

    // MARK: Kernels

    @inlinable
    func admit(_ p: SIMD2<Float>) -> SIMD2<Float>? {
        guard p.x >= 0, p.x <= 1, p.y >= 0, p.y <= 1 else {
            guard edgePolicy == .clamp, !p.x.isNaN, !p.y.isNaN else { return nil }
            return SIMD2(min(max(p.x, 0), 1), min(max(p.y, 0), 1))
        }
        return p
    }

    /// Y, Cb, Cr at scalar coordinates already admitted into [0, 1].
    @inlinable @inline(__always)
    func codes(_ p: SIMD2<Float>, _ luma: UnsafeRawPointer, _ chroma: UnsafeRawPointer) -> SIMD3<Float> {
        let w = image.width, h = image.height
        let cw = chromaSize.x, ch = chromaSize.y
        let x = p.x * Float(w), y = p.y * Float(h)
        let lumaBase = luma + image.lumaOffset, chromaBase = chroma + image.chromaOffset
        let ls = image.lumaStride, cs = image.chromaStride
        switch interpolation {
        case .nearest:
            let ix = min(Int(x), w - 1), iy = min(Int(y), h - 1)
            // The arguments are ≥ 0 (shifts ≥ 0 here): truncation is floor.
            let cx = min(Int(x * chromaScale.x + nearestShift.x), cw - 1)
            let cy = min(Int(y * chromaScale.y + nearestShift.y), ch - 1)
            let yv = lumaBase.load(fromByteOffset: iy * ls + ix, as: UInt8.self)
            let c = chromaBase + cy * cs + 2 * cx
            return SIMD3(Float(yv), Float(c.load(as: UInt8.self)), Float(c.load(fromByteOffset: 1, as: UInt8.self)))
        case .bilinear:
            // Luma texel centres sit at half-integers: texel space is x − 0.5.
            let lx = x - 0.5, ly = y - 0.5
            let x0 = Self.floor(lx), y0 = Self.floor(ly)
            let ax = lx - Float(x0), ay = ly - Float(y0)
            let lx0 = min(max(x0, 0), w - 1), lx1 = min(max(x0 + 1, 0), w - 1)
            let ly0 = min(max(y0, 0), h - 1), ly1 = min(max(y0 + 1, 0), h - 1)
            let r0 = lumaBase + ly0 * ls, r1 = lumaBase + ly1 * ls
            let top = Float(r0.load(fromByteOffset: lx0, as: UInt8.self)) * (1 - ax) + Float(r0.load(fromByteOffset: lx1, as: UInt8.self)) * ax
            let bottom = Float(r1.load(fromByteOffset: lx0, as: UInt8.self)) * (1 - ax) + Float(r1.load(fromByteOffset: lx1, as: UInt8.self)) * ax
            let yv = top + (bottom - top) * ay
            // Chroma: at its plane's resolution, shifted by the siting.
            let qx = x * chromaScale.x + chromaShift.x, qy = y * chromaScale.y + chromaShift.y
            let c0 = Self.floor(qx), d0 = Self.floor(qy)
            let bx = qx - Float(c0), by = qy - Float(d0)
            let cx0 = min(max(c0, 0), cw - 1), cx1 = min(max(c0 + 1, 0), cw - 1)
            let cy0 = min(max(d0, 0), ch - 1), cy1 = min(max(d0 + 1, 0), ch - 1)
            let s0 = chromaBase + cy0 * cs, s1 = chromaBase + cy1 * cs
            func pair(_ row: UnsafeRawPointer, _ i: Int) -> SIMD2<Float> {
                SIMD2(Float(row.load(fromByteOffset: 2 * i, as: UInt8.self)), Float(row.load(fromByteOffset: 2 * i + 1, as: UInt8.self)))
            }
            let ctop = pair(s0, cx0) * (1 - bx) + pair(s0, cx1) * bx
            let cbottom = pair(s1, cx0) * (1 - bx) + pair(s1, cx1) * bx
            let cv = ctop + (cbottom - ctop) * by
            return SIMD3(yv, cv.x, cv.y)
        }
    }

    /// `floor(v)` for the texel positions here, which are at least −0.5 and below 2²²: truncation
    /// of `v + 1`, since baseline x86-64 has no rounding instruction and `rounded(.down)` would
    /// call libm.
    @inlinable @inline(__always)
    static func floor(_ v: Float) -> Int { Int(v + 1) - 1 }

    /// Y′CbCr codes → R′G′B′ in the capture's primaries, 0…1 scale, unclamped.
    @inlinable @inline(__always)
    public func decode(_ ycc: SIMD3<Float>) -> SIMD3<Float> {
        let yy = (ycc.x - yOffset) * yScale
        let u = ycc.y - 128, v = ycc.z - 128
        return SIMD3(yy + rCr * v, yy - gCb * u - gCr * v, yy + bCb * u)
    }

    /// Converts decoded R′G′B′ in the capture's primaries to `space` (`colorPolicy`).
    @inlinable @inline(__always)
    public func convert(_ rgb: SIMD3<Float>, to space: SampleSpace) -> SIMD3<Float> {
        colorPolicy.color(rgb, in: space)
    }
}
