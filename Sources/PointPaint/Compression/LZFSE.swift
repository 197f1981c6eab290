import Foundation

/// A decoder for LZFSE, the compression Apple's `compression_encode_buffer` writes for
/// `COMPRESSION_LZFSE`: Record3D stores each frame's depth map (`rgbd/N.depth`, float32 metres) and
/// confidence map (`rgbd/N.conf`, uint8) this way.
///
/// A stream is a run of blocks, each opening with a four-byte magic, and ends with `bvx$`:
///
/// | magic | block |
/// |---|---|
/// | `bvx-` | raw: the decoded size, then that many bytes as they are |
/// | `bvxn` | LZVN, byte-aligned LZ77 opcodes (what the encoder picks below 4 KiB) |
/// | `bvx1` | LZFSE with its four frequency tables stored plainly |
/// | `bvx2` | LZFSE with its frequency tables in a short prefix code (what the encoder writes) |
/// | `bvx$` | end of stream |
///
/// An LZFSE block holds literal bytes and (literal length, match length, distance) triples, each
/// entropy-coded with finite-state entropy (tANS). A match may reach back into earlier blocks of
/// its stream, never before its start. Several streams in a row decode to their outputs one after
/// the other.
///
/// Decoding walks the stream twice. The first walk reads the block headers alone: every size is
/// checked against the bytes present, the format's limits and the caller's, and the decoded sizes
/// are added up. So the output is allocated once, at its exact size, after the whole framing proved
/// sound. The second walk decodes the blocks. Every fault gives one `PointPaintError` at the byte
/// offset of the block or field concerned: `.tooLarge` for a size beyond the input, the format or
/// the caller's limit, `.malformed` for anything else.
///
/// Written from the format as Apple's reference implementation (github.com/lzfse/lzfse, BSD
/// licence) defines it; no code is taken from it.
///
/// Not part of the public API: the capture readers use it, and the Benchmarks package, which
/// can see no `package` declaration, reaches it with `@_spi(Benchmarks) import PointPaint`.
@_spi(Benchmarks) public enum LZFSE {
    /// The number of bytes `input` decodes to, from its block headers alone (no block is decoded).
    ///
    /// - Parameters:
    ///   - input: a whole LZFSE stream (or several in a row).
    ///   - file: the file name errors carry.
    ///   - maximumSize: the largest decoded size allowed; a stream that claims more is refused
    ///     before anything is decoded.
    /// - Throws: `PointPaintError` when a header is cut off, unknown or lying, when the stream has no
    ///   end-of-stream block, or when it decodes to more than `maximumSize` bytes.
    /// - Complexity: O(number of blocks).
    @_spi(Benchmarks) public static func decodedSize(of input: UnsafeRawBufferPointer, file: String? = nil, maximumSize: Int) throws -> Int {
        try walk(Input(input, file: file), limit: maximumSize, limitName: "the \(maximumSize) allowed").decodedSize
    }

    /// Decodes `input` into `output`, which must have exactly the decoded size (`decodedSize(of:)`).
    ///
    /// On failure the contents of `output` are unspecified.
    /// - Throws: `PointPaintError` for any fault of the stream, or when it does not decode to
    ///   `output.count` bytes.
    /// - Complexity: O(`input.count` + `output.count`).
    @_spi(Benchmarks) public static func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, file: String? = nil) throws {
        let source = try Input(input, file: file)
        let walk = try checkedWalk(source, expected: output.count, limit: output.count)
        try decodeBlocks(source, into: output, compressedBlocks: walk.compressedBlocks)
    }

    /// Decodes a whole LZFSE stream.
    ///
    /// - Parameters:
    ///   - bytes: a whole LZFSE stream (or several in a row).
    ///   - file: the file name errors carry.
    ///   - expectedSize: when given, the stream must decode to exactly this many bytes (a depth map's
    ///     `width × height × 4`); checked before anything is allocated or decoded.
    ///   - maximumSize: the largest decoded size allowed, checked before allocating.
    /// - Returns: the decoded bytes.
    /// - Throws: `PointPaintError` (`.malformed` or `.tooLarge`, at the byte offset of the fault).
    /// - Complexity: O(`bytes.count` + decoded size); one allocation of the decoded size.
    @_spi(Benchmarks) public static func decode(_ bytes: some ContiguousBytes, file: String? = nil, expectedSize: Int? = nil,
                                                maximumSize: Int) throws -> [UInt8] {
        try bytes.withUnsafeBytes { raw in
            let source = try Input(raw, file: file)
            let walk = try checkedWalk(source, expected: expectedSize, limit: min(maximumSize, expectedSize ?? .max))
            return try [UInt8](unsafeUninitializedCapacity: walk.decodedSize) { buffer, initialized in
                try decodeBlocks(source, into: UnsafeMutableRawBufferPointer(buffer), compressedBlocks: walk.compressedBlocks)
                initialized = walk.decodedSize
            }
        }
    }

    /// The framing walk, refused when the stream decodes to more than `limit` or not to `expected`.
    private static func checkedWalk(_ source: Input, expected: Int?, limit: Int) throws -> Walk {
        let walk = try walk(source, limit: limit, limitName: limit == expected ? "the \(limit) expected" : "the \(limit) allowed")
        if let expected, walk.decodedSize != expected {
            throw PointPaintError(.malformed, file: source.file, "the LZFSE stream decodes to \(walk.decodedSize) bytes; expected \(expected)")
        }
        return walk
    }
}

