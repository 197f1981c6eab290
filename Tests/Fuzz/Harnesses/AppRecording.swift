import Foundation
@testable import PointPaint

/// Small valid recordings of the phone apps' layouts, made once in the scratch directory by the
/// synthesizer (2 frames of 64×48), for harnesses that put their input in place of one of the
/// recording's files and open the recording as the CLI does.
enum AppRecording {
    /// The synthesizer of every recording: small and quick.
    static let synthesizer: CaptureSynthesizer = {
        let options = CaptureSynthesizer.Options(frames: 2, width: 64, height: 48, pointsPerFrame: 20)
        return CaptureSynthesizer(options: options)
    }()

    /// Makes the recording `name` with `write` (once), returning its path.
    static func make(_ name: String, _ write: (String) throws -> Void) -> String {
        let path = Fuzz.scratch + "/" + name
        do {
            try write(path)
        } catch {
            fatalError("cannot synthesize the \(name) recording: \(error)")
        }
        return path
    }

    /// Opens `path` as `format` and reads every frame (image, camera, depth) and its JPEG bytes,
    /// as `replay` and `view` do; errors are checked by the harness.
    static func readAll(_ path: String, format: CaptureFormat) throws {
        let source = try CaptureFormat.open(path, format: format)
        for index in 0 ..< source.frameCount {
            _ = try source.frameInfo(at: index)
            let frame = try source.frame(at: index)
            Fuzz.require(frame.image.width == source.imageInfo.width && frame.image.height == source.imageInfo.height,
                         "frame \(index) of \(frame.image.width)x\(frame.image.height) in a \(source.imageInfo.width)x\(source.imageInfo.height) capture")
            _ = try source.jpegData(at: index)
        }
    }

    /// Reads the recording at `path` as `format` (`readAll`) with `bytes` in place of its file
    /// `file` (relative to the scratch directory). `path` is made, from its static property,
    /// before the input replaces the file: arguments are evaluated before the call.
    static func readAll(_ path: String, format: CaptureFormat, replacing file: String, with bytes: [UInt8]) throws {
        _ = Fuzz.write(bytes, to: file)
        try readAll(path, format: format)
    }
}

/// Stray Scanner's CSV files: the input's first byte picks `odometry.csv` or `camera_matrix.csv`,
/// the rest replaces it.
enum StrayCSVHarness: FuzzHarness {
    static let name = "stray-csv"
    static let path = AppRecording.make("stray") { _ = try AppRecording.synthesizer.writeStray(to: $0) }
    static let originals = ["odometry.csv", "camera_matrix.csv"].map { name in (name, try! FileBytes.read(path + "/" + name)) }

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = path  // the recording is made before the first input replaces its files
        guard let first = bytes.first else { return }
        let target = Int(first & 1)
        for (k, (name, original)) in originals.enumerated() {
            _ = Fuzz.write(k == target ? Array(bytes.dropFirst()) : original, to: "stray/" + name)
        }
        try AppRecording.readAll(path, format: .stray)
    }
}

/// Record3D's `.r3d`: the whole archive (ZIP directory, metadata JSON, LZFSE depth and
/// confidence, JPEG frames).
enum Record3DArchiveHarness: FuzzHarness {
    static let name = "r3d"
    static let directory = AppRecording.make("r3d") { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: true) }

    static func fuzz(_ bytes: [UInt8]) throws {
        _ = directory  // made before the first input is written into it
        try AppRecording.readAll(Fuzz.write(bytes, to: "r3d/capture.r3d"), format: .record3d)
    }
}

/// Record3D's EXR + JPG export: the input is its `metadata.json`.
enum Record3DMetadataHarness: FuzzHarness {
    static let name = "record3d-metadata"
    static let path = AppRecording.make("record3d") { _ = try AppRecording.synthesizer.writeRecord3DExport(to: $0) }

    static func fuzz(_ bytes: [UInt8]) throws {
        try AppRecording.readAll(path, format: .record3d, replacing: "record3d/metadata.json", with: bytes)
    }
}

/// Polycam's raw data: the input is the first frame's corrected camera JSON.
enum PolycamCameraHarness: FuzzHarness {
    static let name = "polycam-camera"
    static let path = AppRecording.make("polycam") { _ = try AppRecording.synthesizer.writePolycam(to: $0) }
    static let camera: String = {
        let folder = path + "/keyframes/corrected_cameras"
        let first = (try! FileManager.default.contentsOfDirectory(atPath: folder)).sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }[0]
        return "polycam/keyframes/corrected_cameras/" + first
    }()

    static func fuzz(_ bytes: [UInt8]) throws {
        try AppRecording.readAll(path, format: .polycam, replacing: camera, with: bytes)
    }
}

/// 3D Scanner App's export: the input is the first frame's `frame_00000.json`.
enum ScannerAppFrameHarness: FuzzHarness {
    static let name = "scanner-frame"
    static let path = AppRecording.make("scanner") { _ = try AppRecording.synthesizer.writeScannerApp(to: $0) }

    static func fuzz(_ bytes: [UInt8]) throws {
        try AppRecording.readAll(path, format: .scannerApp, replacing: "scanner/frame_00000.json", with: bytes)
    }
}

/// nerfstudio's `transforms.json`.
enum NerfstudioTransformsHarness: FuzzHarness {
    static let name = "nerfstudio"
    static let path = AppRecording.make("nerfstudio") { _ = try AppRecording.synthesizer.writeNerfstudio(to: $0) }

    static func fuzz(_ bytes: [UInt8]) throws {
        try AppRecording.readAll(path, format: .nerfstudio, replacing: "nerfstudio/transforms.json", with: bytes)
    }
}
