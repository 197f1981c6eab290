import Foundation

/// The cloud `pointpaint paint` colours: the finite points of a PLY file's `vertex` element, their
/// own colours when the file has any, and how far apart neighbouring points lie.
///
/// Positions are a flat array, read from the mapped file in one pass for the binary layouts most
/// tools write (`PLYReader.readCloud(path:)`); no object is made per point. Colours are kept as
/// 8-bit codes (3 bytes a point) when every colour is one (an 8-bit file's), else as floats.
public struct PaintCloud: Sendable {
    /// The file the cloud was read from (for messages), or a name for a cloud built in memory.
    public let path: String
    /// Where `positions` are measured from, in whole metres (`VoxelCloud.origin`).
    public let origin: SIMD3<Double>
    /// Positions of the finite points as offsets from `origin`, in file order (non-finite points
    /// left out).
    public let positions: [SIMD3<Float>]
    /// The finite points' world positions as the file held them, when the offsets lose more than
    /// 0.1 mm (`VoxelCloud.exactPositions`); nil otherwise. The painted points are written at
    /// them.
    public let exactPositions: [SIMD3<Double>]?
    /// Their own colours, gamma-encoded extended sRGB, when the file has colour; nil otherwise.
    /// Built from the stored form on each read: use `color(at:)` and `hasColors` for one point.
    public var colors: [SIMD3<Float>]? {
        switch ownColors {
        case .none: nil
        case .codes: (0 ..< count).map { color(at: $0)! }
        case .floats(let colors): colors
        }
    }
    /// The colours as stored.
    let ownColors: OwnColors
    /// Vertices of the file left out because a coordinate is NaN or infinite.
    public let nonFinite: Int
    /// The voxel size the file states (`comment voxel_size`), if any.
    public let voxelSize: Float?

    /// Wraps points built in memory; non-finite points are left out (and counted).
    /// - Throws: `.missing` when no finite point remains; `.tooLarge` past `maximumPoints`.
    /// `positions` are offsets from `origin` (whole metres).
    /// `exactPositions`, when given, are the world positions, one a point.
    public init(path: String, positions: [SIMD3<Float>], colors: [SIMD3<Float>]?, voxelSize: Float? = nil,
                origin: SIMD3<Double> = .zero, exactPositions: [SIMD3<Double>]? = nil) throws {
        precondition(colors.map { $0.count == positions.count } ?? true, "positions and colours differ in length")
        precondition(exactPositions.map { $0.count == positions.count } ?? true, "positions and exact positions differ in length")
        self.path = path
        self.origin = origin
        self.voxelSize = voxelSize
        guard positions.count <= PaintCloud.maximumPoints else {
            throw PointPaintError(.tooLarge, file: path, "expected at most \(PaintCloud.maximumPoints) points to paint, found \(positions.count)")
        }
        let finite = positions.allSatisfy(\.isFinite)
        if finite {
            self.positions = positions
            self.exactPositions = exactPositions
            ownColors = OwnColors(colors)
            nonFinite = 0
        } else {
            var kept: [SIMD3<Float>] = []
            var keptColors: [SIMD3<Float>] = []
            var keptExact: [SIMD3<Double>] = []
            kept.reserveCapacity(positions.count)
            for i in positions.indices where positions[i].isFinite {
                kept.append(positions[i])
                if let colors { keptColors.append(colors[i]) }
                if let exactPositions { keptExact.append(exactPositions[i]) }
            }
            nonFinite = positions.count - kept.count
            self.positions = kept
            self.exactPositions = exactPositions == nil ? nil : keptExact
            ownColors = OwnColors(colors == nil ? nil : keptColors)
        }
        guard !self.positions.isEmpty else {
            guard positions.isEmpty else {
                throw PointPaintError(.missing, file: path, place: .element("vertex", 0),
                                      "expected points to paint, found \(positions.count) vertices, none with finite x, y, z")
            }
            throw PointPaintError(.missing, file: path, "expected points to paint, found an empty cloud")
        }
    }

