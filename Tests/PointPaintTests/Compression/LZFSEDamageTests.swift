import Foundation
import Testing
@_spi(Benchmarks) @testable import PointPaint

/// Damaged and hostile streams: each gives one `PointPaintError` (`.malformed` or `.tooLarge`),
/// never a crash, a hang or an allocation the input cannot back.
struct LZFSEDamageTests {
    /// Decodes `bytes` expecting `size` bytes; the error, or nil when it decoded.
    private func failure(_ bytes: [UInt8], size: Int) -> PointPaintError? {
        thrownError {
            let out = try LZFSE.decode(bytes, file: "bad.depth", expectedSize: size, maximumSize: 1 << 24)
            precondition(out.count == size)
        }
    }

    /// The error is of a decoding kind and at a place inside the stream (or, for a size that is not
    /// the one expected, the whole stream).
    private func expectDecodingError(_ error: PointPaintError?, in bytes: [UInt8], _ comment: @autoclosure () -> String) {
        guard let error else {
            Issue.record("decoded: \(comment())")
            return
        }
        #expect(error.kind == .malformed || error.kind == .tooLarge, "\(comment()): \(error)")
        #expect(error.file == "bad.depth")
        switch error.place {
        case .byteOffset(let offset)?: #expect(offset >= 0 && offset <= bytes.count, "\(comment()): \(error)")
        case nil: #expect(error.kind == .malformed, "\(comment()): \(error)")
        default: Issue.record("\(comment()): unexpected place in \(error)")
        }
    }

    /// A stream cut anywhere lacks at least its end-of-stream block: every cut fails.
    @Test(arguments: LZFSEFixtures.names)
    func truncatedStreamsThrow(_ name: String) throws {
        let stream = try LZFSEFixtures.stream(name)
        let size = try LZFSEFixtures.entry(name).size
        // Every cut in the first and last 1,100 bytes (the headers, the ends of both FSE streams),
        // about 400 spread over the rest.
        var cuts = Set(0 ..< min(stream.count, 1100))
        cuts.formUnion(max(0, stream.count - 1100) ..< stream.count)
        cuts.formUnion(stride(from: 0, to: stream.count, by: max(1, stream.count / 400)))
        for cut in cuts.sorted() {
            let bytes = Array(stream[..<cut])
            expectDecodingError(failure(bytes, size: size), in: bytes, "\(name) cut at \(cut)")
        }
    }

    /// Random bytes flipped anywhere: never a crash, and any error is a decoding error.
    @Test(arguments: LZFSEFixtures.names)
    func flippedBytesNeverCrash(_ name: String) throws {
        let stream = try LZFSEFixtures.stream(name)
        let size = try LZFSEFixtures.entry(name).size
        var rng = SplitMix64(seed: UInt64(LZFSEFixtures.fnv1a64(Array(name.utf8)), radix: 16)!)
        for trial in 0 ..< 200 {
            var bytes = stream
            var positions: [Int] = []
            for _ in 0 ..< 1 + rng.next() % 3 {
                let position = Int(rng.next() % UInt64(bytes.count))
                bytes[position] ^= UInt8(1 + rng.next() % 255)
                positions.append(position)
            }
            if let error = failure(bytes, size: size) {
                expectDecodingError(error, in: bytes, "\(name) trial \(trial), flips at \(positions)")
            }
        }
    }

    /// One byte flipped in the fixed part of the first block's header: nearly always refused.
    ///
    /// Left out: the four initial literal states of an LZFSE block. Any value below 1024 is a valid
    /// state, and a wrong one decodes other literals without breaking any rule of the format,
    /// which carries no checksum (nor does anything catch a flipped raw or LZVN literal byte).
    @Test(arguments: LZFSEFixtures.names)
    func flippedHeaderBytesAreCaught(_ name: String) throws {
        let stream = try LZFSEFixtures.stream(name)
        let entry = try LZFSEFixtures.entry(name)
        let fields: [Int] = switch entry.blocks[0] {
        case "bvx-": Array(0 ..< 8)
        case "bvxn": Array(0 ..< 12)
        case "bvx2": Array(0 ..< 16) + Array(21 ..< 32)   // not bytes 16–20: the literal states
        default: Array(0 ..< 32) + Array(40 ..< 50)       // bvx1: not bytes 32–39
        }
        var rng = SplitMix64(seed: UInt64(LZFSEFixtures.fnv1a64(Array(name.utf8)), radix: 16)! ^ 1)
        var caught = 0
        let trials = 200
        for trial in 0 ..< trials {
            var bytes = stream
            let position = fields[Int(rng.next() % UInt64(fields.count))]
            bytes[position] ^= UInt8(1 + rng.next() % 255)
            if let error = failure(bytes, size: entry.size) {
                expectDecodingError(error, in: bytes, "\(name) trial \(trial), flip at \(position)")
                caught += 1
            }
        }
        #expect(caught * 100 >= trials * 95, "\(name): only \(caught) of \(trials) damaged headers refused")
    }

