/// Accumulates the observations of a painting into slots: one a point, or one a voxel when
/// painting into voxels with weights, `best` or the colour spread (each point's voxel found once,
/// the points being fixed). A slot keeps Σ w · colour in the store's fixed point
/// (`FixedPointColor.rounded`) times whole-number weights (so the mean does not depend on float rounding order and painted halves
/// add up exactly), Σ w, and for the spread Σ w · colour². Plain voxels (unweighted mean, latest,
/// first) go to a `SceneStore` instead, which can be written as an exact store. Either way it
/// counts the views of every point, to tell seen points from unseen ones.
struct PaintAccumulator {
    /// How observations combine.
    let accumulation: CloudPainter.Accumulation
    /// Frames that saw each point.
    private(set) var views: [UInt32]
    /// Per slot: Σ w · colour (mean) or the kept colour (best, first, latest), fixed point.
    private(set) var sums: [PackedSum]
    /// Per slot: Σ w, or the kept observation's weight for `best`; empty when unweighted (every
    /// weight 1: the observations count).
    private(set) var weightSums: [UInt64] = []
    /// The voxels, when painting plain voxels into a store.
    private(set) var store: SceneStore?
    /// Per slot, when the colour spread is kept: Σ w · colour and Σ w · colour² (channel-wise)
    /// of every observation, fixed point; empty otherwise.
    private(set) var moments: [PackedSum] = [], squares: [PackedSum] = []
    /// Voxel slots: each point's slot (`UInt32.max` for a point outside the voxel grid's range)
    /// and each slot's packed cell, in order of first appearance in the cloud; empty when a slot
    /// is a point.
    private(set) var slotOfPoint: [UInt32] = [], cells: [Int64] = []
    /// Observations of each voxel slot (per point, `views` serves).
    private(set) var slotObservations: [UInt32] = []
    /// The first and last frame that observed each voxel slot (for a store's voxels).
    private(set) var slotFrames: [SIMD2<UInt32>] = []
    /// The voxel edge length of voxel slots or the store.
    private(set) var voxelSize: Float?

    /// An accumulator for the points of `cloud`, per point or into voxels of `voxelSize`;
    /// `spread` keeps what the colour's standard deviation needs. Voxels go to a store unless
    /// `weighted`, `best` or `spread` need slots.
    /// - Complexity: O(points) expected, for voxel slots.
    init(cloud: PaintCloud, accumulation: CloudPainter.Accumulation, voxelSize: Float?, spread: Bool, weighted: Bool) {
        let slotted = voxelSize != nil && (weighted || spread || accumulation == .best)
        self.init(count: cloud.count, accumulation: accumulation, voxelSize: slotted ? nil : voxelSize, spread: spread,
                  origin: cloud.origin)
        guard slotted, let voxelSize else { return }
        var slots: [Int64: UInt32] = [:]
        slotOfPoint = cloud.positions.map { p in
            guard let key = VoxelKey.packedCell(p, voxelSize: voxelSize) else { return .max }
            if let slot = slots[key] { return slot }
            let slot = UInt32(cells.count)
            slots[key] = slot
            cells.append(key)
            return slot
        }
        self.voxelSize = voxelSize
        sums = [PackedSum](repeating: .zero, count: cells.count)
        slotObservations = [UInt32](repeating: 0, count: cells.count)
        slotFrames = [SIMD2<UInt32>](repeating: .zero, count: cells.count)
        if spread {
            moments = sums
            squares = sums
        }
    }

    /// An accumulator for `count` points, per point or into a store of voxels of `voxelSize`;
    /// `spread` keeps what the colour's standard deviation needs (per point).
    /// Voxels are measured from `origin` (the cloud's).
    init(count: Int, accumulation: CloudPainter.Accumulation, voxelSize: Float?, spread: Bool = false, origin: SIMD3<Double> = .zero) {
        self.accumulation = accumulation
        self.voxelSize = voxelSize
        views = [UInt32](repeating: 0, count: count)
        if spread, voxelSize == nil {
            moments = [PackedSum](repeating: .zero, count: count)
            squares = moments
        }
        if let voxelSize {
            store = SceneStore(voxelSize: voxelSize, policy: accumulation.policy ?? .mean, origin: origin)
            sums = []
        } else {
            sums = [PackedSum](repeating: .zero, count: count)
        }
    }

    /// Points seen at least once.
    var seenCount: Int { views.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }

