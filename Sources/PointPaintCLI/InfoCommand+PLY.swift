import PointPaint

/// The PLY part of `pointpaint info`: the file's structure, and for coloured vertices the share
/// of colours outside sRGB.
func plyReport(path: String) throws -> String {
    let ply = try PLYReader.read(path: path)
    var report = PLYSummary(ply, path: path).description
    if ply.vertexColorProperties != nil, let cloud = try? ply.cloud(file: path), cloud.count > 0 {
        let outside = cloud.colors.reduce(0) { $0 + (ColorGamut.isInsideSRGB($1) ? 0 : 1) }
        report += "\n  colours outside sRGB: \(outside) of \(cloud.count) (\(String(format: "%.1f", 100 * Double(outside) / Double(cloud.count)))%)"
    }
    return report
}
