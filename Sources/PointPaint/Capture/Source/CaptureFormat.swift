import Foundation

/// The recording formats PointPaint reads, and how each is recognised from what a path holds.
public enum CaptureFormat: String, Sendable, CaseIterable, Hashable {
    /// PointPaint's own format, version 1: a directory with `capture.json`.
    case pointpaint
    /// Stray Scanner: `odometry.csv`, `camera_matrix.csv`, `rgb.mp4` or `rgb/`, `depth/`, `confidence/`.
    case stray
    /// Record3D: a `.r3d` file (a ZIP of `metadata` and `rgbd/`), or its "EXR + JPG" export
    /// (`metadata.json`, `rgb/`, `depth/`).
    case record3d
    /// Polycam's raw data: `keyframes/` with images, cameras, depth and confidence (or a
    /// folder whose only folder holds it).
    case polycam
    /// 3D Scanner App's "All Data" export: `frame_NNNNN.json` / `.jpg`, `depth_NNNNN.png`.
    case scannerApp = "scanner-app"
    /// A nerfstudio-style `transforms.json` folder.
    case nerfstudio

    /// The name people know the format by.
    public var displayName: String {
        switch self {
        case .pointpaint: "PointPaint capture (format v1)"
        case .stray: "Stray Scanner"
        case .record3d: "Record3D"
        case .polycam: "Polycam raw data"
        case .scannerApp: "3D Scanner App export"
        case .nerfstudio: "nerfstudio transforms.json"
        }
    }

    /// What a path of this format holds, for the error that lists what was looked for.
    var signature: String {
        switch self {
        case .pointpaint: "capture.json"
        case .stray: "odometry.csv with rgb.mp4 or rgb/"
        case .record3d: "a .r3d file, or metadata.json with rgb/"
        case .polycam: "keyframes/ (Polycam)"
        case .scannerApp: "frame_00000.json (3D Scanner App)"
        case .nerfstudio: "transforms.json"
        }
    }

    /// The format of the capture at `path`: a directory (or, for some formats, a file inside one
    /// or an archive) is recognised by the files it holds, checked in the order of `allCases`.
    /// - Throws: `.missing` when nothing is at `path`; `.unsupported` naming what was looked for
    ///   when the path is none of the formats.
    public static func detect(_ path: String) throws -> CaptureFormat {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PointPaintError(.missing, file: path, "expected a capture (a directory or a .r3d file), found nothing at this path")
        }
        if !isDirectory.boolValue {
            let name = (path as NSString).lastPathComponent.lowercased()
            if name == "capture.json" { return .pointpaint }
            // transforms_train.json and its kin: the NeRF synthetic scenes' splits.
            if name == "transforms.json" || (name.hasPrefix("transforms_") && name.hasSuffix(".json")) { return .nerfstudio }
            if name.hasSuffix(".r3d") { return .record3d }
            throw PointPaintError(.unsupported, file: path,
                                  "expected a capture directory, a capture.json or transforms.json (transforms_*.json) inside one, or a Record3D .r3d file")
        }
        for format in allCases where format.matches(directory: path) { return format }
        let looked = allCases.map(\.signature).joined(separator: "; ")
        throw PointPaintError(.unsupported, file: path, "expected a capture; looked for \(looked), and found none of them")
    }

    /// Whether `directory` holds this format's telltale files.
    func matches(directory: String) -> Bool {
        func exists(_ name: String, directory wanted: Bool? = nil) -> Bool {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(name), isDirectory: &isDirectory) else {
                return false
            }
            return wanted.map { $0 == isDirectory.boolValue } ?? true
        }
        switch self {
        case .pointpaint: return exists("capture.json", directory: false)
        case .stray: return exists("odometry.csv", directory: false) && (exists("rgb.mp4", directory: false) || exists("rgb", directory: true))
        case .record3d: return exists("metadata.json", directory: false) && exists("rgb", directory: true)
        case .polycam:
            // Some Polycam zips hold the export in a folder of its own.
            if exists("keyframes", directory: true) { return true }
            let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { !$0.hasPrefix(".") && exists($0, directory: true) }
            return folders.count == 1 && exists(folders[0] + "/keyframes", directory: true)
        case .scannerApp: return exists("frame_00000.json", directory: false)
            || ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasPrefix("frame_") && $0.hasSuffix(".json") }
        case .nerfstudio: return exists("transforms.json", directory: false)
        }
    }
}
