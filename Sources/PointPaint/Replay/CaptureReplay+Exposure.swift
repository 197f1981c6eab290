extension CaptureReplay {
    /// Solves per-frame exposure gains (`ExposureGains`) for this replay: one pass over its
    /// frames, sampling them in parallel as `run` does, where the shared points are voxels of `voxelSize`
    /// (an even subset of them, chosen by key) and each frame's observation of a voxel is the
    /// mean of its samples there. Set the result as `Options.gains` of the replay that follows.
    /// - Throws: frame loading errors.
    /// - Complexity: O(samples) for the pass, plus the solve over at most
    ///   `ExposureGains.maximumPoints`-ish voxels.
    public func solveExposure(voxelSize: Float) throws -> ExposureGains {
        var point: [Int] = [], frame: [Int] = [], colors: [SIMD3<Float>] = []
        // Voxels kept: those whose key hashes below a share that the first frames' counts set.
        var share: UInt64?
        // The frame whose observations are being summed, and its sums.
        var current: (index: Int, pieces: Int)?
        var sums: [Int64: (SIMD3<Float>, Float)] = [:]
        func flush() {
            guard let frameIndex = current?.index else { return }
            for (key, (sum, n)) in sums.sorted(by: { $0.key < $1.key }) {
                point.append(Int(key))
                frame.append(frameIndex)
                colors.append(sum / n)
            }
            sums = [:]
        }
        // Frames are sampled in parallel as `run` samples them (a large depth map a band at a
        // time) and summed here in order. The share is set from the first band's points times
        // the frame's bands (the frame's points, for a frame of one band).
        let replay = self
        try pass.run(pieces: { frame in
            let pieces = replay.pieces(of: frame)
            return pieces.map { (rows: $0, count: pieces.count) }
        }, transform: { frame, piece in
            (replay.samples(of: frame, rows: piece.rows), piece.count)
        }, body: { samples, pieceCount in
            if current?.index != samples.frame {
                flush()
                current = (samples.frame, pieceCount)
            }
            for (p, c) in zip(samples.positions, samples.colors) {
                guard let key = VoxelKey.packedCell(p, voxelSize: voxelSize) else { continue }
                let hash = SceneStore.hash(key)
                if share == nil {
                    let points = samples.positions.count * pieceCount
                    share = UInt64.max / UInt64(max(1, points * frameIndices.count / (4 * ExposureGains.maximumPoints) + 1))
                }
                guard hash <= share! else { continue }
                let s = sums[key, default: (.zero, 0)]
                sums[key] = (s.0 + c, s.1 + 1)
            }
            return true
        })
        flush()
        return ExposureGains.solve(frames: frameIndices, point: point, frame: frame, colors: colors)
    }
}
