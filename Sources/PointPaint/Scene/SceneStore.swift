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
    /// Where the grid's positions are measured from, in whole metres (`WorldOrigin`): points
    /// are added as offsets from it, a key is the cell `floor(offset / voxelSize)`, and a
    /// voxel's world centre is `origin + centre`. Stores merge only with stores of the same
    /// origin.
    public let origin: SIMD3<Double>
    /// Samples dropped because their position was not finite or lay outside the key range, or
    /// because their voxel already held `maxSamplesPerVoxel`.
    public private(set) var rejectedCount: Int = 0
    /// Samples accepted: the sum of the voxels' counts.
    public private(set) var sampleCount: Int = 0
    /// Samples refused because their position, though finite, lies in a cell the keys cannot
    /// hold (outside `VoxelKey.range`), and the first of them. Such a sample is never expected:
    /// callers stop with `unheldError` (`requireEveryPointHeld`) rather than drop it in silence.
    public private(set) var unheld: (count: Int, first: SIMD3<Float>?) = (0, nil)

    /// The most samples a voxel holds; samples past it are refused (see Limits).
    public static let maxSamplesPerVoxel = Int(UInt32.max)

    /// One unit of a `mean` sum: channels are kept in multiples of 1 / `fixedPointScale` (2⁻²⁴;
    /// `FixedPointColor`).
    public static let fixedPointScale: Double = FixedPointColor.scale

    @usableFromInline var storage: Storage

    /// Creates an empty store; `voxelSize` must be positive and finite.
    /// `expectedVoxels` pre-sizes the tables; `origin` (whole metres) is where the points
    /// added are measured from.
    public init(voxelSize: Float, policy: AccumulationPolicy = .mean, expectedVoxels: Int = 0, origin: SIMD3<Double> = .zero) {
        precondition(voxelSize > 0 && voxelSize.isFinite, "voxel size must be positive and finite")
        precondition(origin == origin.rounded(.towardZero) && max(-origin.min(), origin.max()) <= WorldOrigin.maxCoordinate,
                     "a store's origin is a whole number of metres within ±(2^31 − 1)")
        self.voxelSize = voxelSize
        self.origin = origin
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
            if point.isFinite { unheld = (unheld.count + 1, unheld.first ?? point) }
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
        if accepted < points.count {
            let found = SceneStore.unheldPoints(points, voxelSize: voxelSize)
            unheld = (unheld.count + found.count, unheld.first ?? found.first)
        }
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
        precondition(other.origin == origin, "merging stores with different origins")
        rejectedCount += other.rejectedCount
        sampleCount += other.sampleCount
        unheld = (unheld.count + other.unheld.count, unheld.first ?? other.unheld.first)
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
        guard n > 0 else { return VoxelCloud(voxelSize: size, origin: origin, positions: [], colors: [], counts: []) }
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
        return VoxelCloud(voxelSize: size, origin: origin, positions: positions, colors: colors, counts: counts)
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
