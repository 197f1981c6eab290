import Foundation
import Benchmark
@_spi(Benchmarks) import PointPaint

#if canImport(Glibc)
import Glibc
#endif

/// Inputs: the depth-map fixture of the tests (256×192 float32, 5 LZFSE blocks) and, when
/// `$LZFSE_BENCH_INPUTS` names the folder `peers/lzfse_peers.py --inputs` wrote, a 16 MiB mixed
/// stream (247 blocks). Each decodes into an output allocated before measuring.
enum CompressionData {
    struct Input: Sendable {
        var name: String
        var stream: [UInt8]
        var size: Int
        var digest: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/LZFSE").path

    static func inputs() -> [Input] {
        var inputs: [Input] = []
        let manifest = json(fixtures + "/manifest.json")?["depth"] as? [String: Any]
        if let stream = bytes(fixtures + "/depth.lzfse"), let size = manifest?["size"] as? Int, let digest = manifest?["fnv1a64"] as? String {
            inputs.append(Input(name: "256×192 float32 depth map (196,608 bytes, 5 blocks)", stream: stream, size: size, digest: digest))
        } else {
            print("Compression: Tests/Fixtures/LZFSE/depth.lzfse or its manifest entry is missing")
        }
        if let folder = ProcessInfo.processInfo.environment["LZFSE_BENCH_INPUTS"],
           let stream = bytes(folder + "/mixed-16m.lzfse"), let info = json(folder + "/mixed-16m.json"),
           let size = info["size"] as? Int, let digest = info["fnv1a64"] as? String {
            inputs.append(Input(name: "16 MiB mixed stream", stream: stream, size: size, digest: digest))
        } else {
            print("Compression: no 16 MiB stream (run peers/lzfse_peers.py --inputs DIR and set LZFSE_BENCH_INPUTS=DIR)")
        }
        return inputs
    }

    static func bytes(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) }
    }

    static func json(_ path: String) -> [String: Any]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Apple's reference decoder (github.com/lzfse/lzfse), loaded from `$LZFSE_REFERENCE_LIB`
/// (`peers/build_lzfse_reference.sh` builds it; nothing of it is committed).
struct ReferenceLZFSE: @unchecked Sendable {
    typealias Decode = @convention(c) (UnsafeMutablePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafeMutableRawPointer?) -> Int
    typealias ScratchSize = @convention(c) () -> Int

    let decode: Decode
    let scratchSize: Int

    init?() {
        guard let path = ProcessInfo.processInfo.environment["LZFSE_REFERENCE_LIB"] else {
            print("Compression: no C reference peer (build it with peers/build_lzfse_reference.sh and set LZFSE_REFERENCE_LIB)")
            return nil
        }
        guard let handle = dlopen(path, RTLD_NOW), let decode = dlsym(handle, "lzfse_decode_buffer"),
              let scratch = dlsym(handle, "lzfse_decode_scratch_size") else {
            print("Compression: cannot load lzfse_decode_buffer from \(path)")
            return nil
        }
        self.decode = unsafeBitCast(decode, to: Decode.self)
        scratchSize = unsafeBitCast(scratch, to: ScratchSize.self)()
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], warmupIterations: 3, maxDuration: .seconds(5))
    let reference = ReferenceLZFSE()

    for input in CompressionData.inputs() {
        Benchmark("LZFSE decode \(input.name)") { benchmark in
            var out = [UInt8](repeating: 0, count: input.size)
            benchmark.startMeasurement()
            try out.withUnsafeMutableBytes { output in
                try input.stream.withUnsafeBytes { try LZFSE.decode($0, into: output) }
            }
            benchmark.stopMeasurement()
            precondition(CompressionData.fnv1a64(out) == input.digest, "decoded bytes differ from the encoder's input")
            blackHole(out)
        }

        if let reference {
            Benchmark("LZFSE decode \(input.name) (peer: C reference)") { benchmark in
                var out = [UInt8](repeating: 0, count: input.size)
                let scratch = UnsafeMutableRawPointer.allocate(byteCount: reference.scratchSize, alignment: 16)
                defer { scratch.deallocate() }
                benchmark.startMeasurement()
                let n = out.withUnsafeMutableBufferPointer { output in
                    input.stream.withUnsafeBufferPointer { reference.decode(output.baseAddress, output.count, $0.baseAddress, $0.count, scratch) }
                }
                benchmark.stopMeasurement()
                precondition(n == input.size && CompressionData.fnv1a64(out) == input.digest, "the reference decoded other bytes")
                blackHole(out)
            }
        }
    }
}
