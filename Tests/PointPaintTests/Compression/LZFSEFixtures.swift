import Foundation
@_spi(Benchmarks) @testable import PointPaint

/// The LZFSE fixtures of `Tests/Fixtures/LZFSE`: streams pyliblzfse (Apple's reference encoder)
/// wrote from seeded inputs, and the generators of those inputs, mirrored from
/// `make_fixtures.py` (SplitMix64 and IEEE double arithmetic only, so both give the same bytes;
/// `manifest.json` holds each original's FNV-1a digest to prove it).
enum LZFSEFixtures {
    /// Every fixture, as `manifest.json` lists them.
    static let names = ["empty", "tiny", "random", "text-100", "text-1000", "text-4095", "text-4096", "text-4096-bvx1",
                        "depth", "confidence", "repetitive", "repetitive-bvx1", "phrases"]

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/LZFSE").path

    /// One fixture's record in `manifest.json`.
    struct Entry: Decodable {
        var generator: String
        var parameters: [String: Int]
        var size: Int
        var fnv1a64: String
        var blocks: [String]
    }

    static func manifest() throws -> [String: Entry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
        return try JSONDecoder().decode([String: Entry].self, from: data)
    }

    static func entry(_ name: String) throws -> Entry {
        guard let entry = try manifest()[name] else { throw PointPaintError(.missing, file: "manifest.json", "no fixture \(name)") }
        return entry
    }

    /// The compressed stream of fixture `name`.
    static func stream(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).lzfse")))
    }

    /// The bytes the encoder was given for `entry`, rebuilt from its generator.
    static func original(_ entry: Entry) -> [UInt8] {
        let p = entry.parameters
        let seed = UInt64(p["seed"]!)
        switch entry.generator {
        case "random": return randomBytes(seed: seed, count: p["count"]!)
        case "text": return text(seed: seed, count: p["count"]!)
        case "depth": return depth(seed: seed, width: p["width"]!, height: p["height"]!)
        case "confidence": return confidence(seed: seed, width: p["width"]!, height: p["height"]!)
        case "repetitive": return repetitive(seed: seed, pieces: p["pieces"]!)
        case "phrases": return phrases(seed: seed, dictionary: p["dictionary"]!, pieces: p["pieces"]!, copies: p["copies"]!)
        default: fatalError("unknown generator \(entry.generator)")
        }
    }

    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: - generators (make_fixtures.py)

    static func randomBytes(seed: UInt64, count: Int) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count {
            withUnsafeBytes(of: rng.next().littleEndian) { out += $0 }
        }
        return Array(out.prefix(count))
    }

    static let words = ["depth", "colour", "voxel", "frame", "pose", "camera", "point", "cloud", "luma", "chroma",
                        "plane", "metre", "lidar", "scan", "paint", "replay", "sample", "grid", "edge", "noise"]

    static func text(seed: UInt64, count: Int) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out: [UInt8] = []
        while out.count < count {
            out += Array(words[Int(rng.next() % UInt64(words.count))].utf8) + [0x20]
        }
        return Array(out.prefix(count))
    }

    static func depthValues(seed: UInt64, width: Int, height: Int) -> [Float] {
        var rng = SplitMix64(seed: seed)
        var values: [Float] = []
        values.reserveCapacity(width * height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                var d = 3.2 + 0.004 * Double(x) - 0.002 * Double(y)
                if y >= 120 { d = min(d, 0.9 + 60.0 / Double(y - 90)) }
                if (150 ..< 215).contains(x) && (50 ..< 150).contains(y) { d = min(d, 1.8 + 0.003 * Double(x - 150)) }
                let r2 = 45 * 45 - (x - 80) * (x - 80) - (y - 85) * (y - 85)
                if r2 > 0 { d = min(d, 1.3 - 0.008 * Double(r2).squareRoot()) }
                let noise = rng.unit() - 0.5
                d = d + noise * 0.003 * d
                if rng.next() % 61 == 0 { d = 0 }
                values.append(Float(d))
            }
        }
        return values
    }

    static func depth(seed: UInt64, width: Int, height: Int) -> [UInt8] {
        depthValues(seed: seed, width: width, height: height).flatMap { value in
            withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
        }
    }

    static func confidence(seed: UInt64, width: Int, height: Int) -> [UInt8] {
        let values = depthValues(seed: seed, width: width, height: height)
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let i = y * width + x
                let d = Double(values[i])
                if d == 0 || d > 4 {
                    out[i] = 0
                } else if (x > 0 && abs(d - Double(values[i - 1])) > 0.05) || (y > 0 && abs(d - Double(values[i - width])) > 0.05) {
                    out[i] = 1
                } else {
                    out[i] = 2
                }
            }
        }
        return out
    }

    static func repetitive(seed: UInt64, pieces: Int) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out: [UInt8] = []
        for _ in 0 ..< pieces {
            let kind = rng.next() % 4
            if kind == 0 {
                let value = UInt8(rng.next() & 255)
                out += repeatElement(value, count: 1 + Int(rng.next() % 3000))
            } else if kind == 1 {
                let period = 1 + Int(rng.next() % 7)
                let pattern = (0 ..< period).map { _ in UInt8(rng.next() & 255) }
                let length = 16 + Int(rng.next() % 2000)
                out += (0 ..< length).map { pattern[$0 % period] }
            } else if kind == 2 && !out.isEmpty {
                let start = Int(rng.next() % UInt64(out.count))
                let length = 4 + Int(rng.next() % 5000)
                out += out[start ..< min(out.count, start + length)]
            } else {
                let count = 1 + Int(rng.next() % 64)
                out += (0 ..< count).map { _ in UInt8(rng.next() & 255) }
            }
        }
        return out
    }

    static func phrases(seed: UInt64, dictionary: Int, pieces: Int, copies: Int) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let words = (0 ..< dictionary).map { _ in UInt8(rng.next() & 255) }
        var body: [UInt8] = []
        for _ in 0 ..< pieces {
            let start = Int(rng.next() % UInt64(dictionary - 16))
            body += words[start ..< start + 4 + Int(rng.next() % 13)]
        }
        var out = body
        for k in 1 ... copies {
            var copy = body
            for j in stride(from: 0, to: copy.count, by: 4096) { copy[j] = UInt8(k & 255) }
            out += copy
        }
        return out
    }
}
