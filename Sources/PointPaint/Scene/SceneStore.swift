import Foundation

/// Coloured voxels accumulated from samples: voxel key → colour, observation count, first and
/// last frame.
///
/// Colours go in as linear-light extended sRGB (sRGB primaries, linear transfer, unclamped, so
/// wide-colour values outside 0…1 keep their values) and come out of `cloud()` gamma-encoded.
///
/// Voxels keep the order in which they were first seen: voxel indices are stable and new voxels
/// are only appended, so a viewer can upload `cloud(from: uploadedCount)` incrementally. Files
/// written from a store list voxels in one canonical order instead, the Morton order of their keys
/// (`canonicalCloud()`, `SceneStore+Canonical.swift`), so the same samples give the same file
/// whatever order they arrived in and however the work was split.
///
/// ## Accumulation
/// - `mean` sums linear colours in 40.24 fixed point (`fixedPointScale`): each sample channel is
///   rounded toward zero to a multiple of 2⁻²⁴ ≈ 6·10⁻⁸ and clamped to ±64 (NaN counts as 0),
///   so a voxel's mean is within 2⁻²⁴ of the exact mean of its samples, and sums are exact
///   integers independent of order: merging stores gives bit-identical results to one store fed
///   everything.
/// - `latest` / `first` keep one sample exactly (all Float bits; like `mean`, NaN as 0 and
///   channels clamped to ±64), chosen by frame index; ties go to the sample added last
///   (`latest`) or first (`first`). The kept sample's frame is the
///   voxel's `lastFrame` (latest) or `firstFrame` (first).
///
/// ## Limits
/// A voxel holds at most `maxSamplesPerVoxel` (2³² − 1) samples. One sample adds at most
/// 2³⁰ in magnitude to a 64-bit sum, so no sum can overflow below that count. A sample that
/// would take a voxel past it is refused and counted in `rejectedCount`, as is every sample of a
/// batch or merged store whose voxel would pass it (the voxel keeps what it had). Reaching it
/// takes four billion samples in one cell.
///
/// ## Merging
/// `a.merge(b)` gives exactly the store that would result from adding all of `a`'s samples and
/// then all of `b`'s: same voxels in the same order, same counts, frames and colours.
///
/// ## Thread safety
/// A `SceneStore` is a value (copy-on-write); mutate one instance from one thread at a time.
/// To use several cores, give each thread its own store for a contiguous part of the input
/// (frames A..<B, B..<C, …) and merge them in input order; the result equals a
/// single-threaded run, voxel order included.
///
/// ## Cost
/// - Memory: 48 bytes a voxel for its record, plus 8 bytes a hash slot at a load between
///   0.31 and 0.62, so 61–74 bytes a voxel (plus up to 2× record capacity while growing).
/// - Insert: O(1) expected; one hash-slot and one record access per sample. Large batches are
///   partitioned first (`add(points:colors:frame:)`) so each part accumulates in cache; measured
///   figures are in Benchmarks/README.md (Scene).
public struct SceneStore: Sendable {
    /// Edge length of a voxel in world units (metres).
    public let voxelSize: Float
    /// How samples in one voxel combine.
    public let policy: AccumulationPolicy
    /// Samples dropped because their position was not finite or lay outside the key range, or
    /// because their voxel already held `maxSamplesPerVoxel`.
    public private(set) var rejectedCount: Int = 0
    /// Samples accepted: the sum of the voxels' counts.
    public private(set) var sampleCount: Int = 0

    /// The most samples a voxel holds; samples past it are refused (see Limits).
    public static let maxSamplesPerVoxel = Int(UInt32.max)

    /// One unit of a `mean` sum: channels are kept in multiples of 1 / `fixedPointScale` (2⁻²⁴).
    public static let fixedPointScale: Double = 16_777_216

    @usableFromInline var storage: Storage

    /// Creates an empty store; `voxelSize` must be positive and finite.
    /// `expectedVoxels` pre-sizes the tables.
    public init(voxelSize: Float, policy: AccumulationPolicy = .mean, expectedVoxels: Int = 0) {
        precondition(voxelSize > 0 && voxelSize.isFinite, "voxel size must be positive and finite")
        self.voxelSize = voxelSize
        self.policy = policy
        self.storage = Storage(expectedVoxels: expectedVoxels)
    }

