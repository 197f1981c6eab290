import Foundation

/// A frame's depth map as registration uses it: points in camera space (ARKit axes, metres) with
/// their surface normals, taken every `stride`-th depth pixel across and down.
struct DepthSurfels: Sendable {
    /// Camera-space points.
    var points: [SIMD3<Double>] = []
    /// Unit normals, facing the camera.
    var normals: [SIMD3<Double>] = []

    /// No surfels (a frame without a depth map).
    init() {}

    /// The surfels of `map`, a frame of `camera` whose image is `imageWidth` × `imageHeight`,
    /// every `stride`-th pixel, unprojected as `DepthMap.appendPoints` does. A pixel's normal is
    /// the cross product of the differences between its neighbours left and right, above and
    /// below (half the stride away, at least one pixel); a pixel on a depth step (a neighbour
    /// more than 5 % nearer or farther), or with a neighbour outside `sampling`, gives no surfel.
    init(map: DepthMap, camera: Camera, imageWidth: Int, imageHeight: Int, sampling: DepthSampling, stride: Int) {
        let k = camera.intrinsics
        let sx = Double(map.width) / Double(imageWidth), sy = Double(map.height) / Double(imageHeight)
        let minimum = UInt8(sampling.minimumConfidence.rawValue)
        func point(_ i: Int, _ j: Int) -> SIMD3<Double>? {
            guard i >= 0, j >= 0, i < map.width, j < map.height else { return nil }
            let d = Double(map.depth[j * map.width + i])
            guard d > 0, d.isFinite, d <= Double(sampling.maximumDepth) else { return nil }
            if let confidence = map.confidence, confidence[j * map.width + i] < minimum { return nil }
            let x = ((Double(i) + 0.5) / sx - k.cx) / k.fx, y = -((Double(j) + 0.5) / sy - k.cy) / k.fy
            return SIMD3(x * d, y * d, -d)
        }
        let step = max(1, stride), reach = max(1, step / 2)
        for j in Swift.stride(from: step / 2, to: map.height, by: step) {
            for i in Swift.stride(from: step / 2, to: map.width, by: step) {
                guard let p = point(i, j), let left = point(i - reach, j), let right = point(i + reach, j),
                      let up = point(i, j - reach), let down = point(i, j + reach) else { continue }
                let depths = [left.z, right.z, up.z, down.z]
                guard depths.allSatisfy({ abs($0 - p.z) <= 0.05 * -p.z }) else { continue }
                let a = right - left, b = down - up
                var n = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
                let length = (n * n).sum().squareRoot()
                guard length > 0 else { continue }
                n /= length
                if (n * p).sum() > 0 { n = -n }
                points.append(p)
                normals.append(n)
            }
        }
    }
}