    /// Adds one frame's observations (frames in increasing order), weighted by `weights`
    /// (1…255 each; empty: unweighted).
    mutating func add(points: [UInt32], colors: [SIMD3<Float>], weights: [UInt8] = [], frame: Int, cloud: PaintCloud) {
        if store != nil {
            let positions = points.map { cloud.positions[Int($0)] }
            store!.add(points: positions, colors: colors, frame: frame)
            for p in points { views[Int(p)] &+= 1 }
            return
        }
        if !weights.isEmpty, weightSums.isEmpty { weightSums = [UInt64](repeating: 0, count: sums.count) }
        let voxels = !slotOfPoint.isEmpty
        if accumulation == .mean, weights.isEmpty, weightSums.isEmpty, moments.isEmpty, !voxels {
            // The plain mean per point: the loop below with every weight 1, without its branches.
            precondition(points.count == colors.count && views.count == sums.count)
            let count = views.count
            views.withUnsafeMutableBufferPointer { views in
                sums.withUnsafeMutableBufferPointer { sums in
                    for n in points.indices {
                        let i = Int(points[n])
                        precondition(i < count, "a point outside the cloud")
                        views[i] &+= 1
                        sums[i].add(FixedPointColor.rounded(colors[n]))
                    }
                }
            }
            return
        }
        for (n, p) in points.enumerated() {
            let point = Int(p)
            views[point] &+= 1
            let i = voxels ? Int(slotOfPoint[point]) : point
            guard i < sums.count else { continue }  // a point outside the voxel grid: seen, in no voxel
            let before = voxels ? slotObservations[i] : views[point] &- 1
            let w = weights.isEmpty ? 1 : Int64(weights[n])
            switch accumulation {
            case .mean:
                sums[i].add(FixedPointColor.rounded(colors[n]) &* w)
            case .best:
                // Strictly greater: among equal weights the earliest frame's stays.
                if UInt64(w) > weightSums[i] {
                    sums[i] = PackedSum(FixedPointColor.rounded(colors[n]))
                    weightSums[i] = UInt64(w)
                }
            case .latest: sums[i] = PackedSum(FixedPointColor.rounded(colors[n]))
            case .first: if before == 0 { sums[i] = PackedSum(FixedPointColor.rounded(colors[n])) }
            }
            // Σ w for every policy but best (which keeps the best weight there): the spread's too.
            let spreadWeight = accumulation == .best ? 1 : w
            if accumulation != .best, !weightSums.isEmpty { weightSums[i] &+= UInt64(w) }
            if !moments.isEmpty {
                moments[i].add(FixedPointColor.rounded(colors[n]) &* spreadWeight)
                squares[i].add(FixedPointColor.roundedSquare(colors[n]) &* spreadWeight)
            }
            if voxels {
                let f = UInt32(clamping: frame)
                if before == 0 { slotFrames[i].x = f }
                slotFrames[i].y = f
                slotObservations[i] &+= 1
            }
        }
    }

    /// Slot `i`'s colour (gamma-encoded) and, when kept, its spread, from `v` observations.
    private func color(slot i: Int, observations v: UInt32) -> (color: SIMD3<Float>, spread: Float?) {
        let scale = 1 / SceneStore.fixedPointScale
        // Σ w: the observations when unweighted.
        let total = weightSums.isEmpty ? Double(v) : Double(weightSums[i])
        let divisor = accumulation == .mean ? total : 1
        let linear = SIMD3<Float>(SIMD3<Double>(sums[i].simd) * (scale / divisor))
        guard !moments.isEmpty else { return (SceneStore.encode(linear), nil) }
        // One observation: exactly no spread (the fixed-point rounding of c and c² would leave a trace).
        guard v > 1 else { return (SceneStore.encode(linear), 0) }
        // Weighted by the same weights as the mean (Σ w c / Σ w, Σ w c² / Σ w).
        let weightTotal = weightSums.isEmpty || accumulation == .best ? Double(v) : Double(weightSums[i])
        let mean = SIMD3<Double>(moments[i].simd) * (scale / weightTotal)
        let variance = SIMD3<Double>(squares[i].simd) * (scale / weightTotal) - mean * mean
        return (SceneStore.encode(linear), Float(max(variance.max(), 0).squareRoot()))
    }

