/// Merges store files in one streaming k-way pass over their Morton-sorted voxels: each output
/// voxel combines the inputs' voxels of its cell (`StoredVoxel.merged(with:policy:)`), so the
/// result is the same bit for bit whatever the order of the inputs and however the samples were
/// split between them. Merging a store with itself is allowed and counts its samples twice.
///
/// Memory: one chunk of each input (about 0.7 MiB an input) and one output chunk.
public final class StoreMerge {
    /// The inputs, in the order given.
    public let paths: [String]
    private let readers: [StoreFileReader]

    /// Opens every input and checks that they can be merged.
    /// - Throws: the inputs' errors; `.unsupported` at the differing part (`voxel size`, `policy`,
    ///   `colour space`, `grade`) naming the input that differs from the first.
    public init(paths: [String]) throws {
        precondition(!paths.isEmpty, "a merge of no stores")
        self.paths = paths
        readers = try paths.map { try StoreFileReader(path: $0) }
        let first = readers[0].info
        for (reader, path) in zip(readers, paths).dropFirst() {
            if let conflict = first.mergeConflict(with: reader.info) {
                throw PointPaintError(.unsupported, file: path, place: .part(conflict.part), conflict.message + " (\(paths[0]))")
            }
        }
    }

    /// The inputs' headers.
    public var inputs: [StoreInfo] { readers.map(\.info) }

    /// Voxels in all the inputs together (cells shared between inputs counted once for each).
    public var inputVoxels: Int { readers.reduce(0) { $0 + $1.info.voxelCount } }

    /// The codes of region `region` (all codes when nil): see `StoreRegions`.
    package func codes(of region: Shard?) -> Range<UInt64> {
        guard let region else { return 0 ..< UInt64.max }
        let bounds = StoreRegions.boundaries(samples: readers.flatMap(\.codeSamples), regions: region.count)
        return bounds[region.index] ..< bounds[region.index + 1]
    }

    /// The header of the merge before its voxels are known: provenance merged, refused samples
    /// added; both only in region 0 of a regional merge, so that the regions' tallies add up to
    /// the whole's.
    /// - Throws: `.tooLarge` at the header of the input whose frame or refused-sample count
    ///   takes the sum past `Int.max` (counts are bounded only by 2⁶³ − 1 when read, so a
    ///   damaged header must stop here, not trap).
    private func template(region: Shard?) throws -> StoreInfo {
        var info = readers[0].info
        for (reader, path) in zip(readers, paths).dropFirst() {
            func tooLarge(_ what: String, _ count: Int) -> PointPaintError {
                PointPaintError(.tooLarge, file: path, place: .part("header"),
                                "\(what) \(count) takes the inputs' total past \(Int.max): the header is damaged")
            }
            guard let provenance = info.provenance.merged(with: reader.info.provenance) else {
                throw tooLarge("frame count", reader.info.provenance.frameCount)
            }
            let (refused, overflow) = info.rejectedCount.addingReportingOverflow(reader.info.rejectedCount)
            guard !overflow else { throw tooLarge("refused-sample count", reader.info.rejectedCount) }
            info.provenance = provenance
            info.rejectedCount = refused
        }
        if let region, region.index > 0 {
            info.provenance.frameCount = 0
            info.rejectedCount = 0
        }
        return info
    }

    /// Merges the inputs (only `region`'s voxels when given) into a store file at `path`,
    /// written atomically.
    /// - Returns: the header written.
    /// - Throws: the inputs' errors as they are read; `.tooLarge` at the voxel of the input that
    ///   would take a cell past 2³² − 1 samples (or a weighted cell's sums past 64 bits); write
    ///   errors (the output is then not created).
    @discardableResult
    public func write(to path: String, region: Shard? = nil) throws -> StoreInfo {
        let codes = codes(of: region)
        let policy = readers[0].info.policy
        return try StoreFileWriter.write(to: path, info: try template(region: region)) { writer in
            var heads = MergeHeads(readers: readers, paths: paths, codes: codes)
            try heads.start()
            while var voxel = try heads.popMinimum()?.voxel {
                while heads.peekCode() == voxel.code, let (source, next) = try heads.popMinimum() {
                    guard let combined = voxel.merged(with: next, policy: policy) else {
                        throw PointPaintError(.tooLarge, file: paths[source], place: .element("voxel", heads.lastOrdinal),
                                              "cell \(next.key) would hold more than \(UInt32.max) samples (or weighted sums past 64 bits) once merged")
                    }
                    voxel = combined
                }
                try writer.append(voxel)
            }
        }
    }
}

/// The current voxel of each input in a binary min-heap by code.
private struct MergeHeads {
    let readers: [StoreFileReader]
    let paths: [String]
    let codes: Range<UInt64>
    /// Each input's current chunk and position in it.
    private var chunks: [UnsafeBufferPointer<StoredVoxel>]
    private var positions: [Int]
    /// Inputs with a current voxel, as a heap ordered by that voxel's code.
    private var heap: [Int] = []
    /// The file ordinal of the voxel `popMinimum` returned last.
    private(set) var lastOrdinal = 0

    init(readers: [StoreFileReader], paths: [String], codes: Range<UInt64>) {
        self.readers = readers
        self.paths = paths
        self.codes = codes
        chunks = Array(repeating: UnsafeBufferPointer(start: nil, count: 0), count: readers.count)
        positions = Array(repeating: 0, count: readers.count)
    }

    /// Seeks every input to the codes and fills the heap.
    mutating func start() throws {
        for (i, reader) in readers.enumerated() {
            reader.seek(to: codes)
            if let chunk = try reader.nextChunk() {
                chunks[i] = chunk
                positions[i] = 0
                heap.append(i)
                siftUp(heap.count - 1)
            }
        }
    }

    @inline(__always)
    private func code(_ input: Int) -> UInt64 { chunks[input][positions[input]].code }

    /// The smallest current code, or nil when every input is done.
    @inline(__always)
    func peekCode() -> UInt64? { heap.first.map { code($0) } }

    /// The input with the smallest current code and that voxel; the input moves on.
    @inline(__always)
    mutating func popMinimum() throws -> (input: Int, voxel: StoredVoxel)? {
        guard let top = heap.first else { return nil }
        let voxel = chunks[top][positions[top]]
        lastOrdinal = readers[top].chunkFirstVoxel + positions[top]
        positions[top] += 1
        if positions[top] == chunks[top].count {
            guard let chunk = try readers[top].nextChunk() else {
                removeTop()
                return (top, voxel)
            }
            chunks[top] = chunk
            positions[top] = 0
        }
        siftDown(0)
        return (top, voxel)
    }

    private mutating func removeTop() {
        heap[0] = heap[heap.count - 1]
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftUp(_ i: Int) {
        var i = i
        while i > 0 {
            let parent = (i - 1) / 2
            guard code(heap[i]) < code(heap[parent]) else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ i: Int) {
        var i = i
        let n = heap.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < n && code(heap[l]) < code(heap[smallest]) { smallest = l }
            if r < n && code(heap[r]) < code(heap[smallest]) { smallest = r }
            guard smallest != i else { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}
