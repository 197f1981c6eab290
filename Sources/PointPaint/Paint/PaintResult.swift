import Foundation

/// A painted cloud: one vertex a point (or a voxel), its colour, how many frames saw it, and
/// whether it was painted at all.
///
/// A painting of one vertex a point holds its vertices as the painting left them (the cloud's
/// own positions, shared rather than copied, one colour a point and the views): `cloud`,
/// `painted` and `colourSD` are then built when read, while `writePLY` streams the file straight
/// from that state.
public struct PaintResult: Sendable {
    /// The vertices: built arrays, or one a point as a painting left them.
    enum Vertices: Sendable {
        case built(VoxelCloud, painted: [Bool], colourSD: [Float]?)
        case points(PointVertices)
    }

    /// The vertices, however they are held.
    var vertices: Vertices

    /// Positions, gamma-encoded extended sRGB colours and, in `counts`, the observations of each
    /// vertex (0 for an unseen point kept with its own colour).
    public var cloud: VoxelCloud {
        get {
            switch vertices {
            case .built(let cloud, _, _): cloud
            case .points(let points): points.cloud()
            }
        }
        set { vertices = .built(newValue, painted: painted, colourSD: colourSD) }
    }

    /// Per vertex: false for an unseen point kept without a colour of its own (written black and
    /// flagged with `painted 0`).
    public var painted: [Bool] {
        get {
            switch vertices {
            case .built(_, let painted, _): painted
            case .points(let points): points.paintedFlags()
            }
        }
        set { vertices = .built(cloud, painted: newValue, colourSD: colourSD) }
    }

    /// The counts of the painting.
    public var statistics: CloudPainter.Statistics