    /// The painted cloud: per point, the seen points' colours (and the unseen ones kept as
    /// `unseen` says); in voxels, the seen voxels plus, when kept, a voxel for each cell only
    /// unseen points reach, in their own colours' mean (linear light). Mean voxel slots also come as
    /// store voxels (`PaintResult.storeVoxels`), keeping Σ w when the observations came weighted.
    func result(cloud: PaintCloud, unseen: CloudPainter.Unseen, statistics: CloudPainter.Statistics) -> PaintResult {
        let keep = unseen == .keep
        if var store {
            if keep, statistics.unseen > 0 {
                var extra = SceneStore(voxelSize: store.voxelSize, policy: store.policy, origin: store.origin)
                for i in views.indices where views[i] == 0 {
                    guard let key = VoxelKey.packedCell(cloud.positions[i], voxelSize: store.voxelSize),
                          store.index(of: VoxelKey(packed: key)) == nil else { continue }
                    extra.add(cloud.positions[i], color: SRGBTransfer.decode(cloud.color(at: i) ?? .zero))
                }
                let painted = store.count
                store.merge(extra)
                let voxels = store.cloud()
                var flags = [Bool](repeating: true, count: voxels.count)
                // `cloud()` lists voxels in insertion order: the painted ones first.
                if !cloud.hasColors { for i in painted ..< flags.count { flags[i] = false } }
                return PaintResult(cloud: voxels, painted: flags, statistics: statistics, store: store)
            }
            let voxels = store.cloud()
            return PaintResult(cloud: voxels, painted: [Bool](repeating: true, count: voxels.count), statistics: statistics, store: store)
        }
        if !slotOfPoint.isEmpty {
            var result = voxelResult(cloud: cloud, keep: keep, statistics: statistics)
            if let contents = slotStoreContents {
                result.storeVoxels = (slotVoxels(cloud: cloud, contents: contents, keepUnseen: keep), contents)
            }
            return result
        }
        // One colour a point, computed once; the file is streamed from these and the cloud's
        // own positions (`PointVertices`), with no copy of the cloud.
        let n = cloud.count
        var seen = 0, outside = SIMD4<Int32>.zero
        var spread: [Float]? = moments.isEmpty ? nil : [Float](repeating: 0, count: n)
        let colours = [Float](unsafeUninitializedCapacity: 3 * n) { out, initialized in
            for i in 0 ..< n {
                let v = views[i]
                var colour = SIMD3<Float>.zero
                if v > 0 {
                    let (painted, sd) = color(slot: i, observations: v)
                    colour = painted
                    if let sd { spread![i] = sd }
                    seen += 1
                } else if keep, let own = cloud.color(at: i) {
                    colour = own
                }
                if v > 0 || keep { outside |= PLYWriter.outsideUnitBits(SIMD4(colour, 0)) }
                out[3 * i] = colour.x
                out[3 * i + 1] = colour.y
                out[3 * i + 2] = colour.z
            }
            initialized = 3 * n
        }
        let points = PointVertices(origin: cloud.origin, positions: cloud.positions, exact: cloud.exactPositions, colours: colours, views: views, spread: spread, keep: keep,
                                   ownColours: cloud.hasColors, seen: seen, wide: (outside.x | outside.y | outside.z) < 0)
        return PaintResult(points: points, statistics: statistics)
    }

    /// The voxel slots as a cloud of voxel centres, in order of first appearance in the cloud:
    /// observed voxels painted, the others (when kept) in the mean of their points' own colours.
    private func voxelResult(cloud: PaintCloud, keep: Bool, statistics: CloudPainter.Statistics) -> PaintResult {
        let size = voxelSize!
        var own = [SIMD3<Double>](repeating: .zero, count: keep ? cells.count : 0), members = [Int](repeating: 0, count: own.count)
        if keep, let pointColors = cloud.colors {
            for (p, slot) in slotOfPoint.enumerated() where Int(slot) < cells.count && slotObservations[Int(slot)] == 0 {
                own[Int(slot)] += SIMD3<Double>(SRGBTransfer.decode(pointColors[p]))
                members[Int(slot)] += 1
            }
        }
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = [], counts: [UInt32] = [], painted: [Bool] = []
        var spread: [Float]? = moments.isEmpty ? nil : []
        for s in cells.indices {
            let v = slotObservations[s]
            guard v > 0 || keep else { continue }
            positions.append(VoxelKey(packed: cells[s]).center(voxelSize: size))
            counts.append(v)
            if v > 0 {
                let (color, sd) = color(slot: s, observations: v)
                colors.append(color)
                painted.append(true)
                if let sd { spread!.append(sd) }
            } else {
                let mean = members[s] > 0 ? SIMD3<Float>(own[s] / Double(members[s])) : .zero
                colors.append(SceneStore.encode(mean))
                painted.append(cloud.hasColors)
                spread?.append(0)
            }
        }
        return PaintResult(cloud: VoxelCloud(voxelSize: size, origin: cloud.origin, positions: positions, colors: colors, counts: counts),
                           painted: painted, statistics: statistics, colourSD: spread)
    }
}

/// Three 64-bit channels without the padding of `SIMD3<Int64>` (24 bytes, not 32): a slot's sums.
struct PackedSum {
    var x: Int64, y: Int64, z: Int64

    /// Zero in every channel.
    static let zero = PackedSum(.zero)

    /// The channels of `v`.
    @inline(__always) init(_ v: SIMD3<Int64>) { (x, y, z) = (v.x, v.y, v.z) }

    /// The channels as a vector.
    @inline(__always) var simd: SIMD3<Int64> { SIMD3(x, y, z) }

    /// Adds `v` channel-wise, wrapping.
    @inline(__always) mutating func add(_ v: SIMD3<Int64>) {
        x &+= v.x
        y &+= v.y
        z &+= v.z
    }
}
