/// What a store's header says: its grid, how it accumulates, what it holds and where it came
/// from. Store files (`.ppstore`) begin with it; `pointpaint info` prints it; stores merge only
/// when their grids, policies, colour spaces and grades agree (`mergeConflict(with:)`).
public struct StoreInfo: Sendable, Equatable {
    /// Edge length of a voxel in world units (metres).
    public var voxelSize: Float
    /// How samples in one voxel combine.
    public var policy: AccumulationPolicy
    /// What the colour fields mean.
    public var colorSpace: StoreColorSpace
    /// What the samples came from.
    public var provenance: StoreProvenance
    /// Voxels held.
    public var voxelCount: Int
    /// Samples held: the sum of the voxels' counts.
    public var sampleCount: Int
    /// Samples the store refused (no finite cell, or a full voxel).
    public var rejectedCount: Int
    /// The smallest and greatest cell on each axis, or nil when the store is empty.
    public var keyBounds: KeyBounds?
    /// What each voxel keeps beyond its sums, count and frames: weight sums, the spread.
    public var contents: StoreContents
    /// Where the grid's positions are measured from, in whole metres (`SceneStore.origin`).
    public var origin: SIMD3<Double>

    /// Creates a description.
    public init(voxelSize: Float, policy: AccumulationPolicy, colorSpace: StoreColorSpace = .linearExtendedSRGB,
                provenance: StoreProvenance, voxelCount: Int, sampleCount: Int, rejectedCount: Int, keyBounds: KeyBounds?,
                contents: StoreContents = [], origin: SIMD3<Double> = .zero) {
        self.contents = contents
        self.origin = origin
        self.voxelSize = voxelSize
        self.policy = policy
        self.colorSpace = colorSpace
        self.provenance = provenance
        self.voxelCount = voxelCount
        self.sampleCount = sampleCount
        self.rejectedCount = rejectedCount
        self.keyBounds = keyBounds
    }

    /// The smallest and greatest cell index on each axis.
    public struct KeyBounds: Sendable, Equatable {
        /// Smallest x, y and z cell.
        public var min: SIMD3<Int32>
        /// Greatest x, y and z cell.
        public var max: SIMD3<Int32>

        /// Bounds of one cell.
        public init(_ key: VoxelKey) {
            min = SIMD3(key.x, key.y, key.z)
            max = min
        }

        /// Creates bounds from corners.
        public init(min: SIMD3<Int32>, max: SIMD3<Int32>) {
            self.min = min
            self.max = max
        }

        /// These bounds grown to hold `key`.
        @inline(__always)
        public mutating func include(_ key: VoxelKey) {
            let k = SIMD3(key.x, key.y, key.z)
            min = pointwiseMin(min, k)
            max = pointwiseMax(max, k)
        }

        /// These bounds grown to hold `other`.
        public mutating func include(_ other: KeyBounds) {
            min = pointwiseMin(min, other.min)
            max = pointwiseMax(max, other.max)
        }

        /// The world-space box of the voxel centres: the centres of the corner cells.
        public func centers(voxelSize: Float) -> (min: SIMD3<Float>, max: SIMD3<Float>) {
            (VoxelKey(x: min.x, y: min.y, z: min.z).center(voxelSize: voxelSize),
             VoxelKey(x: max.x, y: max.y, z: max.z).center(voxelSize: voxelSize))
        }
    }

    /// `(500000, 5400000, 0) m`: an origin as messages show it.
    static func describe(_ origin: SIMD3<Double>) -> String {
        "(" + [origin.x, origin.y, origin.z].map { String(format: "%.0f", $0) }.joined(separator: ", ") + ") m"
    }

    /// Why a store described by `other` cannot be merged with this one, or nil when it can:
    /// the voxel size, origin, accumulation policy, colour space and grade must all be the same.
    public func mergeConflict(with other: StoreInfo) -> (part: String, message: String)? {
        if other.voxelSize.bitPattern != voxelSize.bitPattern {
            return ("voxel size", "expected voxel size \(voxelSize) like the first store, found \(other.voxelSize): stores of different grids cannot be merged")
        }
        if other.origin != origin {
            return ("origin", "expected the grid's origin \(Self.describe(origin)) like the first store, found \(Self.describe(other.origin)): stores of different origins have different cells")
        }
        if other.policy != policy {
            return ("policy", "expected '\(policy.rawValue)' accumulation like the first store, found '\(other.policy.rawValue)'")
        }
        if other.colorSpace != colorSpace {
            return ("colour space", "expected colour space \(colorSpace) like the first store, found \(other.colorSpace)")
        }
        if other.contents != contents {
            return ("contents", "expected voxels keeping \(contents) like the first store, found \(other.contents): weighted and unweighted means (or stores with and without the spread) cannot be merged exactly")
        }
        if other.provenance.grade != provenance.grade {
            func name(_ g: String?) -> String { g.map { PointPaintError.quote($0) } ?? "no grade" }
            return ("grade", "expected \(name(provenance.grade)) like the first store, found \(name(other.provenance.grade)): differently graded colours cannot be averaged")
        }
        return nil
    }