    /// Per vertex, when asked for (`CloudPainter.Options.qualityProperties`): the standard
    /// deviation of its observations' colours in linear light, the largest of the three
    /// channels' (0 for a point seen once or not at all); nil otherwise.
    public var colourSD: [Float]? {
        get {
            switch vertices {
            case .built(_, _, let colourSD): colourSD
            case .points(let points): points.spreads()
            }
        }
        set { vertices = .built(cloud, painted: painted, colourSD: newValue) }
    }

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
        vertices = .built(cloud, painted: painted, colourSD: colourSD)
        self.statistics = statistics
        self.store = store
    }

    /// Wraps one vertex a point as a painting left them.
    init(points: PointVertices, statistics: CloudPainter.Statistics) {
        vertices = .points(points)
        self.statistics = statistics
    }

    /// Vertices of the result (`cloud.count`, without building the cloud).
    public var vertexCount: Int {
        switch vertices {
        case .built(let cloud, _, _): cloud.count
        case .points(let points): points.count
        }
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
                             rejectedCount: 0, keyBounds: nil, contents: contents, origin: cloud.origin)
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
    public var unpaintedCount: Int {
        switch vertices {
        case .built(_, let painted, _): painted.reduce(0) { $0 + ($1 ? 0 : 1) }
        case .points(let points): points.unpainted
        }
    }

    /// The result as a PLY file: `float x y z`, `uchar red green blue` (clipped, rounded), and
    /// `float red_f green_f blue_f` (exact extended sRGB) as `wideColor` says; `uchar painted`
    /// (1 painted, 0 not) when some vertex is unpainted; with `qualityProperties`, `uint views`
    /// (observations) and, when the spread was kept, `float colour_sd` (`colourSD`). Comments
    /// name PointPaint, the voxel size, the source and `comments`.
    /// - Complexity: O(vertices).
    public func plyFile(encoding: PLYEncoding = .binaryLittleEndian, wideColor: PLYWideColor = .auto,
                        source: String? = nil, comments: [String] = [], qualityProperties: Bool = false,
                        positionType: PLYPositionType = .auto) -> PLYFile {
        let c = cloud
        let painted = painted, colourSD = colourSD
        let layout = PLYWriter(positionType: positionType).positionLayout(c)
        func axis(_ k: Int) -> PLYColumn {
            let exact = c.exactPositions
            if layout.double { return .float64(c.positions.indices.map { layout.doubles(c.positions[$0], exact: exact?[$0])[k] }) }
            return .float32(c.positions.indices.map { layout.floats(c.positions[$0], exact: exact?[$0])[k] })
        }
        var properties = [
            PLYProperty(name: "x", values: axis(0)),
            PLYProperty(name: "y", values: axis(1)),
            PLYProperty(name: "z", values: axis(2)),
            PLYProperty(name: "red", values: .uint8(c.colors.map { PLYWriter.quantize($0.x) })),
            PLYProperty(name: "green", values: .uint8(c.colors.map { PLYWriter.quantize($0.y) })),
            PLYProperty(name: "blue", values: .uint8(c.colors.map { PLYWriter.quantize($0.z) })),
        ]
        let wide = switch wideColor {
        case .always: true
        case .never: false
        case .auto: c.hasWideColor
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

/// One vertex a point as a painting left them: the cloud's positions (shared), one gamma-encoded
/// colour a point (3 floats, unpadded: the painted colour, an unseen point's own colour or 0),
/// the views, and the spread when kept. With unseen points dropped, the vertices are the seen
/// points in cloud order. The arrays `PaintResult` shows are built on first use and kept
/// (immutable, under a lock), so reading `cloud` repeatedly costs one build.
final class PointVertices: @unchecked Sendable {
    /// Where `positions` are measured from (`VoxelCloud.origin`).
    let origin: SIMD3<Double>
    /// The cloud's positions, one a point.
    let positions: [SIMD3<Float>]
    /// Their world positions as the file held them, when kept (`PaintCloud.exactPositions`).
    let exact: [SIMD3<Double>]?
    /// Three channels a point.
    let colours: [Float]
    /// Frames that saw each point.
    let views: [UInt32]
    /// The spread of each point's observations (0 for an unseen point), when kept.
    let spread: [Float]?
    /// Whether unseen points are vertices too.
    let keep: Bool
    /// Whether the cloud has colours of its own (an unseen point is then painted in them).
    let ownColours: Bool
    /// Points seen at least once.
    let seen: Int
    /// Whether some vertex's colour lies outside 0…1 (`PLYWriter.hasWideColor` of the colours).
    let wide: Bool

    private let lock = NSLock()
    /// The built arrays, once asked for.
    private var built: (cloud: VoxelCloud, painted: [Bool], spread: [Float]?)?

    init(origin: SIMD3<Double>, positions: [SIMD3<Float>], exact: [SIMD3<Double>]? = nil, colours: [Float], views: [UInt32],
         spread: [Float]?, keep: Bool, ownColours: Bool, seen: Int, wide: Bool) {
        self.origin = origin
        self.positions = positions
        self.exact = exact
        self.colours = colours
        self.views = views
        self.spread = spread
        self.keep = keep
        self.ownColours = ownColours
        self.seen = seen
        self.wide = wide
    }

    /// Vertices.
    var count: Int { keep ? views.count : seen }
    /// Vertices flagged unpainted: the unseen points kept without colours of their own.
    var unpainted: Int { keep && !ownColours ? views.count - seen : 0 }

    /// Whether point `i` is a vertex.
    @inline(__always) func includes(_ i: Int) -> Bool { keep || views[i] > 0 }
    /// Point `i`'s colour.
    @inline(__always) func colour(_ i: Int) -> SIMD3<Float> { SIMD3(colours[3 * i], colours[3 * i + 1], colours[3 * i + 2]) }
    /// Whether point `i` is painted.
    @inline(__always) func isPainted(_ i: Int) -> Bool { ownColours || views[i] > 0 }

    /// The vertices as a cloud.
    func cloud() -> VoxelCloud { arrays().cloud }

    /// The painted flag of each vertex.
    func paintedFlags() -> [Bool] { arrays().painted }

    /// The spread of each vertex, when kept.
    func spreads() -> [Float]? { arrays().spread }

    /// The arrays, built once.
    private func arrays() -> (cloud: VoxelCloud, painted: [Bool], spread: [Float]?) {
        lock.withLock {
            if let built { return built }
            var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = [], counts: [UInt32] = [], painted: [Bool] = []
            var spreads: [Float]? = spread == nil ? nil : []
            var exactKept: [SIMD3<Double>]? = exact == nil ? nil : []
            positions.reserveCapacity(count)
            colors.reserveCapacity(count)
            counts.reserveCapacity(count)
            painted.reserveCapacity(count)
            for i in views.indices where includes(i) {
                positions.append(self.positions[i])
                if let exact { exactKept!.append(exact[i]) }
                colors.append(colour(i))
                counts.append(views[i])
                painted.append(isPainted(i))
                if let spread { spreads!.append(spread[i]) }
            }
            var cloud = VoxelCloud(voxelSize: nil, origin: origin, positions: positions, colors: colors, counts: counts)
            cloud.exactPositions = exactKept
            let arrays = (cloud, painted, spreads)
            built = arrays
            return arrays
        }
    }
}
