/// A painted cloud: one vertex a point (or a voxel), its colour, how many frames saw it, and
/// whether it was painted at all.
public struct PaintResult: Sendable {
    /// Positions, gamma-encoded extended sRGB colours and, in `counts`, the observations of each
    /// vertex (0 for an unseen point kept with its own colour).
    public var cloud: VoxelCloud
    /// Per vertex: false for an unseen point kept without a colour of its own (written black and
    /// flagged with `painted 0`).
    public var painted: [Bool]
    /// The counts of the painting.
    public var statistics: CloudPainter.Statistics
    /// Per vertex, when asked for (`CloudPainter.Options.qualityProperties`): the standard
    /// deviation of its observations' colours in linear light, the largest of the three
    /// channels' (0 for a point seen once or not at all); nil otherwise.
    public var colourSD: [Float]?
    /// The voxels as a store, when painting plain voxels (`CloudPainter.Options.voxelSize`,
    /// unweighted, no spread): what `.ppstore` and LAS output write (in Morton order, exact); nil
    /// for one vertex a point and for weighted voxels.
    public var store: SceneStore?
    /// Weighted voxels (or voxels keeping their spread) as exact store voxels in Morton order, with
    /// what they keep: what `.ppstore` (version 2) and LAS output write; nil otherwise (per point,
    /// plain voxels in `store`, `best`).
    package var storeVoxels: (voxels: [StoredVoxel], contents: StoreContents)?

    /// Wraps a painted cloud.
    public init(cloud: VoxelCloud, painted: [Bool], statistics: CloudPainter.Statistics, colourSD: [Float]? = nil,
                store: SceneStore? = nil) {
        self.cloud = cloud
        self.painted = painted
        self.statistics = statistics
        self.colourSD = colourSD
        self.store = store
    }

    /// Whether the voxels can be written as a store file (`writeStore`): plain or weighted mean
    /// voxels, not points or `best`.
    public var hasStore: Bool { store != nil || storeVoxels != nil }

    /// The exact voxels in Morton order, as written to a store, LAS or PLY from a store, with
    /// `provenance`; nil when there are none (see `hasStore`).
    package func voxelSource(provenance: StoreProvenance) -> (any VoxelChunkSource)? {
        if let store { return store.sortedVoxels(provenance: provenance) }
        guard let (voxels, contents) = storeVoxels, let size = cloud.voxelSize else { return nil }
        let info = StoreInfo(voxelSize: size, policy: .mean, provenance: provenance, voxelCount: 0, sampleCount: 0,
                             rejectedCount: 0, keyBounds: nil, contents: contents)
        return StoredVoxelArray(voxels, info: info)
    }

    /// Writes the voxels as a `.ppstore` file (version 2 when weighted or keeping the spread).
    /// - Throws: `.unsupported` naming `path` when there is no store to write (see `hasStore`).
    @discardableResult
    public func writeStore(to path: String, provenance: StoreProvenance) throws -> StoreInfo {
        guard let source = voxelSource(provenance: provenance) else {
            throw PointPaintError(.unsupported, file: path, "expected mean or plain voxels to write as a store, found points or 'best' observations")
        }
        return try StoreFileWriter.write(source, to: path)
    }

    /// Writes the voxels as LAS 1.4 in Morton order (see `SceneStore.writeLAS(to:provenance:)`).
    /// - Throws: `.unsupported` naming `path` when there is no store to write (see `hasStore`).
    public func writeLAS(to path: String, provenance: StoreProvenance) throws {
        guard let source = voxelSource(provenance: provenance) else {
            throw PointPaintError(.unsupported, file: path, "expected mean or plain voxels to write as exact voxels, found points or 'best' observations")
        }
        try source.writeLAS(to: path)
    }

    /// Vertices flagged as unpainted.
    public var unpaintedCount: Int { painted.reduce(0) { $0 + ($1 ? 0 : 1) } }

    /// The result as a PLY file: `float x y z`, `uchar red green blue` (clipped, rounded), and
    /// `float red_f green_f blue_f` (exact extended sRGB) as `wideColor` says; `uchar painted`
    /// (1 painted, 0 not) when some vertex is unpainted; with `qualityProperties`, `uint views`
    /// (observations) and, when the spread was kept, `float colour_sd` (`colourSD`). Comments
    /// name PointPaint, the voxel size, the source and `comments`.
    /// - Complexity: O(vertices).
    public func plyFile(encoding: PLYEncoding = .binaryLittleEndian, wideColor: PLYWideColor = .auto,
                        source: String? = nil, comments: [String] = [], qualityProperties: Bool = false) -> PLYFile {
        let c = cloud
        var properties = [
            PLYProperty(name: "x", values: .float32(c.positions.map(\.x))),
            PLYProperty(name: "y", values: .float32(c.positions.map(\.y))),
            PLYProperty(name: "z", values: .float32(c.positions.map(\.z))),
            PLYProperty(name: "red", values: .uint8(c.colors.map { PLYWriter.quantize($0.x) })),
            PLYProperty(name: "green", values: .uint8(c.colors.map { PLYWriter.quantize($0.y) })),
            PLYProperty(name: "blue", values: .uint8(c.colors.map { PLYWriter.quantize($0.z) })),
        ]
        let wide = switch wideColor {
        case .always: true
        case .never: false
        case .auto: PLYWriter.hasWideColor(c.colors)
        }
        if wide {
            properties += [
                PLYProperty(name: "red_f", values: .float32(c.colors.map(\.x))),
                PLYProperty(name: "green_f", values: .float32(c.colors.map(\.y))),
                PLYProperty(name: "blue_f", values: .float32(c.colors.map(\.z))),
            ]
        }
        if painted.contains(false) {
            properties.append(PLYProperty(name: "painted", values: .uint8(painted.map { $0 ? 1 : 0 })))
        }
        if qualityProperties {
            properties.append(PLYProperty(name: "views", values: .uint32(c.counts)))
            if let colourSD { properties.append(PLYProperty(name: "colour_sd", values: .float32(colourSD))) }
        }
        var header = ["generated by PointPaint"]
        if let size = c.voxelSize { header.append("voxel_size \(size)") }
        if let source { header.append("source \(PLYWriter.oneLine(source))") }
        header += comments.map(PLYWriter.oneLine)
        return PLYFile(encoding: encoding, comments: header,
                       elements: [PLYElement(name: "vertex", count: c.count, properties: properties)])
    }
}
