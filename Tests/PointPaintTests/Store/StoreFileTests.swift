import Foundation
import Testing
@testable import PointPaint

@Suite("Store files")
struct StoreFileTests {
    @Test("a store round-trips through a file: voxels, counts, bounds and provenance", arguments: AccumulationPolicy.allCases)
    func roundTrip(policy: AccumulationPolicy) throws {
        let dir = TemporaryDirectory()
        let store = StoreFixtures.store(policy: policy, perFrame: 6000)
        let provenance = StoreProvenance(kind: .replay, source: "captures/ünïcode", grade: "noir 0.7", frameCount: 4)
        let source = store.sortedVoxels(provenance: provenance)
        #expect(store.count > 2 * StoreFileFormat.chunkCapacity, "several chunks")
        let written = try StoreFileWriter.write(source, to: dir.file("a.ppstore"))
        let reader = try StoreFileReader(path: dir.file("a.ppstore"))
        #expect(reader.info == written)
        #expect(reader.info == source.info)
        #expect(reader.chunkCount == (store.count + StoreFileFormat.chunkCapacity - 1) / StoreFileFormat.chunkCapacity)
        #expect(try StoreFixtures.voxels(reader) == StoreFixtures.voxels(source))
        #expect(try reader.readCloud() == store.canonicalCloud())
        // Written again from the file: the same bytes.
        try StoreFileWriter.write(reader, to: dir.file("b.ppstore"))
        #expect(try StoreFixtures.bytes(dir.file("a.ppstore")) == StoreFixtures.bytes(dir.file("b.ppstore")))
    }

    @Test("an empty store, and a store without source or grade")
    func empty() throws {
        let dir = TemporaryDirectory()
        let source = SceneStore(voxelSize: 0.5, policy: .first).sortedVoxels(provenance: StoreProvenance(kind: .points))
        try StoreFileWriter.write(source, to: dir.file("e.ppstore"))
        let reader = try StoreFileReader(path: dir.file("e.ppstore"))
        #expect(reader.info == source.info)
        #expect(reader.info.keyBounds == nil && reader.info.provenance.source == nil && reader.info.provenance.grade == nil)
        #expect(try reader.nextChunk() == nil)
        #expect(try StoreFixtures.bytes(dir.file("e.ppstore")).count == 128 + 4 + 16 + 4)
    }

    @Test("seeking to a range of codes gives exactly its voxels")
    func seek() throws {
        let dir = TemporaryDirectory()
        let store = StoreFixtures.store(perFrame: 6000)
        try StoreFileWriter.write(store.sortedVoxels(provenance: StoreProvenance(kind: .points)), to: dir.file("s.ppstore"))
        let reader = try StoreFileReader(path: dir.file("s.ppstore"))
        let all = try StoreFixtures.voxels(reader)
        let cuts = [all[0].code, all[5000].code, all[8192].code, all[8193].code + 1, all[all.count - 1].code, UInt64.max]
        for (lo, hi) in zip(cuts, cuts.dropFirst()) {
            reader.seek(to: lo ..< hi)
            var got: [StoredVoxel] = []
            while let chunk = try reader.nextChunk() { got.append(contentsOf: chunk) }
            #expect(got == all.filter { (lo ..< hi).contains($0.code) }, "\(lo) ..< \(hi)")
        }
    }
}
