/// Large batches: partition by hash, accumulate each part in cache, then merge.
///
/// Adding samples one by one touches a hash slot and a record at random places for every
/// sample; once the store outgrows the caches each of those is a memory miss. For a large batch
/// it is cheaper to first scatter the samples into parts by the top bits of their key's hash
/// (a sequential pass), accumulate each part into a small table that stays in cache, and then
/// merge the batch's voxels into the store in order of first appearance. Merging is exact
/// (`SceneStore.merge`), so the result is bit-identical to adding the samples one by one:
/// same voxels in the same order, same counts, frames and colours.
extension SceneStore {
    /// Batches of at least this many samples take the partitioned path.
    static let partitionThreshold = 1 << 16

    /// One scattered sample: its key, its colour as the record stores it (40.24 fixed point for
    /// `mean`, which fits 32 bits since channels are clamped to ±64; Float bits otherwise) and
    /// its position in the batch.
    private struct Entry {
        var key: Int64
        var r: Int32, g: Int32, b: Int32
        var index: UInt32
    }

    /// Accumulates `p[i]`, `c[i]` for every i into a store of this batch's voxels in order of
    /// first appearance, then merges it into `storage`. Returns the number of samples accepted.
    ///
    /// - Complexity: O(n) expected, in two sequential passes over the batch, one pass over the
    ///   scattered samples with cache-resident tables, an O(v) radix sort of the batch's v voxels
    ///   and the merge. Temporary memory: 24 bytes a sample and about 56 bytes a batch voxel.
    mutating func addPartitioned(_ p: UnsafeBufferPointer<SIMD3<Float>>, _ c: UnsafeBufferPointer<SIMD3<Float>>,
                                 frame: UInt32) -> Int {
        let n = p.count
        precondition(n < Int(UInt32.max), "batch too large")
        let size = voxelSize
        let policy = policy
        // About 64K samples a part (at most 256 parts, so the scatter's write streams stay few):
        // a part's table and voxels then stay in the L2 cache.
        var partBits = 0
        while partBits < 8, n >> (partBits + 16) > 0 { partBits += 1 }
        let parts = 1 << partBits
        let partShift = UInt64(64 - partBits)
        @inline(__always) func part(_ key: Int64) -> Int {
            partBits == 0 ? 0 : Int(truncatingIfNeeded: Storage.hash(key) >> partShift)
        }

        // Pass 1: every sample's key (−1 for none) and how many samples each part receives.
        let keys = UnsafeMutablePointer<Int64>.allocate(capacity: n)
        defer { keys.deallocate() }
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: parts + 1)
        defer { starts.deallocate() }
        starts.initialize(repeating: 0, count: parts + 1)
        for j in 0 ..< n {
            guard let key = VoxelKey.packedCell(p[j], voxelSize: size) else {
                keys[j] = -1
                continue
            }
            keys[j] = key
            starts[part(key) + 1] += 1
        }
        for k in 0 ..< parts { starts[k + 1] += starts[k] }
        let accepted = starts[parts]
        guard accepted > 0 else { return 0 }

        // Pass 2: scatter, stable, so each part keeps the batch order.
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: accepted)
        defer { entries.deallocate() }
        let cursors = UnsafeMutablePointer<Int>.allocate(capacity: parts)
        defer { cursors.deallocate() }
        cursors.initialize(from: starts, count: parts)
        for j in 0 ..< n {
            let key = keys[j]
            guard key >= 0 else { continue }
            let v = c[j]
            let e: Entry = policy == .mean
                ? Entry(key: key, r: Int32(truncatingIfNeeded: Record.fixed(v.x)), g: Int32(truncatingIfNeeded: Record.fixed(v.y)),
                        b: Int32(truncatingIfNeeded: Record.fixed(v.z)), index: UInt32(j))
                : Entry(key: key, r: Int32(bitPattern: v.x.bitPattern), g: Int32(bitPattern: v.y.bitPattern),
                        b: Int32(bitPattern: v.z.bitPattern), index: UInt32(j))
            let k = part(key)
            entries[cursors[k]] = e
            cursors[k] += 1
        }

        // Pass 3: each part into its own small table, grown with the part's voxel count. Parts
        // hold disjoint keys (a key's part is fixed by its hash), so the batch's voxels are the
        // parts' voxels side by side.
        var local = LocalTable(bits: 12)
        defer { local.free() }
        var voxels = Buffer<Record>(capacity: 1 << 12)
        defer { voxels.free() }
        var firstSeen = Buffer<UInt32>(capacity: 1 << 12)
        defer { firstSeen.free() }
        for k in 0 ..< parts where starts[k + 1] > starts[k] {
            let count = starts[k + 1] - starts[k]
            let base = voxels.count
            voxels.reserve(count)
            firstSeen.reserve(count)
            let v = voxels.pointer
            local.clear()
            for e in UnsafeBufferPointer(start: entries + starts[k], count: count) {
                let t: Int
                if let found = local.find(e.key, in: v, base: base, partBits: partBits) {
                    t = found
                } else {
                    t = voxels.count
                    voxels.count += 1
                    (v + t).initialize(to: Record(key: e.key, r: 0, g: 0, b: 0, count: 0, first: frame, last: frame))
                    firstSeen.pointer[firstSeen.count] = e.index
                    firstSeen.count += 1
                    local.insert(e.key, index: t - base, records: v + base, partBits: partBits)
                }
                switch policy {
                case .mean:
                    v[t].r &+= Int64(e.r)
                    v[t].g &+= Int64(e.g)
                    v[t].b &+= Int64(e.b)
                case .latest:
                    Self.setBits(&v[t], e)
                case .first:
                    if v[t].count == 0 { Self.setBits(&v[t], e) }
                }
                v[t].count &+= 1
            }
        }

        // Order of first appearance, then an exact merge into the store.
        let order = Self.sortedByFirstAppearance(UnsafeBufferPointer(start: firstSeen.pointer, count: firstSeen.count), limit: n)
        storage.withRecords(reserving: voxels.count) { table in
            for t in order { table.combine(voxels.pointer[Int(t)], policy: policy) }
        }
        return accepted
    }

    /// A sample's colour bits (policies `latest` and `first`) as the record keeps them.
    @inline(__always)
    private static func setBits(_ record: inout Record, _ e: Entry) {
        record.r = Int64(UInt32(bitPattern: e.r))
        record.g = Int64(UInt32(bitPattern: e.g))
        record.b = Int64(UInt32(bitPattern: e.b))
    }

    /// Indices of `keys` ordered by key (keys are distinct and below `limit`): an LSD radix sort
    /// with 11-bit digits, as many passes as `limit` needs.
    ///
    /// - Complexity: O(k · passes), passes = ⌈log₂(limit) / 11⌉.
    static func sortedByFirstAppearance(_ keys: UnsafeBufferPointer<UInt32>, limit: Int) -> [UInt32] {
        let count = keys.count
        var current = (0 ..< count).map { UInt64(keys[$0]) << 32 | UInt64($0) }
        var other = [UInt64](repeating: 0, count: count)
        var digits = 0
        while digits * 11 < Int.bitWidth - limit.leadingZeroBitCount { digits += 1 }
        var histogram = [Int](repeating: 0, count: 2049)
        for d in 0 ..< digits {
            let shift = UInt64(32 + 11 * d)
            for i in 0 ..< histogram.count { histogram[i] = 0 }
            for v in current { histogram[Int((v >> shift) & 2047) + 1] += 1 }
            for i in 0 ..< 2048 { histogram[i + 1] += histogram[i] }
            for v in current {
                let digit = Int((v >> shift) & 2047)
                other[histogram[digit]] = v
                histogram[digit] += 1
            }
            swap(&current, &other)
        }
        return current.map { UInt32(truncatingIfNeeded: $0) }
    }
}