    /// Number of voxels.
    public var count: Int { storage.count }

    /// Whether the store holds no voxels.
    public var isEmpty: Bool { storage.count == 0 }

    // MARK: adding

    /// Adds one sample: a world-space `point`, its linear extended-sRGB `color` and the index of
    /// the frame it came from. Returns false (and counts the sample as rejected) when the point is
    /// not finite, lies outside the key range, or its voxel is full (`maxSamplesPerVoxel`).
    ///
    /// - Complexity: O(1) expected.
    @discardableResult
    public mutating func add(_ point: SIMD3<Float>, color: SIMD3<Float>, frame: Int = 0) -> Bool {
        let f = SceneStore.frameIndex(frame)
        guard let key = VoxelKey.packedCell(point, voxelSize: voxelSize) else {
            rejectedCount += 1
            return false
        }
        makeUnique()
        let policy = policy
        let accepted = storage.withRecords(reserving: 1) { table in
            table.accumulate(key: key, color: color, frame: f, policy: policy)
        }
        if accepted { sampleCount += 1 } else { rejectedCount += 1 }
        return accepted
    }

    /// Adds many samples of one frame: `points[i]` with `colors[i]` (linear extended sRGB).
    /// Returns the number accepted. The result is the same as adding them one by one (below
    /// `maxSamplesPerVoxel`; see Limits).
    ///
    /// Batches of 32K samples or more are first partitioned by hash so each part accumulates in
    /// cache (see `SceneStore+Partition.swift`); that needs 24 bytes a sample of temporary memory.
    ///
    /// - Complexity: O(n) expected.
    @discardableResult
    public mutating func add(points: [SIMD3<Float>], colors: [SIMD3<Float>], frame: Int = 0) -> Int {
        precondition(points.count == colors.count, "points and colours differ in length")
        let f = SceneStore.frameIndex(frame)
        makeUnique()
        let policy = policy
        let size = voxelSize
        var accepted = 0
        points.withUnsafeBufferPointer { p in
            colors.withUnsafeBufferPointer { c in
                if p.count >= SceneStore.partitionThreshold {
                    accepted = addPartitioned(p, c, frame: f)
                    return
                }
                var start = 0
                let chunk = 1 << 14
                while start < p.count {
                    let end = min(p.count, start + chunk)
                    accepted += storage.withRecords(reserving: end - start) { table in
                        table.accumulate(points: p, colors: c, range: start ..< end, voxelSize: size,
                                         frame: f, policy: policy)
                    }
                    start = end
                }
            }
        }
        rejectedCount += points.count - accepted
        sampleCount += accepted
        return accepted
    }

    /// Adds every sample of `other` as if they had been added to this store after its own:
    /// the result is exactly that of one store fed both inputs in that order (so for `latest`
    /// and `first`, a tie between samples of one frame goes to `other`'s for `latest` and to
    /// this store's for `first`). Store files merge by a symmetric rule instead
    /// (`StoredVoxel.merged(with:policy:)`); the two agree whenever the stores hold different
    /// frames, as the shards of one replay do.
    /// Both stores must have the same voxel size and policy.
    ///
    /// - Complexity: O(`other.count`) expected.
    public mutating func merge(_ other: SceneStore) {
        precondition(other.voxelSize == voxelSize, "merging stores with different voxel sizes")
        precondition(other.policy == policy, "merging stores with different accumulation policies")
        rejectedCount += other.rejectedCount
        sampleCount += other.sampleCount
        guard other.count > 0 else { return }
        makeUnique()
        let policy = policy
        let source = other.storage
        let refused = storage.withRecords(reserving: source.count) { table in
            table.combine(UnsafeBufferPointer(start: source.records, count: source.count), policy: policy)
        }
        sampleCount -= refused
        rejectedCount += refused
    }

    // MARK: reading

    /// One voxel as stored.
    public struct Voxel: Sendable, Equatable {
        /// Its cell.
        public var key: VoxelKey
        /// Linear-light extended sRGB colour (the mean, or the kept sample).
        public var color: SIMD3<Float>
        /// Samples that fell into it.
        public var count: UInt32
        /// Smallest frame index among its samples.
        public var firstFrame: Int
        /// Greatest frame index among its samples.
        public var lastFrame: Int
    }

