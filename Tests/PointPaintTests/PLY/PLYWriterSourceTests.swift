import Foundation
import Testing
@testable import PointPaint

/// A store of more voxels than one chunk of a source holds, some colours wide when `wide`.
private func store(policy: AccumulationPolicy = .mean, wide: Bool) -> SceneStore {
    var store = SceneStore(voxelSize: 0.05, policy: policy)
    var state: UInt64 = 5
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    for frame in 0 ..< 3 {
        let points = (0 ..< 3600).map { _ in SIMD3(next(), next(), next()) * 2 - 1 }
        let colors = (0 ..< 3600).map { _ in SIMD3(next(), next(), next()) * (wide ? 1.2 : 1) }
        store.add(points: points, colors: colors, frame: frame)
    }
    return store
}

@Suite("PLY writer from voxel sources")
struct PLYWriterSourceTests {
    @Test("writing a source gives the bytes of writing its cloud", arguments: [PLYEncoding.binaryLittleEndian, .binaryBigEndian, .ascii])
    func sameBytes(encoding: PLYEncoding) throws {
        let dir = TemporaryDirectory()
        for wide in [false, true] {
            let s = store(wide: wide)
            let source = s.sortedVoxels(provenance: StoreProvenance(kind: .replay, source: "cap", frameCount: 3))
            #expect(s.count > SortedStoreVoxels.chunkCapacity, "several chunks")
            for geometry in PLYGeometry.allCases {
                for float in PLYWideColor.allCases {
                    let writer = PLYWriter(encoding: encoding, geometry: geometry, wideColor: float, source: "cap", comments: source.info.plyComments)
                    try writer.write(source, to: dir.file("source.ply"))
                    try writer.write(s.canonicalCloud(), to: dir.file("cloud.ply"))
                    let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("source.ply")))
                    let b = try Data(contentsOf: URL(fileURLWithPath: dir.file("cloud.ply")))
                    #expect(a == b, "wide \(wide), \(geometry), \(float)")
                }
            }
        }
    }

    @Test("the file written from a source reads back as the canonical cloud")
    func readsBack() throws {
        let dir = TemporaryDirectory()
        let s = store(policy: .latest, wide: true)
        try PLYWriter().write(s.sortedVoxels(provenance: StoreProvenance(kind: .points)), to: dir.file("x.ply"))
        let back = try PLYReader.readCloud(path: dir.file("x.ply"))
        let canonical = s.canonicalCloud()
        #expect(back.positions == canonical.positions)
        #expect(back.colors == canonical.colors)
        #expect(back.voxelSize == 0.05)
    }
}
