import Foundation

/// Reads a `.ppstore` file chunk by chunk (`StoreFile+Format.swift`): one chunk in memory at a
/// time, never the whole file.
///
/// Opening reads and checks the header and the index: magic, version (a newer one is refused
/// as `.unsupported`), checksums, and every size against the file's, before anything they
/// declare is allocated. Each chunk is checked as it is read: its checksums, its place in the
/// index, and every voxel (codes strictly increasing, counts at least 1, frames in order, sums a
/// count of samples can reach, colour bits where `latest` / `first` keep them, cells inside the
/// header's bounds); a pass over the whole file also checks the voxel and sample counts.
/// Every failure is one `PointPaintError` naming the file and the place: `header`, `index`,
/// `chunk K`, `voxel N` (from 0, in file order), or the byte offset where the file ends early.
public final class StoreFileReader: VoxelChunkSource {
    /// The file as named in errors.
    public let path: String
    /// The header.
    public let info: StoreInfo
    /// The chunks, in file order.
    let chunks: [StoreFileFormat.IndexEntry]

    private let fd: Int32
    private let fileSize: Int
    private let raw: UnsafeMutableRawPointer
    private let voxels: UnsafeMutablePointer<StoredVoxel>
    private let capacity: Int
    /// The next chunk to read, and the voxel index of its first voxel.
    private var next = 0
    private var voxelIndex = 0
    private var samplesSeen = 0
    private var previousCode: UInt64?
    /// Whether this pass started at the first chunk (so the totals can be checked at its end).
    private var wholePass = true
    private var stopCode: UInt64 = .max

    /// Opens the store file at `path` and checks its header and index.
    ///
    /// - Complexity: O(chunks): two reads for the header, one for the index.
    public init(path: String) throws {
        self.path = path
        let (fd, size) = try FileBytes.openRegular(path, expected: "a store file")
        self.fd = fd
        fileSize = size
        var opened = false
        defer { if !opened { close(fd) } }
        func read(_ offset: Int, _ count: Int) throws -> [UInt8] {
            try StoreFileReader.read(fd: fd, offset: offset, count: count, fileSize: size, file: path)
        }
        let fixed = try read(0, min(size, StoreFileFormat.fixedHeaderBytes))
        let header = try StoreFileFormat.Header.decode(fixed: fixed, fileSize: size, file: path, read: read)
        info = header.info
        capacity = header.chunkCapacity
        chunks = try StoreFileReader.readIndex(header, headerBytes: header.byteCount, fileSize: size, file: path, read: read)
        raw = .allocate(byteCount: StoreFileFormat.chunkHeaderBytes + capacity * info.contents.recordBytes, alignment: 16)
        voxels = .allocate(capacity: capacity)
        opened = true
    }

    deinit {
        close(fd)
        raw.deallocate()
        voxels.deallocate()
    }

    /// The smallest and greatest Morton code in the file, or nil when it is empty.
    package var codeRange: ClosedRange<UInt64>? {
        guard let first = chunks.first, let last = chunks.last else { return nil }
        return first.firstCode ... last.lastCode
    }

    /// The index's sample codes of every chunk, each with the number of voxels from it to the
    /// next sample (the chunk's voxels, in exact quantiles).
    package var codeSamples: [(code: UInt64, weight: Int)] {
        chunks.flatMap { e in
            let positions = StoreFileFormat.IndexEntry.samplePositions(count: e.count, samples: e.samples.count)
            return e.samples.indices.map { j in (e.samples[j], (j + 1 < positions.count ? positions[j + 1] : e.count) - positions[j]) }
        }
    }

    /// Bytes of the file.
    public var byteCount: Int { fileSize }

    /// Number of chunks.
    public var chunkCount: Int { chunks.count }

    // MARK: reading

    package func rewind() throws {
        next = 0
        voxelIndex = 0
        samplesSeen = 0
        previousCode = nil
        wholePass = true
        stopCode = .max
        regionStart = 0
    }

    /// Positions the reader at the first chunk that may hold a code in `codes`; `nextChunk` then
    /// gives only voxels whose codes lie in `codes`.
    package func seek(to codes: Range<UInt64>) {
        var low = 0, high = chunks.count
        while low < high {
            let mid = (low + high) / 2
            if chunks[mid].lastCode < codes.lowerBound { low = mid + 1 } else { high = mid }
        }
        next = low
        voxelIndex = chunks[..<low].reduce(0) { $0 + $1.count }
        previousCode = low > 0 ? chunks[low - 1].lastCode : nil
        samplesSeen = 0
        wholePass = low == 0 && codes.upperBound == .max && codes.lowerBound == 0
        stopCode = codes.upperBound
        regionStart = codes.lowerBound
    }

