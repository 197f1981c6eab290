import Foundation
import Testing
@testable import PointPaint

/// Normals by PCA of neighbours: a tilted plane's and a sphere's against their exact normals;
/// no normal where the points form no surface.
@Suite struct PaintCloudNormalsTests {
    /// The angle between two directions in degrees, ignoring orientation.
    func degrees(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let c = abs((a * b).sum()) / ((a * a).sum() * (b * b).sum()).squareRoot()
        return acos(min(c, 1)) * 180 / .pi
    }

    @Test func aTiltedPlanesNormal() throws {
        var points: [SIMD3<Float>] = []
        for i in 0 ..< 60 {
            for j in 0 ..< 60 {
                let x = Float(i) * 0.01, y = Float(j) * 0.01
                points.append(SIMD3(x, y, 0.3 * x + 0.2 * y + 1))
            }
        }
        let cloud = try PaintCloud(path: "plane", positions: points, colors: nil)
        let normals = cloud.estimatedNormals(spacing: 0.01, threads: 2)
        let exact = SIMD3<Float>(-0.3, -0.2, 1)
        #expect(normals.count == points.count)
        let worst = normals.map { degrees($0.vector, exact) }.max()!
        #expect(worst < 1.5, "worst \(worst)°")
    }

    @Test func aSpheresNormalsPointFromItsCentre() throws {
        var points: [SIMD3<Float>] = []
        let centre = SIMD3<Float>(1, -2, 3)
        // A Fibonacci sphere of radius 0.5, about 1 cm apart.
        let n = 8000
        for k in 0 ..< n {
            let z = 1 - 2 * (Float(k) + 0.5) / Float(n), r = (1 - z * z).squareRoot()
            let phi = Float(k) * 2.399963
            points.append(centre + 0.5 * SIMD3(r * cos(phi), r * sin(phi), z))
        }
        let cloud = try PaintCloud(path: "sphere", positions: points, colors: nil)
        let normals = cloud.estimatedNormals(spacing: 0.01)
        let errors = points.indices.map { degrees(normals[$0].vector, points[$0] - centre) }
        #expect(errors.max()! < 3, "worst \(errors.max()!)°")
    }

    @Test func noNormalWithoutASurface() throws {
        // Isolated points, and points along a line.
        let lonely = (0 ..< 10).map { SIMD3<Float>(Float($0), 0, 0) }
        let line = (0 ..< 100).map { SIMD3<Float>(Float($0) * 0.001, 0, 5) }
        let cloud = try PaintCloud(path: "sparse", positions: lonely + line, colors: nil)
        let normals = cloud.estimatedNormals(spacing: 0.001)
        #expect(normals.allSatisfy { $0 == .none })
    }

    @Test func packedNormalsKeepTheirDirection() {
        let n = SIMD3<Float>(0.6, -0.48, 0.64)
        let back = PackedNormal(n).vector
        #expect(degrees(back, n) < 0.6)
        #expect(PackedNormal(.zero) == .none && PackedNormal.none.vector == .zero)
    }

    @Test("finite points ±3e38 apart give a spacing and normals, not a trap")
    func pointsFartherApartThanAFloatSpans() throws {
        // Their span overflows a Float: the spacing's cells and the normals' cells were
        // inf / inf = NaN and trapped converting to integers (a PLY can hold any finite floats).
        let points: [SIMD3<Float>] = [SIMD3(-3e38, 0, 0), SIMD3(3e38, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 1, 1)]
        let cloud = try PaintCloud(path: "wide.ply", positions: points, colors: nil)
        let spacing = cloud.estimatedSpacing()
        #expect(spacing.isFinite && spacing > 0)
        #expect(cloud.estimatedNormals(spacing: spacing).count == points.count)
        #expect(cloud.estimatedNormals(spacing: 0.01).count == points.count)
    }
}
