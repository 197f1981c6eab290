extension SyntheticScene {
    /// The standard scene with two posts standing between the camera's arc and the objects: as
    /// the camera moves, each post hides a different part of the boxes, floor and wall behind it,
    /// so every frame sees some surfaces that others see hidden (a test of visibility: a point
    /// painted with a post's colour was painted through it). The posts' black-and-magenta
    /// stripes match nothing behind them.
    public static let occluded: SyntheticScene = {
        var scene = SyntheticScene.standard
        let stripes = Texture.stripes(period: 0.2, a: [0.95, 0.1, 0.85], b: [0.08, 0.08, 0.08])
        scene.boxes += [
            Box(min: [-0.5, 0, 1.1], max: [-0.38, 1.7, 1.22], texture: stripes),
            Box(min: [0.45, 0, 0.95], max: [0.57, 1.5, 1.07], texture: stripes),
        ]
        return scene
    }()
}

extension SyntheticScene {
    /// A point on a surface of the scene, with its true colour.
    public struct SurfaceSample: Sendable, Equatable {
        /// The point, world space.
        public var position: SIMD3<Double>
        /// The box it lies on.
        public var box: Int
        /// Its true colour, encoded R′G′B′ in the capture's primaries.
        public var color: SIMD3<Double>
        /// Whether the texture is smooth around it: within `radius` along its face, no channel
        /// changes by more than `tolerance` and the face goes on (so a sampler reading a few
        /// pixels around it sees one colour, as for a feature point).
        public var isFlat: Bool
    }

    /// Points on every face of every box but the bottoms (which stand on the floor or face it),
    /// on a grid of `spacing` metres offset by half a step from the face's edges: the dense
    /// cloud a scanner would make of the scene (hidden parts included), with the truth.
    /// `radius` and `tolerance` are the neighbourhood and the largest channel change (0…1) of
    /// `SurfaceSample.isFlat`.
    /// - Complexity: O(scene area / spacing²).
    public func surfaceSamples(spacing: Double, radius: Double = 0.03, tolerance: Double = CaptureSynthesizer.edgeTolerance) -> [SurfaceSample] {
        var samples: [SurfaceSample] = []
        for (index, box) in boxes.enumerated() {
            for axis in 0 ..< 3 {
                let (a, b) = ((axis + 1) % 3, (axis + 2) % 3)
                for side in [box.min[axis], box.max[axis]] {
                    if axis == 1, side == box.min[axis] { continue }  // bottoms
                    let na = Int(((box.max[a] - box.min[a]) / spacing).rounded(.down))
                    let nb = Int(((box.max[b] - box.min[b]) / spacing).rounded(.down))
                    guard na > 0, nb > 0 else { continue }
                    for i in 0 ..< na {
                        for j in 0 ..< nb {
                            var p = SIMD3<Double>()
                            p[axis] = side
                            p[a] = box.min[a] + (Double(i) + 0.5) * (box.max[a] - box.min[a]) / Double(na)
                            p[b] = box.min[b] + (Double(j) + 0.5) * (box.max[b] - box.min[b]) / Double(nb)
                            let color = color(at: p, box: index)
                            var flat = true
                            let r = radius, h = radius / 2
                            for (da, db) in [(r, 0.0), (-r, 0), (0, r), (0, -r), (h, h), (-h, -h), (h, -h), (-h, h)] {
                                var q = p
                                q[a] += da
                                q[b] += db
                                guard q[a] > box.min[a], q[a] < box.max[a], q[b] > box.min[b], q[b] < box.max[b] else { flat = false; break }
                                let d = self.color(at: q, box: index) - color
                                if max(abs(d.x), abs(d.y), abs(d.z)) > tolerance { flat = false; break }
                            }
                            samples.append(SurfaceSample(position: p, box: index, color: color, isFlat: flat))
                        }
                    }
                }
            }
        }
        return samples
    }
}
