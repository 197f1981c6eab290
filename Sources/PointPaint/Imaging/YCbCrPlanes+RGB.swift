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
        self.init(samples: samples, largest: 255, width: width, height: height, channels: channels, encoding: encoding)
    }

    /// 4:4:4 planes of a decoded PNG's colours, computed as `init(rgb8:width:height:channels:encoding:)`
    /// computes them, whatever the PNG's layout: grey or R′G′B′ (a palette arrives as R′G′B′),
    /// with or without alpha, 8 or 16 bits a sample.
    ///
    /// Alpha is ignored: a pixel's colour is the colour stored, as a camera frame saved with an
    /// opaque (or any) alpha channel means it. Samples are scaled to 0…1 by their largest code,
    /// so 16-bit ones keep their precision until the one rounding to Y′CbCr codes, and a 16-bit
    /// sample of `v × 257` gives exactly the planes of the 8-bit sample `v`.
    /// - Complexity: O(width × height).
    package init(_ png: PNGImage, encoding: YCbCrEncoding = .arkit) {
        switch png.samples {
        case .eight(let samples):
            self.init(samples: samples, largest: 255, width: png.width, height: png.height, channels: png.channels, encoding: encoding)
        case .sixteen(let samples):
            self.init(samples: samples, largest: 65535, width: png.width, height: png.height, channels: png.channels, encoding: encoding)
        }
    }

    /// The planes of `channels` interleaved samples a pixel (grey, grey + alpha, R′G′B′ or
    /// R′G′B′ + alpha; alpha ignored), each scaled by `1 / largest`.
    private init<Sample: BinaryInteger>(samples: [Sample], largest: Double, width: Int, height: Int, channels: Int,
                                        encoding: YCbCrEncoding) {
        precondition((1 ... 4).contains(channels), "grey, grey + alpha, RGB or RGBA samples")
        precondition(samples.count == width * height * channels, "samples do not match \(width)x\(height)x\(channels)")
        func code(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        let colour = channels >= 3
        var luma = [UInt8](repeating: 0, count: width * height), cb = luma, cr = luma
        for i in 0 ..< width * height {
            let p = i * channels
            let rgb = colour
                ? SIMD3(Double(samples[p]), Double(samples[p + 1]), Double(samples[p + 2])) / largest
                : SIMD3(repeating: Double(samples[p]) / largest)
            let ycc = encoding.ycbcr(rgb: rgb)
            luma[i] = code(ycc.x)
            cb[i] = code(ycc.y)
            cr[i] = code(ycc.z)
        }
        self.init(width: width, height: height, subsampling: .yuv444, luma: luma, cb: cb, cr: cr)
    }
}
