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
    /// Batches of at least this many samples take the partitioned path. (A frame of LiDAR depth
    /// points, 256 × 192 = 49,152, is one: replaying a Stray recording of 300 such frames spent
    /// about a third of its CPU time adding samples one by one, a quarter this way.)
    static let partitionThreshold = 1 << 15

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
        if partBits == 0 { return addInOnePart(p, c, frame: frame) }
        let parts = 1 << partBits

        // Scratch memory, freed when these scopes end.
        // (Indexed through their base pointers: the passes are hot, the sizes fixed here.)
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: n) { keyMemory in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: parts + 1) { startMemory in
                let keys = keyMemory.baseAddress!, starts = startMemory.baseAddress!
                // Pass 1: every sample's key (−1 for none) and how many samples each part receives.
                starts.initialize(repeating: 0, count: parts + 1)
                for j in 0 ..< n {
                    guard let key = VoxelKey.packedCell(p[j], voxelSize: size) else {
                        keys[j] = -1
                        continue
                    }
                    keys[j] = key
                    starts[Self.part(key, partBits: partBits) + 1] += 1
                }
                for k in 0 ..< parts { starts[k + 1] += starts[k] }
                let accepted = starts[parts]
                guard accepted > 0 else { return 0 }
                let refused = withUnsafeTemporaryAllocation(of: Entry.self, capacity: accepted) { entryMemory in
                    let entries = entryMemory.baseAddress!
                    Self.scatter(keys: keys, colors: c, starts: starts, partBits: partBits, policy: policy, into: entries)
                    return accumulateParts(entries, starts: starts, partBits: partBits, frame: frame, batch: n, policy: policy)
                }
                return accepted - refused
            }
        }
    }

    /// A batch of one part (under 64K samples, such as a frame of LiDAR depth points):
    /// accumulated straight into one cache-resident table, without the scatter, so its voxels
    /// come out in order of first appearance and merge into the store as they are. Consecutive
    /// samples in one voxel (neighbouring depth pixels) skip the lookup. Returns the number of
    /// samples accepted.
    ///
    /// - Complexity: O(n) expected. Temporary memory: 48 bytes a batch voxel and 4 bytes a
    ///   sample for the table (at a load of at most ½ while the voxels are at most half the
    ///   samples; it grows past that).
    private mutating func addInOnePart(_ p: UnsafeBufferPointer<SIMD3<Float>>, _ c: UnsafeBufferPointer<SIMD3<Float>>,
                                       frame: UInt32) -> Int {
        let size = voxelSize
        let policy = policy
        var bits = 12
        while 1 << bits < p.count { bits += 1 }
        var local = LocalTable(bits: bits, partBits: 0)
        var voxels = ScratchBuffer<Record>(capacity: max(1, p.count))
        var accepted = 0
        voxels.appending { v in
            var lastKey: Int64 = -1
            var last = 0
            for j in 0 ..< p.count {
                guard let key = VoxelKey.packedCell(p[j], voxelSize: size) else { continue }
                accepted += 1
                if key != lastKey {
                    if let found = local.find(key, in: v.elements(from: 0)) {
                        last = found
                    } else {
                        last = v.append(Record(key: key, r: 0, g: 0, b: 0, count: 0, first: frame, last: frame))
                        local.insert(key, index: last, records: v.elements(from: 0))
                    }
                    lastKey = key
                }
                let record = v.pointer(to: last)
                let color = c[j]
                switch policy {
                case .mean:
                    record.pointee.addToSums(color)
                case .latest:
                    Self.setBits(&record.pointee, color)
                case .first:
                    if record.pointee.count == 0 { Self.setBits(&record.pointee, color) }
                }
                record.pointee.count &+= 1
            }
        }
        let refused = voxels.withElements { records in
            storage.withRecords(reserving: records.count) { table in table.combine(records, policy: policy) }
        }
        return accepted - refused
    }

    /// The part of `key`: the top `partBits` bits of its hash.
    @inline(__always)
    private static func part(_ key: Int64, partBits: Int) -> Int {
        partBits == 0 ? 0 : Int(truncatingIfNeeded: SceneStore.hash(key) &>> UInt64(64 - partBits))  // a shift of 56…63
    }

    /// Pass 2: each accepted sample (a key for each of `colors`, −1 for none) into its part's
    /// run of `entries` (the parts' runs start at `starts`), stable, so each part keeps the batch
    /// order.
    private static func scatter(keys: UnsafePointer<Int64>, colors c: UnsafeBufferPointer<SIMD3<Float>>,
                                starts: UnsafePointer<Int>, partBits: Int, policy: AccumulationPolicy,
                                into entries: UnsafeMutablePointer<Entry>) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 1 << partBits) { cursorMemory in
            let cursors = cursorMemory.baseAddress!
            cursors.initialize(from: starts, count: 1 << partBits)
            for j in c.indices {
                let key = keys[j]
                guard key >= 0 else { continue }
                let v = c[j]
                let stored = policy == .mean
                    ? FixedPointColor.truncated(v) : SIMD3(Record.bits(v.x), Record.bits(v.y), Record.bits(v.z))
                let e = Entry(key: key, r: Int32(truncatingIfNeeded: stored.x), g: Int32(truncatingIfNeeded: stored.y),
                              b: Int32(truncatingIfNeeded: stored.z), index: UInt32(j))
                let k = part(key, partBits: partBits)
                entries[cursors[k]] = e
                cursors[k] += 1
            }
        }
    }

    /// Pass 3: each part into its own small table, grown with the part's voxel count. Parts
    /// hold disjoint keys (a key's part is fixed by its hash), so the batch's voxels are the
    /// parts' voxels side by side. Then the batch's voxels in order of first appearance, merged
    /// exactly into the store. Returns the samples refused because their voxel would pass
    /// `maxSamplesPerVoxel`.
    private mutating func accumulateParts(_ entries: UnsafePointer<Entry>, starts: UnsafePointer<Int>, partBits: Int,
                                         frame: UInt32, batch n: Int, policy: AccumulationPolicy) -> Int {
        var local = LocalTable(bits: 12, partBits: partBits)
        var voxels = ScratchBuffer<Record>(capacity: 1 << 12)
        var firstSeen = ScratchBuffer<UInt32>(capacity: 1 << 12)
        for k in 0 ..< 1 << partBits where starts[k + 1] > starts[k] {
            let count = starts[k + 1] - starts[k]
            voxels.reserve(count)
            firstSeen.reserve(count)
            local.clear()
            voxels.appending { v in
                firstSeen.appending { seen in
                    let base = v.count
                    for e in UnsafeBufferPointer(start: entries + starts[k], count: starts[k + 1] - starts[k]) {
                        let t: Int
                        if let found = local.find(e.key, in: v.elements(from: base)) {
                            t = base + found
                        } else {
                            t = v.append(Record(key: e.key, r: 0, g: 0, b: 0, count: 0, first: frame, last: frame))
                            seen.append(e.index)
                            local.insert(e.key, index: t - base, records: v.elements(from: base))
                        }
                        let record = v.pointer(to: t)
                        switch policy {
                        case .mean:
                            record.pointee.r &+= Int64(e.r)
                            record.pointee.g &+= Int64(e.g)
                            record.pointee.b &+= Int64(e.b)
                        case .latest:
                            Self.setBits(&record.pointee, e)
                        case .first:
                            if record.pointee.count == 0 { Self.setBits(&record.pointee, e) }
                        }
                        record.pointee.count &+= 1
                    }
                }
            }
        }
        let order = firstSeen.withElements { Self.sortedByFirstAppearance($0, limit: n) }
        return voxels.withElements { records in
            storage.withRecords(reserving: records.count) { table in
                var refused = 0
                for t in order { refused += table.combine(records[Int(t)], policy: policy) }
                return refused
            }
        }
    }

    /// A sample's colour bits (policies `latest` and `first`) as the record keeps them.
    @inline(__always)
    private static func setBits(_ record: inout Record, _ e: Entry) {
        record.r = Int64(UInt32(bitPattern: e.r))
        record.g = Int64(UInt32(bitPattern: e.g))
        record.b = Int64(UInt32(bitPattern: e.b))
    }

    /// A sample's colour as the record keeps it (policies `latest` and `first`): the same bits
    /// as `setBits(_:_:)` of its scattered entry.
    @inline(__always)
    private static func setBits(_ record: inout Record, _ color: SIMD3<Float>) {
        record.r = Record.bits(color.x)
        record.g = Record.bits(color.y)
        record.b = Record.bits(color.z)
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

/// Memory for `capacity` values of a trivial type, freed with the object: the owner of each
/// piece of the partition's scratch that may grow.
private final class Allocation<Element> {
    let pointer: UnsafeMutablePointer<Element>
    let capacity: Int

    init(capacity: Int) {
        precondition(_isPOD(Element.self), "scratch memory holds trivial values only")
        precondition(capacity > 0, "an empty allocation")
        pointer = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { pointer.deallocate() }
}

/// A growable array of trivial values in an `Allocation`; `reserve` is the only call that may
/// move it. Its memory is reached only inside `appending` and `withElements`.
private struct ScratchBuffer<Element> {
    private var allocation: Allocation<Element>
    private(set) var count = 0

    init(capacity: Int) { allocation = Allocation(capacity: capacity) }

    /// Makes room for `extra` more elements.
    mutating func reserve(_ extra: Int) {
        guard count + extra > allocation.capacity else { return }
        var grown = allocation.capacity
        while grown < count + extra { grown *= 2 }
        let moved = Allocation<Element>(capacity: grown)
        moved.pointer.moveInitialize(from: allocation.pointer, count: count)
        allocation = moved
    }

    /// Appends, reads and changes elements through `body`'s appender, within the room
    /// `reserve` made.
    mutating func appending<R>(_ body: (inout Appender) throws -> R) rethrows -> R {
        try withExtendedLifetime(allocation) {
            var appender = Appender(base: allocation.pointer, count: count, capacity: allocation.capacity)
            defer { count = appender.count }
            return try body(&appender)
        }
    }

    /// Calls `body` with the elements, valid only inside it.
    func withElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(allocation) { try body(UnsafeBufferPointer(start: allocation.pointer, count: count)) }
    }

    /// The elements of a `ScratchBuffer` inside `appending`, every index checked (in debug
    /// builds) against `count`, every append against the capacity.
    struct Appender {
        fileprivate let base: UnsafeMutablePointer<Element>
        fileprivate(set) var count: Int
        fileprivate let capacity: Int

        /// Appends `element`; returns its index.
        @inline(__always) @discardableResult
        mutating func append(_ element: Element) -> Int {
            precondition(count < capacity, "appending beyond the reserved room")
            (base + count).initialize(to: element)
            count += 1
            return count - 1
        }

        /// Element `index`, to read or change in place.
        @inline(__always)
        func pointer(to index: Int) -> UnsafeMutablePointer<Element> {
            assert(index >= 0 && index < count, "scratch index out of range")
            return base + index
        }

        /// Elements `start ..< count`.
        @inline(__always)
        func elements(from start: Int) -> UnsafeBufferPointer<Element> {
            assert(start >= 0 && start <= count, "scratch range out of range")
            return UnsafeBufferPointer(start: base + start, count: count - start)
        }
    }
}

/// The table of one part's voxels: a `SlotTable` of 32-bit slots (no fingerprint: the part's
/// voxels stay in cache) over the hash bits below the part bits, load at most ½; `clear` touches
/// only the slots in use.
private struct LocalTable {
    /// Owns the table's slots.
    private var allocation: Allocation<SceneStore.Slot<UInt32>>
    private var table: SceneStore.SlotTable<UInt32>
    /// The hash bits that choose the part, the same for all its keys.
    private let partBits: Int
    /// The positions of the slots in use.
    private var used: [Int] = []

    /// An empty table of 2^`bits` slots for parts chosen by the top `partBits` bits of the hash.
    init(bits: Int, partBits: Int) {
        allocation = Allocation(capacity: 1 << bits)
        table = SceneStore.SlotTable(emptying: allocation.pointer, bits: bits)
        self.partBits = partBits
    }

    /// What the table is given for `key`: its hash without the part bits.
    @inline(__always)
    private func hash(_ key: Int64) -> UInt64 { SceneStore.hash(key) &<< UInt64(partBits) }

    /// Index in `records` (the part's voxels) of the voxel with `key`, or nil.
    @inline(__always)
    func find(_ key: Int64, in records: UnsafeBufferPointer<SceneStore.Record>) -> Int? {
        withExtendedLifetime(allocation) { table.find(key, hash: hash(key), in: records) }
    }

    /// Adds `key`, the part's voxel `index` in `records`; grows first when the load would pass ½.
    @inline(__always)
    mutating func insert(_ key: Int64, index: Int, records: UnsafeBufferPointer<SceneStore.Record>) {
        if 2 * (used.count + 1) > table.capacity { grow(records: records) }
        withExtendedLifetime(allocation) { used.append(table.insert(index, hash: hash(key))) }
    }

    /// Empties the table for the next part.
    mutating func clear() {
        withExtendedLifetime(allocation) {
            for pos in used { table.empty(at: pos) }
        }
        used.removeAll(keepingCapacity: true)
    }

    /// Twice the slots, holding the voxels so far (the first `used.count` of `records`).
    private mutating func grow(records: UnsafeBufferPointer<SceneStore.Record>) {
        let count = used.count
        allocation = Allocation(capacity: 2 * table.capacity)
        table = SceneStore.SlotTable(emptying: allocation.pointer, bits: table.bits + 1)
        used.removeAll(keepingCapacity: true)
        withExtendedLifetime(allocation) {
            for i in 0 ..< count { used.append(table.insert(i, hash: hash(records[i].key))) }
        }
    }
}
