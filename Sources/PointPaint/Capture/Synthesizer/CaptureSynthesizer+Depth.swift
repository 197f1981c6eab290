import Foundation

extension CaptureSynthesizer {
    /// Renders frame `index`'s depth map at `width` × `height` (the grid a LiDAR map has, scaled
    /// from the image's field of view): at each depth pixel's centre, the z-depth of the surface the
    /// ray hits, or 0 where it hits nothing; and a confidence map that is high everywhere but on
    /// silhouettes (medium) and on pixels whose four neighbours see another box (low), as ARKit's
    /// confidence falls at depth edges.
    public func renderDepth(frame index: Int, width: Int, height: Int) -> DepthMap {
        let camera = camera(frame: index)
        let scaleX = Double(options.width) / Double(width), scaleY = Double(options.height) / Double(height)
        let forward = -SIMD3(camera.transform.columns.2.x, camera.transform.columns.2.y, camera.transform.columns.2.z)
        var depth = [Float](repeating: 0, count: width * height)
        var box = [Int](repeating: -1, count: width * height)
        depth.withUnsafeMutableBufferPointer { depthBuffer in
            box.withUnsafeMutableBufferPointer { boxBuffer in
                let d = SendablePointer(depthBuffer.baseAddress!), b = SendablePointer(boxBuffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: height) { row in
                    for col in 0 ..< width {
                        let ray = camera.ray(u: (Double(col) + 0.5) * scaleX, v: (Double(row) + 0.5) * scaleY)
                        guard let hit = scene.intersect(origin: ray.origin, direction: ray.direction) else { continue }
                        d.base[row * width + col] = Float(((hit.point - ray.origin) * forward).sum())
                        b.base[row * width + col] = hit.box
                    }
                }
            }
        }
        var confidence = [UInt8](repeating: UInt8(DepthConfidence.high.rawValue), count: width * height)
        for row in 0 ..< height {
            for col in 0 ..< width {
                let here = box[row * width + col]
                let neighbours = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
                    .filter { $0.0 >= 0 && $0.0 < width && $0.1 >= 0 && $0.1 < height }
                    .map { box[$0.1 * width + $0.0] }
                if neighbours.contains(where: { $0 != here }) {
                    confidence[row * width + col] = UInt8(neighbours.contains(-1) || here == -1 ? DepthConfidence.medium.rawValue : DepthConfidence.low.rawValue)
                }
            }
        }
        return DepthMap(width: width, height: height, depth: depth, confidence: confidence)
    }
}
