import Foundation
import Testing
@_spi(Benchmarks) @testable import PointPaint

/// Decoding streams Apple's reference encoder wrote (through pyliblzfse), compared with the inputs
/// it was given.
struct LZFSEDecodeTests {
    @Test func manifestListsEveryFixture() throws {
        #expect(Set(try LZFSEFixtures.manifest().keys) == Set(LZFSEFixtures.names))
    }

    @Test(arguments: LZFSEFixtures.names)
    func decodesFixture(_ name: String) throws {
        let entry = try LZFSEFixtures.entry(name)
        let original = LZFSEFixtures.original(entry)
        // The generator here made the same bytes as the Python one the encoder saw.
        #expect(original.count == entry.size)
        #expect(LZFSEFixtures.fnv1a64(original) == entry.fnv1a64)

        let stream = try LZFSEFixtures.stream(name)
        let decoded = try LZFSE.decode(stream, file: "\(name).lzfse", maximumSize: 1 << 24)
        #expect(decoded.count == original.count)
        #expect(decoded == original)
        let size = try stream.withUnsafeBytes { try LZFSE.decodedSize(of: $0, maximumSize: 1 << 24) }
        #expect(size == original.count)
    }

    /// The framing walk sees the blocks the generator listed.
    @Test(arguments: LZFSEFixtures.names)
    func blocksMatchManifest(_ name: String) throws {
        let stream = try LZFSEFixtures.stream(name)
        var magics: [String] = []
        try stream.withUnsafeBytes { raw in
            let input = try LZFSE.Input(raw, file: name)
            var offset = 0
            while offset < input.count {
                let frame = try LZFSE.frame(at: offset, in: input)
                magics.append(String(decoding: raw[offset ..< offset + 4], as: UTF8.self))
                offset = frame.end
            }
        }
        #expect(magics == (try LZFSEFixtures.entry(name)).blocks)
    }

    /// Every block type is exercised, including a stream of several LZFSE blocks over 1 MiB.
    @Test func fixturesCoverEveryBlockType() throws {
        let manifest = try LZFSEFixtures.manifest()
        #expect(Set(manifest.values.flatMap(\.blocks)) == ["bvx-", "bvxn", "bvx1", "bvx2", "bvx$"])
        #expect(manifest.values.contains { $0.size > 1 << 20 && $0.blocks.filter { $0 == "bvx2" }.count >= 2 })
        #expect(manifest["depth"]!.blocks.filter { $0 == "bvx2" }.count >= 2)
        #expect(manifest["empty"]!.size == 0)
    }

    /// What the Record3D reader does: a depth map straight into a `[Float]`.
    @Test func decodesDepthIntoFloats() throws {
        let stream = try LZFSEFixtures.stream("depth")
        let want = LZFSEFixtures.depthValues(seed: 7, width: 256, height: 192)
        let depth = try [Float](unsafeUninitializedCapacity: 256 * 192) { buffer, count in
            try stream.withUnsafeBytes { try LZFSE.decode($0, into: UnsafeMutableRawBufferPointer(buffer), file: "0.depth") }
            count = 256 * 192
        }
        #expect(depth.map(\.bitPattern) == want.map(\.bitPattern))
    }

    /// Streams one after another decode to their outputs one after another; a match never reaches
    /// before its own stream (checked by the damage tests).
    @Test func decodesConcatenatedStreams() throws {
        let names = ["text-1000", "empty", "depth", "random", "repetitive-bvx1"]
        var stream: [UInt8] = []
        var want: [UInt8] = []
        for name in names {
            stream += try LZFSEFixtures.stream(name)
            want += LZFSEFixtures.original(try LZFSEFixtures.entry(name))
        }
        #expect(try LZFSE.decode(stream, maximumSize: want.count) == want)
    }

    /// A hand-made `bvx1` block: 4 literals 'A' (3 used), then 5 bytes from 3 back.
    @Test func decodesHandMadeBlock() throws {
        let stream = LZFSEBlockBuilder().stream()
        #expect(try LZFSE.decode(stream, maximumSize: 100) == Array(repeating: UInt8(ascii: "A"), count: 8))
        var gap = LZFSEBlockBuilder()
        gap.literal = UInt8(ascii: "x")
        gap.lSymbol = 2
        gap.mSymbol = 7
        gap.dSymbol = 1
        gap.decodedSize = 9
        #expect(try LZFSE.decode(gap.stream(), maximumSize: 100) == Array("xxxxxxxxx".utf8))
    }

