// swift-tools-version:6.1
// Benchmarks live in their own package so the library never depends on benchmark tooling.
// Run from this folder:  swift package benchmark   (see Benchmarks/README.md)
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "PointPaint", package: "PointPaint"),
]

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
        .executableTarget(
            name: "Sampling", dependencies: benchmarkDependencies + ["CLibYUV", "CPeers"], path: "Benchmarks/Sampling",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Scene", dependencies: benchmarkDependencies, path: "Benchmarks/Scene",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // A plain release executable, timed as a whole process beside `ffmpeg -f null` by
        // peers/video_decode_bench.sh (both open the file, decode every frame and exit). Outside
        // Benchmarks/, where the benchmark plugin would take it for one of its own.
        .executableTarget(
            name: "VideoDecode", dependencies: [.product(name: "PointPaint", package: "PointPaint")],
            path: "Tools/VideoDecode"),
        // Stray Scanner's sequential frame loader, timed the same way by peers/stray_load_bench.sh.
        .executableTarget(
            name: "StrayLoad", dependencies: [.product(name: "PointPaint", package: "PointPaint")],
            path: "Tools/StrayLoad"),
        // DepthMap.appendPoints on one core, timed by itself (peers/replay_sources_bench.sh runs it).
        .executableTarget(
            name: "DepthPoints", dependencies: [.product(name: "PointPaint", package: "PointPaint")],
            path: "Tools/DepthPoints"),
        .executableTarget(
            name: "Grading", dependencies: benchmarkDependencies, path: "Benchmarks/Grading",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // LZFSE decoding; its C reference peer is loaded at run time from $LZFSE_REFERENCE_LIB.
        .executableTarget(
            name: "Compression", dependencies: benchmarkDependencies, path: "Benchmarks/Compression",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The level-of-detail octree's build and node selection (CPU only, no OpenGL context).
        .executableTarget(
            name: "LevelOfDetail",
            dependencies: benchmarkDependencies + [.product(name: "PointPaintViewer", package: "PointPaint")],
            path: "Benchmarks/LevelOfDetail",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Store", dependencies: benchmarkDependencies, path: "Benchmarks/Store",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The viewer's frame time beside peers/cubes.c (peers/viewer_bench.sh runs both): a plain
        // executable, because it draws through an OpenGL context on the main thread.
        .executableTarget(
            name: "ViewerBenchmark", dependencies: [.product(name: "PointPaintViewer", package: "PointPaint")],
            path: "ViewerBenchmark"),
    ],
    swiftLanguageModes: [.v6]
)
