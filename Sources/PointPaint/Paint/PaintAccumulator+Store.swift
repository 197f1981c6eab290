/// Paint's weighted voxels as exact store voxels (format version 2): what `-o OUT.ppstore` writes
/// when the voxels' observations are weighted or their spread is kept.
extension PaintAccumulator {
    /// What a store of the voxel slots keeps, or nil when they cannot be a store: per point, or
    /// any accumulation but `mean` (`best` keeps one observation's fixed-point colour, which no
    /// store policy holds; `latest` and `first` go to a `SceneStore` unless the spread is kept).
    /// Σ w when the observations came weighted (`weightSums` exist), Σ w·c² when the spread is kept.
    var slotStoreContents: StoreContents? {
        guard !slotOfPoint.isEmpty, accumulation == .mean else { return nil }
        var contents: StoreContents = []
        if !weightSums.isEmpty { contents.insert(.weights) }
        if !moments.isEmpty { contents.insert(.spread) }
        return contents
    }

    /// The voxel slots as store voxels in Morton order: the observed ones with their sums (Σ w·c,
    /// Σ w and Σ w·c² as `contents` keeps), and, when `keepUnseen`, each voxel only unseen points
    /// reach with their own colours as samples of weight 1 (black when the cloud has none), as the
    /// plain store path keeps them.
    /// - Complexity: O(points + voxels log voxels).
    func slotVoxels(cloud: PaintCloud, contents: StoreContents, keepUnseen: Bool) -> [StoredVoxel] {
        let weights = contents.contains(.weights), spread = contents.contains(.spread)
        var voxels: [StoredVoxel] = []
        voxels.reserveCapacity(cells.count)
        for s in cells.indices where slotObservations[s] > 0 {
            let c = sums[s], frames = slotFrames[s]
            var v = StoredVoxel(code: VoxelKey.mortonCode(packed: cells[s]), r: c.x, g: c.y, b: c.z, count: slotObservations[s],
                                first: frames.x, last: frames.y)
            if weights { v.weight = weightSums[s] }
            if spread { (v.r2, v.g2, v.b2) = (squares[s].x, squares[s].y, squares[s].z) }
            voxels.append(v)
        }
        if keepUnseen {
            var unseen: [Int: StoredVoxel] = [:]
            for (p, slot) in slotOfPoint.enumerated() where Int(slot) < cells.count && slotObservations[Int(slot)] == 0 {
                let color = SRGBTransfer.decode(cloud.colors?[p] ?? .zero)
                let c = FixedPointColor.rounded(color), c2 = FixedPointColor.roundedSquare(color)
                var v = unseen[Int(slot)] ?? StoredVoxel(code: VoxelKey.mortonCode(packed: cells[Int(slot)]), r: 0, g: 0, b: 0,
                                                         count: 0, first: 0, last: 0)
                v.r &+= c.x
                v.g &+= c.y
                v.b &+= c.z
                v.count += 1
                if weights { v.weight += 1 }
                if spread {
                    v.r2 &+= c2.x
                    v.g2 &+= c2.y
                    v.b2 &+= c2.z
                }
                unseen[Int(slot)] = v
            }
            voxels += unseen.values
        }
        voxels.sort { $0.code < $1.code }
        return voxels
    }
}
