extension CaptureReplay {
    /// Solves per-frame exposure gains (`ExposureGains`) for this replay: one pass over its
    /// frames, sampling them as `run` does, where the shared points are voxels of `voxelSize`
    /// (an even subset of them, chosen by key) and each frame's observation of a voxel is the
    /// mean of its samples there. Set the result as `Options.gains` of the replay that follows.
    /// - Throws: frame loading errors.
    /// - Complexity: O(samples) for the pass, plus the solve over at most
    ///   `ExposureGains.maximumPoints`-ish voxels.
    public func solveExposure(voxelSize: Float) throws -> ExposureGains {
        var point: [Int] = [], frame: [Int] = [], colors: [SIMD3<Float>] = []
        // Voxels kept: those whose key hashes below a share that the first frames' counts set.
        var share: UInt64?
        let sequence = source.frames(frameIndices, threads: frameThreads)
        while let loaded = try sequence.next() {
            var sums: [Int64: (SIMD3<Float>, Float)] = [:]
            // A large depth map a band at a time, as `run` samples it; the share is set from the
            // first band's points times the bands (the frame's points, for a frame of one band).
            let pieces = pieces(of: loaded)
            for rows in pieces {
                let samples = samples(of: loaded, rows: rows)
                for (p, c) in zip(samples.positions, samples.colors) {
                    guard let key = VoxelKey.packedCell(p, voxelSize: voxelSize) else { continue }
                    let hash = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
                    if share == nil {
                        let points = samples.positions.count * pieces.count
                        share = UInt64.max / UInt64(max(1, points * frameIndices.count / (4 * ExposureGains.maximumPoints) + 1))
                    }
                    guard hash <= share! else { continue }
                    let s = sums[key, default: (.zero, 0)]
                    sums[key] = (s.0 + c, s.1 + 1)
                }
            }
            for (key, (sum, n)) in sums.sorted(by: { $0.key < $1.key }) {
                point.append(Int(key))
                frame.append(loaded.index)
                colors.append(sum / n)
            }
        }
        return ExposureGains.solve(frames: frameIndices, point: point, frame: frame, colors: colors)
    }
}
