import Foundation
import Benchmark
import PointPaint

/// Shared inputs: two smooth 64³ grades and two sets of 1 M 8-bit colours: uniformly random (lookups
/// land all over the table: the cache's worst case) and photo-like (a smooth synthetic photograph in
/// raster order, as `lut apply` sees a real image).
enum GradingData {
    static let colourCount = 1 << 20

    static let first = Grade(look: .builtin(.cyanotype), strength: 0.7,
                             adjustments: Adjustments(contrast: 0.2, temperature: 0.3, saturation: 0.4)).cube(size: 64)
    static let second = Grade(look: .builtin(.nightVision), strength: 0.5, adjustments: Adjustments(brightness: 0.2)).cube(size: 64)
    /// `first` prepared once for the 8-bit apply, shared by every run of the apply benchmarks.
    static let firstPrepared = first.prepared8Bit()

    static let colours: [UInt8] = {
        var rng = SplitMix64(seed: 0xC0105)
        return (0 ..< colourCount * 3).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 29) }
    }()

    /// A 1024 × 1024 synthetic photograph, RGB in raster order: a sky gradient over banded ground
    /// with a wavy horizon, a soft sun glow, a hard-edged red ball, a building with lit windows,
    /// vignetting, and ±2 levels of noise per sample. About 44 k distinct colours.
    static let photoColours: [UInt8] = {
        let width = 1024, height = colourCount / 1024
        var rng = SplitMix64(seed: 0x9407)
        var out = [UInt8](repeating: 0, count: colourCount * 3)
        let sky = SIMD3<Double>(0.25, 0.45, 0.85), haze = SIMD3<Double>(0.85, 0.85, 0.9)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let u = Double(x) / Double(width), v = Double(y) / Double(height)
                var c: SIMD3<Double>
                if v < 0.55 + 0.05 * sin(u * 9) {
                    c = sky + (haze - sky) * (v / 0.6)
                } else {
                    let band: Double = sin(u * 40 + v * 13)
                    c = SIMD3<Double>(0.2, 0.45, 0.15) + SIMD3<Double>(0.25, 0.05, 0) * v
                    c += SIMD3<Double>(0.05, 0.05, 0.02) * band
                }
                let sun: Double = ((u - 0.75) * (u - 0.75) + (v - 0.2) * (v - 0.2)).squareRoot()
                c += SIMD3<Double>(1, 0.8, 0.4) * max(0, 0.35 - sun * 2.5)
                let ball: Double = (u - 0.3) * (u - 0.3) + (v - 0.7) * (v - 0.7)
                if ball < 0.01 { c = SIMD3<Double>(0.8, 0.1, 0.1) * (1.2 - v) }
                if u > 0.45 && u < 0.6 && v > 0.3 && v < 0.75 {
                    c = SIMD3<Double>(0.5, 0.5, 0.52) * (0.8 + 0.2 * u)
                    if Int(u * 200) % 4 == 0 && Int(v * 150) % 5 == 0 { c = SIMD3<Double>(0.95, 0.9, 0.6) }
                }
                let r2: Double = (u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5)
                c *= 1 - 0.35 * r2
                let i = 3 * (y * width + x)
                for k in 0 ..< 3 {
                    let noise = Double(Int(rng.next() % 5) - 2)
                    out[i + k] = UInt8(max(0, min(255, (c[k] * 255 + noise).rounded())))
                }
            }
        }
        return out
    }()

    /// Checks 1024 spread-out colours of a graded buffer against the plain reference lookup.
    static func checkApplied(_ out: [UInt8], from colours: [UInt8], cube: ColorCube, interpolation: ColorCube.Interpolation) {
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

    for (name, colours) in [("random", GradingData.colours), ("photo-like", GradingData.photoColours)] {
        for interpolation in ColorCube.Interpolation.allCases {
            Benchmark("Apply 64³ cube to 1M \(name) colours (\(interpolation.rawValue))") { benchmark in
                let prepared = GradingData.firstPrepared
                var pixels = colours
                benchmark.startMeasurement()
                prepared.apply(to: &pixels, interpolation: interpolation)
                benchmark.stopMeasurement()
                GradingData.checkApplied(pixels, from: colours, cube: GradingData.first, interpolation: interpolation)
                blackHole(pixels)
            }
        }
    }

    // The runs above apply a cube prepared once beforehand (`prepared8Bit()`: its 16-bit working
    // table); this one prepares it too, as `ColorCube.apply` does on every call.
    Benchmark("Prepare a 64³ cube and apply it to 1M photo-like colours (tetrahedral, table build included)") { benchmark in
        let cube = GradingData.first
        var pixels = GradingData.photoColours
        benchmark.startMeasurement()
        cube.prepared8Bit().apply(to: &pixels, interpolation: .tetrahedral)
        benchmark.stopMeasurement()
        GradingData.checkApplied(pixels, from: GradingData.photoColours, cube: cube, interpolation: .tetrahedral)
        blackHole(pixels)
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
        let grade = Grade(look: .builtin(.noir), adjustments: Adjustments(brightness: 0.1, contrast: 0.2))
        benchmark.startMeasurement()
        let cube = grade.cube()
        benchmark.stopMeasurement()
        precondition(cube.size == 33 && cube.entries.allSatisfy { $0.x == $0.y && $0.y == $0.z })
        blackHole(cube)
    }
}