    @Test func emptyStreamDecodesIntoEmptyBuffer() throws {
        let stream = try LZFSEFixtures.stream("empty")
        try stream.withUnsafeBytes { raw in
            try LZFSE.decode(raw, into: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        #expect(try LZFSE.decode(stream, expectedSize: 0, maximumSize: 0) == [])
    }

    @Test func expectedSizeMustMatch() throws {
        let stream = try LZFSEFixtures.stream("confidence")
        let error = try #require(throws: PointPaintError.self) {
            try LZFSE.decode(stream, file: "0.conf", expectedSize: 49153, maximumSize: 1 << 20)
        }
        #expect(error.kind == .malformed)
        #expect(error.place == nil)
        // Smaller than the stream: refused from the first block that goes past it.
        let small = try #require(throws: PointPaintError.self) {
            try LZFSE.decode(stream, file: "0.conf", expectedSize: 1000, maximumSize: 1 << 20)
        }
        #expect(small.kind == .tooLarge)
        #expect(small.place == .byteOffset(4))
    }

    @Test func maximumSizeIsCheckedBeforeDecoding() throws {
        let stream = try LZFSEFixtures.stream("depth")
        let error = try #require(throws: PointPaintError.self) {
            try LZFSE.decode(stream, file: "0.depth", maximumSize: 100_000)
        }
        #expect(error.kind == .tooLarge)
        // The third block is the one that goes past the limit: its size field.
        var offsets: [Int] = []
        try stream.withUnsafeBytes { raw in
            let input = try LZFSE.Input(raw, file: nil)
            var offset = 0
            while offset < input.count {
                offsets.append(offset)
                offset = try LZFSE.frame(at: offset, in: input).end
            }
        }
        let sizes = try stream.withUnsafeBytes { raw in
            try offsets.map { try LZFSE.frame(at: $0, in: LZFSE.Input(raw, file: nil)).decodedSize }
        }
        let crossing = sizes.indices.first { sizes[...$0].reduce(0, +) > 100_000 }!
        #expect(error.place == .byteOffset(offsets[crossing] + 4))
    }
}

/// A one-block `bvx1` stream made by hand. Every table gives all its states to one symbol, so no
/// state bit is read and the values are the symbols' bases plus their raw bits.
struct LZFSEBlockBuilder {
    var literal = UInt8(ascii: "A")
    var literalCount = 4
    var lSymbol = 3       // L = 3
    var mSymbol = 5       // M = 5
    var dSymbol = 3       // D = 3
    var matchCount = 1
    /// The triple stream after its 8 zero bytes, and the zero bits above its last byte.
    var lmdBits: [UInt8] = []
    var lmdPadding = 0
    var decodedSize = 8
    var literalFrequencyTotal = 1024

    func stream() -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), UInt8(v >> 24 & 255)] }
        let lmd = [UInt8](repeating: 0, count: 8) + lmdBits
        var header: [UInt8] = Array("bvx1".utf8)
        header += u32(decodedSize) + u32(lmd.count) + u32(literalCount) + u32(matchCount) + u32(0) + u32(lmd.count)
        header += u32(0)                                    // literal bits: no padding (an empty stream)
        header += u16(0) + u16(0) + u16(0) + u16(0)         // literal states
        header += u32(-lmdPadding & 0xFFFF_FFFF)            // triple bits
        header += u16(0) + u16(0) + u16(0)                  // L, M, D states
        func table(_ symbols: Int, _ symbol: Int, _ total: Int) -> [UInt8] {
            (0 ..< symbols).flatMap { u16($0 == symbol ? total : 0) }
        }
        header += table(20, lSymbol, 64) + table(20, mSymbol, 64) + table(64, dSymbol, 256)
        header += table(256, Int(literal), literalFrequencyTotal)
        header += [0, 0]
        precondition(header.count == 772)
        return header + lmd + Array("bvx$".utf8)
    }
}