// MARK: - Framing

extension LZFSE {
    /// Block magics, as the little-endian `UInt32` of their four characters.
    enum Magic {
        static let endOfStream: UInt32 = 0x2478_7662   // "bvx$"
        static let raw: UInt32 = 0x2D78_7662           // "bvx-"
        static let lzvn: UInt32 = 0x6E78_7662          // "bvxn"
        static let plainTables: UInt32 = 0x3178_7662   // "bvx1"
        static let packedTables: UInt32 = 0x3278_7662  // "bvx2"
    }

    /// The bytes being decoded and the file name their errors carry.
    struct Input {
        let base: UnsafeRawPointer
        let count: Int
        let file: String?

        /// Refuses an empty input: no stream at all.
        init(_ bytes: UnsafeRawBufferPointer, file: String?) throws {
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                throw PointPaintError(.malformed, file: file, place: .byteOffset(0),
                                      "empty file; expected an LZFSE stream (a block starting 'bvx')")
            }
            self.base = base
            self.count = bytes.count
            self.file = file
        }

        /// The little-endian `UInt32` at `offset`.
        @inline(__always) func u32(_ offset: Int) -> UInt32 {
            precondition(offset >= 0 && offset + 4 <= count)
            return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        /// The little-endian `UInt64` at `offset`.
        @inline(__always) func u64(_ offset: Int) -> UInt64 {
            precondition(offset >= 0 && offset + 8 <= count)
            return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        /// An error at `offset` of this input.
        func error(_ kind: PointPaintError.Kind, at offset: Int, _ message: String) -> PointPaintError {
            PointPaintError(kind, file: file, place: .byteOffset(offset), message)
        }
    }

    /// One block as its header describes it.
    struct Frame {
        enum Kind {
            case endOfStream
            case raw
            case lzvn
            case compressed(CompressedHeader)
        }

        var kind: Kind
        /// Offset of the block's magic.
        var offset: Int
        /// Bytes from the magic to the payload.
        var headerSize: Int
        /// Bytes of payload after the header.
        var payloadSize: Int
        /// Bytes the block decodes to.
        var decodedSize: Int

        var payloadOffset: Int { offset + headerSize }
        var end: Int { offset + headerSize + payloadSize }
    }

    /// An LZVN block decodes to at most this many bytes per payload byte: its longest output for
    /// its fewest bytes is a two-byte opcode copying a 271-byte match.
    static let lzvnMaximumExpansion = 136

    /// Reads the header of the block at `offset`, checking its sizes against the input and the format.
    static func frame(at offset: Int, in input: Input) throws -> Frame {
        let left = input.count - offset
        guard left >= 4 else {
            if left == 0 {
                throw input.error(.malformed, at: offset, "the LZFSE stream ends without its end-of-stream block 'bvx$'")
            }
            throw input.error(.malformed, at: offset, "the LZFSE stream is cut off inside a block magic (\(left) of 4 bytes)")
        }
        let magic = input.u32(offset)
        switch magic {
        case Magic.endOfStream:
            return Frame(kind: .endOfStream, offset: offset, headerSize: 4, payloadSize: 0, decodedSize: 0)
        case Magic.raw:
            try requireHeader(8, "raw", at: offset, in: input)
            let size = Int(input.u32(offset + 4))
            guard size <= left - 8 else {
                throw input.error(.tooLarge, at: offset + 4,
                                  "raw block 'bvx-' declares \(size) bytes, but only \(left - 8) follow its header")
            }
            return Frame(kind: .raw, offset: offset, headerSize: 8, payloadSize: size, decodedSize: size)
        case Magic.lzvn:
            try requireHeader(12, "LZVN", at: offset, in: input)
            let decoded = Int(input.u32(offset + 4))
            let payload = Int(input.u32(offset + 8))
            guard payload <= left - 12 else {
                throw input.error(.tooLarge, at: offset + 8,
                                  "LZVN block 'bvxn' declares \(payload) payload bytes, but only \(left - 12) follow its header")
            }
            guard decoded <= payload * lzvnMaximumExpansion else {
                throw input.error(.tooLarge, at: offset + 4,
                                  "LZVN block 'bvxn' declares \(decoded) decoded bytes, more than its \(payload) payload bytes can hold (at most \(payload * lzvnMaximumExpansion))")
            }
            return Frame(kind: .lzvn, offset: offset, headerSize: 12, payloadSize: payload, decodedSize: decoded)
        case Magic.plainTables, Magic.packedTables:
            let header = try readCompressedHeader(at: offset, packed: magic == Magic.packedTables, in: input)
            return Frame(kind: .compressed(header), offset: offset, headerSize: header.headerSize,
                         payloadSize: header.literalPayloadSize + header.lmdPayloadSize, decodedSize: header.decodedSize)
        default:
            throw input.error(.malformed, at: offset,
                              "expected an LZFSE block ('bvx-', 'bvxn', 'bvx1', 'bvx2' or 'bvx$'), found \(PointPaintError.quote(bytes: UnsafeRawBufferPointer(start: input.base + offset, count: 4)))")
        }
    }

    /// Throws when fewer than `size` bytes are left for the header of the block at `offset`.
    static func requireHeader(_ size: Int, _ name: String, at offset: Int, in input: Input) throws {
        let left = input.count - offset
        guard left >= size else {
            throw input.error(.malformed, at: offset, "the \(name) block header is cut off: \(left) of its \(size) bytes")
        }
    }

    /// What the framing walk found.
    struct Walk {
        /// Bytes the stream decodes to.
        var decodedSize = 0
        /// LZFSE blocks (`bvx1`, `bvx2`), which need the decoding tables.
        var compressedBlocks = 0
    }

    /// Walks the block headers and adds up their decoded sizes, refusing a total over `limit`.
    static func walk(_ input: Input, limit: Int, limitName: @autoclosure () -> String) throws -> Walk {
        var offset = 0
        var walk = Walk()
        while true {
            let frame = try frame(at: offset, in: input)
            let total = walk.decodedSize
            switch frame.kind {
            case .endOfStream where frame.end == input.count: return walk
            case .compressed: walk.compressedBlocks += 1
            default: break
            }
            guard frame.decodedSize <= limit - total else {
                throw input.error(.tooLarge, at: frame.offset + 4,
                                  "the LZFSE stream decodes to more than \(limitName()) bytes (\(total) before this block, which adds \(frame.decodedSize))")
            }
            walk.decodedSize += frame.decodedSize
            offset = frame.end
        }
    }

    /// Decodes every block into `buffer`, whose size the framing walk has checked; the decoding
    /// tables are set up only for a stream with LZFSE blocks.
    static func decodeBlocks(_ input: Input, into buffer: UnsafeMutableRawBufferPointer, compressedBlocks: Int) throws {
        try withUnsafeTemporaryAllocation(byteCount: compressedBlocks > 0 ? Tables.byteCount : 16, alignment: 16) { scratch in
            let tables = compressedBlocks > 0 ? Tables(scratch.baseAddress!) : nil
            // An empty output still has its blocks checked (a stream of empty blocks): any
            // address serves, as nothing is written.
            var output = Output(base: buffer.baseAddress ?? scratch.baseAddress!, count: buffer.count)
            var offset = 0
            var streamStart = 0
            while offset < input.count {
                let frame = try frame(at: offset, in: input)
                let blockEnd = output.position + frame.decodedSize
                precondition(blockEnd <= output.count, "the framing walk sized the output")
                switch frame.kind {
                case .endOfStream:
                    streamStart = output.position
                case .raw:
                    output.copyRaw(from: input.base + frame.payloadOffset, length: frame.decodedSize)
                case .lzvn:
                    try decodeLZVN(frame, in: input, into: &output, streamStart: streamStart)
                case .compressed(let header):
                    try decodeCompressed(header, at: frame.offset, in: input, into: &output, streamStart: streamStart,
                                         tables: tables!)
                }
                assert(output.position == blockEnd)
                offset = frame.end
            }
        }
    }
}
