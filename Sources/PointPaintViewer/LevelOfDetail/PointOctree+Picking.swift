extension PointOctree {
    /// The index of the nearest point of `positions` whose box (edge `boxSize`, centred on it)
    /// the ray hits, or nil: the answer of `Picking.pick` over every point (ties to the smaller
    /// index), found by visiting only the nodes whose cube, widened by half a box, the ray enters
    /// before the nearest hit so far.
    /// - Complexity: O(points in the nodes the ray passes through), typically far below O(n).
    public func pick(positions: [SIMD3<Float>], boxSize: Float, origin: SIMD3<Float>, direction: SIMD3<Float>) -> Int? {
        guard !nodes.isEmpty else { return nil }
        let inverse = SIMD3<Float>(1, 1, 1) / direction
        let half = SIMD3<Float>(repeating: boxSize / 2)
        /// The ray's entry distance into the box `lo…hi`, or nil when it misses it or it lies behind.
        func entry(_ lo: SIMD3<Float>, _ hi: SIMD3<Float>) -> Float? {
            let a = (lo - origin) * inverse, b = (hi - origin) * inverse
            let near = pointwiseMin(a, b), far = pointwiseMax(a, b)
            let enter = max(near.x, near.y, near.z), exit = min(far.x, far.y, far.z)
            return enter <= exit && exit >= 0 ? max(enter, 0) : nil
        }
        // A point's key may round it one lattice step into a neighbouring node: cubes are widened
        // by two steps, and by half a box.
        let slack = half + SIMD3(repeating: Float((cube?.side ?? 0) / OctreeCube.resolution * 2))
        var best = Float.infinity, index: Int?
        var stack = [0]
        positions.withUnsafeBufferPointer { positions in
            while let id = stack.popLast() {
                let node = nodes[id]
                guard let t = entry(node.origin - slack, node.origin + SIMD3(repeating: node.size) + slack), t <= best else { continue }
                for point in node.points {
                    let i = Int(point)
                    guard let hit = entry(positions[i] - half, positions[i] + half) else { continue }
                    if hit < best || (hit == best && i < index ?? .max) {
                        best = hit
                        index = i
                    }
                }
                for octant in 0 ..< 8 where node.children[octant] >= 0 { stack.append(Int(node.children[octant])) }
            }
        }
        return index
    }
}