    /// The voxel at `index` (0 ..< count, in order of first appearance).
    public subscript(index: Int) -> Voxel {
        precondition(index >= 0 && index < count, "voxel index out of range")
        let r = storage.records[index]
        return Voxel(key: VoxelKey(packed: r.key), color: r.color(policy), count: r.count,
                     firstFrame: Int(r.first), lastFrame: Int(r.last))
    }

    /// The index of the voxel with `key`, or nil when the store has none.
    ///
    /// - Complexity: O(1) expected.
    public func index(of key: VoxelKey) -> Int? {
        storage.find(key.packed)
    }

    /// The voxel with `key`, or nil.
    public func voxel(_ key: VoxelKey) -> Voxel? {
        index(of: key).map { self[$0] }
    }

    /// Voxels `start ..< count` as a cloud: centres, gamma-encoded extended sRGB colours
    /// (`SRGBTransfer.encode`, unclamped) and counts. `cloud(from: n)` gives only the voxels
    /// added since the store held `n`, for incremental upload.
    ///
    /// - Complexity: O(count − start).
    public func cloud(from start: Int = 0) -> VoxelCloud {
        precondition(start >= 0 && start <= count, "start out of range")
        let n = count - start
        let size = voxelSize
        let policy = policy
        guard n > 0 else { return VoxelCloud(voxelSize: size, positions: [], colors: [], counts: []) }
        let records = SendablePointer(storage.records + start)
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = [], counts: [UInt32] = []
        positions = [SIMD3<Float>](unsafeUninitializedCapacity: n) { p, pn in
            colors = [SIMD3<Float>](unsafeUninitializedCapacity: n) { c, cn in
                counts = [UInt32](unsafeUninitializedCapacity: n) { k, kn in
                    let out = (SendablePointer(p.baseAddress!), SendablePointer(c.baseAddress!), SendablePointer(k.baseAddress!))
                    // The transfer curve dominates (a pow a channel): big clouds use every core.
                    let bands = n < 1 << 16 ? 1 : ProcessInfo.processInfo.activeProcessorCount * 4
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        for i in n * band / bands ..< n * (band + 1) / bands {
                            let r = records.base[i]
                            out.0.base[i] = VoxelKey(packed: r.key).center(voxelSize: size)
                            out.1.base[i] = SceneStore.encode(r.color(policy))
                            out.2.base[i] = r.count
                        }
                    }
                    kn = n
                }
                cn = n
            }
            pn = n
        }
        return VoxelCloud(voxelSize: size, positions: positions, colors: colors, counts: counts)
    }

    // MARK: helpers

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
    }

    private static func frameIndex(_ frame: Int) -> UInt32 {
        precondition(frame >= 0 && frame <= Int(UInt32.max), "frame index out of range")
        return UInt32(frame)
    }

    /// Channel-wise `SRGBTransfer.encode`.
    @inline(__always)
    static func encode(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(SRGBTransfer.encode(c.x), SRGBTransfer.encode(c.y), SRGBTransfer.encode(c.z))
    }
}

