import Benchmark
import CLibYUV
import CPeers
import Foundation
import PointPaint

/// The shared test frame: 1920×1440 NV12, photo-like (smooth gradients, edges and ±12 levels
/// of noise), from a fixed-seed generator so every run converts the same bytes.
enum SamplingData {
    static let width = 1920, height = 1440

    static let frame: YCbCrImage = {
        var rng = SplitMix64(seed: 0x5EED)
        var luma = [UInt8](repeating: 0, count: width * height)
        var chroma = [UInt8](repeating: 0, count: width * height / 2)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let edge: Double = (x / 240 + y / 180) % 2 == 0 ? 20 : -20
                let base = 128 + 90 * sin(Double(x) / 97) * cos(Double(y) / 61) + edge
                luma[y * width + x] = UInt8(clamping: Int(base) + Int(rng.next() % 25) - 12)
            }
        }
        for y in 0 ..< height / 2 {
            for x in 0 ..< width / 2 {
                let cb = 128 + 70 * sin(Double(x) / 53 + Double(y) / 89)
                let cr = 128 + 70 * cos(Double(x) / 71 - Double(y) / 37)
                chroma[y * width + 2 * x] = UInt8(clamping: Int(cb) + Int(rng.next() % 9) - 4)
                chroma[y * width + 2 * x + 1] = UInt8(clamping: Int(cr) + Int(rng.next() % 9) - 4)
            }
        }
        return YCbCrImage(width: width, height: height, lumaPlane: luma, chromaPlane: chroma)
    }()

    /// Random scalar coordinates in [0, 1).
    static func coordinates(_ n: Int, seed: UInt64) -> [SIMD2<Float>] {
        var rng = SplitMix64(seed: seed)
        return (0 ..< n).map { _ in
            SIMD2(Float(rng.next() >> 40) / Float(1 << 24), Float(rng.next() >> 40) / Float(1 << 24))
        }
    }

    /// libyuv's NV12 → "ARGB" (bytes B, G, R, A in memory) with full-range BT.601 constants.
    static func libyuv(_ image: YCbCrImage, into output: inout [UInt8]) -> Int32 {
        image.luma.withUnsafeBytes { y in
            image.chroma.withUnsafeBytes { c in
                output.withUnsafeMutableBytes { o in
                    do {
                        let constants = pointpaint_yuv_jpeg_constants()
                        return                         NV12ToARGBMatrix(
                            y.baseAddress!.assumingMemoryBound(to: UInt8.self) + image.lumaOffset, Int32(image.lumaStride),
                            c.baseAddress!.assumingMemoryBound(to: UInt8.self) + image.chromaOffset, Int32(image.chromaStride),
                            o.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(image.width * 4),
                            constants, Int32(image.width), Int32(image.height))
                    }
                }
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], warmupIterations: 10, maxDuration: .seconds(3),
                                           maxIterations: 2000)
    let frame = SamplingData.frame
    let converter = FrameConverter(encoding: .arkit)
    let pixels = SamplingData.width * SamplingData.height

    // Whole-frame conversion: ours and the peer, same frame, same run.
    Benchmark("Frame NV12→RGBA 1920×1440, nearest, 1 core (FrameConverter)") { benchmark in
        var out = [UInt8](repeating: 0, count: pixels * 4)
        benchmark.startMeasurement()  // not the 11 MB allocation (page faults, zeroing: about 0.4 ms)
        for _ in benchmark.scaledIterations {
            converter.convert(frame, to: .rgba8, interpolation: .nearest, threads: 1, into: &out)
        }
        precondition(out[3] == 255 && out[pixels * 4 - 1] == 255, "alpha not written")
        blackHole(out)
    }

    // RGB (what `pointpaint frame` writes): each row pair converted to RGBA in a scratch pair of
    // rows, then copied without alpha.
    Benchmark("Frame NV12→RGB 1920×1440, nearest, 1 core (FrameConverter)") { benchmark in
        var out = [UInt8](repeating: 0, count: pixels * 3)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            converter.convert(frame, to: .rgb8, interpolation: .nearest, threads: 1, into: &out)
        }
        precondition(out.count == pixels * 3, "wrong size")
        blackHole(out)
    }

    Benchmark("Frame NV12→ARGB 1920×1440, 1 core (peer: libyuv NV12ToARGBMatrix, JPEG)") { benchmark in
        var out = [UInt8](repeating: 0, count: pixels * 4)
        benchmark.startMeasurement()  // not the 11 MB allocation (page faults, zeroing: about 0.4 ms)
        for _ in benchmark.scaledIterations {
            precondition(SamplingData.libyuv(frame, into: &out) == 0, "libyuv failed")
        }
        precondition(out[3] == 255, "alpha not written")
        blackHole(out)
    }

    Benchmark("Frame NV12→RGBA 1920×1440, nearest, all cores (FrameConverter)") { benchmark in
        var out = [UInt8](repeating: 0, count: pixels * 4)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            converter.convert(frame, to: .rgba8, interpolation: .nearest, threads: cores, into: &out)
        }
        precondition(out[3] == 255 && out[pixels * 4 - 1] == 255, "alpha not written")
        blackHole(out)
    }

    Benchmark("Frame NV12→RGBA 1920×1440, bilinear, 1 core (FrameConverter)",
              configuration: .init(maxDuration: .seconds(3), maxIterations: 50)) { benchmark in
        var out = [UInt8](repeating: 0, count: pixels * 4)
        benchmark.startMeasurement()  // not the 11 MB allocation (page faults, zeroing: about 0.4 ms)
        for _ in benchmark.scaledIterations {
            converter.convert(frame, to: .rgba8, interpolation: .bilinear, threads: 1, into: &out)
        }
        precondition(out[3] == 255, "alpha not written")
        blackHole(out)
    }

    // Sampling at points: the sampler against converting the whole frame first.
    let sampler = CapturedImageSampler(image: frame, encoding: .arkit, siting: .center, interpolation: .bilinear)
    let many = SamplingData.coordinates(100_000, seed: 1)
    let thousand = SamplingData.coordinates(1000, seed: 2)

    // Both sampling benchmarks allocate their inputs and outputs before measuring.
    let manyXY = many.flatMap { [$0.x, $0.y] }

    for (name, points) in [("100k", many), ("1000", thousand)] {
        Benchmark("Sample \(name) random points, bilinear (CapturedImageSampler)") { benchmark in
            var out = [SIMD3<Float>](repeating: .zero, count: points.count)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let valid = sampler.sample(points, into: &out)
                precondition(valid == points.count, "samples rejected")
            }
            precondition(out[0].x.isFinite, "no sample")
            blackHole(out)
        }
    }

    Benchmark("Sample 100k random points, bilinear (peer: plain C, same data)") { benchmark in
        var out = [Float](repeating: 0, count: 3 * many.count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            frame.luma.withUnsafeBytes { y in
                frame.chroma.withUnsafeBytes { c in
                    pointpaint_peer_sample_bilinear(
                        y.baseAddress!.assumingMemoryBound(to: UInt8.self) + frame.lumaOffset, frame.lumaStride,
                        c.baseAddress!.assumingMemoryBound(to: UInt8.self) + frame.chromaOffset, frame.chromaStride,
                        Int32(frame.width), Int32(frame.height), manyXY, many.count, &out)
                }
            }
        }
        // The peer decodes the same way: its first sample matches the sampler's within rounding.
        var ours = [SIMD3<Float>](repeating: .zero, count: 1)
        sampler.sample([many[0]], into: &ours)
        precondition(abs(out[0] - ours[0].x) < 1e-3 && abs(out[2] - ours[0].z) < 1e-3, "peer disagrees")
        blackHole(out)
    }

    Benchmark("Sample 1000 random points by converting the whole frame first (nearest, 1 core)") { benchmark in
        var rgba = [UInt8](repeating: 0, count: pixels * 4)
        var out = [SIMD3<UInt8>](repeating: .zero, count: thousand.count)
        benchmark.startMeasurement()  // the gist converts into a buffer it keeps: not timed
        for _ in benchmark.scaledIterations {
            converter.convert(frame, to: .rgba8, interpolation: .nearest, threads: 1, into: &rgba)
            for (i, p) in thousand.enumerated() {
                let x = min(Int(p.x * Float(SamplingData.width)), SamplingData.width - 1)
                let y = min(Int(p.y * Float(SamplingData.height)), SamplingData.height - 1)
                let j = 4 * (y * SamplingData.width + x)
                out[i] = SIMD3(rgba[j], rgba[j + 1], rgba[j + 2])
            }
        }
        blackHole(out)
    }
}