    // MARK: - hand-made faults, with kinds and places

    private func error(_ bytes: [UInt8], maximumSize: Int = 1 << 20) throws -> PointPaintError {
        try #require(throws: PointPaintError.self) { try LZFSE.decode(bytes, file: "bad.depth", maximumSize: maximumSize) }
    }

    private func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    private let end = Array("bvx$".utf8)

    @Test func describesRawBlockLongerThanInput() throws {
        let bytes = Array("bvx-".utf8) + u32(1000) + [UInt8](repeating: 7, count: 10) + end
        let error = try error(bytes)
        #expect(error.kind == .tooLarge)
        #expect(error.place == .byteOffset(4))
        #expect(error.description == "bad.depth: byte offset 4: raw block 'bvx-' declares 1000 bytes, but only 14 follow its header")
    }

    @Test func refusesHugeDeclaredSizesBeforeAllocating() throws {
        // A raw block of 4 GiB in 20 bytes.
        let raw = try error(Array("bvx-".utf8) + u32(.max) + end)
        #expect(raw.kind == .tooLarge && raw.place == .byteOffset(4))
        // LZVN: more decoded bytes than its payload could code.
        let lzvn = try error(Array("bvxn".utf8) + u32(1 << 30) + u32(8) + [6, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(lzvn.kind == .tooLarge && lzvn.place == .byteOffset(4))
        // LZVN: a payload longer than the input.
        let payload = try error(Array("bvxn".utf8) + u32(100) + u32(5000) + [6, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(payload.kind == .tooLarge && payload.place == .byteOffset(8))
        // LZFSE: more decoded bytes than its literals and matches could give.
        var lzfse = LZFSEBlockBuilder()
        lzfse.decodedSize = 4 + 2359 + 1
        let block = try error(lzfse.stream())
        #expect(block.kind == .tooLarge && block.place == .byteOffset(4))
        // Within the format, but over the caller's limit: refused from the headers alone.
        var stream: [UInt8] = []
        for _ in 0 ..< 3 { stream += Array("bvx-".utf8) + u32(400) + [UInt8](repeating: 1, count: 400) }
        let limit = try error(stream + end, maximumSize: 1000)
        #expect(limit.kind == .tooLarge && limit.place == .byteOffset(2 * 408 + 4))
    }

    @Test func refusesLyingCountsInCompressedHeaders() throws {
        var stream = try LZFSEFixtures.stream("text-4096")
        // bvx2: the match count (bits 40–59 of the word at 8) beyond 10,000.
        stream[8 + 5] = 0xFF
        stream[8 + 6] = 0xFF
        let matches = try error(stream)
        #expect(matches.kind == .tooLarge && matches.place == .byteOffset(8))
        // bvx2: a header size past the input.
        var header = try LZFSEFixtures.stream("text-4096")
        header.replaceSubrange(24 ..< 28, with: u32(600))
        let size = try error(Array(header[..<400]))
        #expect(size.kind == .tooLarge && size.place == .byteOffset(24))
        // bvx1: literal and triple payloads that disagree with the payload total.
        var plain = LZFSEBlockBuilder().stream()
        plain.replaceSubrange(8 ..< 12, with: u32(9))
        let total = try error(plain)
        #expect(total.kind == .malformed && total.place == .byteOffset(8))
    }

    @Test func refusesFrequenciesThatDoNotAddUp() throws {
        var literal = LZFSEBlockBuilder()
        literal.literalFrequencyTotal = 1000
        let error = try error(literal.stream())
        #expect(error.kind == .malformed)
        #expect(error.place == .byteOffset(50 + 2 * (20 + 20 + 64)))
        // The L table of a real bvx1 block: one more state than 64.
        var stream = try LZFSEFixtures.stream("text-4096-bvx1")
        let first = (0 ..< 20).first { stream[50 + 2 * $0] != 0 || stream[51 + 2 * $0] != 0 }!
        stream[50 + 2 * first] &+= 1
        let l = try self.error(stream)
        #expect(l.kind == .malformed && l.place == .byteOffset(50))
        // A bvx2 prefix code 20 bytes short (the header's size field says so too).
        var packed = try LZFSEFixtures.stream("text-4096")
        let headerSize = Int(packed[24]) | Int(packed[25]) << 8
        packed.replaceSubrange(24 ..< 28, with: u32(UInt32(headerSize - 20)))
        packed.removeSubrange(headerSize - 20 ..< headerSize)
        let cut = try self.error(packed)
        #expect(cut.kind == .malformed && cut.place == .byteOffset(32))
    }

    @Test func refusesMatchesBeforeTheStart() throws {
        // LZVN: L 0, M 3, D 5 as the first opcode.
        let lzvn = try error(Array("bvxn".utf8) + u32(3) + u32(10) + [0x00, 5, 6, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(lzvn.kind == .malformed && lzvn.place == .byteOffset(12))
        // LZVN: the previous distance before there is one.
        let previous = try error(Array("bvxn".utf8) + u32(3) + u32(9) + [0xF3, 6, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(previous.kind == .malformed && previous.place == .byteOffset(12))
        // LZFSE: 3 literals, then a match from 6 back (D symbol 5: base 6, one raw bit, 0 here).
        var block = LZFSEBlockBuilder()
        block.dSymbol = 5
        block.lmdBits = [0]
        block.lmdPadding = 7
        let lzfse = try error(block.stream())
        #expect(lzfse.kind == .malformed && lzfse.place == .byteOffset(0))
        // A second stream cannot reach into the first.
        let second = try error(LZFSEBlockBuilder().stream() + Array("bvxn".utf8) + u32(3) + u32(10) + [0x00, 2, 6, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(second.kind == .malformed && second.place == .byteOffset(LZFSEBlockBuilder().stream().count + 12))
    }

    @Test func refusesLengthsBeyondTheBlock() throws {
        // More literals than the block decoded (L symbol 4: 4 > 0 literals).
        var literals = LZFSEBlockBuilder()
        literals.literalCount = 0
        literals.literalFrequencyTotal = 0
        literals.lSymbol = 4
        let l = try error(literals.stream())
        #expect(l.kind == .malformed && l.place == .byteOffset(0))
        // Literal and match past the declared size.
        var short = LZFSEBlockBuilder()
        short.decodedSize = 7
        let m = try error(short.stream())
        #expect(m.kind == .malformed && m.place == .byteOffset(0))
        // Fewer bytes than declared.
        var long = LZFSEBlockBuilder()
        long.decodedSize = 9
        let n = try error(long.stream())
        #expect(n.kind == .malformed && n.place == .byteOffset(0))
        // LZVN: a literal run longer than the payload.
        let lzvn = try error(Array("bvxn".utf8) + u32(15) + u32(10) + [0xEF, 1, 2, 6, 0, 0, 0, 0, 0, 0] + end)
        #expect(lzvn.kind == .malformed && lzvn.place == .byteOffset(12))
    }

    @Test func refusesBrokenFraming() throws {
        let empty = try error([])
        #expect(empty.kind == .malformed && empty.place == .byteOffset(0))
        let unknown = try error(Array("bvx?".utf8) + u32(0) + end)
        #expect(unknown.kind == .malformed && unknown.place == .byteOffset(0))
        // No end-of-stream block.
        let stream = try LZFSEFixtures.stream("text-1000")
        let missing = try error(Array(stream.dropLast(4)))
        #expect(missing.kind == .malformed && missing.place == .byteOffset(stream.count - 4))
        // Bytes after it that are not another stream.
        let trailing = try error(stream + [0, 0, 0, 0])
        #expect(trailing.kind == .malformed && trailing.place == .byteOffset(stream.count))
        // LZVN: undefined opcode; an end-of-block opcode before the payload's end.
        let undefined = try error(Array("bvxn".utf8) + u32(0) + u32(9) + [0x70, 6, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(undefined.kind == .malformed && undefined.place == .byteOffset(12))
        let early = try error(Array("bvxn".utf8) + u32(0) + u32(9) + [6, 0, 0, 0, 0, 0, 0, 0, 0] + end)
        #expect(early.kind == .malformed && early.place == .byteOffset(12))
        // LZFSE: a triple stream shorter than its first load.
        var block = LZFSEBlockBuilder().stream()
        block.replaceSubrange(8 ..< 12, with: u32(4))
        block.replaceSubrange(24 ..< 28, with: u32(4))
        block.removeSubrange(772 ..< 776)
        let short = try error(block)
        #expect(short.kind == .malformed && short.place == .byteOffset(772))
    }
}
