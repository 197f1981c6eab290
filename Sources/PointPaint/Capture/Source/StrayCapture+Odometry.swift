import Foundation

extension StrayCapture {
    /// One row of `odometry.csv`, in PointPaint's conventions.
    struct OdometryRow {
        /// Its line in the file.
        var line: Int
        /// The `frame` column: the number of the video sample and of the depth and confidence
        /// files (the row's position when the file has no such column).
        var frame: Int
        /// Seconds: the `timestamp` column (ARKit's clock), or the row's position ÷ 60.
        var timestamp: Double
        /// Camera-to-world with ARKit's camera axes.
        var transform: Matrix4x4
        /// The row's own `fx, fy, cx, cy`, when the file has those columns.
        var intrinsics: CameraIntrinsics?
    }

    /// `odometry.csv`, read.
    struct Odometry {
        /// The rows, in file order (frame numbers and timestamps increasing).
        var rows: [OdometryRow]
        /// What was read and assumed, for `notes`.
        var notes: [CaptureNote]
        /// Whether rows carry their own intrinsics.
        var intrinsicsPerFrame: Bool
        /// Whether rows carry their time (else row i is at i/60 s).
        var timestamps: Bool
    }

    /// The largest `odometry.csv` read: an hour at 60 frames a second is about 40 MiB.
    static let maximumOdometryBytes = 256 << 20
    /// The layout of the app's builds from February 2021, before the header line.
    static let headerlessColumns = ["x", "y", "z", "qx", "qy", "qz", "qw"]

