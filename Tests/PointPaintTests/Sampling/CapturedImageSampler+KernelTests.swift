import Testing
@testable import PointPaint

/// The bilinear batch kernels give exactly what the sampler's Swift path gives point by point
/// (`color(at:space: .capture)`: admission, codes and decode), on every subsampling and siting,
/// with strides and offsets, at the planes' last bytes, and for coordinates outside 0…1.
@Suite struct CapturedImageSamplerKernelTests {
    /// Points all over the image, its edges and corners exactly, a few outside and NaN.
    static func coordinates(seed: UInt64, count: Int) -> [SIMD2<Float>] {
        var rng = SplitMix64(seed: seed)
        var points: [SIMD2<Float>] = [SIMD2(0, 0), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0.9999, 0.9999)]
        for _ in 0 ..< count { points.append(SIMD2(Float.random(in: 0 ... 1, using: &rng), Float.random(in: 0 ... 1, using: &rng))) }
        // Near the bottom-right corner, where a gather of four bytes would read past the planes.
        for _ in 0 ..< 64 { points.append(SIMD2(Float.random(in: 0.97 ... 1, using: &rng), Float.random(in: 0.97 ... 1, using: &rng))) }
        return points
    }

    /// The Swift path, point by point; NaN where the sampler refuses a point.
    static func reference(_ sampler: CapturedImageSampler, _ points: [SIMD2<Float>]) -> [SIMD3<Float>] {
        points.map { sampler.color(at: SIMD2<Double>($0), space: .capture) ?? SIMD3(repeating: .nan) }
    }

    static func same(_ a: [SIMD3<Float>], _ b: [SIMD3<Float>]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            (0 ..< 3).allSatisfy { x[$0] == y[$0] || (x[$0].isNaN && y[$0].isNaN) }
        }
    }

    @Test(arguments: ChromaSubsampling.allCases)
    func batchesEqualTheSwiftPathPointByPoint(_ subsampling: ChromaSubsampling) {
        var rng = SplitMix64(seed: 5)
        for (width, height) in [(37, 21), (64, 48), (9, 1), (2, 2)] {
            let image = YCbCrImage(YCbCrImageTests.randomPlanes(subsampling, width: width, height: height, rng: &rng))
            let points = Self.coordinates(seed: UInt64(width), count: 500)
            for siting in ChromaSiting.allCases {
                for encoding in [YCbCrEncoding.arkit, YCbCrEncoding(matrix: .bt709, range: .video)] {
                    for kernel in CPUKernel.allCases where kernel.isAvailable {
                        var sampler = CapturedImageSampler(image: image, encoding: encoding, siting: siting, edgePolicy: .clamp)
                        sampler.kernel = kernel
                        var batch: [SIMD3<Float>] = []
                        let valid = sampler.sample(points, into: &batch, space: .capture)
                        #expect(Self.same(batch, Self.reference(sampler, points)), "\(subsampling) \(width)x\(height) \(siting) \(kernel)")
                        #expect(valid == points.count)
                    }
                }
            }
        }
    }

    @Test func stridedPlanesEndingAtTheirLastBytes() {
        // Planes padded on the left and right of each row, each buffer ending at the last byte
        // of its last row: a gather of four bytes there would read past it.
        let width = 41, height = 19, lumaStride = 48, lumaOffset = 5
        let chroma = ChromaSubsampling.yuv420.chromaSize(width: width, height: height)
        let chromaStride = 2 * chroma.width + 6, chromaOffset = 3
        var rng = SplitMix64(seed: 9)
        let luma = MappedBytes(copying: (0 ..< lumaOffset + lumaStride * (height - 1) + width).map { _ in UInt8.random(in: 0 ... 255, using: &rng) })
        let chromaBytes = MappedBytes(copying: (0 ..< chromaOffset + chromaStride * (chroma.height - 1) + 2 * chroma.width).map { _ in
            UInt8.random(in: 0 ... 255, using: &rng)
        })
        let image = YCbCrImage(width: width, height: height, subsampling: .yuv420, luma: luma, lumaOffset: lumaOffset, lumaStride: lumaStride,
                               chroma: chromaBytes, chromaOffset: chromaOffset, chromaStride: chromaStride)
        // Eight points a vector step: the whole last row, so some steps meet the end.
        var points = (0 ..< 80).map { SIMD2<Float>((Float($0) + 0.5) / 80, 0.999) }
        points += Self.coordinates(seed: 2, count: 300)
        for kernel in CPUKernel.allCases where kernel.isAvailable {
            var sampler = CapturedImageSampler(image: image, siting: .left, edgePolicy: .clamp)
            sampler.kernel = kernel
            var batch: [SIMD3<Float>] = []
            sampler.sample(points, into: &batch, space: .capture)
            #expect(Self.same(batch, Self.reference(sampler, points)), "\(kernel)")
        }
    }

    @Test func pointsOutsideAreClampedOrRefusedAsTheSamplerSays() {
        var rng = SplitMix64(seed: 3)
        let image = YCbCrImage(YCbCrImageTests.randomPlanes(.yuv420, width: 16, height: 12, rng: &rng))
        var points: [SIMD2<Float>] = [SIMD2(-0.5, 0.5), SIMD2(0.5, 1.5), SIMD2(.nan, 0.5), SIMD2(0.25, -.infinity)]
        points += Self.coordinates(seed: 4, count: 20)
        points += [SIMD2(2, 2), SIMD2(0.5, .nan)]
        for edge in [CapturedImageSampler.EdgePolicy.clamp, .reject] {
            for kernel in CPUKernel.allCases where kernel.isAvailable {
                var sampler = CapturedImageSampler(image: image, edgePolicy: edge)
                sampler.kernel = kernel
                var batch: [SIMD3<Float>] = []
                let valid = sampler.sample(points, into: &batch, space: .capture)
                let reference = Self.reference(sampler, points)
                #expect(Self.same(batch, reference), "\(edge) \(kernel)")
                #expect(valid == reference.filter { !$0.x.isNaN }.count)
                #expect(valid < points.count, "some are refused: NaN always, outside when rejecting")
            }
        }
    }
}
