import Benchmark
import Foundation
import PointPaint

/// The shared test data, identical to `Benchmarks/peers/scene_peers.py`: an additive-recurrence
/// (R3 Kronecker) sequence in the unit cube, `frac(0.5 + i·α)` computed in Double and rounded to
/// Float, with colours from the same recurrence shifted by 0.25.
enum SceneData {
    static let alpha: SIMD3<Double> = {
        let g = 1.2207440846057596  // the plastic-number generalisation of the golden ratio
        return SIMD3(1 / g, 1 / (g * g), 1 / (g * g * g))
    }()

    static func points(_ n: Int, offset: Double = 0.5) -> [SIMD3<Float>] {
        (0 ..< n).map { i in
            let v = offset + Double(i) * alpha
            let f = v - v.rounded(.down)
            return SIMD3<Float>(Float(f.x), Float(f.y), Float(f.z))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(20),
                                           maxIterations: 10)

    Benchmark("Voxelise 10M points, voxel 0.01, unit cube (mean)") { benchmark, input in
        benchmark.startMeasurement()
        var store = SceneStore(voxelSize: 0.01, policy: .mean)
        store.add(points: input.points, colors: input.colors)
        let cloud = store.cloud()
        benchmark.stopMeasurement()
        precondition(cloud.count > 900_000 && cloud.count <= 1_030_301, "unexpected voxel count \(cloud.count)")
        blackHole(cloud)
    } setup: {
        (points: SceneData.points(10_000_000), colors: SceneData.points(10_000_000, offset: 0.25))
    }

    let directory = FileManager.default.temporaryDirectory.path + "/pointpaint-scene-bench-\(getpid())"
    let file = directory + "/cloud-1M.ply"
    let oneMillion: @Sendable () -> VoxelCloud = {
        let colors = SceneData.points(1_000_000, offset: 0.25).map { ($0 * 255).rounded(.down) / 255 }
        return VoxelCloud(voxelSize: nil, positions: SceneData.points(1_000_000), colors: colors)
    }

    // A new file each time, as the numpy peer writes one: replacing an existing file also
    // measures the file system freeing the old one (about 13 ms for 15 MB on this machine's ext4
    // with `discard`), which is not the writer's work.
    // Writes and reads take milliseconds: more runs than the default's 10 for a steadier best.
    let fileRuns = Benchmark.Configuration(metrics: [.wallClock], maxDuration: .seconds(20),
                                           maxIterations: 60)

    Benchmark("Write 1M coloured points, binary PLY", configuration: fileRuns) { benchmark, cloud in
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        unlink(file)
        benchmark.startMeasurement()
        try PLYWriter().write(cloud, to: file)
        benchmark.stopMeasurement()
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
        precondition(size.map { $0 > 15_000_000 && $0 < 15_001_000 } == true, "unexpected file size")
        blackHole(size)
    } setup: {
        oneMillion()
    }

    Benchmark("Read 1M coloured points, binary PLY", configuration: fileRuns) { benchmark, expected in
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PLYWriter().write(expected, to: file)
        benchmark.startMeasurement()
        let cloud = try PLYReader.readCloud(path: file)
        benchmark.stopMeasurement()
        precondition(cloud.count == expected.count && cloud.positions == expected.positions, "read back differs")
        blackHole(cloud)
    } setup: {
        oneMillion()
    }
}