    /// Reads `odometry.csv`: one row a saved frame, its columns found by name from the header
    /// (`timestamp, frame, x, y, z, qx, qy, qz, qw`, then in builds from 2026 `fx, fy, cx, cy,
    /// distortion_center_x, distortion_center_y`, the last two possibly empty; from March to
    /// August 2021 `x, y, z, qx, qy, qz, qw` alone). A file without a header (February 2021)
    /// holds those seven columns and is read only beside `.npy` depth maps (`npyDepth`), which
    /// came with the OpenCV axes in the same build; anything earlier was a pre-release.
    ///
    /// Each pose is camera-to-world with OpenCV's camera axes (x right, y down, z forward): the
    /// quaternion (x, y, z, w) is normalised (refused when its length is off 1 by more than
    /// `Matrix4x4.quaternionTolerance`) and its rotation R turned into ARKit's axes as R·diag(1, −1, −1).
    ///
    /// - Throws: `PointPaintError` at `.line(n)`: `.missing` columns (at the header), fields that
    ///   are not numbers or not finite, quaternions that are not of unit length, frame numbers
    ///   or timestamps that do not increase (`.malformed`), focal lengths that are not positive
    ///   (`.outOfRange`); `.unsupported` for a file without a header and without `.npy` depth.
    static func readOdometry(_ path: String, npyDepth: Bool) throws -> Odometry {
        let csv = try SourceCSV(contentsOf: path, limit: maximumOdometryBytes, header: .optional(namesIfAbsent: headerlessColumns))
        var notes: [CaptureNote] = []
        if !csv.hasHeader {
            guard npyDepth else {
                throw PointPaintError(.unsupported, file: path, place: .line(1),
                                      "expected a header line (timestamp, frame, x, y, z, qx, qy, qz, qw); a file without one is read only beside "
                                          + "the .npy depth maps of the February 2021 builds (earlier builds were pre-releases of unknown axes)")
            }
            notes.append(.layout("odometry.csv without a header (February 2021 build): columns x, y, z, qx, qy, qz, qw"))
        }
        let positionColumns = try ["x", "y", "z"].map { try csv.column($0) }
        let quaternionColumns = try ["qx", "qy", "qz", "qw"].map { try csv.column($0) }
        let timeColumn = csv.column(ifPresent: "timestamp"), frameColumn = csv.column(ifPresent: "frame")
        // Both came in the same build: one without the other is no layout the app wrote.
        if (timeColumn == nil) != (frameColumn == nil) { _ = try csv.column(timeColumn == nil ? "timestamp" : "frame") }
        if timeColumn == nil && csv.hasHeader {
            notes.append(.layout("odometry.csv without timestamp and frame columns (2021 build): frame i is row i"))
        }
        let intrinsicNames = ["fx", "fy", "cx", "cy"]
        let intrinsicColumns = intrinsicNames.contains { csv.column(ifPresent: $0) != nil } ? try intrinsicNames.map { try csv.column($0) } : nil
        let distortion = ["distortion_center_x", "distortion_center_y"].compactMap { csv.column(ifPresent: $0) }

        var rows: [OdometryRow] = []
        rows.reserveCapacity(csv.rows.count)
        var distortionRows = 0
        for (offset, row) in csv.rows.enumerated() {
            let frame = try frameColumn.map { try csv.integer($0, in: row) } ?? offset
            let timestamp = try timeColumn.map { try csv.number($0, in: row) } ?? Double(offset) / 60
            if let last = rows.last {
                guard frame > last.frame else {
                    throw PointPaintError(.malformed, file: path, place: .line(row.line),
                                          "expected a frame number after the previous row's \(last.frame), found \(frame)")
                }
                guard timestamp > last.timestamp else {
                    throw PointPaintError(.malformed, file: path, place: .line(row.line),
                                          "frame \(frame): expected a timestamp after the previous row's \(last.timestamp) s, found \(timestamp) s")
                }
            }
            let t = try SIMD3(positionColumns.map { try csv.number($0, in: row) })
            let stored = try SIMD4(quaternionColumns.map { try csv.number($0, in: row) })
            guard let q = Matrix4x4.unitQuaternion(stored) else {
                throw PointPaintError(.malformed, file: path, place: .line(row.line),
                                      "expected a unit quaternion (qx, qy, qz, qw), found one of length \((stored * stored).sum().squareRoot())")
            }
            let opencv = Matrix4x4(quaternion: q, translation: t)
            // R·diag(1, −1, −1): the camera's y and z axes turn round, its position stays.
            let transform = Matrix4x4(columns: opencv.columns.0, -opencv.columns.1, -opencv.columns.2, opencv.columns.3)
            var intrinsics: CameraIntrinsics?
            if let intrinsicColumns {
                let k = try intrinsicColumns.map { try csv.number($0, in: row) }
                for (value, column) in zip(k[0 ..< 2], intrinsicColumns) where value <= 0 {
                    throw PointPaintError(.outOfRange, file: path, place: .line(row.line), "column \(column.name): expected a positive focal length, found \(value)")
                }
                intrinsics = CameraIntrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3])
            }
            if try distortion.contains(where: { try csv.optionalNumber($0, in: row) != nil }) { distortionRows += 1 }
            rows.append(OdometryRow(line: row.line, frame: frame, timestamp: timestamp, transform: transform, intrinsics: intrinsics))
        }
        if distortionRows > 0 {
            notes.append(.camera("lens distortion centre given for \(SourceFiles.count(distortionRows, "frame")) (distortion_center_x, _y): distortion not undone"))
        }
        return Odometry(rows: rows, notes: notes, intrinsicsPerFrame: intrinsicColumns != nil, timestamps: timeColumn != nil)
    }

    /// Reads `camera_matrix.csv`: three lines `fx, 0, cx` / `0, fy, cy` / `0, 0, 1`, the
    /// intrinsics of the last frame for the colour image's size.
    /// - Throws: `.missing` for an absent file; `PointPaintError` at `.line(n)`: `.malformed` for
    ///   other than three rows of three finite numbers or a matrix of another shape,
    ///   `.unsupported` for skew, `.outOfRange` for focal lengths that are not positive.
    static func readCameraMatrix(_ path: String) throws -> CameraIntrinsics {
        let csv = try SourceCSV(contentsOf: path, limit: 1 << 16, header: .absent(names: ["1", "2", "3"]))
        guard csv.rows.count == 3 else {
            throw PointPaintError(.malformed, file: path, place: csv.rows.count > 3 ? .line(csv.rows[3].line) : nil,
                                  "expected the three rows of a 3×3 camera matrix, found \(csv.rows.count)")
        }
        let columns = try ["1", "2", "3"].map { try csv.column($0) }
        let k = try csv.rows.map { row in try columns.map { try csv.number($0, in: row) } }
        guard k[2] == [0, 0, 1] else {
            throw PointPaintError(.malformed, file: path, place: .line(csv.rows[2].line),
                                  "expected the last row 0, 0, 1 of a camera matrix, found \(k[2].map { "\($0)" }.joined(separator: ", "))")
        }
        guard k[1][0] == 0 else {
            throw PointPaintError(.malformed, file: path, place: .line(csv.rows[1].line),
                                  "expected the middle row to start with 0, found \(k[1][0])")
        }
        for (row, value) in [(0, k[0][0]), (1, k[1][1])] where value <= 0 {
            throw PointPaintError(.outOfRange, file: path, place: .line(csv.rows[row].line), "expected a positive focal length, found \(value)")
        }
        guard abs(k[0][1]) <= 1e-6 * k[0][0] else {
            throw PointPaintError(.unsupported, file: path, place: .line(csv.rows[0].line),
                                  "expected no skew (0 in the first row's middle), found \(k[0][1])")
        }
        return CameraIntrinsics(fx: k[0][0], fy: k[1][1], cx: k[0][2], cy: k[1][2])
    }
}
