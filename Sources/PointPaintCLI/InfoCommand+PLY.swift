import PointPaint

/// The PLY part of `pointpaint info`.
func plyReport(path: String) throws -> String {
    throw PointPaintError(file: path, "PLY summaries arrive with the PLY reader")
}
