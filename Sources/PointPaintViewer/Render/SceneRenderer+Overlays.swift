import CGLFW
import Foundation
import PointPaint

extension SceneRenderer {
    /// Rebuilds the axes (at the origin, red x, green y, blue z) and the grid (under the cloud),
    /// drawn with the cloud and depth-tested against it.
    func setOverlays(axes: Bool, grid: Bool, framing: SceneFraming, background: SIMD3<Float>) {
        var data: [Float] = []
        func line(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) {
            data += [a.x, a.y, a.z, c.x, c.y, c.z, b.x, b.y, b.z, c.x, c.y, c.z]
        }
        if axes {
            let l = framing.radius
            line(.zero, SIMD3(l, 0, 0), SIMD3(0.9, 0.2, 0.2))
            line(.zero, SIMD3(0, l, 0), SIMD3(0.2, 0.85, 0.2))
            line(.zero, SIMD3(0, 0, l), SIMD3(0.25, 0.4, 1))
        }
        if grid {
            let luma = (background * SIMD3(0.3, 0.6, 0.1)).sum()
            let color = SIMD3<Float>(repeating: luma > 0.5 ? luma - 0.25 : luma + 0.2)
            let half = framing.radius
            let step = Self.niceStep(half / 5)
            let cells = Int((half / step).rounded(.up))
            let c = framing.center, y = c.y - framing.extent.y / 2 - framing.boxSize / 2
            let x0 = (c.x / step).rounded() * step, z0 = (c.z / step).rounded() * step
            let span = Float(cells) * step
            for i in -cells ... cells {
                let o = Float(i) * step
                line(SIMD3(x0 + o, y, z0 - span), SIMD3(x0 + o, y, z0 + span), color)
                line(SIMD3(x0 - span, y, z0 + o), SIMD3(x0 + span, y, z0 + o), color)
            }
        }
        lineVertexCount = data.count / 6
        if !data.isEmpty { lineBuffer.upload(data, usage: GL_DYNAMIC_DRAW) }
    }

    /// Draws `points` (the picked voxels of a measurement) as crosses of arm `arm`, joined by a
    /// line, on top of everything (no depth test); none when empty.
    func setMarks(_ points: [SIMD3<Float>], arm: Float) {
        var data: [Float] = []
        func line(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) {
            data += [a.x, a.y, a.z, c.x, c.y, c.z, b.x, b.y, b.z, c.x, c.y, c.z]
        }
        let yellow = SIMD3<Float>(1, 0.85, 0.1)
        for p in points {
            for axis in [SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)] { line(p - axis * arm, p + axis * arm, yellow) }
        }
        for (a, b) in zip(points, points.dropFirst()) { line(a, b, yellow) }
        markVertexCount = data.count / 6
        if !data.isEmpty { markBuffer.upload(data, usage: GL_DYNAMIC_DRAW) }
    }

    /// 1, 2 or 5 times a power of ten, at least `x`.
    static func niceStep(_ x: Float) -> Float {
        guard x > 0, x.isFinite else { return 1 }
        let p = Float.pow10(x.log10Floor)
        for m: Float in [1, 2, 5, 10] where m * p >= x { return m * p }
        return 10 * p
    }
}

private extension Float {
    static func pow10(_ e: Int) -> Float { Float(Foundation.pow(10.0, Double(e))) }
    var log10Floor: Int { Int(Foundation.log10(Double(self)).rounded(.down)) }
}
