extension CaptureFormat {
    /// Opens the capture at `path` as the format its files show (`detect`), or as `format` when
    /// one is given (a recording whose telltale files are missing or ambiguous).
    /// - Throws: `detect`'s errors — `.missing` for nothing at `path`, `.unsupported` naming
    ///   every format looked for when the path is none of them — and the source's own errors.
    public static func open(_ path: String, format: CaptureFormat? = nil) throws -> any CaptureSource {
        try (format ?? detect(path)).open(path)
    }

    /// Opens the capture at `path` as this format, without looking at what else it could be.
    /// - Throws: the source's errors: the files this format needs that are missing or damaged.
    public func open(_ path: String) throws -> any CaptureSource {
        switch self {
        case .pointpaint: try CaptureReader(path: path)
        case .stray: try StrayCapture(path: path)
        case .record3d: try Record3DCapture(path: path)
        case .polycam: try PolycamCapture(path: path)
        case .scannerApp: try ScannerAppCapture(path: path)
        case .nerfstudio: try NerfstudioCapture(path: path)
        }
    }
}
