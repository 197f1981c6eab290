import Foundation
import Testing
@testable import PointPaint

/// The real iPhone frame in `Captures/iphone-lidar` (a 1920×1440 JPEG as recorded, its 256×192
/// LiDAR depth in millimetres): its one-frame replay puts a point at every depth pixel, at the
/// map's depth, painted with the JPEG's own Y′CbCr at that point's pixel — checked against a
/// float64 decode written out here, independent of the sampler.
@Suite struct IPhoneLidarReplayTests {
    static let capture = RepositoryFile.path("Captures/iphone-lidar")

    /// Bilinear interpolation of a plane at (x, y) in its own pixel units, pixel centres at
    /// integers, edges clamped.
    static func bilinear(_ plane: [UInt8], width: Int, height: Int, x: Double, y: Double) -> Double {
        let x0 = Int(floor(x)), y0 = Int(floor(y))
        let fx = x - Double(x0), fy = y - Double(y0)
        func at(_ i: Int, _ j: Int) -> Double { Double(plane[min(max(j, 0), height - 1) * width + min(max(i, 0), width - 1)]) }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// The sRGB curve (IEC 61966-2-1), applied to a linear value.
    static func srgbEncode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    @Test func aPointAtEveryDepthPixelPaintedWithTheJPEGsOwnColour() throws {
        let reader = try CaptureReader(path: Self.capture)
        #expect(reader.frameCount == 1 && reader.imageInfo == CaptureImageInfo(width: 1920, height: 1440))
        let jpeg = try #require(try reader.jpegData(at: 0))
        #expect(jpeg == (try FileBytes.read(Self.capture + "/frames/000000.jpg")), "the JPEG is kept as recorded")
        let planes = try JPEGDecoder.decode(jpeg, file: nil).planes
        #expect(planes.subsampling == .yuv420)

        // The map as the PNG holds it, read with libpng here rather than through the reader.
        let png = try PNGImage.read(path: Self.capture + "/depth/000000.png").image
        #expect(png.width == 256 && png.height == 192 && png.bitDepth == 16)
        let millimetres = png.samples16

        let replay = try CaptureReplay(source: reader)
        let samples = try replay.samples(ofFrame: 0)
        let expected = millimetres.enumerated().filter { $0.element > 0 && $0.element <= 5000 }
        #expect(samples.positions.count == expected.count && expected.count > 40000, "\(samples.positions.count) of \(expected.count)")
        #expect(samples.statistics.depthFrames == 1 && samples.statistics.pointsSeen == expected.count)

        var depthError = 0.0, worstColour = 0.0, colourSum = 0.0
        for ((pixel, mm), (position, colour)) in zip(expected, zip(samples.positions, samples.colors)) {
            let i = pixel % 256, j = pixel / 256
            // Depth: the camera is the identity, so the point's z is minus the map's depth, and it
            // lies on the ray through its depth pixel's centre (intrinsics scaled by 256/1920).
            let d = Double(mm) / 1000
            let s = 256.0 / 1920.0
            let x = (Double(i) + 0.5 - 960 * s) * d / (1450 * s), y = -(Double(j) + 0.5 - 720 * s) * d / (1450 * s)
            depthError = max(depthError, abs(Double(-position.z) - d), abs(Double(position.x) - x), abs(Double(position.y) - y))

            // Colour: the JPEG's Y′CbCr at the point's pixel (u, v) in image pixels, bilinear,
            // chroma at its centred 4:2:0 sites, BT.601 full range, clamped to sRGB's gamut.
            let u = (Double(i) + 0.5) * 7.5, v = (Double(j) + 0.5) * 7.5
            let luma = Self.bilinear(planes.luma, width: 1920, height: 1440, x: u - 0.5, y: v - 0.5)
            let cb = Self.bilinear(planes.cb, width: 960, height: 720, x: u / 2 - 0.5, y: v / 2 - 0.5) - 128
            let cr = Self.bilinear(planes.cr, width: 960, height: 720, x: u / 2 - 0.5, y: v / 2 - 0.5) - 128
            let kr = 0.299, kb = 0.114, kg = 1 - kr - kb
            let rgb = [luma + 2 * (1 - kr) * cr, luma - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr, luma + 2 * (1 - kb) * cb]
                .map { min(max($0 / 255, 0), 1) }
            // The replay keeps linear light: encode it back to compare 8-bit levels.
            let replayed = [colour.x, colour.y, colour.z].map { Self.srgbEncode(Double($0)) }
            let difference = zip(rgb, replayed).map { abs($0 - $1) * 255 }.max()!
            worstColour = max(worstColour, difference)
            colourSum += difference
        }
        #expect(depthError < 2e-6 * 5, "positions off by \(depthError) m")
        #expect(worstColour <= 1, "colours off by \(worstColour) levels at most, \(colourSum / Double(expected.count)) on average")
        #expect(colourSum / Double(expected.count) < 0.05)
    }

    @Test func theWholeReplayPaintsEveryPoint() throws {
        var store = SceneStore(voxelSize: 0.01)
        let statistics = try CaptureReplay(source: CaptureReader(path: Self.capture)).run(into: &store)
        #expect(statistics.frames == 1 && statistics.painted == statistics.pointsSeen && statistics.pointsSeen == statistics.depth.points)
        #expect(statistics.depth.noDepth + statistics.depth.tooFar + statistics.depth.points == 256 * 192 && statistics.depth.lowConfidence == 0)
        #expect(store.count > 40000)
    }
}
