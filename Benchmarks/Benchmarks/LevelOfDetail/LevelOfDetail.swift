import Benchmark
import Foundation
import PointPaint
import PointPaintViewer

/// Clouds for the level-of-detail octree: a terrain surface at 1 cm (the shape of a scan: a
/// surface, points in scan order), the same points shuffled (no spatial order at all), and the
/// solid lattice `ViewerBenchmark` and `peers/cubes.c` draw.
enum LevelOfDetailData {
    static let count = 20_000_000

    /// `count` points of a heightfield, ⌈√count⌉ a side at 0.01 apart, in row order.
    static func terrain(_ count: Int) -> [SIMD3<Float>] {
        let side = Int(Double(count).squareRoot().rounded(.up))
        return (0 ..< count).map { i in
            let x = Float(i % side - side / 2) * 0.01, z = Float(i / side - side / 2) * 0.01
            let y = 0.8 * sin(x * 0.35) * cos(z * 0.27) + 0.25 * sin(x * 1.7 + z * 1.3) + 0.05 * sin(x * 9) * cos(z * 7)
            return SIMD3(x, (y / 0.01).rounded() * 0.01, z)
        }
    }

    /// `points` in a fixed random order (SplitMix64 from seed 1, Fisher–Yates).
    static func shuffled(_ points: [SIMD3<Float>]) -> [SIMD3<Float>] {
        var points = points
        var state: UInt64 = 1
        for i in stride(from: points.count - 1, to: 0, by: -1) {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            points.swapAt(i, Int((z ^ (z >> 31)) % UInt64(i + 1)))
        }
        return points
    }

    /// The lattice of `ViewerBenchmark` and `peers/cubes.c`: side ⌈∛count⌉ filling the unit cube.
    static func lattice(_ count: Int) -> [SIMD3<Float>] {
        var side = 1
        while side * side * side < count { side += 1 }
        let step = 1 / Float(side)
        return (0 ..< count).map { i in
            (SIMD3<Float>(Float(i % side), Float(i / side % side), Float(i / (side * side))) + 0.5) * step - 0.5
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    // Each build takes seconds: a few runs, wall clock and the peak memory they reach.
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuUser, .cpuTotal, .peakMemoryResident], maxDuration: .seconds(60),
                                           maxIterations: 5)

    let clouds: [(String, @Sendable () -> [SIMD3<Float>])] = [
        ("terrain, scan order", { LevelOfDetailData.terrain(LevelOfDetailData.count) }),
        ("terrain, shuffled", { LevelOfDetailData.shuffled(LevelOfDetailData.terrain(LevelOfDetailData.count)) }),
        ("lattice (the viewer benchmark's scene)", { LevelOfDetailData.lattice(LevelOfDetailData.count) }),
    ]
    for (name, make) in clouds {
        Benchmark("Octree build, 20M points, \(name)") { benchmark, points in
            benchmark.startMeasurement()
            let octree = PointOctree(positions: points)
            benchmark.stopMeasurement()
            precondition(octree.pointCount == points.count && octree.nodes.count > 100, "unexpected octree")
            blackHole(octree)
        } setup: {
            make()
        }
    }

    Benchmark("Octree node selection, 20M points, terrain, 2M budget",
              configuration: .init(metrics: [.wallClock], maxDuration: .seconds(20), maxIterations: 200)) { benchmark, octree in
        var camera = OrbitCamera(target: SIMD3(0, 0, 0), distance: 30, yawDegrees: 30, pitchDegrees: 30, sceneRadius: 40)
        camera.mode = .turntable
        let view = OctreeView(camera: camera, width: 1280, height: 720)
        benchmark.startMeasurement()
        let selection = octree.select(view, budget: 2_000_000, minimumSpacingPixels: ViewerOptions.minimumSpacingPixels)
        benchmark.stopMeasurement()
        precondition(selection.pointCount > 10_000 && selection.pointCount <= 2_000_000, "unexpected selection")
        blackHole(selection)
    } setup: {
        PointOctree(positions: LevelOfDetailData.terrain(LevelOfDetailData.count))
    }
}
