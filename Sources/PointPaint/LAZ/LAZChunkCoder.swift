import LAZCodec

/// A chunk decoder of the C codec for one item list, freed with it; one thread at a time.
/// `LAZReader` makes one a chunk.
final class LAZChunkDecoder {
    private let decoder: OpaquePointer
    /// Bytes a record.
    let recordLength: Int

    /// A decoder for `parameters`' items.
    /// - Throws: `.unsupported` naming the items when the codec does not have them.
    init(_ parameters: LAZParameters, file: String) throws {
        var status: Int32 = 0
        let items = parameters.items.map { laz_item(type: $0.type, size: $0.size, version: $0.version) }
        guard let decoder = laz_chunk_decoder_create(items, Int32(items.count), &status) else {
            if Int(status) == LAZ_NO_MEMORY { throw PointPaintError(.tooLarge, file: file, "out of memory for the LAZ decoder") }
            throw PointPaintError(.unsupported, file: file, place: .part("header"),
                                  "LAZ items \(LAZChunkDecoder.describe(parameters.items)) are not supported; LASzip's items of point formats 0 to 3 (version 2) and 6 to 8 (version 3) are")
        }
        self.decoder = decoder
        recordLength = parameters.recordLength
    }

    deinit { laz_chunk_decoder_free(decoder) }

    /// The items as a person reads them: `POINT10 v1, GPSTIME11 v1`.
    static func describe(_ items: [LAZParameters.Item]) -> String {
        let names: [UInt16: String] = [0: "BYTE", 6: "POINT10", 7: "GPSTIME11", 8: "RGB12", 9: "WAVEPACKET13", 10: "POINT14", 11: "RGB14",
                                       12: "RGBNIR14", 13: "WAVEPACKET14", 14: "BYTE14"]
        return items.map { "\(names[$0.type] ?? "type \($0.type)") v\($0.version)" }.joined(separator: ", ")
    }

    /// Decodes every point of `chunk` (of the file `bytes`) and hands them to `body` in slices of
    /// at most `slice` records, so a chunk that claims many points needs memory only for what
    /// its bytes really decode to.
    /// - Throws: `.malformed` at the chunk for a truncated or damaged stream, naming the point.
    func decode(_ chunk: LAZChunk, index: Int, in bytes: UnsafeRawBufferPointer, slice: Int = 1 << 16, file: String,
                _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let input = UnsafeRawBufferPointer(rebasing: bytes[chunk.offset ..< chunk.offset + chunk.size])
        let batch = Swift.min(slice, chunk.points)
        var scratch = [UInt8](repeating: 0, count: batch * recordLength)
        var done = 0
        while done < chunk.points {
            let n = Swift.min(batch, chunk.points - done)
            var position = laz_position()
            let status = Int(scratch.withUnsafeMutableBufferPointer { out in
                done == 0
                    ? laz_chunk_decode(decoder, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, out.baseAddress, n, &position)
                    : laz_chunk_decode_more(decoder, out.baseAddress, n, &position)
            })
            guard status == LAZ_OK else {
                let what = switch status {
                case LAZ_TRUNCATED: "its \(chunk.size) bytes run out at point \(position.point) of \(chunk.points)"
                case LAZ_NO_MEMORY: "out of memory at point \(position.point)"
                default: "its bytes are damaged at point \(position.point) of \(chunk.points) (byte \(position.byte))"
                }
                throw PointPaintError(status == LAZ_NO_MEMORY ? .tooLarge : .malformed, file: file, place: .element("chunk", index),
                                      "LAZ chunk at byte offset \(chunk.offset): \(what)")
            }
            try scratch.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<(n * recordLength)])) }
            done += n
        }
    }
}

/// A chunk encoder of the C codec for one item list.
final class LAZChunkEncoder {
    private let encoder: OpaquePointer
    let recordLength: Int

    /// An encoder for `parameters`' items (which `LAZParameters.pointwise` made: always supported).
    init(_ parameters: LAZParameters) {
        var status: Int32 = 0
        let items = parameters.items.map { laz_item(type: $0.type, size: $0.size, version: $0.version) }
        guard let encoder = laz_chunk_encoder_create(items, Int32(items.count), &status) else {
            preconditionFailure("LAZ encoder for \(LAZChunkDecoder.describe(parameters.items)): status \(status)")
        }
        self.encoder = encoder
        recordLength = parameters.recordLength
    }

    deinit { laz_chunk_encoder_free(encoder) }

    /// The compressed chunk of the records in `records` (a whole number of them).
    func encode(_ records: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(records.count % recordLength == 0, "a partial LAZ record")
        var out = laz_bytes()
        defer { laz_bytes_free(&out) }
        let status = Int(laz_chunk_encode(encoder, records.baseAddress?.assumingMemoryBound(to: UInt8.self), records.count / recordLength, &out))
        precondition(status == LAZ_OK, "out of memory compressing a LAZ chunk")
        return out.size == 0 ? [] : Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }
}
