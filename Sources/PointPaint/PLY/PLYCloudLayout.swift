import Foundation

/// Where a cloud's values lie in a binary PLY file of fixed-size records, worked out from the
/// header alone: the one rule by which both the whole-file reader (`PLYReader.readCloud`) and the
/// streaming reader (`PLYReader.forEachPointChunk`) decide whether to read the vertex records
/// straight from the bytes, and the one place that decodes them.
///
/// The rule: a binary file (either byte order) without a `face` element or a
/// `comment geometry boxes` line (boxes take the full parse, which folds them into voxels),
/// where no element has a list property, whose elements all lie inside the file, and whose
/// `vertex` element has scalar `x`, `y` and `z`. Every property may be of any scalar type, as
/// plyfile and Open3D read them, and in any order, with any other properties between them.
/// Colour is the first complete set of scalar channels among `PLYFile.colorNames`
/// (`red_f`…, `red`…, `r`…, `diffuse_red`…); alpha and other properties are skipped. The
/// channels need not share a type: each is scaled to 0…1 by its own type (`PLYScalar.unitChannel`:
/// integers divided by their type's maximum, floats taken as they are), so a file with `uchar`
/// red and green and a `float` blue reads as it would channel by channel.
///
/// Every value is converted by the same per-type function the full parse uses
/// (`PLYFile.cloud(file:)`), so a file read here gives exactly the cloud the full parse gives.
/// Large runs of records are decoded on every core, each core a band of them (`decoded`); each
/// value depends on its own record alone, so the result is the same whatever the count.
/// Anything else (ascii, lists, faces, boxes, a file shorter than its header says) is left to
/// the full parse, which reads it or says what is wrong.
package struct PLYCloudLayout: Sendable, Equatable {
    /// One scalar property of the vertex record.
    package struct Field: Sendable, Equatable {
        /// Bytes from the start of the record.
        package var offset: Int
        /// The property's type.
        package var type: PLYScalarType
    }

    /// Bytes from the start of the data (the line after `end_header`) to the first vertex record.
    package var start: Int
    /// Bytes a vertex record.
    package var stride: Int
    /// Number of vertices.
    package var count: Int
    /// Whether values are stored big-endian.
    package var byteSwapped: Bool
    /// `x`, `y`, `z`.
    package var position: [Field]
    /// The colour channels, red, green, blue, when the file has a complete set.
    package var color: [Field]?
    /// `views` (`PLYFile.viewsName`) when present.
    package var views: Field?
    /// `colour_sd` (`PLYFile.colourSDName`) when present.
    package var colourSD: Field?

    /// The layout of the file `header` describes, with `dataBytes` bytes after its header; nil
    /// when the file is not of the kind described above.
    package init?(_ header: PLYFile, dataBytes: Int) {
        guard header.encoding != .ascii, !header.declaresBoxes, header[element: "face"] == nil,
              let vertex = header[element: "vertex"] else { return nil }
        // Every element fixed-size, and all of them inside the file.
        var offset = 0
        var vertexStart: Int?
        var vertexStride = 0
        for e in header.elements {
            var size = 0
            for p in e.properties {
                guard case .scalar(let t) = p.type else { return nil }
                size += t.size
            }
            if e.name == "vertex", vertexStart == nil { vertexStart = offset; vertexStride = size }
            let (bytes, overflow) = e.count.multipliedReportingOverflow(by: size)
            guard !overflow, bytes <= dataBytes - offset else { return nil }
            offset += bytes
        }
        guard let vertexStart else { return nil }
        func field(_ name: String) -> Field? {
            var at = 0
            for p in vertex.properties {
                if p.name == name { return Field(offset: at, type: p.type.valueType) }
                at += p.type.valueType.size
            }
            return nil
        }
        guard let x = field("x"), let y = field("y"), let z = field("z") else { return nil }
        start = vertexStart
        stride = vertexStride
        count = vertex.count
        byteSwapped = header.encoding == .binaryBigEndian
        position = [x, y, z]
        color = header.vertexColorProperties.map { c in [c.red, c.green, c.blue].map { field($0.name)! } }
        views = field(PLYFile.viewsName)
        colourSD = field(PLYFile.colourSDName)
    }

    /// Whether colours of these channel types are given as 8-bit codes (`PointChunk.codes`):
    /// when all three are `uchar`.
    package static func codes(_ channels: [PLYScalarType]) -> Bool {
        channels.count == 3 && channels.allSatisfy { $0 == .uint8 }
    }

    /// Whether the colours are 8-bit codes (see `codes(_:)`).
    package var hasCodes: Bool { color.map { Self.codes($0.map(\.type)) } ?? false }

    // MARK: decoding

    /// Field `f` of record `i`, loaded as its type and handed to `convert`: one switch over the
    /// types for every conversion (specialised for each, so no existential is involved).
    @inline(__always)
    private func field<C: FieldConversion>(_ records: ByteCursor.Records, _ i: Int, _ f: Field, _ convert: C) -> C.Result {
        @inline(__always) func get<T: PLYScalar>(_: T.Type) -> C.Result {
            convert(T(bits: records.load(T.Bits.self, record: i, offset: f.offset, byteSwapped: byteSwapped)))
        }
        switch f.type {
        case .int8: return get(Int8.self)
        case .uint8: return get(UInt8.self)
        case .int16: return get(Int16.self)
        case .uint16: return get(UInt16.self)
        case .int32: return get(Int32.self)
        case .uint32: return get(UInt32.self)
        case .float32: return get(Float.self)
        case .float64: return get(Double.self)
        }
    }

    /// Field `f` of record `i` as a Float: `PLYScalar.float`, or `unitChannel` when `unit`.
    @inline(__always)
    private func value(_ records: ByteCursor.Records, _ i: Int, _ f: Field, unit: Bool) -> Float {
        field(records, i, f, AsFloat(unit: unit))
    }

    /// Field `f` of record `i` as a view count (`PLYScalar.viewCount`).
    @inline(__always)
    private func viewCount(_ records: ByteCursor.Records, _ i: Int, _ f: Field) -> UInt32 {
        field(records, i, f, AsViewCount())
    }

    /// The vertex records of the file's data, which begins at `data` (and holds them: `init`
    /// checked).
    package func records(in data: ByteCursor) -> ByteCursor.Records {
        var cursor = data
        cursor.skip(start)
        return cursor.records(stride: stride, count: count)
    }

    /// The positions of `records` (some or all of the file's vertex records) as offsets from
    /// `origin` (`VoxelCloud.origin`): each coordinate read exactly, less the origin, then
    /// rounded to a `Float`.
    package func positions(_ records: ByteCursor.Records, origin: SIMD3<Double> = .zero) -> [SIMD3<Float>] {
        let x = position[0], y = position[1], z = position[2]
        if origin != .zero {
            return Self.decoded(records.count) { i in SIMD3<Float>(world(records, i) - origin) }
        }
        return Self.decoded(records.count) { i in
            SIMD3(value(records, i, x, unit: false), value(records, i, y, unit: false), value(records, i, z, unit: false))
        }
    }

    /// The positions of `records` as the file holds them, exactly.
    package func worldPositions(_ records: ByteCursor.Records) -> [SIMD3<Double>] {
        Self.decoded(records.count) { i in world(records, i) }
    }

    /// The position of record `i` as the file holds it, exactly.
    @inline(__always)
    private func world(_ records: ByteCursor.Records, _ i: Int) -> SIMD3<Double> {
        SIMD3(field(records, i, position[0], AsDouble()), field(records, i, position[1], AsDouble()),
              field(records, i, position[2], AsDouble()))
    }

    /// The bounds of the finite positions of `records` as the file holds them, exactly, or nil
    /// when none is finite.
    /// - Complexity: O(records.count).
    package func worldBounds(_ records: ByteCursor.Records) -> WorldBounds? {
        let n = records.count, bands = Self.bands(n)
        var boxes = [WorldBounds?](repeating: nil, count: bands)
        boxes.withUnsafeMutableBufferPointer { boxes in
            let out = SendablePointer(boxes.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                out.base[band] = WorldBounds(finite: (n * band / bands ..< n * (band + 1) / bands).lazy.map { world(records, $0) })
            }
        }
        return boxes.reduce(nil, WorldBounds.union)
    }

    /// The colours of `records` scaled to 0…1, channel by channel; white when the file has none.
    package func colors(_ records: ByteCursor.Records) -> [SIMD3<Float>] {
        guard let c = color else { return Array(repeating: SIMD3(1, 1, 1), count: records.count) }
        let r = c[0], g = c[1], b = c[2]
        return Self.decoded(records.count) { i in
            SIMD3(value(records, i, r, unit: true), value(records, i, g, unit: true), value(records, i, b, unit: true))
        }
    }

    /// The 8-bit colour codes of `records`, when `hasCodes`.
    package func codes(_ records: ByteCursor.Records) -> [SIMD3<UInt8>]? {
        guard hasCodes, let c = color else { return nil }
        let swap = byteSwapped, r = c[0].offset, g = c[1].offset, b = c[2].offset
        return Self.decoded(records.count) { i in
            SIMD3(records.load(UInt8.self, record: i, offset: r, byteSwapped: swap),
                  records.load(UInt8.self, record: i, offset: g, byteSwapped: swap),
                  records.load(UInt8.self, record: i, offset: b, byteSwapped: swap))
        }
    }

    /// The view counts of `records`, when the file has `views`.
    package func counts(_ records: ByteCursor.Records) -> [UInt32]? {
        guard let f = views else { return nil }
        return Self.decoded(records.count) { i in viewCount(records, i, f) }
    }

    /// The colour spreads of `records`, when the file has `colour_sd`.
    package func colourSDs(_ records: ByteCursor.Records) -> [Float]? {
        guard let f = colourSD else { return nil }
        return Self.decoded(records.count) { i in value(records, i, f, unit: false) }
    }

    // MARK: on every core

    /// Records below which decoding stays on one core.
    static let parallelThreshold = 1 << 16

    /// How many bands `count` records are decoded in: one a core, or one for a small run.
    private static func bands(_ count: Int) -> Int {
        count < parallelThreshold ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `count` values, value `i` made by `element(i)`, in bands on every core.
    @inline(__always)
    private static func decoded<T>(_ count: Int, _ element: @Sendable (Int) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { out, initialized in
            if count > 0 {
                let base = SendablePointer(out.baseAddress!), bands = bands(count)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    for i in count * band / bands ..< count * (band + 1) / bands { (base.base + i).initialize(to: element(i)) }
                }
            }
            initialized = count
        }
    }
}

/// A conversion of one PLY scalar of any type (`PLYCloudLayout.field`).
private protocol FieldConversion {
    associatedtype Result
    func callAsFunction<T: PLYScalar>(_ value: T) -> Result
}

/// A scalar as a Float: as it is, or as a colour channel scaled by its type (`unitChannel`).
private struct AsFloat: FieldConversion {
    let unit: Bool
    @inline(__always) func callAsFunction<T: PLYScalar>(_ value: T) -> Float { unit ? value.unitChannel : value.float }
}

/// A scalar as a Double, exactly.
private struct AsDouble: FieldConversion {
    @inline(__always) func callAsFunction<T: PLYScalar>(_ value: T) -> Double { value.double }
}

/// A scalar as a view count (`PLYScalar.viewCount`).
private struct AsViewCount: FieldConversion {
    @inline(__always) func callAsFunction<T: PLYScalar>(_ value: T) -> UInt32 { value.viewCount }
}
