import Benchmark
import PointPaint

/// Shared inputs: two smooth 64³ grades and 1 M random 8-bit colours (random, so lookups land all
/// over the 4 MB table: the cache's worst case; photographs are kinder).
enum GradingData {
    static let colourCount = 1 << 20

    static let first = Grade(look: .cyanotype, strength: 0.7,
                             adjustments: Adjustments(contrast: 0.2, temperature: 0.3, saturation: 0.4)).cube(size: 64)
    static let second = Grade(look: .nightVision, strength: 0.5, adjustments: Adjustments(brightness: 0.2)).cube(size: 64)

    static let colours: [UInt8] = {
        var rng = SplitMix64(seed: 0xC0105)
        return (0 ..< colourCount * 3).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 29) }
    }()

    /// Checks 1024 spread-out colours of a graded buffer against the plain reference lookup.
    static func checkApplied(_ out: [UInt8], cube: ColorCube, interpolation: ColorCube.Interpolation) {
        for k in stride(from: 0, to: colourCount, by: colourCount / 1024) {
            let i = 3 * k
            let input = SIMD3(Float(colours[i]), Float(colours[i + 1]), Float(colours[i + 2])) / 255
            let want = cube.lookup(input, interpolation: interpolation) * 255
            for c in 0 ..< 3 {
                precondition(abs(Float(out[i + c]) - want[c]) <= 1, "colour \(k) channel \(c): \(out[i + c]) vs \(want[c])")
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], warmupIterations: 2, maxDuration: .seconds(5))

    for interpolation in ColorCube.Interpolation.allCases {
        Benchmark("Apply 64³ cube to 1M colours (\(interpolation.rawValue))") { benchmark in
            let cube = GradingData.first
            var pixels = GradingData.colours
            benchmark.startMeasurement()
            cube.apply(to: &pixels, interpolation: interpolation)
            benchmark.stopMeasurement()
            GradingData.checkApplied(pixels, cube: cube, interpolation: interpolation)
            blackHole(pixels)
        }
    }

    Benchmark("Compose two 64³ cubes") { benchmark in
        let a = GradingData.first, b = GradingData.second
        benchmark.startMeasurement()
        let composed = a.then(b)
        benchmark.stopMeasurement()
        precondition(composed.size == 64)
        for i in stride(from: 0, to: composed.entries.count, by: 4099) {
            let d = composed.entries[i] - b.lookup(a.entries[i])
            precondition(max(d.max(), (-d).max()) < 1e-5, "entry \(i)")
        }
        blackHole(composed)
    }

    Benchmark("Fold look + strength + adjustments into a 33³ cube") { benchmark in
        let grade = Grade(look: .noir, adjustments: Adjustments(brightness: 0.1, contrast: 0.2))
        benchmark.startMeasurement()
        let cube = grade.cube()
        benchmark.stopMeasurement()
        precondition(cube.size == 33 && cube.entries.allSatisfy { $0.x == $0.y && $0.y == $0.z })
        blackHole(cube)
    }
}
