/// Accumulates the observations of a painting: per point (sums in the store's fixed point times
/// whole-number weights, so the mean does not depend on float rounding order and painted halves
/// add up exactly), or in a `SceneStore` when painting into voxels (unweighted). Either way it
/// counts the views of every point, to tell seen points from unseen ones.
struct PaintAccumulator {
    /// How observations combine.
    let accumulation: CloudPainter.Accumulation
    /// Frames that saw each point.
    private(set) var views: [UInt32]
    /// Per point: Σ w · colour (mean) or the kept colour (best, first, latest), fixed point.
    private var sums: [SIMD3<Int64>]
    /// Per point: Σ w, or the kept observation's weight for `best`; empty when unweighted (every
    /// weight 1: the views count).
    private var weightSums: [UInt64] = []
    /// The voxels, when painting into voxels.
    private(set) var store: SceneStore?
    /// Per point, when the colour spread is kept: Σ w · colour and Σ w · colour² (channel-wise)
    /// of every observation, fixed point; empty otherwise.
    private var moments: [SIMD3<Int64>] = [], squares: [SIMD3<Int64>] = []

    /// An accumulator for `count` points, per point or into voxels of `voxelSize`; `spread`
    /// keeps what the colour's standard deviation needs (per point only).
    init(count: Int, accumulation: CloudPainter.Accumulation, voxelSize: Float?, spread: Bool = false) {
        self.accumulation = accumulation
        views = [UInt32](repeating: 0, count: count)
        if spread, voxelSize == nil {
            moments = [SIMD3<Int64>](repeating: .zero, count: count)
            squares = moments
        }
        if let voxelSize {
            store = SceneStore(voxelSize: voxelSize, policy: accumulation.policy ?? .mean)
            sums = []
        } else {
            sums = [SIMD3<Int64>](repeating: .zero, count: count)
        }
    }

    /// Points seen at least once.
    var seenCount: Int { views.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }

    /// The fixed-point code of a linear colour (`SceneStore.fixedPointScale`), NaN as 0.
    @inline(__always)
    static func fixed(_ c: SIMD3<Float>) -> SIMD3<Int64> {
        let scaled = SIMD3<Double>(c) * SceneStore.fixedPointScale
        func code(_ v: Double) -> Int64 { v.isNaN ? 0 : Int64(max(min(v.rounded(), 9e15), -9e15)) }
        return SIMD3(code(scaled.x), code(scaled.y), code(scaled.z))
    }

    /// Adds one frame's observations (frames in increasing order), weighted by `weights`
    /// (1…255 each; empty: unweighted).
    mutating func add(points: [UInt32], colors: [SIMD3<Float>], weights: [UInt8] = [], frame: Int, cloud: PaintCloud) {
        if store != nil {
            let positions = points.map { cloud.positions[Int($0)] }
            store!.add(points: positions, colors: colors, frame: frame)
            for p in points { views[Int(p)] &+= 1 }
            return
        }
        if !weights.isEmpty, weightSums.isEmpty { weightSums = [UInt64](repeating: 0, count: views.count) }
        for (n, p) in points.enumerated() {
            let i = Int(p)
            let w = weights.isEmpty ? 1 : Int64(weights[n])
            switch accumulation {
            case .mean:
                sums[i] &+= Self.fixed(colors[n]) &* w
            case .best:
                // Strictly greater: among equal weights the earliest frame's stays.
                if UInt64(w) > weightSums[i] {
                    sums[i] = Self.fixed(colors[n])
                    weightSums[i] = UInt64(w)
                }
            case .latest: sums[i] = Self.fixed(colors[n])
            case .first: if views[i] == 0 { sums[i] = Self.fixed(colors[n]) }
            }
            // Σ w for every policy but best (which keeps the best weight there): the spread's too.
            let spreadWeight = accumulation == .best ? 1 : w
            if accumulation != .best, !weightSums.isEmpty { weightSums[i] &+= UInt64(w) }
            if !moments.isEmpty {
                moments[i] &+= Self.fixed(colors[n]) &* spreadWeight
                squares[i] &+= Self.fixed(colors[n] * colors[n]) &* spreadWeight
            }
            views[i] &+= 1
        }
    }

    /// The painted cloud: per point, the seen points' colours (and the unseen ones kept as
    /// `unseen` says); in voxels, the store's voxels plus, when kept, a voxel for each unseen
    /// point's cell that no seen point reached, in its own colour.
    func result(cloud: PaintCloud, unseen: CloudPainter.Unseen, statistics: CloudPainter.Statistics) -> PaintResult {
        let keep = unseen == .keep
        if var store {
            if keep, statistics.unseen > 0 {
                var extra = SceneStore(voxelSize: store.voxelSize, policy: store.policy)
                for i in views.indices where views[i] == 0 {
                    guard let key = VoxelKey.packedCell(cloud.positions[i], voxelSize: store.voxelSize),
                          store.index(of: VoxelKey(packed: key)) == nil else { continue }
                    extra.add(cloud.positions[i], color: SRGBTransfer.decode(cloud.colors?[i] ?? .zero))
                }
                let painted = store.count
                store.merge(extra)
                let voxels = store.cloud()
                var flags = [Bool](repeating: true, count: voxels.count)
                // `cloud()` lists voxels in insertion order: the painted ones first.
                if cloud.colors == nil { for i in painted ..< flags.count { flags[i] = false } }
                return PaintResult(cloud: voxels, painted: flags, statistics: statistics, store: store)
            }
            let voxels = store.cloud()
            return PaintResult(cloud: voxels, painted: [Bool](repeating: true, count: voxels.count), statistics: statistics, store: store)
        }
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = [], counts: [UInt32] = [], painted: [Bool] = []
        var spread: [Float]? = moments.isEmpty ? nil : []
        let n = keep ? cloud.count : statistics.seen
        positions.reserveCapacity(n)
        colors.reserveCapacity(n)
        counts.reserveCapacity(n)
        painted.reserveCapacity(n)
        let scale = 1 / SceneStore.fixedPointScale
        for i in views.indices {
            let v = views[i]
            if v > 0 {
                // Σ w: the views when unweighted.
                let total = weightSums.isEmpty ? Double(v) : Double(weightSums[i])
                let divisor = accumulation == .mean ? total : 1
                let linear = SIMD3<Float>(SIMD3<Double>(sums[i]) * (scale / divisor))
                positions.append(cloud.positions[i])
                colors.append(SceneStore.encode(linear))
                counts.append(v)
                painted.append(true)
                if !moments.isEmpty, v == 1 {
                    spread!.append(0)  // exactly: the fixed-point rounding of c and c² would leave a trace
                } else if !moments.isEmpty {
                    // Weighted by the same weights as the mean (Σ w c / Σ w, Σ w c² / Σ w).
                    let weightTotal = weightSums.isEmpty || accumulation == .best ? Double(v) : Double(weightSums[i])
                    let mean = SIMD3<Double>(moments[i]) * (scale / weightTotal)
                    let variance = SIMD3<Double>(squares[i]) * (scale / weightTotal) - mean * mean
                    spread!.append(Float(max(variance.max(), 0).squareRoot()))
                }
            } else if keep {
                positions.append(cloud.positions[i])
                colors.append(cloud.colors?[i] ?? .zero)
                counts.append(0)
                painted.append(cloud.colors != nil)
                spread?.append(0)
            }
        }
        return PaintResult(cloud: VoxelCloud(voxelSize: nil, positions: positions, colors: colors, counts: counts),
                           painted: painted, statistics: statistics, colourSD: spread)
    }
}
