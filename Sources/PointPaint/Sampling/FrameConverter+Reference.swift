extension FrameConverter {
    /// The plain reference conversion: scalar, double precision, per docs/DESIGN.md ("Y′CbCr
    /// decoding", "Texel positions and chroma siting"), through `YCbCrEncoding.rgb(y:cb:cr:)`;
    /// each channel quantised by `ColorMath.byte` (clamped, rounded to nearest). Same signature
    /// and output layout as `convert`, about two orders of magnitude slower; tests hold the fast
    /// path to it.
    ///
    /// - Complexity: O(width × height).
    public func convertReference(_ image: YCbCrImage, to layout: PixelLayout = .rgba8, interpolation: Interpolation = .nearest,
                                 into output: inout [UInt8]) {
        let bpp = layout.bytesPerPixel
        let count = image.width * image.height * bpp
        if output.count != count { output = [UInt8](repeating: 0, count: count) }
        let cw = image.chromaWidth, ch = image.chromaHeight
        let fx = image.subsampling.horizontal, fy = image.subsampling.vertical
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let (cb, cr): (Double, Double)
                switch interpolation {
                case .nearest:
                    // The chroma sample of the block of fx × fy pixels this one belongs to.
                    let c = image.chromaValue(x: x / fx, y: y / fy)
                    (cb, cr) = (Double(c.cb), Double(c.cr))
                case .bilinear:
                    // Chroma texel position of this pixel's centre (docs/DESIGN.md, "Texel
                    // positions and chroma siting"), per axis: texel i sits at luma position
                    // (i + 0.5)·f (centre) or i·f + 0.5 (left, horizontally).
                    let px = siting == .left ? Double(x) / Double(fx) : (Double(x) + 0.5) / Double(fx) - 0.5
                    let py = (Double(y) + 0.5) / Double(fy) - 0.5
                    let fx = px.rounded(.down), fy = py.rounded(.down)
                    let ax = px - fx, ay = py - fy
                    let x0 = min(max(Int(fx), 0), cw - 1), x1 = min(max(Int(fx) + 1, 0), cw - 1)
                    let y0 = min(max(Int(fy), 0), ch - 1), y1 = min(max(Int(fy) + 1, 0), ch - 1)
                    func at(_ i: Int, _ j: Int) -> SIMD2<Double> {
                        let c = image.chromaValue(x: i, y: j)
                        return SIMD2(Double(c.cb), Double(c.cr))
                    }
                    let top = at(x0, y0) * (1 - ax) + at(x1, y0) * ax
                    let bottom = at(x0, y1) * (1 - ax) + at(x1, y1) * ax
                    let c = top * (1 - ay) + bottom * ay
                    (cb, cr) = (c.x, c.y)
                }
                let rgb = encoding.rgb(y: Double(image.lumaValue(x: x, y: y)), cb: cb, cr: cr)
                let i = (y * image.width + x) * bpp
                for channel in 0 ..< 3 { output[i + channel] = ColorMath.byte(rgb[channel]) }
                if bpp == 4 { output[i + 3] = 255 }
            }
        }
    }
}
