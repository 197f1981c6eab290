/// Feature points stored as a PLY file (vertex x, y, z and optionally an id property).
enum PLYFeaturePoints {
    static func parse(_ bytes: [UInt8], file: String) throws -> [FeaturePoint] {
        throw PointPaintError(file: file, "PLY feature-point files are not supported yet")
    }
}
