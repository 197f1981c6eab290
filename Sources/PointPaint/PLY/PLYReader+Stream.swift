import Foundation

/// Points of a PLY file, chunk by chunk, so that voxelising a large cloud holds one chunk of it
/// at a time rather than the whole file.
extension PLYReader {
    /// One chunk of a file's points.
    package struct PointChunk {
        /// Where `positions` are measured from (`VoxelCloud.origin`): the same in every chunk.
        package var origin: SIMD3<Double>
        /// Positions, as offsets from `origin`.
        package var positions: [SIMD3<Float>]
        /// The colours' 8-bit codes, when the file's colour channels are `uchar` (one a point).
        package var codes: [SIMD3<UInt8>]?
        /// Otherwise the colours scaled to 0…1 as `PLYFile.cloud(file:)` gives them (white when
        /// the file has none).
        package var colors: [SIMD3<Float>]?
    }

    /// Calls `body` with the points of the PLY file at `path`, in file order, in chunks of at
    /// most `chunkPoints`; returns the number of points.
    ///
    /// Binary files of fixed-size records without faces (the rule `PLYCloudLayout` states, the
    /// same as `readCloud(path:)`'s; what scanners, Open3D and PointPaint write) are read with
    /// `pread` one chunk at a time, so memory holds one chunk, when their header fits in the
    /// first 16 MiB; any other file (ascii, lists, boxes, damage: the full parse says what is
    /// wrong) is read whole and given as one chunk, exactly as `PLYReader.read(path:)` and
    /// `PLYFile.cloud(file:)` read it. Either way colours are 8-bit codes when all three
    /// channels are `uchar` (`PLYCloudLayout.codes(_:)`), else 0…1 values.
    ///
    /// - Complexity: O(file size); memory O(`chunkPoints`) on the streaming path.
    package static func forEachPointChunk(path: String, chunkPoints: Int = 1 << 18, _ body: (PointChunk) throws -> Void) throws -> Int {
        precondition(chunkPoints > 0, "chunks of no points")
        if let count = try streamPoints(path: path, chunkPoints: chunkPoints, body) { return count }
        let ply = try read(path: path)
        let cloud = try ply.cloud(file: path)
        if let c = ply.vertexColorProperties, PLYCloudLayout.codes([c.red, c.green, c.blue].map(\.values.scalarType)),
           case .uint8(let r) = c.red.values, case .uint8(let g) = c.green.values, case .uint8(let b) = c.blue.values,
           r.count == cloud.count {
            try body(PointChunk(origin: cloud.origin, positions: cloud.positions, codes: (0 ..< r.count).map { SIMD3(r[$0], g[$0], b[$0]) },
                                colors: nil))
        } else {
            try body(PointChunk(origin: cloud.origin, positions: cloud.positions, codes: nil, colors: cloud.colors))
        }
        return cloud.count
    }

    /// The streaming path, or nil when the file is not of the kind it reads.
    private static func streamPoints(path: String, chunkPoints: Int, _ body: (PointChunk) throws -> Void) throws -> Int? {
        let (fd, size) = try FileBytes.openRegular(path, expected: "a PLY file")
        defer { close(fd) }
        // The header: the first 64 KiB, or more when it is longer (up to 16 MiB).
        var prefix: [UInt8] = []
        var limit = 1 << 16
        while true {
            let want = min(size, limit)
            prefix = [UInt8](repeating: 0, count: want)
            guard try preadAll(fd, into: &prefix, at: 0, file: path) == want else { return nil }
            if containsEndHeader(prefix) || want == size || limit >= 1 << 24 { break }
            limit *= 4
        }
        guard let (header, dataOffset) = try? readHeader(bytes: prefix, file: path) else { return nil }
        guard let layout = PLYCloudLayout(header, dataBytes: size - dataOffset) else { return nil }
        let start = dataOffset + layout.start, stride = layout.stride
        let n = layout.count
        var buffer = [UInt8](repeating: 0, count: min(n, chunkPoints) * stride)
        /// Calls `each` with the records of every chunk in turn.
        func forEachChunk(_ each: (ByteCursor.Records) throws -> Void) throws {
            var done = 0
            while done < n {
                let m = min(chunkPoints, n - done)
                let bytes = m * stride
                guard try preadAll(fd, into: &buffer, count: bytes, at: start + done * stride, file: path) == bytes else {
                    throw PointPaintError(.malformed, file: path, place: .byteOffset(start + done * stride),
                                          "expected \(bytes) bytes of vertices, found the end of the file (it shrank while being read)")
                }
                try buffer.withUnsafeBytes { raw in
                    try each(ByteCursor(UnsafeRawBufferPointer(rebasing: raw[..<bytes])).records(stride: stride, count: m))
                }
                done += m
            }
        }
        // A first pass finds the bounds, and so the origin every chunk's offsets are taken from.
        var bounds: WorldBounds?
        try forEachChunk { records in
            bounds = WorldBounds.union(bounds, layout.worldBounds(records))
        }
        let origin = try bounds?.origin(file: path) ?? .zero
        try forEachChunk { records in
            let positions = layout.positions(records, origin: origin)
            if let codes = layout.codes(records) {
                try body(PointChunk(origin: origin, positions: positions, codes: codes, colors: nil))
            } else {
                try body(PointChunk(origin: origin, positions: positions, codes: nil, colors: layout.colors(records)))
            }
        }
        return n
    }

    /// Whether `bytes` hold a line `end_header`.
    private static func containsEndHeader(_ bytes: [UInt8]) -> Bool {
        let word = Array("end_header".utf8)
        guard bytes.count >= word.count else { return false }
        for i in 0 ... bytes.count - word.count where bytes[i] == word[0] {
            if bytes[i ..< i + word.count].elementsEqual(word), i + word.count < bytes.count,
               bytes[i + word.count] == 0x0A || bytes[i + word.count] == 0x0D { return true }
        }
        return false
    }

    /// Reads `count` bytes (all of `buffer` by default) at `offset`; returns how many were there.
    private static func preadAll(_ fd: Int32, into buffer: inout [UInt8], count: Int? = nil, at offset: Int, file: String) throws -> Int {
        let want = count ?? buffer.count
        return try buffer.withUnsafeMutableBytes { out in
            var done = 0
            while done < want {
                let n = pread(fd, out.baseAddress! + done, want - done, off_t(offset + done))
                if n < 0, errno == EINTR { continue }
                guard n >= 0 else { throw PointPaintError.system("read failed at byte \(offset + done)", file: file) }
                if n == 0 { break }
                done += n
            }
            return done
        }
    }
}
