import Testing
@testable import PointPaint

/// 8-bit R′G′B′ to Y′CbCr 4:4:4 planes: the rounding bound the documentation gives, and grey
/// exactly; decoded PNGs of every layout (alpha ignored, 16-bit samples at their own precision).
@Suite struct YCbCrPlanesRGBTests {
    @Test func decodingGivesBackEachChannelWithinTheRoundingBound() {
        // Every fifth level of each channel, both ends included: 52³ triples as one image row.
        let levels = Array(stride(from: 0, through: 255, by: 5))
        var samples: [UInt8] = []
        for r in levels { for g in levels { for b in levels { samples += [UInt8(r), UInt8(g), UInt8(b)] } } }
        let count = samples.count / 3
        let planes = YCbCrPlanes(rgb8: samples, width: count, height: 1, channels: 3)
        #expect(planes.subsampling == .yuv444 && planes.cb.count == count)
        var worst = 0.0, sum = 0.0
        for i in 0 ..< count {
            let rgb = YCbCrEncoding.arkit.rgb(y: Double(planes.luma[i]), cb: Double(planes.cb[i]), cr: Double(planes.cr[i])) * 255
            for (decoded, original) in [(rgb.x, samples[3 * i]), (rgb.y, samples[3 * i + 1]), (rgb.z, samples[3 * i + 2])] {
                let error = abs(decoded - Double(original))
                worst = max(worst, error)
                sum += error
            }
        }
        // Half a code of Y′ plus half a code of Cb times B′'s coefficient 1.772: 1.386.
        #expect(worst <= 0.5 + 0.5 * 1.772 + 1e-9, "\(worst)")
        #expect(worst > 1.2, "the bound is reached, not loose: \(worst)")
        #expect(abs(sum / Double(3 * count) - 0.4) < 0.05, "mean \(sum / Double(3 * count))")
    }

    @Test func greyIsExact() {
        let grey = (0 ... 255).map(UInt8.init)
        let planes = YCbCrPlanes(rgb8: grey, width: 16, height: 16, channels: 1)
        #expect(planes.luma == grey)
        #expect(planes.cb.allSatisfy { $0 == 128 } && planes.cr.allSatisfy { $0 == 128 })
    }

    @Test func alphaIsIgnoredAnd16BitSamplesOf257vAreTheirEightBitCodes() {
        var generator = SplitMix64(seed: 12)
        let width = 19, height = 7, count = width * height
        let rgb = (0 ..< 3 * count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let alpha = (0 ..< count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let expected = YCbCrPlanes(rgb8: rgb, width: width, height: height, channels: 3)
        var rgba: [UInt8] = []
        for i in 0 ..< count { rgba += rgb[3 * i ..< 3 * i + 3] + [alpha[i]] }
        #expect(YCbCrPlanes(PNGImage(width: width, height: height, channels: 3, samples: rgb)) == expected)
        #expect(YCbCrPlanes(PNGImage(width: width, height: height, channels: 4, samples: rgba)) == expected)
        #expect(YCbCrPlanes(PNGImage(width: width, height: height, channels: 4, samples16: rgba.map { UInt16($0) * 257 })) == expected)
        #expect(YCbCrPlanes(PNGImage(width: width, height: height, channels: 3, samples16: rgb.map { UInt16($0) * 257 })) == expected)
        // Grey with alpha is grey.
        let grey = Array(rgb[..<count])
        var greyAlpha: [UInt8] = []
        for i in 0 ..< count { greyAlpha += [grey[i], alpha[i]] }
        #expect(YCbCrPlanes(PNGImage(width: width, height: height, channels: 2, samples: greyAlpha))
            == YCbCrPlanes(rgb8: grey, width: width, height: height, channels: 1))
    }

    @Test func sixteenBitGreyRoundsByItsOwnValue() {
        // Full-range grey: Y′ = round(v × 255 / 65535), the 16-bit value's own nearest code, not
        // that of an 8-bit value truncated or rounded first.
        let values: [UInt16] = [0, 128, 129, 32767, 32768, 32896, 65406, 65407, 65535]
        let planes = YCbCrPlanes(PNGImage(width: values.count, height: 1, channels: 1, samples16: values))
        #expect(planes.luma == values.map { UInt8((Double($0) * 255 / 65535).rounded()) })
        #expect(planes.luma == [0, 0, 1, 127, 128, 128, 254, 255, 255])
        #expect(planes.cb.allSatisfy { $0 == 128 } && planes.cr.allSatisfy { $0 == 128 })
    }
}
