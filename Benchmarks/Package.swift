// swift-tools-version:6.1
// Benchmarks live in their own package so the library never depends on benchmark tooling.
// Run from this folder:  swift package benchmark   (see Benchmarks/README.md)
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "PointPaint", package: "PointPaint"),
]

/// A target of ordo-one benchmarks in Benchmarks/NAME, with `extra` dependencies.
func benchmark(_ name: String, _ extra: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: benchmarkDependencies + extra, path: "Benchmarks/\(name)",
                      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

/// A plain release executable in `path` on PointPaint (or `library`), timed as a whole process by
/// a script under peers/. Outside Benchmarks/, where the benchmark plugin would take it for one of
/// its own.
func tool(_ name: String, path: String, library: String = "PointPaint") -> Target {
    .executableTarget(name: name, dependencies: [.product(name: library, package: "PointPaint")], path: path)
}

let package = Package(
    name: "PointPaintBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named explicitly: a path dependency is otherwise named after its folder, which differs per clone.
        .package(name: "PointPaint", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // libyuv (Debian's libyuv-dev ships no pkg-config file): the peer of the Sampling benchmarks.
        .systemLibrary(name: "CLibYUV", providers: [.apt(["libyuv-dev"])]),
        // Plain C peers measured in the same run (release flags of this package).
        .target(name: "CPeers"),
        benchmark("Sampling", ["CLibYUV", "CPeers"]),
        benchmark("Scene"),
        // Timed beside `ffmpeg -f null` by peers/video_decode_bench.sh (both open the file, decode
        // every frame and exit).
        tool("VideoDecode", path: "Tools/VideoDecode"),
        // Stray Scanner's sequential frame loader, timed the same way by peers/stray_load_bench.sh.
        tool("StrayLoad", path: "Tools/StrayLoad"),
        // DepthMap.appendPoints on one core, timed by itself (peers/replay_sources_bench.sh runs it).
        tool("DepthPoints", path: "Tools/DepthPoints"),
        benchmark("Grading"),
        // LZFSE decoding; its C reference peer is loaded at run time from $LZFSE_REFERENCE_LIB.
        benchmark("Compression"),
        // The level-of-detail octree's build and node selection (CPU only, no OpenGL context).
        benchmark("LevelOfDetail", [.product(name: "PointPaintViewer", package: "PointPaint")]),
        benchmark("Store"),
        // The viewer's frame time beside peers/cubes.c (peers/viewer_bench.sh runs both): a plain
        // executable, because it draws through an OpenGL context on the main thread.
        tool("ViewerBenchmark", path: "ViewerBenchmark", library: "PointPaintViewer"),
    ],
    swiftLanguageModes: [.v6]
)