/// A growable buffer of trivial values whose storage is reached by pointer; `reserve` is the
/// only call that may move it.
private struct Buffer<Element> {
    private(set) var pointer: UnsafeMutablePointer<Element>
    private var capacity: Int
    var count = 0

    init(capacity: Int) {
        pointer = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Makes room for `extra` more elements.
    mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var grown = capacity
        while grown < count + extra { grown *= 2 }
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        moved.moveInitialize(from: pointer, count: count)
        pointer.deallocate()
        pointer = moved
        capacity = grown
    }

    func free() { pointer.deallocate() }
}

/// Open addressing over one part's voxels: slot = index + 1 (0 empty), positions from the hash
/// bits below the part bits, load at most ½; `clear` touches only the slots in use.
private struct LocalTable {
    private var slots: UnsafeMutablePointer<UInt32>
    private var bits: Int
    private var used: [Int] = []

    init(bits: Int) {
        self.bits = bits
        slots = .allocate(capacity: 1 << bits)
        slots.initialize(repeating: 0, count: 1 << bits)
    }

    func free() { slots.deallocate() }

    @inline(__always)
    private func position(_ key: Int64, partBits: Int) -> Int {
        Int(truncatingIfNeeded: SceneStore.Storage.hash(key) >> UInt64(64 - partBits - bits))
    }

    /// Index (into `records`, offset by `base`) of the voxel with `key`, or nil.
    @inline(__always)
    func find(_ key: Int64, in records: UnsafeMutablePointer<SceneStore.Record>, base: Int, partBits: Int) -> Int? {
        let mask = (1 << bits) - 1
        var pos = position(key, partBits: partBits) & mask
        while true {
            let slot = slots[pos]
            if slot == 0 { return nil }
            let t = base + Int(slot) - 1
            if records[t].key == key { return t }
            pos = (pos + 1) & mask
        }
    }

    /// Adds `key`, the part's voxel `index`; grows first when the load would pass ½.
    @inline(__always)
    mutating func insert(_ key: Int64, index: Int, records: UnsafeMutablePointer<SceneStore.Record>, partBits: Int) {
        if 2 * (used.count + 1) > 1 << bits { grow(records: records, partBits: partBits) }
        let mask = (1 << bits) - 1
        var pos = position(key, partBits: partBits) & mask
        while slots[pos] != 0 { pos = (pos + 1) & mask }
        slots[pos] = UInt32(index + 1)
        used.append(pos)
    }

    /// Empties the table for the next part.
    mutating func clear() {
        for pos in used { slots[pos] = 0 }
        used.removeAll(keepingCapacity: true)
    }

    private mutating func grow(records: UnsafeMutablePointer<SceneStore.Record>, partBits: Int) {
        let count = used.count
        slots.deallocate()
        bits += 1
        slots = .allocate(capacity: 1 << bits)
        slots.initialize(repeating: 0, count: 1 << bits)
        used.removeAll(keepingCapacity: true)
        let mask = (1 << bits) - 1
        for i in 0 ..< count {
            var pos = position(records[i].key, partBits: partBits) & mask
            while slots[pos] != 0 { pos = (pos + 1) & mask }
            slots[pos] = UInt32(i + 1)
            used.append(pos)
        }
    }
}
