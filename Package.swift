// swift-tools-version:6.1
// PointPaint: replays ARKit captures (YCbCr frames, camera poses, feature points) into
// coloured voxel clouds, with an OpenGL viewer and PLY export.
import PackageDescription

let package = Package(
    name: "PointPaint",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PointPaint", targets: ["PointPaint"]),
        .library(name: "PointPaintViewer", targets: ["PointPaintViewer"]),
        .executable(name: "pointpaint", targets: ["pointpaint"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CGLFW", pkgConfig: "glfw3",
            providers: [.apt(["libglfw3-dev", "libgl-dev"]), .brew(["glfw"])]),
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CZip", pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"]), .brew(["libzip"])]),
        // OpenEXR decoding driven from C (its API is built on macros and callbacks), through OpenEXR's
        // C core library alone (Debian's libopenexr-dev; its pkg-config file would pull in the C++
        // libraries too).
        .target(name: "EXRCodec", linkerSettings: [.linkedLibrary("OpenEXRCore")]),
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"]), .brew(["ffmpeg"])]),
        // libpng's error handling needs setjmp, which Swift cannot call: a small C codec.
        .target(name: "PNGCodec", dependencies: ["CPNG"]),
        // libav's log callback takes a va_list, which Swift cannot format: a small C log sink.
        .target(name: "CFFmpegSupport", dependencies: ["CFFmpeg"]),
        // Compiler built-ins Swift cannot spell (a prefetch hint), as inline C; and the temporary
        // files of atomic writes, which a signal handler must reach (async-signal-safe C).
        .target(name: "CPointPaintSupport"),

        // Row kernels for instruction sets beyond the x86-64 baseline (AVX2, AVX-512BW), chosen
        // at run time: per-function target attributes, so no unsafe flags.
        .target(name: "CPointPaintKernels"),
        // LAZ's entropy coder and per-field compressors (the LASzip format), in C: they run once a
        // field of every point. Framing, files and threads are Swift (PointPaint/LAZ).
        .target(name: "LAZCodec"),

        // Core library: captures, colour, image and video decoding, sampling, scene store, PLY, grading. No OpenGL.
        .target(
            name: "PointPaint",
            dependencies: [
                "PNGCodec", "EXRCodec", "CTurboJPEG", "CZip", "CFFmpeg", "CFFmpegSupport",
                "CPointPaintSupport", "CPointPaintKernels", "LAZCodec",
            ]),

        // GLFW/OpenGL viewer. Shaders from the top-level Shaders/ folder are embedded at build time.
        .target(
            name: "PointPaintViewer", dependencies: ["PointPaint", "CGLFW", "CPointPaintSupport"],
            plugins: ["EmbedShaders"]),
        .executableTarget(name: "ShaderEmbedder"),
        .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ShaderEmbedder"]),

        // Command line: the commands live in a library so tests can drive them.
        .target(
            name: "PointPaintCLI",
            dependencies: [
                "PointPaint", "PointPaintViewer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "pointpaint", dependencies: ["PointPaintCLI"]),

        .testTarget(name: "PointPaintTests", dependencies: ["PointPaint"]),
        .testTarget(name: "PointPaintViewerTests", dependencies: ["PointPaintViewer"]),
        .testTarget(name: "PointPaintCLITests", dependencies: ["PointPaintCLI", "pointpaint"]),
    ],
    swiftLanguageModes: [.v6]
)
