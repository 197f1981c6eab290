import Testing
@testable import PointPaint

/// The Morton code one bit at a time: the reference for the shift-and-mask version.
private func referenceCode(_ key: VoxelKey) -> UInt64 {
    let fields = [key.x, key.y, key.z].map { UInt64(Int64($0) + (1 << 20)) }
    var code: UInt64 = 0
    for bit in 0 ..< 21 {
        for axis in 0 ..< 3 { code |= ((fields[axis] >> UInt64(bit)) & 1) << UInt64(3 * bit + axis) }
    }
    return code
}

@Suite("VoxelKey Morton codes")
struct VoxelKeyMortonTests {
    @Test("codes interleave the biased fields, x lowest, and round-trip over the whole range")
    func codes() {
        let lo = VoxelKey.range.lowerBound, hi = VoxelKey.range.upperBound
        var keys = [(lo, lo, lo), (hi, hi, hi), (0, 0, 0), (-1, -1, -1), (1, 0, 0), (0, 1, 0), (0, 0, 1), (12345, -54321, 777)]
            .map { VoxelKey(x: $0.0, y: $0.1, z: $0.2) }
        var state: UInt64 = 42
        for _ in 0 ..< 2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            func field(_ shift: UInt64) -> Int32 { Int32(truncatingIfNeeded: (state >> shift) & 0x1F_FFFF) - (1 << 20) }
            keys.append(VoxelKey(x: field(1), y: field(22), z: field(43)))
        }
        for key in keys {
            let code = key.mortonCode
            #expect(code == referenceCode(key), "\(key)")
            #expect(code < VoxelKey.mortonLimit)
            #expect(VoxelKey(mortonCode: code) == key)
        }
        #expect(VoxelKey(x: lo, y: lo, z: lo).mortonCode == 0)
        #expect(VoxelKey(x: hi, y: hi, z: hi).mortonCode == VoxelKey.mortonLimit - 1)
        // The cell at the origin has the top bit of each field set: bits 60, 61, 62.
        #expect(VoxelKey(x: 0, y: 0, z: 0).mortonCode == 0b111 << 60)
        #expect(VoxelKey(x: 1, y: 0, z: 0).mortonCode == 0b111 << 60 | 1)
        #expect(VoxelKey(x: 0, y: 1, z: 0).mortonCode == 0b111 << 60 | 2)
        #expect(VoxelKey(x: 0, y: 0, z: 1).mortonCode == 0b111 << 60 | 4)
    }

    @Test("an aligned block of 2ᵏ cells a side is one run of codes")
    func blocks() {
        var codes: [UInt64] = []
        for z in Int32(8) ..< 12 { for y in Int32(-4) ..< 0 { for x in Int32(4) ..< 8 { codes.append(VoxelKey(x: x, y: y, z: z).mortonCode) } } }
        codes.sort()
        #expect(codes.last! - codes.first! == UInt64(codes.count - 1))
    }
}
