import PointPaint
import Testing
@testable import PointPaintViewer

@Suite("Quality heat map")
struct QualityHeatMapTests {
    /// Rec. 709 luma of an sRGB-encoded colour: viridis rises in it from end to end.
    /// An sRGB colour given by its 8-bit hex codes, 0…1.
    private static func hex(_ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> { SIMD3(r, g, b) / 255 }

    private static func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool {
        let d = a - b
        return max(d.x.magnitude, d.y.magnitude, d.z.magnitude) < 1e-6
    }

    private static func luma(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

    @Test("The map runs from viridis's blue to its yellow, through its stops, clamped, NaN grey")
    func stops() {
        #expect(QualityHeatMap.color(at: 0) == Self.hex(0x3B, 0x52, 0x8B))
        #expect(QualityHeatMap.color(at: 1) == Self.hex(0xFD, 0xE7, 0x25))
        #expect(Self.close(QualityHeatMap.color(at: 1.0 / 3), Self.hex(0x21, 0x91, 0x8C)))
        #expect(Self.close(QualityHeatMap.color(at: 2.0 / 3), Self.hex(0x5E, 0xC9, 0x62)))
        #expect(QualityHeatMap.color(at: -3) == QualityHeatMap.color(at: 0))
        #expect(QualityHeatMap.color(at: 7) == QualityHeatMap.color(at: 1))
        #expect(QualityHeatMap.color(at: .nan) == QualityHeatMap.missing)
        let mid = QualityHeatMap.color(at: 1.0 / 6), a = QualityHeatMap.color(at: 0), b = QualityHeatMap.color(at: 1.0 / 3)
        #expect(Self.close(mid, (a + b) / 2))
    }

    @Test("Lightness rises steadily along the map, so its order reads without hue")
    func monotoneLightness() {
        var previous = -Float.infinity
        for k in 0 ... 256 {
            let l = Self.luma(QualityHeatMap.color(at: Float(k) / 256))
            #expect(l > previous, "luma falls at \(k)/256")
            previous = l
        }
    }

    @Test("Views lie on a log scale from 1 to 256; a point no frame saw is grey")
    func viewsScale() {
        let cloud = VoxelCloud(voxelSize: nil, positions: Array(repeating: .zero, count: 5),
                               colors: Array(repeating: SIMD3(1, 0, 0), count: 5), counts: [0, 1, 16, 256, 100_000])
        let t = (0 ..< 5).map { QualityHeatMap.position(of: $0, in: cloud, measure: .views) }
        #expect(t[0].isNaN)
        #expect(t[1] == 0 && t[2] == 0.5 && t[3] == 1 && t[4] > 1)
        #expect(QualityHeatMap.color(of: 0, in: cloud, source: .quality(.views)) == QualityHeatMap.missing)
        #expect(QualityHeatMap.color(of: 4, in: cloud, source: .quality(.views)) == QualityHeatMap.color(at: 1))
        #expect(QualityHeatMap.color(of: 2, in: cloud, source: .color) == SIMD3(1, 0, 0))
        #expect(QualityHeatMap.position(of: 2, in: cloud, measure: .spread).isNaN, "no colour_sd in the cloud")
    }

    @Test("Spread lies on a linear scale from 0 to 0.1; NaN spreads and unseen points are grey")
    func spreadScale() {
        let cloud = VoxelCloud(voxelSize: nil, positions: Array(repeating: .zero, count: 5),
                               colors: Array(repeating: .zero, count: 5), counts: [1, 2, 3, 4, 0], colourSD: [0, 0.05, 0.1, .nan, 0])
        let t = (0 ..< 5).map { QualityHeatMap.position(of: $0, in: cloud, measure: .spread) }
        #expect(t[0] == 0 && abs(t[1] - 0.5) < 1e-6 && abs(t[2] - 1) < 1e-6 && t[3].isNaN && t[4].isNaN)
    }

    @Test("The legend says when a cloud lacks the measure")
    func legend() {
        let plain = VoxelCloud(voxelSize: nil, positions: [.zero], colors: [.zero])
        #expect(QualityHeatMap.legend(.views, for: plain).contains("no view counts"))
        #expect(QualityHeatMap.legend(.spread, for: plain).contains("no colour_sd"))
        let painted = VoxelCloud(voxelSize: nil, positions: [.zero], colors: [.zero], counts: [4], colourSD: [0.01])
        #expect(!QualityHeatMap.legend(.views, for: painted).contains("no view counts"))
        #expect(!QualityHeatMap.legend(.spread, for: painted).contains("no colour_sd"))
    }
}
