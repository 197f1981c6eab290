/// A store's memory: its records in insertion order, the index over them (`SlotTable`) and the
/// accumulation into them.
extension SceneStore {
    /// One voxel's record, 48 bytes.
    @usableFromInline struct Record {
        /// `VoxelKey.packed`.
        var key: Int64
        /// Fixed-point sums (mean) or Float bit patterns (latest, first).
        var r: Int64, g: Int64, b: Int64
        var count: UInt32
        var first: UInt32
        var last: UInt32

        /// Adds a sample to a `mean` record's sums (not its count).
        @inline(__always)
        mutating func addToSums(_ color: SIMD3<Float>) {
            let codes = FixedPointColor.truncated(color)
            r &+= codes.x
            g &+= codes.y
            b &+= codes.z
        }

        /// A kept sample's channel (latest, first) as stored: its Float bits, cleaned as
        /// `FixedPointColor` cleans a mean's samples (NaN as 0, clamped to ±64), so no policy
        /// writes a NaN or an infinity.
        @inline(__always)
        static func bits(_ v: Float) -> Int64 {
            let limit = FixedPointColor.channelLimit
            let kept: Float = v.isNaN ? 0 : min(max(v, -limit), limit)
            return Int64(kept.bitPattern)
        }

        func color(_ policy: AccumulationPolicy) -> SIMD3<Float> {
            StoredVoxel.color(r: r, g: g, b: b, count: Double(count), policy: policy)
        }

        /// The record as a store file holds it.
        @inline(__always)
        var stored: StoredVoxel {
            StoredVoxel(code: VoxelKey.mortonCode(packed: key), r: r, g: g, b: b, count: count, first: first, last: last)
        }
    }

    /// The records in insertion order and an open-addressing index over them. Mutated only
    /// through `SceneStore`, which copies it first unless uniquely referenced.
    @usableFromInline final class Storage: @unchecked Sendable {
        private(set) var records: UnsafeMutablePointer<Record>
        private(set) var recordCapacity: Int
        private(set) var count: Int = 0
        /// The index over the records: 64-bit slots (with fingerprints) of `SceneStore.hash`.
        /// Its slots are allocated and freed here.
        private var table: SlotTable<UInt64>
        /// Scratch for `Handle.warm`.
        private let sink = UnsafeMutablePointer<Int64>.allocate(capacity: 1)

        init(expectedVoxels: Int) {
            recordCapacity = max(16, expectedVoxels)
            records = .allocate(capacity: recordCapacity)
            var bits = 5
            while Storage.maxLoad(bits: bits) < expectedVoxels { bits += 1 }
            table = SlotTable(emptying: .allocate(capacity: 1 << bits), bits: bits)
            sink.initialize(to: 0)
        }

        /// A copy of `other`'s records and table, for copy-on-write.
        init(copying other: Storage) {
            recordCapacity = other.recordCapacity
            records = .allocate(capacity: recordCapacity)
            records.initialize(from: other.records, count: other.count)
            count = other.count
            table = SlotTable(copying: other.table, into: .allocate(capacity: other.table.capacity))
            sink.initialize(to: 0)
        }

        deinit {
            sink.deallocate()
            records.deallocate()
            table.slots.deallocate()
        }

        /// Greatest voxel count a table of 2^bits slots holds: a load of 5/8.
        static func maxLoad(bits: Int) -> Int { (1 << bits) / 8 * 5 }

        /// Index of the record with `key`, or nil.
        func find(_ key: Int64) -> Int? {
            table.find(key, hash: SceneStore.hash(key), in: UnsafeBufferPointer(start: records, count: count))
        }

        /// Grows both tables so `extra` more voxels fit, then runs `body` on a handle that may
        /// insert up to `extra` voxels without reallocating.
        @inline(__always)
        func withRecords<R>(reserving extra: Int, _ body: (inout Handle) -> R) -> R {
            let needed = count + extra
            if needed > recordCapacity { growRecords(to: needed) }
            if needed > Storage.maxLoad(bits: table.bits) { growTable(for: needed) }
            var handle = Handle(records: records, count: count, capacity: recordCapacity, table: table, sink: sink)
            let result = body(&handle)
            count = handle.count
            return result
        }

        private func growRecords(to needed: Int) {
            var capacity = recordCapacity
            while capacity < needed { capacity *= 2 }
            let grown = UnsafeMutablePointer<Record>.allocate(capacity: capacity)
            grown.moveInitialize(from: records, count: count)
            records.deallocate()
            records = grown
            recordCapacity = capacity
        }

        private func growTable(for needed: Int) {
            var bits = table.bits
            while Storage.maxLoad(bits: bits) < needed { bits += 1 }
            table.slots.deallocate()
            let grown = SlotTable<UInt64>(emptying: .allocate(capacity: 1 << bits), bits: bits)
            for i in 0 ..< count { grown.insert(i, hash: SceneStore.hash(records[i].key)) }
            table = grown
        }
    }

    /// Direct access to the storage's memory while no reallocation can happen.
    @usableFromInline struct Handle {
        let records: UnsafeMutablePointer<Record>
        var count: Int
        /// Records there is room for: `count` may grow to it without reallocating.
        let capacity: Int
        let table: SlotTable<UInt64>
        /// Where `warm` leaves a value derived from its loads, so they are not optimised away.
        let sink: UnsafeMutablePointer<Int64>

        /// Index of the record with `key`, appending an empty one when there is none.
        @inline(__always)
        mutating func findOrInsert(_ key: Int64) -> Int {
            let h = SceneStore.hash(key)
            switch table.probe(key, hash: h, in: UnsafeBufferPointer(start: records, count: count)) {
            case .found(let i):
                return i
            case .vacant(let pos):
                let i = count
                precondition(i < capacity, "more voxels inserted than reserved")
                count += 1
                records.advanced(by: i).initialize(to: Record(key: key, r: 0, g: 0, b: 0, count: 0, first: .max, last: 0))
                table.place(i, hash: h, at: pos)
                return i
            }
        }

