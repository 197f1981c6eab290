import Foundation
import Testing
@testable import PointPaint

/// A small store file (one chunk) and its bytes.
private func smallFile(_ dir: TemporaryDirectory) throws -> (path: String, bytes: [UInt8]) {
    let store = StoreFixtures.store(perFrame: 9, extent: 0.3)
    let path = dir.file("small.ppstore")
    try StoreFileWriter.write(store.sortedVoxels(provenance: StoreProvenance(kind: .replay, source: "cap", frameCount: 4)), to: path)
    return (path, try StoreFixtures.bytes(path))
}

/// The error reading all of the store file holding `bytes` throws.
private func failure(_ bytes: [UInt8], _ dir: TemporaryDirectory) throws -> PointPaintError {
    let path = dir.file("bad.ppstore")
    try StoreFixtures.write(bytes, to: path)
    return try #require(throws: PointPaintError.self) { _ = try StoreFixtures.readAll(path) }
}

@Suite("Store files: bad input")
struct StoreFileBadInputTests {
    @Test("a truncated file is refused with the byte offset where it ends")
    func truncated() throws {
        let dir = TemporaryDirectory()
        let (_, bytes) = try smallFile(dir)
        for length in [0, 7, 100, 127, 135, 300, bytes.count - 40, bytes.count - 1] {
            let error = try failure(Array(bytes[..<length]), dir)
            #expect(error.kind == .malformed, "\(length)")
            #expect(error.place == .byteOffset(length), "\(length): \(error)")
            #expect(error.file == dir.file("bad.ppstore"))
        }
        #expect(try failure(Array(bytes[..<(bytes.count - 1)]), dir).description
            == "\(dir.file("bad.ppstore")): byte offset \(bytes.count - 1): expected \(bytes.count) bytes (the index ends there), found the end of the file after \(bytes.count - 1): the file is truncated")
    }

    @Test("any flipped bit anywhere in the file is caught")
    func bitFlips() throws {
        let dir = TemporaryDirectory()
        let (_, bytes) = try smallFile(dir)
        #expect(bytes.count > 500)
        for i in bytes.indices {
            var damaged = bytes
            damaged[i] ^= 1 << UInt8(i % 8)
            let error = try failure(damaged, dir)
            #expect(error.kind != .io(errno: 0), "byte \(i)")
            switch error.place {
            case .part("header")?, .part("index")?, .element("chunk", _)?, .element("voxel", _)?, .byteOffset?: break
            default: Issue.record("byte \(i): \(error)")
            }
        }
    }

    @Test("damage is named by place: header, index, chunk")
    func places() throws {
        let dir = TemporaryDirectory()
        let (_, bytes) = try smallFile(dir)
        var header = bytes
        header[20] = 1  // the policy, checksum not updated
        #expect(try failure(header, dir).place == .part("header"))
        var payload = bytes
        payload[Int(header[12]) + 200] ^= 0x40
        let chunkError = try failure(payload, dir)
        #expect(chunkError.place == .element("chunk", 0) && chunkError.kind == .malformed)
        var index = bytes
        index[bytes.count - 10] ^= 1
        #expect(try failure(index, dir).place == .part("index"))
        #expect(try failure(bytes + [0], dir).place == .part("index"), "trailing bytes")
    }

    @Test("a newer version is refused as unsupported; another file is not a store")
    func versions() throws {
        let dir = TemporaryDirectory()
        let (_, bytes) = try smallFile(dir)
        var newer = bytes
        newer[8] = 4
        let error = try failure(StoreFixtures.resealed(newer), dir)
        #expect(error.kind == .unsupported && error.place == .part("header"))
        #expect(error.message.contains("version 4 is newer than this build reads (3)"))
        let ply = Array("ply\nformat ascii 1.0\nelement vertex 0\nend_header\n".utf8) + [UInt8](repeating: 32, count: 100)
        let notStore = try failure(ply, dir)
        #expect(notStore.kind == .malformed && notStore.place == .part("header"))
    }

    @Test("sizes the header declares are checked against the file before anything is allocated")
    func lyingSizes() throws {
        let dir = TemporaryDirectory()
        let (_, bytes) = try smallFile(dir)
        var chunks = bytes
        for i in 56 ..< 64 { chunks[i] = 0x7F }  // a huge chunk count
        let error = try failure(StoreFixtures.resealed(chunks), dir)
        #expect(error.kind == .tooLarge || error.kind == .outOfRange)
        var source = bytes
        source[100] = 0xFF; source[101] = 0xFF; source[102] = 0x0F; source[103] = 0  // a 1 MiB source
        #expect(try failure(StoreFixtures.resealed(source), dir).kind == .tooLarge)
        var samples = bytes
        samples[32] ^= 1  // the sample count no longer matches the voxels
        let mismatch = try failure(StoreFixtures.resealed(samples), dir)
        #expect(mismatch.kind == .malformed && mismatch.place == .part("header") && mismatch.message.contains("samples"))
    }

    /// Found by fuzzing: the bounds error showed `SIMD3<Int32>(…)`, code rather than numbers.
    @Test("cell bounds in errors read as numbers: (x, y, z)")
    func boundsReadAsNumbers() throws {
        let dir = TemporaryDirectory()
        let (_, bytes) = try smallFile(dir)
        func cell(_ b: [UInt8], _ offset: Int) -> [Int32] {
            (0 ..< 3).map { a in Int32(bitPattern: (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(b[offset + 4 * a + $1]) << (8 * UInt32($1)) }) }
        }
        func text(_ c: [Int32]) -> String { "(" + c.map(String.init).joined(separator: ", ") + ")" }
        let (low, high) = (cell(bytes, 72), cell(bytes, 84))
        #expect(low != high, "the fixture spans more than one cell")
        var far = bytes
        far[72 ..< 76] = [0, 0, 0x20, 0]  // the lowest x cell 2^21, past ±2^20
        let outside = try failure(StoreFixtures.resealed(far), dir)
        #expect(outside.kind == .outOfRange && outside.place == .part("header"))
        #expect(outside.message == "expected cell bounds within ±2^20 with min ≤ max, found \(text([1 << 21] + low[1...])) … \(text(high))")
        var shrunk = bytes
        shrunk[84 ..< 96] = bytes[72 ..< 84]  // the highest cell is now the lowest: every other voxel lies outside
        let message = try failure(StoreFixtures.resealed(shrunk), dir).message
        #expect(message.contains("lies outside the header's bounds \(text(low)) … \(text(low))"), "\(message)")
        #expect(!message.contains("SIMD") && !outside.message.contains("SIMD"))
    }

    @Test("a missing file or a directory is refused as missing")
    func missing() throws {
        let dir = TemporaryDirectory()
        #expect(throws: PointPaintError.self) { _ = try StoreFileReader(path: dir.file("none.ppstore")) }
        let error = try #require(throws: PointPaintError.self) { _ = try StoreFileReader(path: dir.path) }
        #expect(error.kind == .missing)
    }
}
