import ArgumentParser
import Foundation
import PointPaint

/// The files a store's voxels can be written as, by the output's extension.
enum CloudFileKind: String, CaseIterable {
    /// A PLY cloud (points or boxes).
    case ply
    /// A LAS 1.4 cloud (point format 7).
    case las
    /// A LAZ cloud: the LAS file compressed (docs/laz.md).
    case laz
    /// A PointPaint store, exact, to merge later.
    case ppstore

    /// LAS, compressed or not.
    var isLAS: Bool { self == .las || self == .laz }

    /// The kind `path`'s extension names (any case); PLY for a device or FIFO of no known
    /// extension (`-o /dev/null`, `-o /dev/stdout`), which is written in place, not replaced.
    /// - Throws: `.unsupported` at part `-o` for an extension no writer knows.
    init(path: String) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        guard let kind = CloudFileKind(rawValue: ext) else {
            var st = stat()
            if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR || (st.st_mode & S_IFMT) == S_IFIFO {
                self = .ply
                return
            }
            let known = CloudFileKind.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw PointPaintError(.unsupported, file: path, place: .part("-o"),
                                  "expected an output file ending in \(known), found \(ext.isEmpty ? "no extension" : PointPaintError.quote("." + ext))")
        }
        self = kind
    }
}

/// Where and how `replay`, `voxelize` and `merge` write their voxels: `-o` names the file and its
/// kind by extension; the PLY options apply to PLY output. Every file is written from the exact
/// voxels in Morton order, so the same samples give the same bytes however the work was split.
struct CloudOutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "File to write: .ply, .las, .laz or .copc.laz (a cloud), or .ppstore (an exact store, to merge later).")
    var output: String

    @OptionGroup(title: "PLY output") var ply: PLYOutputOptions

    /// The kind of file `-o` names.
    var kind: CloudFileKind {
        get throws { try CloudFileKind(path: output) }
    }

    /// Refuses an unknown extension, and PLY options for another kind of file.
    func validate() throws {
        let kind: CloudFileKind
        do { kind = try CloudFileKind(path: output) } catch let error as PointPaintError { throw ValidationError(error.description) }
        if kind != .ply, let option = ply.optionGiven {
            throw ValidationError("\(option) applies to PLY output, not to the .\(kind.rawValue) file \(output)")
        }
    }

    /// Writes `source` to `-o` in the kind of file its extension names; PLY headers carry the
    /// source and comments its provenance gives.
    func write(_ source: some VoxelChunkSource) throws {
        switch try kind {
        case .ply:
            try source.writePLY(to: output, writer: ply.writer(source: nil))
        case .las, .laz:
            try source.writeLAS(to: output)
        case .ppstore:
            try StoreFileWriter.write(source, to: output)
        }
    }
}