        /// Adds one sample to the voxel of `key`; false (nothing changed) when the voxel is full.
        @inline(__always)
        mutating func accumulate(key: Int64, color: SIMD3<Float>, frame: UInt32, policy: AccumulationPolicy) -> Bool {
            let i = findOrInsert(key)
            let rec = records.advanced(by: i)
            guard rec.pointee.count < UInt32.max else { return false }
            switch policy {
            case .mean:
                rec.pointee.addToSums(color)
            case .latest:
                if rec.pointee.count == 0 || frame >= rec.pointee.last { set(rec, color) }
            case .first:
                if rec.pointee.count == 0 || frame < rec.pointee.first { set(rec, color) }
            }
            rec.pointee.count &+= 1
            if frame < rec.pointee.first { rec.pointee.first = frame }
            if frame > rec.pointee.last { rec.pointee.last = frame }
            return true
        }

        @inline(__always)
        private func set(_ rec: UnsafeMutablePointer<Record>, _ color: SIMD3<Float>) {
            rec.pointee.r = Record.bits(color.x)
            rec.pointee.g = Record.bits(color.y)
            rec.pointee.b = Record.bits(color.z)
        }

        /// Accumulates `points[range]`; returns how many had a key.
        mutating func accumulate(points: UnsafeBufferPointer<SIMD3<Float>>, colors: UnsafeBufferPointer<SIMD3<Float>>,
                                 range: Range<Int>, voxelSize: Float, frame: UInt32,
                                 policy: AccumulationPolicy) -> Int {
            var accepted = 0
            var lastKey: Int64 = -1
            var lastIndex = 0
            var group = range.lowerBound
            for j in range {
                if j == group {
                    // Touch the hash slots and records of the next few samples first: these loads are
                    // independent, so their cache misses overlap instead of queueing one by one.
                    group = min(range.upperBound, j + Handle.lookahead)
                    warm(points: points, range: j ..< group, voxelSize: voxelSize)
                }
                guard let key = VoxelKey.packedCell(points[j], voxelSize: voxelSize) else { continue }
                let color = colors[j]
                if policy == .mean {
                    // Fast path: consecutive samples often share a voxel.
                    let i: Int
                    if key == lastKey { i = lastIndex } else { i = findOrInsert(key); lastKey = key; lastIndex = i }
                    let rec = records.advanced(by: i)
                    guard rec.pointee.count < UInt32.max else { continue }
                    accepted += 1
                    rec.pointee.addToSums(color)
                    rec.pointee.count &+= 1
                    if frame < rec.pointee.first { rec.pointee.first = frame }
                    if frame > rec.pointee.last { rec.pointee.last = frame }
                } else if accumulate(key: key, color: color, frame: frame, policy: policy) {
                    accepted += 1
                }
            }
            return accepted
        }

        /// Samples whose hash slots and records are loaded ahead of use.
        static let lookahead = 16

        /// Loads the table entries and records the samples in `range` will touch, so the misses
        /// overlap. Changes nothing.
        @inline(__always)
        func warm(points: UnsafeBufferPointer<SIMD3<Float>>, range: Range<Int>, voxelSize: Float) {
            assert(range.count <= Handle.lookahead, "warming more samples than the lookahead")
            var entries = SIMD16<UInt64>()
            for (k, j) in range.enumerated() {
                guard let key = VoxelKey.packedCell(points[j], voxelSize: voxelSize) else { continue }
                entries[k] = table.slots[table.position(SceneStore.hash(key))].raw
            }
            var sink: Int64 = 0
            for k in 0 ..< range.count {
                let slot = Slot(raw: entries[k])
                if !slot.isEmpty { sink &+= records[slot.index(below: count)].count == 0 ? 1 : 0 }
            }
            self.sink.pointee &+= sink  // keeps the loads alive
        }

        /// Folds in another store's record as if its samples came after this store's. Returns the
        /// number of samples refused: all of `other`'s when the voxel would pass
        /// `maxSamplesPerVoxel` (it then keeps what it had), else 0.
        @inline(__always)
        mutating func combine(_ other: Record, policy: AccumulationPolicy) -> Int {
            let i = findOrInsert(other.key)
            let rec = records.advanced(by: i)
            let fresh = rec.pointee.count == 0
            guard UInt32.max - rec.pointee.count >= other.count else { return Int(other.count) }
            switch policy {
            case .mean:
                rec.pointee.r &+= other.r
                rec.pointee.g &+= other.g
                rec.pointee.b &+= other.b
            case .latest:
                if fresh || other.last >= rec.pointee.last { copyColor(rec, other) }
            case .first:
                if fresh || other.first < rec.pointee.first { copyColor(rec, other) }
            }
            rec.pointee.count &+= other.count
            if other.first < rec.pointee.first { rec.pointee.first = other.first }
            if other.last > rec.pointee.last { rec.pointee.last = other.last }
            return 0
        }

        /// Folds in `others` in order (`combine(_:policy:)` each); returns the samples refused.
        mutating func combine(_ others: UnsafeBufferPointer<Record>, policy: AccumulationPolicy) -> Int {
            var refused = 0
            for other in others { refused += combine(other, policy: policy) }
            return refused
        }

        @inline(__always)
        private func copyColor(_ rec: UnsafeMutablePointer<Record>, _ other: Record) {
            rec.pointee.r = other.r
            rec.pointee.g = other.g
            rec.pointee.b = other.b
        }
    }
}
