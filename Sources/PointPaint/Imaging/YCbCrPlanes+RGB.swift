extension YCbCrPlanes {
    /// 4:4:4 planes of 8-bit R′G′B′ pixels (`channels` 3) or grey ones (`channels` 1), each
    /// pixel's Y′, Cb and Cr computed with `encoding` in double precision and rounded to the
    /// nearest code (clamped to 0…255).
    ///
    /// This is the one lossy step of reading an RGB frame: 8-bit Y′CbCr cannot hold every 8-bit
    /// R′G′B′ triple, so decoding the codes gives back each channel within 1.4 levels of the
    /// original: half a code of Y′ plus half a code of Cb or Cr times its coefficient (at BT.601
    /// full range, a mean of 0.4 over all 2²⁴ triples, and 24 % of them exact after rounding).
    /// Grey pixels come back exactly at full range.
    /// - Precondition: `samples.count == width × height × channels`, `channels` 1 or 3.
    /// - Complexity: O(width × height).
    package init(rgb8 samples: [UInt8], width: Int, height: Int, channels: Int, encoding: YCbCrEncoding = .arkit) {
        precondition(channels == 1 || channels == 3, "RGB or grey samples")
        precondition(samples.count == width * height * channels, "samples do not match \(width)x\(height)x\(channels)")
        func code(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        var luma = [UInt8](repeating: 0, count: width * height), cb = luma, cr = luma
        for i in 0 ..< width * height {
            let rgb = channels == 3
                ? SIMD3(Double(samples[3 * i]), Double(samples[3 * i + 1]), Double(samples[3 * i + 2])) / 255
                : SIMD3(repeating: Double(samples[i]) / 255)
            let ycc = encoding.ycbcr(rgb: rgb)
            luma[i] = code(ycc.x)
            cb[i] = code(ycc.y)
            cr[i] = code(ycc.z)
        }
        self.init(width: width, height: height, subsampling: .yuv444, luma: luma, cb: cb, cr: cr)
    }
}