// MARK: - storage

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

        static let scale = Float(SceneStore.fixedPointScale)  // 2^24
        static let limit: Float = 64 * 16_777_216

        /// Linear colour to 40.24 fixed point, clamped to ±64, NaN as 0.
        @inline(__always)
        static func fixed(_ v: Float) -> Int64 {
            let s = v * scale
            if s >= -limit && s <= limit { return Int64(s) }
            if s > limit { return Int64(limit) }
            if s < -limit { return -Int64(limit) }
            return 0
        }

        /// Adds a sample to a `mean` record's sums (not its count).
        @inline(__always)
        mutating func addToSums(_ color: SIMD3<Float>) {
            r &+= Record.fixed(color.x)
            g &+= Record.fixed(color.y)
            b &+= Record.fixed(color.z)
        }

        /// A kept sample's channel (latest, first) as stored: its Float bits, cleaned as `fixed`
        /// cleans a mean's samples (NaN as 0, clamped to ±64), so no policy writes a NaN or an
        /// infinity.
        @inline(__always)
        static func bits(_ v: Float) -> Int64 {
            let kept: Float = v.isNaN ? 0 : min(max(v, -64), 64)
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

    /// A slot of an open-addressing table over records, in `Raw`'s bits: 0 when empty, else
    /// the record's index plus one in the low 32 bits and, above them, the top bits of its key's
    /// hash (a fingerprint that spares most record loads on a probe; a 32-bit slot has none).
    /// Every slot is made and read here, with asserts on the index.
    @usableFromInline struct Slot<Raw: FixedWidthInteger & UnsignedInteger> {
        /// The bits as stored.
        @usableFromInline let raw: Raw

        /// An empty slot.
        static var empty: Slot { Slot(raw: 0) }

        @usableFromInline init(raw: Raw) { self.raw = raw }

        /// The slot of record `index` whose key hashes to `hash`.
        @inline(__always)
        init(index: Int, hash: UInt64) {
            assert(index >= 0 && index < Int(UInt32.max), "record index beyond a slot's 32 bits")
            let fingerprint = Raw.bitWidth > 32 ? Raw(truncatingIfNeeded: hash >> 32) << 32 : 0
            raw = fingerprint | Raw(truncatingIfNeeded: index + 1)
        }

        /// Whether no record is here.
        @inline(__always) var isEmpty: Bool { raw == 0 }

        /// Whether the record here may have a key with `hash` (always, in a slot without a
        /// fingerprint).
        @inline(__always)
        func matches(hash: UInt64) -> Bool { Raw.bitWidth <= 32 || UInt64(truncatingIfNeeded: raw) >> 32 == hash >> 32 }

        /// The index of the record here, which must be one of the `count` records.
        @inline(__always)
        func index(below count: Int) -> Int {
            let i = Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: raw) & 0xFFFF_FFFF) - 1
            assert(i >= 0 && i < count, "slot decodes to a record index outside the table's records")
            return i
        }
    }

    /// Where a probe for a key ended.
    @usableFromInline enum Probe {
        /// At the key's record.
        case found(index: Int)
        /// At an empty slot, where the key goes.
        case vacant(position: Int)
    }

    /// Linear probing in `slots` (`mask + 1` of them, a power of two) from `position`: the
    /// first of the `count` records whose slot's fingerprint matches `hash` and that `isKey`
    /// accepts, or the first empty position. The table must have an empty slot.
    @inline(__always)
    static func probe<Raw>(_ slots: UnsafeMutablePointer<Slot<Raw>>, mask: Int, from position: Int, hash: UInt64,
                           count: Int, isKey: (Int) -> Bool) -> Probe {
        assert(mask >= 0 && (mask & (mask + 1)) == 0 && position >= 0 && position <= mask, "probe outside the table")
        var pos = position
        while true {
            let slot = slots[pos]
            if slot.isEmpty { return .vacant(position: pos) }
            if slot.matches(hash: hash) {
                let i = slot.index(below: count)
                if isKey(i) { return .found(index: i) }
            }
            pos = (pos + 1) & mask
        }
    }

    /// The records in insertion order and an open-addressing index over them. Mutated only
    /// through `SceneStore`, which copies it first unless uniquely referenced.
    @usableFromInline final class Storage: @unchecked Sendable {
        private(set) var records: UnsafeMutablePointer<Record>
        private(set) var recordCapacity: Int
        private(set) var count: Int = 0
        /// 2^`tableBits` slots, 64-bit (with fingerprints).
        private var table: UnsafeMutablePointer<Slot<UInt64>>
        /// log2 of the table's capacity.
        private var tableBits: Int
        /// Scratch for `Handle.warm`.
        private let sink = UnsafeMutablePointer<Int64>.allocate(capacity: 1)

        init(expectedVoxels: Int) {
            recordCapacity = max(16, expectedVoxels)
            records = .allocate(capacity: recordCapacity)
            tableBits = 5
            while Storage.maxLoad(bits: tableBits) < expectedVoxels { tableBits += 1 }
            table = .allocate(capacity: 1 << tableBits)
            table.initialize(repeating: .empty, count: 1 << tableBits)
            sink.initialize(to: 0)
        }

        /// A copy of `other`'s records and table, for copy-on-write.
        init(copying other: Storage) {
            recordCapacity = other.recordCapacity
            records = .allocate(capacity: recordCapacity)
            records.initialize(from: other.records, count: other.count)
            count = other.count
            tableBits = other.tableBits
            table = .allocate(capacity: 1 << tableBits)
            table.initialize(from: other.table, count: 1 << tableBits)
            sink.initialize(to: 0)
        }

        deinit {
            sink.deallocate()
            records.deallocate()
            table.deallocate()
        }

        /// Greatest voxel count a table of 2^bits slots holds: a load of 5/8.
        static func maxLoad(bits: Int) -> Int { (1 << bits) / 8 * 5 }

        @inline(__always)
        static func hash(_ key: Int64) -> UInt64 { UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15 }

        /// The table position a hash starts probing at: its top `bits` bits.
        @inline(__always)
        static func position(_ hash: UInt64, bits: Int) -> Int {
            assert(bits > 0 && bits < 64, "a table of 2 to 2⁶³ slots")
            return Int(truncatingIfNeeded: hash &>> UInt64(64 - bits))
        }

        /// Index of the record with `key`, or nil.
        func find(_ key: Int64) -> Int? {
            let h = Storage.hash(key)
            let records = records
            switch SceneStore.probe(table, mask: (1 << tableBits) - 1, from: Storage.position(h, bits: tableBits), hash: h,
                                    count: count, isKey: { records[$0].key == key }) {
            case .found(let i): return i
            case .vacant: return nil
            }
        }

        /// Grows both tables so `extra` more voxels fit, then runs `body` on a handle that may
        /// insert up to `extra` voxels without reallocating.
        @inline(__always)
        func withRecords<R>(reserving extra: Int, _ body: (inout Handle) -> R) -> R {
            let needed = count + extra
            if needed > recordCapacity { growRecords(to: needed) }
            if needed > Storage.maxLoad(bits: tableBits) { growTable(for: needed) }
            var handle = Handle(records: records, count: count, capacity: recordCapacity, table: table, tableBits: tableBits, sink: sink)
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
            var bits = tableBits
            while Storage.maxLoad(bits: bits) < needed { bits += 1 }
            table.deallocate()
            tableBits = bits
            table = .allocate(capacity: 1 << bits)
            table.initialize(repeating: .empty, count: 1 << bits)
            for i in 0 ..< count {
                let h = Storage.hash(records[i].key)
                // Keys are distinct: only the empty slot is wanted.
                guard case .vacant(let pos) = SceneStore.probe(table, mask: (1 << bits) - 1, from: Storage.position(h, bits: bits),
                                                               hash: h, count: i, isKey: { _ in false }) else { continue }
                table[pos] = Slot(index: i, hash: h)
            }
        }
    }

    /// Direct access to the storage's memory while no reallocation can happen.
    @usableFromInline struct Handle {
        let records: UnsafeMutablePointer<Record>
        var count: Int
        /// Records there is room for: `count` may grow to it without reallocating.
        let capacity: Int
        let table: UnsafeMutablePointer<Slot<UInt64>>
        let tableBits: Int
        /// Where `warm` leaves a value derived from its loads, so they are not optimised away.
        let sink: UnsafeMutablePointer<Int64>

        /// Index of the record with `key`, appending an empty one when there is none.
        @inline(__always)
        mutating func findOrInsert(_ key: Int64) -> Int {
            let h = Storage.hash(key)
            let records = records
            switch SceneStore.probe(table, mask: (1 << tableBits) - 1, from: Storage.position(h, bits: tableBits), hash: h,
                                    count: count, isKey: { records[$0].key == key }) {
            case .found(let i):
                return i
            case .vacant(let pos):
                let i = count
                precondition(i < capacity, "more voxels inserted than reserved")
                count += 1
                records.advanced(by: i).initialize(to: Record(key: key, r: 0, g: 0, b: 0, count: 0, first: .max, last: 0))
                table[pos] = Slot(index: i, hash: h)
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
                entries[k] = table[Storage.position(Storage.hash(key), bits: tableBits)].raw
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
