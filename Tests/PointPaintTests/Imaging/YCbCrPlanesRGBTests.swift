import Testing
@testable import PointPaint

/// 8-bit R′G′B′ to Y′CbCr 4:4:4 planes: the rounding bound the documentation gives, and grey
/// exactly.
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
}
