import Foundation
import PointPaint

/// The report `info` prints for a file it knows by extension (PLY, LAS, store), or nil for
/// anything else (a capture).
func fileReport(path: String) throws -> String? {
    switch (path as NSString).pathExtension.lowercased() {
    case "ply": try plyReport(path: path)
    case "las": try LASSummary(path: path).description
    case "ppstore": try storeReport(path: path)
    default: nil
    }
}

/// The cloud of a file `view` shows, by extension: a store's voxels, a LAS file's points, else a
/// PLY file's vertices.
func readCloudFile(_ path: String) throws -> VoxelCloud {
    switch (path as NSString).pathExtension.lowercased() {
    case "ppstore": try StoreFileReader(path: path).cloud()
    case "las": try LASReader.readCloud(path: path)
    default: try PLYReader.readCloud(path: path)
    }
}
