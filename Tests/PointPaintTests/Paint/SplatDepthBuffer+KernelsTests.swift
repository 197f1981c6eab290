import Testing
@testable import PointPaint

/// The z-buffer kernels give exactly what `SplatDepthBuffer`'s initializer and `accepts` give.
@Suite struct SplatDepthBufferKernelsTests {
    /// Points over a 640 × 480 image at depths 0.05–8 m, a near cluster in front of a far one.
    static func points(seed: UInt64) -> (coordinates: [SIMD2<Float>], depths: [Float]) {
        var rng = SplitMix64(seed: seed)
        var coordinates: [SIMD2<Float>] = [], depths: [Float] = []
        for n in 0 ..< 6003 {  // not a multiple of a vector's 8 points
            let near = n % 3 == 0
            coordinates.append(SIMD2(Float.random(in: near ? 0.3 ... 0.5 : 0 ... 0.9999, using: &rng), Float.random(in: 0 ... 0.9999, using: &rng)))
            depths.append(near ? Float.random(in: 0.05 ... 1.5, using: &rng) : Float.random(in: 2 ... 8, using: &rng))
        }
        return (coordinates, depths)
    }

    @Test(arguments: [Float(0.005), 0.02, 0.2])
    func splatAndAcceptanceEqualTheInitializerAndAccepts(spacing: Float) {
        let (coordinates, depths) = Self.points(seed: 11)
        for kernel in CPUKernel.allCases where kernel.isAvailable {
            let buffer = SplatDepthBuffer(width: 640, height: 480, focalLength: 500, spacing: spacing, coordinates: coordinates, depths: depths,
                                          kernel: kernel)
            // The Swift model of the kernels' arithmetic.
            var nearest = [Float](repeating: .infinity, count: buffer.columns * buffer.rows)
            nearest.withUnsafeMutableBufferPointer { out in
                coordinates.withUnsafeBufferPointer { c in
                    depths.withUnsafeBufferPointer { d in
                        SplatDepthBuffer.splat(into: out, columns: buffer.columns, rows: buffer.rows, binSize: buffer.binSize, width: 640, height: 480,
                                               focalLength: 500, spacing: spacing, coordinates: c, depths: d)
                    }
                }
            }
            #expect(nearest == buffer.nearest, "\(kernel)")
            let accepted = buffer.acceptance(depths: depths, coordinates: coordinates)
            let reference = depths.indices.map { buffer.accepts(depth: depths[$0], at: coordinates[$0]) }
            #expect(accepted == reference, "\(kernel)")
            #expect(buffer.acceptanceOfSplattedPoints(depths: depths) == reference, "the bins the splat found (\(kernel))")
            // Bins stored by the caller, as observations do.
            var bins = [Int32](repeating: -1, count: depths.count)
            let external = coordinates.withUnsafeBufferPointer { c in
                depths.withUnsafeBufferPointer { d in
                    bins.withUnsafeMutableBufferPointer { b in
                        SplatDepthBuffer(width: 640, height: 480, focalLength: 500, spacing: spacing, coordinates: c, depths: d,
                                         bins: b.baseAddress, kernel: kernel)
                    }
                }
            }
            #expect(external.nearest == buffer.nearest && bins == buffer.bins && external.bins.isEmpty, "\(kernel)")
            #expect(reference.contains(true) && reference.contains(false), "the case discriminates")
        }
    }

    @Test func aPointAtTheCameraCoversAtMostTheReach() {
        // A footprint far wider than any integer: clamped to the reach, not trapped.
        var nearest = [Float](repeating: .infinity, count: 54 * 40)
        let coordinates: [SIMD2<Float>] = [SIMD2(0.5, 0.5)], depths: [Float] = [1e-30]
        nearest.withUnsafeMutableBufferPointer { out in
            coordinates.withUnsafeBufferPointer { c in
                depths.withUnsafeBufferPointer { d in
                    SplatDepthBuffer.splat(into: out, columns: 54, rows: 40, binSize: 12, width: 640, height: 480,
                                           focalLength: 500, spacing: 0.01, coordinates: c, depths: d)
                }
            }
        }
        let covered = nearest.filter { $0 == 1e-30 }.count
        #expect(covered == 33 * 33, "16 bins each side of its own")
        for kernel in CPUKernel.allCases where kernel.isAvailable {
            // Nine such points: a vector's eight and one more.
            let buffer = SplatDepthBuffer(width: 640, height: 480, focalLength: 500, spacing: 0.01,
                                          coordinates: Array(repeating: SIMD2(0.5, 0.5), count: 9), depths: Array(repeating: 1e-30, count: 9),
                                          kernel: kernel)
            #expect(buffer.nearest.filter { $0 == 1e-30 }.count == 33 * 33, "\(kernel)")
            #expect(buffer.bins == Array(repeating: Int32(60 * 160 + 80), count: 9), "\(kernel)")
        }
    }
}
