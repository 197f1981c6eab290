import Foundation

/// A small textured 3D scene used to synthesize captures with known ground truth: a floor, a
/// wall and several boxes, each face painted with a colourful procedural texture (soft checkers,
/// hue wheels, stripes, ramps and fully saturated tiles). Surfaces are unlit, so a surface
/// point has one true colour, seen the same from every camera.
///
/// Texture values are encoded R′G′B′ in the capture's primaries: in a Display P3 capture the
/// saturated tiles are colours that sRGB cannot show.
public struct SyntheticScene: Sendable {
    /// Procedural textures, as functions of surface coordinates in metres.
    public enum Texture: Sendable {
        case checker(size: Double, a: SIMD3<Double>, b: SIMD3<Double>)
        case hueWheel(center: SIMD2<Double>, radius: Double)
        case stripes(period: Double, a: SIMD3<Double>, b: SIMD3<Double>)
        case ramp(scale: Double)
        case saturatedTiles(size: Double)
    }

    /// An axis-aligned box with one texture.
    public struct Box: Sendable {
        public var min: SIMD3<Double>
        public var max: SIMD3<Double>
        public var texture: Texture
    }

    /// The boxes (floor and wall are thin boxes).
    public var boxes: [Box]
    /// Colour of rays that hit nothing (a sky gradient's base).
    public var background = SIMD3<Double>(0.55, 0.7, 0.9)

    /// The standard scene: about 6 × 6 m of floor, a back wall and four objects near the origin.
    public static let standard = SyntheticScene(boxes: [
        Box(min: [-3, -0.05, -3], max: [3, 0, 3],
            texture: .checker(size: 0.3, a: [0.85, 0.78, 0.62], b: [0.16, 0.45, 0.50])),
        Box(min: [-3, 0, -3.05], max: [3, 2.6, -3],
            texture: .stripes(period: 0.4, a: [0.95, 0.55, 0.15], b: [0.20, 0.25, 0.70])),
        Box(min: [-0.9, 0, -0.7], max: [-0.25, 0.65, -0.05], texture: .saturatedTiles(size: 0.16)),
        Box(min: [0.3, 0, -0.5], max: [0.9, 0.9, 0.1], texture: .ramp(scale: 0.9)),
        Box(min: [-0.25, 0, 0.45], max: [0.35, 0.35, 1.0], texture: .hueWheel(center: [0.05, 0.72], radius: 0.3)),
        Box(min: [1.2, 0, -1.6], max: [1.26, 1.5, -0.4], texture: .hueWheel(center: [-1.0, 0.75], radius: 0.6)),
        Box(min: [-1.8, 0, -1.9], max: [-1.1, 1.2, -1.4],
            texture: .checker(size: 0.12, a: [0.92, 0.2, 0.35], b: [0.95, 0.9, 0.3])),
    ])

    /// The distance from `p` to the nearest surface of any box, metres (inside a box, to its
    /// nearest face): how far a replayed point lies off the scene, the thickness a drift adds.
    public func distance(to p: SIMD3<Double>) -> Double {
        boxes.map { box in
            let below = box.min - p, above = p - box.max
            let outside = pointwiseMax(pointwiseMax(below, above), .zero)
            let gap = (outside * outside).sum().squareRoot()
            return gap > 0 ? gap : Swift.min(pointwiseMin(-below, -above).min(), .infinity)
        }.min() ?? .infinity
    }

    /// The nearest surface hit by the ray, or nil.
    public func intersect(origin: SIMD3<Double>, direction: SIMD3<Double>) -> (distance: Double, box: Int, point: SIMD3<Double>)? {
        var best: (Double, Int)?
        let inv = 1 / direction
        for (index, box) in boxes.enumerated() {
            let t0 = (box.min - origin) * inv, t1 = (box.max - origin) * inv
            let near = pointwiseMin(t0, t1).max(), far = pointwiseMax(t0, t1).min()
            guard near <= far, far > 1e-6 else { continue }
            let t = near > 1e-6 ? near : far
            if best == nil || t < best!.0 { best = (t, index) }
        }
        guard let (t, index) = best else { return nil }
        return (t, index, origin + direction * t)
    }

    /// The true colour at `point` on box `index` (encoded R′G′B′, capture primaries, 0…1).
    public func color(at point: SIMD3<Double>, box index: Int) -> SIMD3<Double> {
        let box = boxes[index]
        // Surface coordinates: drop the axis the point's face is perpendicular to.
        let a = point - box.min, b = box.max - point
        let d = SIMD3(Swift.min(Swift.abs(a.x), Swift.abs(b.x)), Swift.min(Swift.abs(a.y), Swift.abs(b.y)), Swift.min(Swift.abs(a.z), Swift.abs(b.z)))
        let axis = d.x <= d.y && d.x <= d.z ? 0 : (d.y <= d.z ? 1 : 2)
        let uv: SIMD2<Double> = switch axis {
        case 0: [point.z, point.y]
        case 1: [point.x, point.z]
        default: [point.x, point.y]
        }
        return Self.evaluate(box.texture, uv)
    }

    private static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = Swift.min(Swift.max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// Fraction of the way across a soft edge between tiles (0 inside one tile, 1 in the next).
    private static func softParity(_ x: Double, size: Double) -> Double {
        let cell = (x / size).rounded(.down)
        let f = x / size - cell
        let parity = Int(cell) & 1 == 0 ? 0.0 : 1.0
        let w = 0.02 // soft edge width, in tiles
        let blend = smoothstep(1 - w, 1, f)
        return parity + (1 - 2 * parity) * blend
    }

    private static func hsv(_ h: Double, _ s: Double, _ v: Double) -> SIMD3<Double> {
        let k = SIMD3<Double>(5, 3, 1)
        var out = SIMD3<Double>()
        for i in 0 ..< 3 {
            let n = (k[i] + h * 6).truncatingRemainder(dividingBy: 6)
            out[i] = v - v * s * Swift.max(0, Swift.min(Swift.min(n, 4 - n), 1))
        }
        return out
    }

    private static func evaluate(_ texture: Texture, _ uv: SIMD2<Double>) -> SIMD3<Double> {
        switch texture {
        case .checker(let size, let a, let b):
            let pu = softParity(uv.x, size: size), pv = softParity(uv.y, size: size)
            let t = pu + pv - 2 * pu * pv // soft XOR
            return a + (b - a) * t
        case .hueWheel(let center, let radius):
            let d = uv - center
            let r = (d * d).sum().squareRoot()
            let hue = (atan2(d.y, d.x) / (2 * .pi) + 1).truncatingRemainder(dividingBy: 1)
            let s = Swift.min(r / radius, 1)
            return hsv(hue, s, 0.92)
        case .stripes(let period, let a, let b):
            let t = 0.5 + 0.5 * sin(2 * .pi * (uv.x + 0.35 * uv.y) / period)
            return a + (b - a) * t
        case .ramp(let scale):
            let u = (uv.x / scale).truncatingRemainder(dividingBy: 1), v = (uv.y / scale).truncatingRemainder(dividingBy: 1)
            let fu = u < 0 ? u + 1 : u, fv = v < 0 ? v + 1 : v
            return SIMD3(fu, fv, 1 - 0.5 * (fu + fv)) * 0.9 + 0.05
        case .saturatedTiles(let size):
            let palette: [SIMD3<Double>] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 0.5, 0], [0.05, 0.05, 0.05]]
            let i = Int((uv.x / size).rounded(.down)), j = Int((uv.y / size).rounded(.down))
            return palette[((i &* 3 &+ j &* 5) % palette.count + palette.count) % palette.count]
        }
    }
}
