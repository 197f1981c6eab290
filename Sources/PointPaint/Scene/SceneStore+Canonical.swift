/// The canonical order of a store's voxels: the Morton order of their keys.
///
/// Insertion order depends on which samples came first, so two ways of splitting the same work
/// (threads, shards, merges in another order) would list the same voxels differently. Every cloud
/// written from a store lists them by `VoxelKey.mortonCode` instead: identical samples give
/// identical files, and sorted runs from many stores merge in one streaming pass.
extension SceneStore {
    /// The voxels as a cloud in Morton order of their keys: the order of every file written from
    /// a store. `cloud()` keeps insertion order (for incremental viewer uploads).
    ///
    /// - Complexity: O(count): a radix sort and one pass, plus `cloud()`'s colour conversion.
    public func canonicalCloud() -> VoxelCloud {
        // Reading a source in memory cannot fail.
        (try? sortedVoxels(provenance: StoreProvenance(kind: .points)).readCloud())
            ?? VoxelCloud(voxelSize: voxelSize, origin: origin, positions: [], colors: [], counts: [])
    }

    /// The store's exact voxels in Morton order, chunk by chunk, described as coming from
    /// `provenance`: what the cloud and store writers read. The source keeps a snapshot: later
    /// changes to this store do not reach it.
    ///
    /// - Complexity: O(count) to sort; 16 bytes a voxel for the order, twice during the sort.
    package func sortedVoxels(provenance: StoreProvenance) -> SortedStoreVoxels {
        SortedStoreVoxels(storage: storage, order: mortonOrder(), info: storeInfo(provenance: provenance))
    }

    /// The store's header: its grid, policy, counts and cell bounds, with `provenance`.
    ///
    /// - Complexity: O(count), for the bounds.
    public func storeInfo(provenance: StoreProvenance) -> StoreInfo {
        var bounds: StoreInfo.KeyBounds?
        for i in 0 ..< storage.count {
            let key = VoxelKey(packed: storage.records[i].key)
            if bounds == nil { bounds = StoreInfo.KeyBounds(key) } else { bounds!.include(key) }
        }
        return StoreInfo(voxelSize: voxelSize, policy: policy, provenance: provenance, voxelCount: count,
                         sampleCount: sampleCount, rejectedCount: rejectedCount, keyBounds: bounds, origin: origin)
    }

    /// Record indices in Morton order of their keys: an LSD radix sort of (code, index) pairs,
    /// 11-bit digits, skipping the digits every code shares.
    ///
    /// - Complexity: O(count · passes), at most 6 passes.
    func mortonOrder() -> [UInt32] {
        let n = storage.count
        guard n > 1 else { return n == 1 ? [0] : [] }
        precondition(n <= Int(UInt32.max), "more voxels than 32-bit indices number")
        let records = storage.records
        var current = [CodeIndex](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0 ..< n { buffer[i] = CodeIndex(code: VoxelKey.mortonCode(packed: records[i].key), index: UInt32(i)) }
            initialized = n
        }
        let digitBits = 11, digits = 6  // 66 bits cover the 63 of a code
        var histograms = [Int](repeating: 0, count: digits << digitBits)
        let mask = UInt64(1 << digitBits - 1)
        for e in current {
            for d in 0 ..< digits { histograms[d << digitBits + Int((e.code >> UInt64(d * digitBits)) & mask)] += 1 }
        }
        var other = current
        for d in 0 ..< digits {
            let base = d << digitBits
            // A digit all codes share orders nothing.
            if histograms[base ..< base + (1 << digitBits)].contains(n) { continue }
            var offset = 0
            for b in base ..< base + (1 << digitBits) {
                let c = histograms[b]
                histograms[b] = offset
                offset += c
            }
            let shift = UInt64(d * digitBits)
            current.withUnsafeBufferPointer { from in
                other.withUnsafeMutableBufferPointer { to in
                    for e in from {
                        let b = base + Int((e.code >> shift) & mask)
                        to[histograms[b]] = e
                        histograms[b] += 1
                    }
                }
            }
            swap(&current, &other)
        }
        return current.map(\.index)
    }

    /// A voxel's Morton code beside its record index, for sorting.
    private struct CodeIndex {
        var code: UInt64
        var index: UInt32
    }
}

/// A store's voxels in Morton order, chunk by chunk (`SceneStore.sortedVoxels(provenance:)`).
package final class SortedStoreVoxels: VoxelChunkSource {
    /// The store's grid, counts and the provenance given.
    package let info: StoreInfo
    /// Keeps the records alive and unchanged: a store that shares it copies before mutating.
    private let storage: SceneStore.Storage
    private let order: [UInt32]
    private var position = 0
    /// The current chunk: `chunkCapacity` voxels, owned, freed in `deinit`.
    private let buffer = UnsafeMutablePointer<StoredVoxel>.allocate(capacity: SortedStoreVoxels.chunkCapacity)

    /// Voxels a chunk.
    package static let chunkCapacity = 8192

    init(storage: SceneStore.Storage, order: [UInt32], info: StoreInfo) {
        precondition(order.count == storage.count, "an order for another store")
        self.storage = storage
        self.order = order
        self.info = info
    }

    deinit { buffer.deallocate() }

    package func nextChunk() throws -> UnsafeBufferPointer<StoredVoxel>? {
        guard position < order.count else { return nil }
        let end = min(order.count, position + Self.chunkCapacity)
        let records = storage.records
        for i in position ..< end { (buffer + (i - position)).initialize(to: records[Int(order[i])].stored) }
        defer { position = end }
        return UnsafeBufferPointer(start: buffer, count: end - position)
    }

    package func rewind() throws { position = 0 }
}