    /// The comment lines a PLY written from this store carries after the source: what was
    /// replayed (for a replay) and the grade.
    public var plyComments: [String] {
        var comments: [String] = []
        if provenance.kind == .replay {
            comments.append("replayed \(provenance.frameCount) frames, \(sampleCount) samples, \(policy.rawValue) accumulation")
        }
        if let grade = provenance.grade { comments.append("graded: \(grade)") }
        return comments
    }
}

/// What each voxel of a store keeps beyond its colour sums, sample count and frames. Stores of
/// plain replays keep nothing more (format version 1); `pointpaint paint` keeps weight sums for
/// weighted observations and the sums of squares for the colour spread (version 2). Both only
/// for `mean` accumulation.
public struct StoreContents: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    /// Creates contents from the header's flags.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Σ w: the samples are weighted (`StoredVoxel.weight`).
    public static let weights = StoreContents(rawValue: 1)
    /// Σ w · c²: each voxel's colour spread can be found (`StoredVoxel.colourSD`).
    public static let spread = StoreContents(rawValue: 2)
    /// Every flag this build knows.
    static let known: StoreContents = [.weights, .spread]

    /// Bytes of one voxel record holding these contents.
    var recordBytes: Int { 44 + (contains(.weights) ? 8 : 0) + (contains(.spread) ? 24 : 0) }

    /// The format version a store of these contents is written in: 1 when plain (as every
    /// earlier build wrote and reads), else 2.
    var formatVersion: UInt32 { isEmpty ? 1 : 2 }

    /// "plain sums", "weight sums", "weight sums and squares", "squares".
    public var description: String {
        switch (contains(.weights), contains(.spread)) {
        case (false, false): "plain sums"
        case (true, false): "weight sums"
        case (true, true): "weight sums and squares"
        case (false, true): "sums of squares"
        }
    }
}

/// What the colour fields of a store mean. Version 1 of the format knows one space.
public enum StoreColorSpace: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Linear-light extended sRGB (sRGB primaries, unclamped): `mean` sums in 40.24 fixed point,
    /// `latest` / `first` as `Float` bits.
    case linearExtendedSRGB = 0

    /// The space's name.
    public var description: String {
        switch self {
        case .linearExtendedSRGB: "linear extended sRGB"
        }
    }
}

/// Where a store's samples came from, carried through merges into the clouds written from it.
public struct StoreProvenance: Sendable, Equatable {
    /// What made the store.
    public enum Kind: UInt8, Sendable {
        /// Points voxelised from a cloud (`voxelize`).
        case points = 0
        /// A capture replayed (`replay`).
        case replay = 1
    }

    /// What made the store.
    public var kind: Kind
    /// The capture or file it came from, as named on the command line, if known.
    public var source: String?
    /// The colour grade folded into every sample, as a summary, or nil when ungraded.
    public var grade: String?
    /// Frames replayed into the store (0 for points).
    public var frameCount: Int

    /// Creates a provenance.
    public init(kind: Kind, source: String? = nil, grade: String? = nil, frameCount: Int = 0) {
        self.kind = kind
        self.source = source
        self.grade = grade
        self.frameCount = frameCount
    }

    /// The provenance of a merge: frames add up; kind, source and grade stay when every input
    /// agrees (grades always do: `mergeConflict` refuses others), else the source is dropped and
    /// a mix of kinds counts as a replay. Nil when the frame counts add up past `Int.max` (a
    /// damaged header: no replay has that many frames).
    public func merged(with other: StoreProvenance) -> StoreProvenance? {
        let (frames, overflow) = frameCount.addingReportingOverflow(other.frameCount)
        guard !overflow else { return nil }
        return StoreProvenance(kind: kind == other.kind ? kind : .replay, source: source == other.source ? source : nil,
                               grade: grade, frameCount: frames)
    }
}
