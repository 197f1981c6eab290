import Foundation

/// The binary data of cloud files: the record layout, the chunks it is encoded in, and the SIMD
/// quantiser of the common little-endian points.
extension PLYWriter {
    /// Streams the binary file to `sink`. Watching for wide colour, it stops at the first chunk
    /// that has one and returns false.
    @discardableResult
    func writeBinary(_ cloud: VoxelCloud, wide: Bool, watchForWide: Bool, to sink: inout FileSink) throws -> Bool {
        try Array(header(cloud, wide: wide).utf8).withUnsafeBytes { try sink.write($0) }
        let layout = BinaryLayout(wide: wide, boxes: geometry == .boxes, bigEndian: encoding == .binaryBigEndian,
                                  positions: positionLayout(cloud))
        let plan = layout.chunks(count: cloud.count)
        let sawWide = Flag()
        do {
            let capacity = PLYWriter.chunkBytes + 16
            try ChunkPipeline.run(count: plan.count, capacity: capacity, produce: { k, buffer in
                let (bytes, wideHere) = layout.encode(plan[k], of: cloud, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
                if watchForWide && wideHere { sawWide.set() }
                return bytes
            }, consume: { bytes in
                if sawWide.isSet { throw WideColorFound() }
                try sink.write(bytes)
            })
        } catch is WideColorFound {
            return false
        }
        return !sawWide.isSet
    }

    /// Thrown inside `writeBinary` to stop the pipeline once a wide colour is seen.
    private struct WideColorFound: Error {}

    /// Whether some channel lies outside 0…1 (or is NaN).
    static func hasWideColor(_ colors: [SIMD3<Float>]) -> Bool {
        colors.withUnsafeBufferPointer { hasWideColor($0, $0.indices) }
    }

    /// Whether some channel of `colors[range]` lies outside 0…1 (or is NaN), branch-free.
    static func hasWideColor(_ colors: UnsafeBufferPointer<SIMD3<Float>>, _ range: Range<Int>) -> Bool {
        var outside = SIMD4<Int32>.zero
        for i in range { outside |= outsideUnitBits(SIMD4(colors[i], 0)) }
        return (outside.x | outside.y | outside.z) < 0
    }

    /// The bit pattern of 1.0, the largest of a channel in 0…1.
    static let oneBits = Float(1).bitPattern

    /// Bytes a chunk of binary output at most. Each chunk is one hand-over between the encoding
    /// thread and the writing one, so fewer, larger chunks pay less of it (measured sizes: see
    /// Benchmarks/README.md, Scene). The pipeline's buffers then take 3 MiB.
    static let chunkBytes = 1 << 20

    /// The binary data of a cloud file: vertex records (15 bytes, 27 with float colours; 8 a
    /// voxel for boxes), then for boxes 6 quads a voxel (17 bytes each), in chunks of whole
    /// voxels of at most `chunkBytes`.
    struct BinaryLayout: Sendable {
        /// One chunk: a range of voxels, as vertex records or as faces.
        struct Chunk: Sendable {
            var faces: Bool
            var voxels: Range<Int>
        }

        let wide: Bool
        let boxes: Bool
        let bigEndian: Bool
        /// How x, y and z are written.
        let positions: PositionLayout

        var record: Int { positions.bytes + 3 + (wide ? 12 : 0) }
        var vertexBytesPerVoxel: Int { (boxes ? 8 : 1) * record }
        static let faceBytesPerVoxel = 6 * 17

        /// Bytes of the data of `n` voxels.
        func dataBytes(count n: Int) -> Int { n * (vertexBytesPerVoxel + (boxes ? Self.faceBytesPerVoxel : 0)) }

        /// The chunks, in file order.
        func chunks(count n: Int) -> [Chunk] {
            var list: [Chunk] = []
            func add(bytesPerVoxel: Int, faces: Bool) {
                let perChunk = max(1, PLYWriter.chunkBytes / bytesPerVoxel)
                for start in stride(from: 0, to: n, by: perChunk) {
                    list.append(Chunk(faces: faces, voxels: start ..< min(n, start + perChunk)))
                }
            }
            add(bytesPerVoxel: vertexBytesPerVoxel, faces: false)
            if boxes { add(bytesPerVoxel: Self.faceBytesPerVoxel, faces: true) }
            return list
        }

        /// Writes `chunk` at the start of `out`, which needs one byte of slack after the chunk's
        /// bytes; returns the chunk's byte count and whether a colour in it is wide.
        func encode(_ chunk: Chunk, of cloud: VoxelCloud, into out: UnsafeMutableRawBufferPointer) -> (bytes: Int, wide: Bool) {
            encode(chunk, positions: cloud.positions, colors: cloud.colors, voxelSize: cloud.voxelSize, into: out)
        }

        /// `encode(_:of:into:)` for voxels at `positions` with `colors` (vertex chunks index
        /// them; face chunks number voxels in the whole file and read neither).
        func encode(_ chunk: Chunk, positions: [SIMD3<Float>], colors: [SIMD3<Float>], voxelSize: Float?,
                    into out: UnsafeMutableRawBufferPointer) -> (bytes: Int, wide: Bool) {
            positions.withUnsafeBufferPointer { positions in
                colors.withUnsafeBufferPointer { colors in
                    let range = chunk.voxels
                    var o = ByteStore(out, bigEndian: bigEndian)
                    if chunk.faces {
                        for i in range {
                            let first = Int32(i * 8)
                            for q in PLYWriter.quads {
                                o.byte(4)
                                o.int32(first + q[0]); o.int32(first + q[1])
                                o.int32(first + q[2]); o.int32(first + q[3])
                            }
                        }
                        return (o.count, false)
                    }
                    if !boxes && !wide && !bigEndian && self.positions == .plain {
                        return (range.count * 15, PLYWriter.littleEndianPoints(positions, colors, range, into: out))
                    }
                    if boxes {
                        let offsets = PLYWriter.corners.map { $0 * (voxelSize ?? 0) }
                        for i in range {
                            for corner in offsets { o.vertex(positions[i] + corner, colors[i], wide: wide, layout: self.positions) }
                        }
                    } else {
                        for i in range { o.vertex(positions[i], colors[i], wide: wide, layout: self.positions) }
                    }
                    return (o.count, PLYWriter.hasWideColor(colors, range))
                }
            }
        }
    }

    /// The common file, little-endian points without float colours: each 15-byte record is
    /// stored as 16 + 4 overlapping bytes, the overlap overwritten by the next record (so `out`
    /// needs one byte of slack after the last). Each position and colour is read as one 16-byte
    /// vector (`SIMD3<Float>` is stored like `SIMD4<Float>`; the padding lane's bytes land only
    /// where the next record, or the slack byte, goes), and the colour is quantised in vector
    /// registers (`quantizedWord`). Returns whether a colour had a channel outside 0…1 (or NaN).
    fileprivate static func littleEndianPoints(_ positions: UnsafeBufferPointer<SIMD3<Float>>, _ colors: UnsafeBufferPointer<SIMD3<Float>>,
                                               _ range: Range<Int>, into out: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(range.lowerBound >= 0 && range.upperBound <= min(positions.count, colors.count))
        precondition(MemoryLayout<SIMD3<Float>>.stride == MemoryLayout<SIMD4<Float>>.stride)
        precondition(range.count * 15 + 1 <= out.count, "points past the end of the output")
        guard !range.isEmpty else { return false }
        var p = UnsafeRawPointer(positions.baseAddress! + range.lowerBound)
        var c = UnsafeRawPointer(colors.baseAddress! + range.lowerBound)
        var o = out.baseAddress!
        var outside = SIMD4<Int32>.zero
        for _ in range {
            o.storeBytes(of: p.load(as: SIMD4<Float>.self), as: SIMD4<Float>.self)
            let colour = c.load(as: SIMD4<Float>.self)
            o.storeBytes(of: quantizedWord(colour), toByteOffset: 12, as: UInt32.self)
            outside |= outsideUnitBits(colour)  // lane 3 (padding) is ignored below
            o += 15
            p += 16
            c += 16
        }
        return (outside.x | outside.y | outside.z) < 0
    }

    /// `quantize` of lanes 0, 1, 2 as the bytes of a word, `r | g << 8 | b << 16` (the top byte
    /// holds lane 3's, whatever it was), with the same result per lane: `⌊v·255 + 0.5⌋`
    /// clamped to 0…255, NaN → 0. Branch-free vector code: the clamp by selects, the floor by
    /// rounding with 2²³ and stepping down where that rounded up.
    @inline(__always)
    static func quantizedWord(_ v: SIMD4<Float>) -> UInt32 {
        var t = v * 255 + 0.5
        t.replace(with: SIMD4<Float>(), where: .!(t .> SIMD4<Float>()))  // below 0, and NaN, → 0
        t.replace(with: SIMD4(repeating: 255), where: t .> SIMD4(repeating: 255))
        let magic = SIMD4<Float>(repeating: 8_388_608)  // 2²³: t + 2²³ holds round(t) in its low bits
        let rounded = t + magic
        var codes = unsafeBitCast(rounded, to: SIMD4<Int32>.self) &- 0x4B00_0000
        codes.replace(with: codes &- 1, where: rounded - magic .> t)
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: codes), to: UInt32.self)
    }

    /// Sign bit set in each lane whose channel is outside 0…1 or NaN (−0 counts as 0), for OR-ing
    /// over many colours (callers look at lanes 0…2 only): as `Int32` the bit patterns of 0…1 are
    /// exactly 0…`oneBits`, so `oneBits − bits` is negative above 1 (and for NaN) and `bits`
    /// itself below 0.
    @inline(__always)
    static func outsideUnitBits(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        let bits = unsafeBitCast(v + SIMD4<Float>(), to: SIMD4<Int32>.self)
        return (Int32(bitPattern: oneBits) &- bits) | bits
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

extension ByteStore {
    /// One cloud vertex record: x y z as `layout` says, the 8-bit colour, then the float colour
    /// when `wide`.
    @inline(__always)
    fileprivate mutating func vertex(_ p: SIMD3<Float>, _ c: SIMD3<Float>, wide: Bool, layout: PLYWriter.PositionLayout) {
        layout.store(p, into: &self)
        byte(PLYWriter.quantize(c.x)); byte(PLYWriter.quantize(c.y)); byte(PLYWriter.quantize(c.z))
        if wide { float(c.x); float(c.y); float(c.z) }
    }
}
