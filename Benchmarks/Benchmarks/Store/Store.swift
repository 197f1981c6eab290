import Benchmark
import Foundation
import PointPaint

/// The additive-recurrence sequence of `Scene` (and `peers/scene_peers.py`): `frac(offset + i·α)`
/// in Double, rounded to Float.
enum StoreData {
    static let alpha: SIMD3<Double> = {
        let g = 1.2207440846057596
        return SIMD3(1 / g, 1 / (g * g), 1 / (g * g * g))
    }()

    static func points(_ range: Range<Int>, offset: Double = 0.5) -> [SIMD3<Float>] {
        range.map { i in
            let v = offset + Double(i) * alpha
            let f = v - v.rounded(.down)
            return SIMD3<Float>(Float(f.x), Float(f.y), Float(f.z))
        }
    }

    /// A store of `range`'s points (linear colours from the shifted sequence) on `voxelSize`.
    static func store(_ range: Range<Int>, voxelSize: Float, frame: Int = 0) -> SceneStore {
        var store = SceneStore(voxelSize: voxelSize)
        store.add(points: points(range), colors: points(range, offset: 0.25), frame: frame)
        return store
    }

    static let directory = FileManager.default.temporaryDirectory.path + "/pointpaint-store-bench-\(getpid())"

    /// Four shards of 10M points at 0.01 (about 1M voxels each, most shared), as store files:
    /// shard k holds points k, k+4, … as frame k.
    static let shards: [String] = {
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (0 ..< 4).map { k in
            let path = directory + "/shard-\(k).ppstore"
            var store = SceneStore(voxelSize: 0.01)
            for start in stride(from: k * 2_500_000, to: (k + 1) * 2_500_000, by: 500_000) {
                let range = start ..< start + 500_000
                store.add(points: points(range), colors: points(range, offset: 0.25), frame: k)
            }
            try! store.writeStore(to: path, provenance: StoreProvenance(kind: .points))
            return path
        }
    }()
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(20),
                                           maxIterations: 20)
    let output = StoreData.directory + "/out"

    // Merge against reading the same stores: the merge reads every input once (checksums and
    // all), combines shared cells and writes the result; reading is the first part alone.
    Benchmark("Read 4 stores (verify every chunk), 10M points at 0.01") { benchmark, paths in
        benchmark.startMeasurement()
        var voxels = 0
        for path in paths { voxels += try StoreFileReader(path: path).verify() }
        benchmark.stopMeasurement()
        precondition(voxels > 3_000_000, "unexpected voxel count \(voxels)")
        blackHole(voxels)
    } setup: {
        StoreData.shards
    }

    Benchmark("Merge the same 4 stores into one store") { benchmark, paths in
        unlink(output + ".ppstore")
        benchmark.startMeasurement()
        let info = try StoreMerge(paths: paths).write(to: output + ".ppstore")
        benchmark.stopMeasurement()
        precondition(info.voxelCount > 900_000 && info.sampleCount == 10_000_000, "unexpected merge \(info.voxelCount)")
        blackHole(info)
    } setup: {
        StoreData.shards
    }

    // Writing one million voxels (1M points at 0.001: one a voxel) from a store, PLY and LAS.
    let million: @Sendable () -> SceneStore = { StoreData.store(0 ..< 1_000_000, voxelSize: 0.001) }
    Benchmark("Write 1M voxels from a store, binary PLY") { benchmark, store in
        try FileManager.default.createDirectory(atPath: StoreData.directory, withIntermediateDirectories: true)
        unlink(output + ".ply")
        benchmark.startMeasurement()
        try store.writePLY(to: output + ".ply", provenance: StoreProvenance(kind: .points))
        benchmark.stopMeasurement()
        precondition(store.count > 990_000, "unexpected voxel count \(store.count)")
    } setup: {
        million()
    }

    Benchmark("Write 1M voxels from a store, LAS 1.4 format 7") { benchmark, store in
        try FileManager.default.createDirectory(atPath: StoreData.directory, withIntermediateDirectories: true)
        unlink(output + ".las")
        benchmark.startMeasurement()
        try store.writeLAS(to: output + ".las", provenance: StoreProvenance(kind: .points))
        benchmark.stopMeasurement()
        let size = try FileManager.default.attributesOfItem(atPath: output + ".las")[.size] as? Int
        precondition(size.map { $0 == 375 + 2 * 54 + 5 + 23 + 36 * store.count } == true, "unexpected LAS size \(String(describing: size))")
    } setup: {
        million()
    }
}
