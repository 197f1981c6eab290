/// Clouds written straight from exact voxels in Morton order (a store in memory, a store file, a
/// merge), chunk by chunk, so no cloud-sized buffer is built.
///
/// The bytes are those `write(_:to:)` gives for the same cloud (`VoxelChunkSource.readCloud()`):
/// the header depends only on the count, the voxel size and whether float colours are written,
/// and each vertex record only on its own voxel; faces only on the voxel's index.
extension PLYWriter {
    /// Writes the voxels of `source`, in its order, to `path` atomically. The writer's `source`
    /// and `comments` go into the header as `write(_:to:)` puts them.
    ///
    /// - Complexity: O(voxels), one chunk of the source in memory at a time. With `.auto` float
    ///   colours the file is first written without them while each chunk is checked; only a
    ///   source with a wide colour is read and written again, with them.
    package func write(_ source: some VoxelChunkSource, to path: String) throws {
        let info = source.info
        if geometry == .boxes { try PLYWriter.checkBoxCount(info.voxelCount, file: path) }
        try AtomicFile.write(to: path) { temporary in
            var sink = try FileSink(creating: temporary, file: path)
            switch wideColor {
            case .auto:
                if try !writeStream(source, wide: false, watchForWide: true, file: path, to: &sink) {
                    try sink.rewind()
                    try writeStream(source, wide: true, watchForWide: false, file: path, to: &sink)
                }
            case .always, .never:
                try writeStream(source, wide: wideColor == .always, watchForWide: false, file: path, to: &sink)
            }
            try sink.finish()
        }
    }

    /// Streams the file to `sink`. Watching for wide colour, it stops at the first chunk that
    /// has one and returns false.
    @discardableResult
    private func writeStream(_ source: some VoxelChunkSource, wide: Bool, watchForWide: Bool, file: String,
                             to sink: inout FileSink) throws -> Bool {
        let info = source.info
        let n = info.voxelCount
        let boxes = geometry == .boxes
        let positions = positionLayout(origin: info.origin, bounds: info.keyBounds?.centers(voxelSize: info.voxelSize),
                                       voxelSize: info.voxelSize)
        try Array(header(count: n, voxelSize: info.voxelSize, wide: wide, positions: positions).utf8).withUnsafeBytes { try sink.write($0) }
        try source.rewind()
        let layout = BinaryLayout(wide: wide, boxes: boxes, bigEndian: encoding == .binaryBigEndian, positions: positions)
        var chunk = CloudChunk()
        var buffer: [UInt8] = []
        var written = 0
        while let voxels = try source.nextChunk() {
            chunk.fill(from: voxels, voxelSize: info.voxelSize, policy: info.policy)
            if watchForWide && PLYWriter.hasWideColor(chunk.colors) { return false }
            if encoding == .ascii {
                buffer.removeAll(keepingCapacity: true)
                PLYWriter.asciiVertices(positions: chunk.positions, colors: chunk.colors, voxelSize: info.voxelSize, wide: wide,
                                        boxes: boxes, layout: positions, into: &buffer)
                try buffer.withUnsafeBytes { try sink.write($0) }
            } else {
                let needed = voxels.count * layout.vertexBytesPerVoxel + 16
                if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
                try buffer.withUnsafeMutableBytes { out in
                    let bytes = layout.encode(BinaryLayout.Chunk(faces: false, voxels: 0 ..< voxels.count), positions: chunk.positions,
                                              colors: chunk.colors, voxelSize: info.voxelSize, into: out).bytes
                    try sink.write(UnsafeRawBufferPointer(rebasing: out[..<bytes]))
                }
            }
            written += voxels.count
        }
        guard written == n else {
            throw PointPaintError(.malformed, file: file, "expected \(n) voxels from the store, found \(written)")
        }
        if boxes { try writeFaces(count: n, layout: layout, to: &sink) }
        return true
    }

    /// The faces of `n` boxes, in chunks.
    private func writeFaces(count n: Int, layout: BinaryLayout, to sink: inout FileSink) throws {
        var buffer: [UInt8] = []
        if encoding == .ascii {
            for start in stride(from: 0, to: n, by: 1 << 14) {
                buffer.removeAll(keepingCapacity: true)
                PLYWriter.asciiFaces(voxels: start ..< min(n, start + (1 << 14)), into: &buffer)
                try buffer.withUnsafeBytes { try sink.write($0) }
            }
            return
        }
        buffer = [UInt8](repeating: 0, count: PLYWriter.chunkBytes + 16)
        for chunk in layout.chunks(count: n) where chunk.faces {
            try buffer.withUnsafeMutableBytes { out in
                let bytes = layout.encode(chunk, positions: [], colors: [], voxelSize: nil, into: out).bytes
                try sink.write(UnsafeRawBufferPointer(rebasing: out[..<bytes]))
            }
        }
    }
}
