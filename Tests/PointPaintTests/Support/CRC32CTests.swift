import Testing
@testable import PointPaint

@Suite("CRC-32C")
struct CRC32CTests {
    @Test("known values, and the hardware path equals the table reference at every length and alignment")
    func values() {
        let digits = Array("123456789".utf8)
        #expect(digits.withUnsafeBytes { CRC32C.checksum($0) } == 0xE306_9283)
        #expect(digits.withUnsafeBytes { CRC32C.referenceChecksum($0) } == 0xE306_9283)
        #expect([UInt8](repeating: 0, count: 32).withUnsafeBytes { CRC32C.referenceChecksum($0) } == 0x8A91_36AA)
        #expect([UInt8]().withUnsafeBytes { CRC32C.checksum($0) } == 0)
        var state: UInt64 = 9
        let data = (0 ..< 1000).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        data.withUnsafeBytes { all in
            for start in 0 ..< 9 {
                for length in [0, 1, 7, 8, 9, 15, 16, 63, 200, 991 - start] {
                    let part = UnsafeRawBufferPointer(rebasing: all[start ..< start + length])
                    #expect(CRC32C.checksum(part) == CRC32C.referenceChecksum(part), "start \(start), length \(length)")
                }
            }
            // Continuing a checksum equals checksumming the whole.
            let whole = CRC32C.checksum(all)
            let split = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[333...]), continuing: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[..<333])))
            #expect(split == whole)
        }
    }
}