    private var regionStart: UInt64 = 0

    /// The index in the file (from 0) of the first voxel of the chunk `nextChunk` returned last.
    package private(set) var chunkFirstVoxel = 0

    package func nextChunk() throws -> UnsafeBufferPointer<StoredVoxel>? {
        while next < chunks.count {
            let entry = chunks[next]
            if entry.firstCode >= stopCode { break }
            let k = next
            try readChunk(k, entry)
            next += 1
            voxelIndex += entry.count
            var start = 0, end = entry.count
            if entry.firstCode < regionStart { while start < end && voxels[start].code < regionStart { start += 1 } }
            if entry.lastCode >= stopCode { while end > start && voxels[end - 1].code >= stopCode { end -= 1 } }
            if end > start {
                chunkFirstVoxel = voxelIndex - entry.count + start
                return UnsafeBufferPointer(start: voxels + start, count: end - start)
            }
        }
        if wholePass && next == chunks.count {
            guard samplesSeen == info.sampleCount else {
                throw PointPaintError(.malformed, file: path, place: .part("header"),
                                      "the header says \(info.sampleCount) samples, but the voxels' counts add up to \(samplesSeen)")
            }
            wholePass = false  // checked once
        }
        return nil
    }

    /// Reads and checks chunk `k` into `voxels`.
    private func readChunk(_ k: Int, _ entry: StoreFileFormat.IndexEntry) throws {
        let place = PointPaintError.Place.element("chunk", k)
        func fail(_ message: String) -> PointPaintError { PointPaintError(.malformed, file: path, place: place, message) }
        let bytes = entry.bytes(recordBytes: info.contents.recordBytes)
        try StoreFileReader.read(fd: fd, offset: entry.offset, into: raw, count: bytes, fileSize: fileSize, file: path)
        let buffer = UnsafeRawBufferPointer(start: raw, count: bytes)
        func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
        func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
        let headerSum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: buffer[0 ..< 28]))
        guard headerSum == u32(28) else {
            throw fail("chunk header checksum mismatch (stored \(StoreFileFormat.hex(u32(28))), computed \(StoreFileFormat.hex(headerSum))): the file is damaged")
        }
        guard u32(0) == StoreFileFormat.chunkMagic, Int(u32(4)) == entry.count, u64(8) == entry.firstCode, u64(16) == entry.lastCode else {
            throw fail("the chunk at byte offset \(entry.offset) does not match the index (\(u32(4)) voxels, codes \(u64(8))…\(u64(16)))")
        }
        let payloadSum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: buffer[StoreFileFormat.chunkHeaderBytes ..< bytes]))
        guard payloadSum == u32(24) else {
            throw fail("voxel data checksum mismatch (stored \(StoreFileFormat.hex(u32(24))), computed \(StoreFileFormat.hex(payloadSum))): the file is damaged")
        }
        let policy = info.policy
        let bounds = info.keyBounds
        let contents = info.contents, recordBytes = contents.recordBytes
        let weights = contents.contains(.weights), spread = contents.contains(.spread)
        for i in 0 ..< entry.count {
            let o = StoreFileFormat.chunkHeaderBytes + i * recordBytes
            var v = StoredVoxel(code: u64(o), r: Int64(bitPattern: u64(o + 8)), g: Int64(bitPattern: u64(o + 16)),
                                b: Int64(bitPattern: u64(o + 24)), count: u32(o + 32), first: u32(o + 36), last: u32(o + 40))
            var extra = o + StoreFileFormat.recordBytes
            if weights {
                v.weight = u64(extra)
                extra += 8
            }
            if spread {
                v.r2 = Int64(bitPattern: u64(extra))
                v.g2 = Int64(bitPattern: u64(extra + 8))
                v.b2 = Int64(bitPattern: u64(extra + 16))
            }
            if let problem = StoreFileReader.problem(v, previous: previousCode, policy: policy, contents: contents, bounds: bounds) {
                throw PointPaintError(.malformed, file: path, place: .element("voxel", voxelIndex + i), problem)
            }
            previousCode = v.code
            samplesSeen += Int(v.count)
            (voxels + i).initialize(to: v)
        }
        guard voxels[0].code == entry.firstCode, voxels[entry.count - 1].code == entry.lastCode else {
            throw fail("the chunk's voxels run from code \(voxels[0].code) to \(voxels[entry.count - 1].code), but its header says \(entry.firstCode)…\(entry.lastCode)")
        }
        let positions = StoreFileFormat.IndexEntry.samplePositions(count: entry.count, samples: entry.samples.count)
        guard zip(positions, entry.samples).allSatisfy({ voxels[$0.0].code == $0.1 }) else {
            throw PointPaintError(.malformed, file: path, place: .part("index"), "the sample codes of chunk \(k) do not match its voxels")
        }
    }

    /// What is wrong with a voxel read from a file, or nil.
    @inline(__always)
    private static func problem(_ v: StoredVoxel, previous: UInt64?, policy: AccumulationPolicy, contents: StoreContents,
                                bounds: StoreInfo.KeyBounds?) -> String? {
        if let previous, v.code <= previous { return "expected codes in increasing order, found \(v.code) after \(previous)" }
        if v.code >= VoxelKey.mortonLimit { return "expected a Morton code below 2^63, found \(v.code)" }
        if v.count == 0 { return "expected at least one sample, found a count of 0" }
        if v.first > v.last { return "expected first frame ≤ last frame, found \(v.first) > \(v.last)" }
        switch policy {
        case .mean:
            // Each sample weighs 1…255 (1 unweighted).
            let weights = contents.contains(.weights)
            let count = UInt64(v.count)
            if weights, v.weight < count || v.weight > 255 * count {
                return "expected a weight sum from \(count) to \(255 * count) for \(count) samples of weight 1…255, found \(v.weight)"
            }
            let total = weights ? v.weight : count
            // One sample adds at most 2³⁰ (its square 2³⁶) times its weight in magnitude to a sum.
            let limit = total.multipliedReportingOverflow(by: 1 << 30)
            if !limit.overflow, max(v.r.magnitude, v.g.magnitude, v.b.magnitude) > limit.partialValue {
                return "a colour sum beyond what \(v.count) samples can reach (at most \(limit.partialValue) in magnitude)"
            }
            if contents.contains(.spread) {
                if min(v.r2, v.g2, v.b2) < 0 { return "expected sums of squares of at least 0, found \(min(v.r2, v.g2, v.b2))" }
                let squares = total.multipliedReportingOverflow(by: 1 << 36)
                if !squares.overflow, UInt64(max(v.r2, v.g2, v.b2)) > squares.partialValue {
                    return "a sum of squares beyond what \(v.count) samples can reach (at most \(squares.partialValue))"
                }
            }
        case .latest, .first:
            if (v.r | v.g | v.b) >> 32 != 0 { return "expected 32-bit colour bit patterns, found wider values" }
        }
        if let bounds {
            let key = v.key
            let k = SIMD3(key.x, key.y, key.z)
            if any(k .< bounds.min) || any(k .> bounds.max) {
                let (low, high) = (PointPaintError.tuple(bounds.min), PointPaintError.tuple(bounds.max))
                return "cell \(PointPaintError.tuple(k)) lies outside the header's bounds \(low) … \(high)"
            }
        }
        return nil
    }

    // MARK: opening

    /// Reads and checks the index.
    private static func readIndex(_ header: StoreFileFormat.Header, headerBytes: Int, fileSize: Int, file: String,
                                  read: (Int, Int) throws -> [UInt8]) throws -> [StoreFileFormat.IndexEntry] {
        let n = header.chunkCount
        func fail(_ message: String) -> PointPaintError { PointPaintError(.malformed, file: file, place: .part("index"), message) }
        // Every chunk holds at least one voxel: the count is bounded by the bytes before the index.
        let offset = header.indexOffset
        guard offset >= headerBytes, offset <= fileSize else {
            if offset > fileSize {
                throw PointPaintError(.malformed, file: file, place: .byteOffset(fileSize),
                                      "expected the index at byte offset \(offset), found the end of the file after \(fileSize): the file is truncated")
            }
            throw fail("the index offset \(offset) lies inside the header")
        }
        let recordBytes = header.info.contents.recordBytes
        guard n <= (offset - headerBytes) / (StoreFileFormat.chunkHeaderBytes + recordBytes) else {
            throw PointPaintError(.tooLarge, file: file, place: .part("header"),
                                  "declares \(n) chunks, but only \(offset - headerBytes) bytes precede the index")
        }
        // The samples a chunk, read first: the index's size depends on it.
        guard fileSize - offset >= StoreFileFormat.indexHeaderBytes else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(fileSize),
                                  "expected an index of at least \(StoreFileFormat.indexHeaderBytes) bytes at byte offset \(offset), found the end of the file after \(fileSize): the file is truncated")
        }
        let s = Int(LittleEndianReader(bytes: try read(offset + 4, 4)).u32(0))
        guard (1 ... StoreFileFormat.maxSamplesPerChunk).contains(s) else {
            throw fail("expected 1 to \(StoreFileFormat.maxSamplesPerChunk) sample codes a chunk, found \(s)")
        }
        let entryBytes = StoreFileFormat.indexEntryBytes + 8 * s
        let indexBytes = StoreFileFormat.indexHeaderBytes + n * entryBytes + 4
        let end = offset + indexBytes
        guard end <= fileSize else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(fileSize),
                                  "expected \(end) bytes (the index ends there), found the end of the file after \(fileSize): the file is truncated")
        }
        guard end == fileSize else { throw fail("expected the file to end with the index at byte \(end), found \(fileSize - end) more bytes") }
        let bytes = try read(offset, indexBytes)
        let r = LittleEndianReader(bytes: bytes)
        let computed = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[..<(indexBytes - 4)])) }
        guard computed == r.u32(indexBytes - 4) else {
            throw fail("index checksum mismatch (stored \(StoreFileFormat.hex(r.u32(indexBytes - 4))), computed \(StoreFileFormat.hex(computed))): the file is damaged")
        }
        guard r.u32(0) == StoreFileFormat.indexMagic, r.u64(8) == UInt64(n) else {
            throw fail("expected an index of \(n) chunks marked 'PPIX'")
        }
        var entries: [StoreFileFormat.IndexEntry] = []
        entries.reserveCapacity(n)
        var at = headerBytes, voxels = 0
        var previous: UInt64?
        for k in 0 ..< n {
            let o = StoreFileFormat.indexHeaderBytes + k * entryBytes
            let count = Int(r.u32(o + 24))
            let samples = (0 ..< s).map { r.u64(o + StoreFileFormat.indexEntryBytes + 8 * $0) }
            let e = StoreFileFormat.IndexEntry(offset: Int(clamping: r.u64(o)), firstCode: r.u64(o + 8), lastCode: r.u64(o + 16), count: count,
                                               samples: samples)
            guard e.offset == at else { throw PointPaintError(.malformed, file: file, place: .element("chunk", k), "expected the chunk at byte offset \(at), the index says \(e.offset)") }
            guard (1 ... header.chunkCapacity).contains(count) else {
                throw PointPaintError(.malformed, file: file, place: .element("chunk", k), "expected 1 to \(header.chunkCapacity) voxels, the index says \(count)")
            }
            guard e.firstCode <= e.lastCode, previous.map({ $0 < e.firstCode }) ?? true else {
                throw PointPaintError(.malformed, file: file, place: .element("chunk", k), "expected codes increasing from chunk to chunk, the index says \(e.firstCode)…\(e.lastCode)")
            }
            previous = e.lastCode
            at += e.bytes(recordBytes: recordBytes)
            voxels += count
            guard at <= offset else {
                throw PointPaintError(.malformed, file: file, place: .element("chunk", k), "the chunk runs past the index at byte offset \(offset)")
            }
            entries.append(e)
        }
        guard at == offset else { throw fail("expected the chunks to end at the index (byte offset \(offset)), they end at \(at)") }
        guard voxels == header.info.voxelCount else {
            throw PointPaintError(.malformed, file: file, place: .part("header"), "declares \(header.info.voxelCount) voxels, but its chunks hold \(voxels)")
        }
        return entries
    }

    /// `count` bytes at `offset`, which must lie inside the file.
    private static func read(fd: Int32, offset: Int, count: Int, fileSize: Int, file: String) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try read(fd: fd, offset: offset, into: $0.baseAddress!, count: count, fileSize: fileSize, file: file) }
        return bytes
    }

    /// Reads `count` bytes at `offset` into `out`.
    private static func read(fd: Int32, offset: Int, into out: UnsafeMutableRawPointer, count: Int, fileSize: Int, file: String) throws {
        var done = 0
        while done < count {
            let n = pread(fd, out + done, count - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw PointPaintError.system("read failed at byte \(offset + done)", file: file) }
            guard n > 0 else {
                throw PointPaintError(.malformed, file: file, place: .byteOffset(offset + done),
                                      "expected \(count - done) more bytes, found the end of the file (it shrank while being read)")
            }
            done += n
        }
    }
}
