/// The `.ppstore` format, versions 1 to 3: a store's exact voxels in Morton order, in
/// checksummed chunks, with an index of the chunks at the end. All numbers are little-endian.
/// Version 2 differs only where it says so: its records may be longer (`StoreContents`).
/// Version 3 is version 2 with the grid's origin (`SceneStore.origin`); it is written only for
/// a store whose origin is not zero, so stores near the world origin keep their bytes.
///
/// ```
/// header   0  8  magic 89 50 50 53 0D 0A 1A 0A ("\x89PPS\r\n\x1A\n": a text-mode copy breaks it)
///          8  u32 version (1, or 2)      12 u32 header bytes (128 + strings + 4)
///         16  f32 voxel size             20 u8 policy (0 mean, 1 latest, 2 first)
///         21  u8 colour space (0)        22 u8 provenance kind (0 points, 1 replay)
///         23  u8 contents: 0 in version 1; in version 2 bit 0 weights, bit 1 spread (mean only)
///         24  u64 voxels                 32 u64 samples (the sum of the voxels' counts)
///         40  u64 refused samples        48 u64 frames replayed
///         56  u64 chunks                 64 u64 byte offset of the index
///         72  i32 × 3 smallest cell      84 i32 × 3 greatest cell (zeros when empty)
///         96  u32 chunk capacity (voxels a chunk at most, 1 … 65536)
///        100  u32 source length          104 u32 grade length (0xFFFFFFFF: none; each ≤ 64 KiB)
///        108  version 3: i32 × 3 origin in whole metres, then 8 zero bytes; before: 20 zero bytes
///        128  source (UTF-8), grade (UTF-8), then u32 CRC-32C of every header byte before it
/// chunk    0  "PPCK"   4 u32 voxels n (1 … capacity)   8 u64 first code   16 u64 last code
///         24  u32 CRC-32C of the payload                28 u32 CRC-32C of bytes 0 ..< 28
///         32  payload: n records of 44 bytes: u64 Morton code, i64 r, i64 g, i64 b,
///             u32 count, u32 first frame, u32 last frame (`StoredVoxel`); in version 2 then
///             u64 Σ w (weights), then i64 Σ w·r², Σ w·g², Σ w·b² (spread): 52, 68 or 76 bytes
/// index    0  "PPIX"   4 u32 samples a chunk S (32)   8 u64 chunks
///         16  per chunk 32 + 8S bytes: u64 offset, u64 first code, u64 last code, u32 voxels, u32 0,
///             then S u64 sample codes: the code of the chunk's voxel ⌊j · voxels / S⌋, j = 0 … S−1
///        end  u32 CRC-32C of the index before it; the file ends here
/// ```
///
/// Codes increase strictly through the file. The writer fills in the counts, bounds and index
/// offset once the last chunk is written (the header's size depends only on its strings), so a
/// store streams out without knowing its size; the index lets a reader find a region's chunks,
/// and its sample codes (exact quantiles of each chunk) let a merge split its work into regions
/// of about equal size without reading any voxel (`StoreRegions`).
enum StoreFileFormat {
    /// The file's first 8 bytes.
    static let magic: [UInt8] = [0x89, 0x50, 0x50, 0x53, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The newest version this build reads (it writes version 1 for plain stores, 2 for others:
    /// `StoreContents.formatVersion`; 3 when the origin is not zero).
    static let version: UInt32 = 3
    /// Bytes of the header before its strings.
    static let fixedHeaderBytes = 128
    /// Bytes of a chunk's header.
    static let chunkHeaderBytes = 32
    /// Bytes of one plain voxel record (version 1; `StoreContents.recordBytes` in general).
    static let recordBytes = 44
    /// Bytes of the index before its entries, and of one entry before its sample codes.
    static let indexHeaderBytes = 16, indexEntryBytes = 32
    /// Sample codes an index entry holds (written), and the most a reader accepts.
    static let samplesPerChunk = 32, maxSamplesPerChunk = 64
    /// `"PPCK"` and `"PPIX"` as little-endian words.
    static let chunkMagic: UInt32 = 0x4B43_5050, indexMagic: UInt32 = 0x5849_5050
    /// A string's length when it is absent.
    static let absent: UInt32 = 0xFFFF_FFFF
    /// The longest source or grade string.
    static let maxStringBytes = 1 << 16
    /// The most voxels a chunk may hold.
    static let maxChunkCapacity = 1 << 16
    /// Voxels a chunk written by this build holds at most (352 KiB of records).
    static let chunkCapacity = 8192

    /// The policy's number in the file.
    static func code(_ policy: AccumulationPolicy) -> UInt8 {
        switch policy {
        case .mean: 0
        case .latest: 1
        case .first: 2
        }
    }

    /// The policy of a number in the file.
    static func policy(_ code: UInt8) -> AccumulationPolicy? {
        switch code {
        case 0: .mean
        case 1: .latest
        case 2: .first
        default: nil
        }
    }

    /// One entry of the index: where a chunk starts and which codes it holds.
    struct IndexEntry: Sendable, Equatable {
        /// Byte offset of the chunk's header.
        var offset: Int
        /// Its first and last voxel's codes.
        var firstCode: UInt64, lastCode: UInt64
        /// Its voxel count.
        var count: Int
        /// The codes of its voxels ⌊j · count / S⌋ for j = 0 … S−1.
        var samples: [UInt64]

        /// The positions in a chunk of `count` voxels whose codes are its `s` samples.
        static func samplePositions(count: Int, samples s: Int) -> [Int] {
            (0 ..< s).map { $0 * count / s }
        }

        /// Bytes of the chunk, header and payload, with records of `recordBytes`.
        func bytes(recordBytes: Int) -> Int { StoreFileFormat.chunkHeaderBytes + count * recordBytes }
    }

    /// Everything the header holds besides the magic and version.
    struct Header: Equatable {
        var info: StoreInfo
        var chunkCount: Int
        var indexOffset: Int
        var chunkCapacity: Int

        /// Bytes of the header with its strings and checksum.
        var byteCount: Int {
            StoreFileFormat.fixedHeaderBytes + (info.provenance.source?.utf8.count ?? 0) + (info.provenance.grade?.utf8.count ?? 0) + 4
        }

        /// The header's bytes, checksum included.
        func encoded() -> [UInt8] {
            var out = LittleEndianBytes()
            out.append(StoreFileFormat.magic)
            out.u32(info.origin == .zero ? info.contents.formatVersion : 3)
            out.u32(UInt32(byteCount))
            out.u32(info.voxelSize.bitPattern)
            out.u8(StoreFileFormat.code(info.policy))
            out.u8(info.colorSpace.rawValue)
            out.u8(info.provenance.kind.rawValue)
            out.u8(info.contents.rawValue)
            for n in [info.voxelCount, info.sampleCount, info.rejectedCount, info.provenance.frameCount, chunkCount, indexOffset] {
                out.u64(UInt64(n))
            }
            let bounds = info.keyBounds ?? StoreInfo.KeyBounds(min: .zero, max: .zero)
            for v in [bounds.min, bounds.max] { for i in 0 ..< 3 { out.u32(UInt32(bitPattern: v[i])) } }
            out.u32(UInt32(chunkCapacity))
            let source = info.provenance.source.map { Array($0.utf8) }, grade = info.provenance.grade.map { Array($0.utf8) }
            out.u32(source.map { UInt32($0.count) } ?? StoreFileFormat.absent)
            out.u32(grade.map { UInt32($0.count) } ?? StoreFileFormat.absent)
            if info.origin == .zero {
                out.append([UInt8](repeating: 0, count: 20))
            } else {
                for i in 0 ..< 3 { out.u32(UInt32(bitPattern: Int32(info.origin[i]))) }
                out.append([UInt8](repeating: 0, count: 8))
            }
            assert(out.bytes.count == StoreFileFormat.fixedHeaderBytes)
            out.append(source ?? [])
            out.append(grade ?? [])
            out.u32(out.bytes.withUnsafeBytes { CRC32C.checksum($0) })
            assert(out.bytes.count == byteCount)
            return out.bytes
        }

        /// Reads and checks a header from `fixed` (its first 128 bytes), calling `read` for the
        /// strings and checksum that follow; `fileSize` bounds every size it declares.
        static func decode(fixed: [UInt8], fileSize: Int, file: String, read: (_ offset: Int, _ count: Int) throws -> [UInt8]) throws -> Header {
            func fail(_ kind: PointPaintError.Kind, _ message: String) -> PointPaintError {
                PointPaintError(kind, file: file, place: .part("header"), message)
            }
            guard fixed.count == StoreFileFormat.fixedHeaderBytes else {
                throw PointPaintError(.malformed, file: file, place: .byteOffset(fileSize),
                                      "expected a store header of \(StoreFileFormat.fixedHeaderBytes) bytes, found the end of the file after \(fileSize): the file is truncated")
            }
            guard fixed.starts(with: StoreFileFormat.magic) else {
                throw fail(.malformed, "expected a PointPaint store (magic \\x89PPS\\r\\n\\x1A\\n), found \(PointPaintError.quote(bytes: fixed.prefix(8)))")
            }
            let r = LittleEndianReader(bytes: fixed)
            let version = r.u32(8)
            guard version <= StoreFileFormat.version else {
                throw fail(.unsupported, "store format version \(version) is newer than this build reads (\(StoreFileFormat.version)): update pointpaint")
            }
            guard version >= 1 else { throw fail(.malformed, "expected store format version 1, found 0") }
            let declared = Int(r.u32(12))
            let sourceLength = r.u32(100), gradeLength = r.u32(104)
            for (name, length) in [("source", sourceLength), ("grade", gradeLength)] where length != StoreFileFormat.absent {
                guard length <= StoreFileFormat.maxStringBytes else {
                    throw fail(.tooLarge, "expected a \(name) of at most \(StoreFileFormat.maxStringBytes) bytes, found \(length)")
                }
            }
            func length(_ v: UInt32) -> Int { v == StoreFileFormat.absent ? 0 : Int(v) }
            let expected = StoreFileFormat.fixedHeaderBytes + length(sourceLength) + length(gradeLength) + 4
            guard declared == expected else {
                throw fail(.malformed, "expected a header of \(expected) bytes (its strings' lengths say so), found \(declared) declared")
            }
            guard expected <= fileSize else {
                throw PointPaintError(.malformed, file: file, place: .byteOffset(fileSize),
                                      "expected a header of \(expected) bytes, found the end of the file after \(fileSize): the file is truncated")
            }
            let rest = try read(StoreFileFormat.fixedHeaderBytes, expected - StoreFileFormat.fixedHeaderBytes)
            let whole = fixed + rest
            let stored = LittleEndianReader(bytes: whole).u32(expected - 4)
            let computed = whole.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[..<(expected - 4)])) }
            guard stored == computed else {
                throw fail(.malformed, "header checksum mismatch (stored \(hex(stored)), computed \(hex(computed))): the file is damaged")
            }
            let size = Float(bitPattern: r.u32(16))
            guard size > 0, size.isFinite else { throw fail(.outOfRange, "expected a positive finite voxel size, found \(size)") }
            guard let policy = StoreFileFormat.policy(r.u8(20)) else { throw fail(.unsupported, "unknown accumulation policy \(r.u8(20))") }
            guard let space = StoreColorSpace(rawValue: r.u8(21)) else { throw fail(.unsupported, "unknown colour space \(r.u8(21))") }
            guard let kind = StoreProvenance.Kind(rawValue: r.u8(22)) else { throw fail(.unsupported, "unknown provenance kind \(r.u8(22))") }
            // Version 1 wrote 0 here; version 2 says what the records keep.
            let contents = version >= 2 ? StoreContents(rawValue: r.u8(23)) : []
            guard StoreContents.known.isSuperset(of: contents) else {
                throw fail(.unsupported, "unknown voxel contents flags \(r.u8(23)) (this build knows weights 1 and spread 2)")
            }
            guard contents.isEmpty || policy == .mean else {
                throw fail(.malformed, "expected weight sums or squares only with 'mean' accumulation, found them with '\(policy.rawValue)'")
            }
            var numbers: [Int] = []
            for (k, name) in ["voxel count", "sample count", "refused count", "frame count", "chunk count", "index offset"].enumerated() {
                let v = r.u64(24 + 8 * k)
                guard v <= UInt64(Int.max) else { throw fail(.outOfRange, "\(name) \(v) is beyond any file") }
                numbers.append(Int(v))
            }
            let capacity = Int(r.u32(96))
            guard (1 ... StoreFileFormat.maxChunkCapacity).contains(capacity) else {
                throw fail(.outOfRange, "expected a chunk capacity of 1 to \(StoreFileFormat.maxChunkCapacity) voxels, found \(capacity)")
            }
            func cell(_ offset: Int) -> SIMD3<Int32> {
                SIMD3(Int32(bitPattern: r.u32(offset)), Int32(bitPattern: r.u32(offset + 4)), Int32(bitPattern: r.u32(offset + 8)))
            }
            var bounds: StoreInfo.KeyBounds?
            if numbers[0] > 0 {
                let lo = cell(72), hi = cell(84)
                let range = VoxelKey.range
                guard all(lo .<= hi), [lo, hi].allSatisfy({ v in (0 ..< 3).allSatisfy { range.contains(v[$0]) } }) else {
                    throw fail(.outOfRange, "expected cell bounds within ±2^20 with min ≤ max, found \(PointPaintError.tuple(lo)) … \(PointPaintError.tuple(hi))")
                }
                bounds = StoreInfo.KeyBounds(min: lo, max: hi)
            }
            func string(_ offset: Int, _ length: UInt32) -> String? {
                length == StoreFileFormat.absent ? nil : String(decoding: whole[offset ..< offset + Int(length)], as: UTF8.self)
            }
            let base = StoreFileFormat.fixedHeaderBytes
            let provenance = StoreProvenance(kind: kind, source: string(base, sourceLength),
                                             grade: string(base + length(sourceLength), gradeLength), frameCount: numbers[3])
            // Versions 1 and 2 have no origin: their grids start at the world origin.
            let origin = version >= 3 ? SIMD3<Double>(cell(108)) : .zero
            let info = StoreInfo(voxelSize: size, policy: policy, colorSpace: space, provenance: provenance, voxelCount: numbers[0],
                                 sampleCount: numbers[1], rejectedCount: numbers[2], keyBounds: bounds, contents: contents,
                                 origin: origin)
            return Header(info: info, chunkCount: numbers[4], indexOffset: numbers[5], chunkCapacity: capacity)
        }
    }

    /// A checksum as it appears in messages: `0x1A2B3C4D`.
    static func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// Little-endian numbers appended to a byte array.
struct LittleEndianBytes {
    var bytes: [UInt8] = []

    mutating func append(_ b: [UInt8]) { bytes += b }
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
}

/// Little-endian numbers read from a byte array at offsets the caller has checked.
struct LittleEndianReader {
    let bytes: [UInt8]

    func u8(_ offset: Int) -> UInt8 { bytes[offset] }
    func u32(_ offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset + 4 <= bytes.count, "reading past the bytes")
        return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }
    func u64(_ offset: Int) -> UInt64 {
        precondition(offset >= 0 && offset + 8 <= bytes.count, "reading past the bytes")
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
}
