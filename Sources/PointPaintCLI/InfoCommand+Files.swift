import Foundation
import PointPaint

/// The report `info` prints for a cloud file (PLY, LAS, store: by content, else by extension),
/// or nil for anything else (a capture).
func fileReport(path: String) throws -> String? {
    var isDirectory: ObjCBool = false
    let named = ["ply", "las", "laz", "ppstore"].contains((path as NSString).pathExtension.lowercased())
    let content = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        ? CloudFileContent(path: path) : nil
    guard content != nil || named else { return nil }
    return switch content ?? CloudFileContent.of(path) {
    case .ply: try plyReport(path: path)
    case .las: try LASSummary(path: path).description
    case .store: try storeReport(path: path)
    }
}

/// The cloud of a file `view` shows, by content (else by extension): a store's voxels, a LAS
/// file's points, else a PLY file's vertices.
func readCloudFile(_ path: String) throws -> VoxelCloud {
    switch CloudFileContent.of(path) {
    case .store: try StoreFileReader(path: path).cloud()
    case .las: try LASReader.readCloud(path: path)
    case .ply: try PLYReader.readCloud(path: path)
    }
}
