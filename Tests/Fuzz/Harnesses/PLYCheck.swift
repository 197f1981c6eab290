@testable import PointPaint

/// What the PLY harnesses do with a whole file: read it as `info`, `voxelize` and a capture's
/// `.ply` point files do, and check that writing a parsed file back is a fixed point.
enum PLYCheck {
    static func readEverything(_ bytes: [UInt8]) throws {
        let ply = try PLYReader.read(bytes: bytes, file: "cloud.ply")
        let summary = PLYSummary(ply, path: "cloud.ply").description
        for line in summary.split(separator: "\n", omittingEmptySubsequences: false) {
            Fuzz.require(line.unicodeScalars.allSatisfy(Fuzz.isVisible), "info shows an invisible character: \(line.debugDescription.prefix(300))")
        }
        if ply[element: "vertex"] != nil {
            do { _ = try ply.cloud(file: "cloud.ply") } catch { Fuzz.check(error) }
            do { _ = try PLYFeaturePoints.parse(bytes, file: "points.ply") } catch { Fuzz.check(error) }
        }
        // Written back and read again, the file must write the same bytes.
        let written = PLYWriter.encode(ply)
        let reread = try PLYReader.read(bytes: written, file: "written.ply")
        Fuzz.require(PLYWriter.encode(reread) == written, "a parsed file does not write back the same after a round trip")
    }
}