    /// Reads the PLY or LAS file at `path`, told apart by content (any layout `PLYReader` reads,
    /// boxes becoming their centres; any point format `LASReader` reads).
    /// - Throws: the reader's errors; `.missing` for a cloud with no finite point.
    public static func read(path: String) throws -> PaintCloud {
        let (hasColor, las) = try MappedBytes(mapping: path, expected: "a PLY or LAS file").withUnsafeBytes { raw in
            if CloudFileContent(head: Array(raw.prefix(8))) == .las {
                return (LASHeader.colorOffset(format: try LASReader.header(raw, file: path).pointFormat) != nil, true)
            }
            return (try PLYReader.parseHeader(raw, file: path).0.vertexColorProperties != nil, false)
        }
        let cloud = las ? try LASReader.readCloud(path: path) : try PLYReader.readCloud(path: path)
        return try PaintCloud(path: path, positions: cloud.positions, colors: hasColor ? cloud.colors : nil, voxelSize: cloud.voxelSize,
                              origin: cloud.origin, exactPositions: cloud.exactPositions)
    }

    /// The most points a cloud may hold: observations name points by 32-bit index.
    public static let maximumPoints = Int(UInt32.max)

    /// Number of points.
    public var count: Int { positions.count }

    /// Whether the points have colours of their own.
    public var hasColors: Bool {
        if case .none = ownColors { return false }
        return true
    }

    /// Point `i`'s own colour (as `colors` holds it), or nil for a cloud without colour.
    @inline(__always)
    public func color(at i: Int) -> SIMD3<Float>? {
        switch ownColors {
        case .none: nil
        case .codes(let codes): SIMD3(codes[3 * i].unitChannel, codes[3 * i + 1].unitChannel, codes[3 * i + 2].unitChannel)
        case .floats(let colors): colors[i]
        }
    }

    /// A cloud's own colours as stored: none, 8-bit codes (three a point) when every channel is
    /// exactly a code's `unitChannel`, else floats.
    enum OwnColors: Sendable {
        case none
        case codes([UInt8])
        case floats([SIMD3<Float>])

        /// The most compact form that gives `colors` back exactly.
        init(_ colors: [SIMD3<Float>]?) {
            guard let colors else {
                self = .none
                return
            }
            var exact = true
            let codes = [UInt8](unsafeUninitializedCapacity: 3 * colors.count) { out, initialized in
                for (i, c) in colors.enumerated() {
                    for k in 0 ..< 3 {
                        let v = c[k], t = v * 255
                        guard t >= 0, t <= 255 else {
                            exact = false
                            break
                        }
                        let code = UInt8(t + 0.5)
                        // Bit for bit (so −0 stays a float).
                        guard code.unitChannel.bitPattern == v.bitPattern else {
                            exact = false
                            break
                        }
                        out[3 * i + k] = code
                    }
                    guard exact else { break }
                }
                initialized = exact ? 3 * colors.count : 0
            }
            self = exact ? .codes(codes) : .floats(colors)
        }
    }

    /// A typical distance between neighbouring points: the stated voxel size when there is one,
    /// else an estimate from how many cells of a coarse grid the points occupy (a surface of
    /// area A sampled by n points has spacing √(A/n); A is the occupied cells' face area).
    /// At most a million points (an even stride through the file) are looked at.
    /// - Complexity: O(min(n, 10⁶)) expected.
    public func estimatedSpacing() -> Float {
        if let voxelSize, voxelSize > 0 { return voxelSize }
        let stride = max(1, positions.count / 1_000_000)
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        var m = 0
        for i in Swift.stride(from: 0, to: positions.count, by: stride) {
            lo = pointwiseMin(lo, positions[i])
            hi = pointwiseMax(hi, positions[i])
            m += 1
        }
        // In Double: finite points up to ±3.4e38 apart overflow a Float extent, its square and
        // the cell a point falls in (a file's coordinates are whatever it holds).
        let low = SIMD3<Double>(lo), extent = SIMD3<Double>(hi) - low
        let diagonal = (extent * extent).sum().squareRoot()
        guard m > 1, diagonal > 0 else { return 0.01 }
        // Cells a few point spacings wide: about four sampled points a cell on a surface; a
        // point's cell is at most √m / 2 along an axis.
        let cell = 2 * diagonal / Double(m).squareRoot()
        var occupied = Set<SIMD3<Int32>>(minimumCapacity: m)
        for i in Swift.stride(from: 0, to: positions.count, by: stride) {
            let c = ((SIMD3<Double>(positions[i]) - low) / cell).rounded(.down)
            occupied.insert(SIMD3<Int32>(Int32(c.x), Int32(c.y), Int32(c.z)))
        }
        let area = Double(occupied.count) * cell * cell
        return Float(min(max((area / Double(positions.count)).squareRoot(), diagonal * 1e-6), Double(Float.greatestFiniteMagnitude)))
    }
}
