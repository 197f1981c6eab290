import Foundation
import PointPaint

/// `pointpaint export-web` (docs/web.md): a cloud as a self-contained static site that any static
/// server publishes and any WebGL2 browser shows: `index.html`, the viewer's own JavaScript and
/// CSS (`Web/`, embedded at build time), and the cloud as the desktop viewer's level-of-detail
/// octree (`PointOctree`), one file a node, each loaded when the page's view needs it.
///
/// The site's `cloud/` folder:
/// - `metadata.json`: what the page needs before any node: the cloud's origin (whole metres, as
///   `VoxelCloud.origin`), its framing (`SceneFraming`: the bulk and the whole, the box size), the
///   point budget, and which optional layers the node files carry (`WebNodeFile.Layers`);
/// - `hierarchy.bin`: every node, 32 bytes each (`NodeRecord`);
/// - `nodes/N.bin`: node N's points (`WebNodeFile`): positions quantised to 16 bits within the
///   node's cube, 8-bit sRGB colour, and, where the cloud has them, 8-bit Display P3 colour
///   for wide colour and a heat byte each for views and spread: 9 to 14 bytes a point.
public enum WebExport {
    /// What to write.
    public struct Options: Sendable {
        /// The page's title.
        public var title = "PointPaint"
        /// Points the page draws at most when still (a quarter while the view moves).
        public var budget = 2_000_000
        public init() {}
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        public var points: Int
        public var nodes: Int
        /// Bytes of the node files together.
        public var nodeBytes: Int
    }

    /// The version of the site's data layout, in `metadata.json`.
    public static let layoutVersion = 1
    /// What `metadata.json` names as its writer: a folder holding it is a previous export, which
    /// a new one replaces.
    public static let generator = "pointpaint export-web"

    /// Writes `cloud` as a site into `directory`: a new or empty folder, or a previous export,
    /// which is replaced whole once the new one is complete (written beside it, then renamed).
    /// - Throws: `.malformed` when `directory` is a file or a folder holding anything but a
    ///   previous export; `.missing` when the cloud has no finite point; write errors.
    public static func write(_ cloud: VoxelCloud, to directory: String, options: Options) throws -> Summary {
        guard cloud.positions.contains(where: \.hasFiniteCoordinates) else {
            throw PointPaintError(.missing, file: directory, "expected a cloud with at least one finite point to export, found none of \(cloud.count)")
        }
        try checkDestination(directory)  // which also finishes a replacement killed between its renames
        let trimmed = FilePaths.withoutTrailingSlash(directory)
        guard isPreviousExport(trimmed) else {
            return try AtomicFile.writeDirectory(to: trimmed) { try writeSite(cloud, into: $0, options: options) }
        }
        // Beside the old site, then swapped in by two renames: a reader finds the old site or the
        // new one (or, for the instant between the renames, none), never a half-written one.
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path, name = url.lastPathComponent
        let tag = "\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fresh = parent + "/." + name + ".new-" + tag, old = parent + "/." + name + ".old-" + tag
        let summary = try AtomicFile.writeDirectory(to: fresh) { try writeSite(cloud, into: $0, options: options) }
        guard rename(trimmed, old) == 0 else {
            try? FileManager.default.removeItem(atPath: fresh)
            throw PointPaintError.system("cannot move the previous export aside", file: directory)
        }
        guard rename(fresh, trimmed) == 0 else {
            _ = rename(old, trimmed)
            try? FileManager.default.removeItem(atPath: fresh)
            throw PointPaintError.system("cannot move the new export into place", file: directory)
        }
        try? FileManager.default.removeItem(atPath: old)
        return summary
    }

    /// Refuses `directory` unless a site can be written there: absent, an empty folder or a
    /// previous export (what `write` checks; a command checks it before a long replay).
    /// - Throws: `.malformed` naming what stands there.
    public static func checkDestination(_ directory: String) throws {
        let trimmed = FilePaths.withoutTrailingSlash(directory)
        recoverInterruptedSwap(trimmed)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory), !isPreviousExport(trimmed) else { return }
        let contents = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) : nil
        guard let contents, contents.isEmpty else {
            let found = contents.map { "one holding \($0.count) \($0.count == 1 ? "entry" : "entries")" } ?? "a file"
            throw PointPaintError(.malformed, file: directory, "expected a new or empty folder (or a previous export) to write into, found \(found)")
        }
    }

    /// Finishes or clears what a replacement killed between its two renames left beside `path`:
    /// `.NAME.new-PID-R` (the complete new site) and `.NAME.old-PID-R` (the previous one), whose
    /// process PID no longer runs. Where `path` is missing, the new site is moved into place (or,
    /// without one, the previous site back); every other such leftover is removed.
    static func recoverInterruptedSwap(_ path: String) {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path, name = url.lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        func leftovers(_ kind: String) -> [String] {
            let prefix = "." + name + "." + kind + "-"
            return entries.filter { entry in
                guard entry.hasPrefix(prefix) else { return false }
                let parts = entry.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
                guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil, pid != getpid() else { return false }
                return kill(pid, 0) != 0 && errno == ESRCH
            }.sorted().map { parent + "/" + $0 }
        }
        var present = FileManager.default.fileExists(atPath: path)
        for kind in ["new", "old"] {
            for leftover in leftovers(kind) {
                if !present, isPreviousExport(leftover), rename(leftover, path) == 0 {
                    present = true
                } else {
                    try? FileManager.default.removeItem(atPath: leftover)
                }
            }
        }
    }

    /// Whether `path` is a folder a previous `export-web` wrote (its `cloud/metadata.json` names
    /// the generator).
    static func isPreviousExport(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path + "/cloud/metadata.json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["generator"] as? String == generator
    }

    /// The site's files in the folder `root`: the octree is built here, and its nodes are written
    /// as they are finished (`WebNodeFiles`), while the rest of the tree is built.
    static func writeSite(_ cloud: VoxelCloud, into root: String, options: Options) throws -> Summary {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: root + "/cloud/nodes", withIntermediateDirectories: true)
        for (name, text) in EmbeddedWeb.sources.sorted(by: { $0.key < $1.key }) {
            let page = name == "index.html" ? text.replacingOccurrences(of: "{{TITLE}}", with: htmlEscaped(options.title)) : text
            try writeFile(Data(page.utf8), to: root + "/" + name)
        }
        // What the node files and metadata.json need besides the octree, a pass or two over the
        // cloud each: worked out on another core while this one sorts the points for the tree.
        let described = BackgroundValue { (WebNodeFile.Layers(cloud: cloud), SceneFraming(cloud: cloud)) }
        var files: WebNodeFiles?
        let octree = PointOctree(positions: cloud.positions) { id, node in
            if files == nil { files = WebNodeFiles(cloud: cloud, layers: described.value.0, folder: root + "/cloud/nodes") }
            files?.add(id, node)
        }
        let (layers, framing) = described.value
        guard let sizes = try files?.finish() else {
            throw PointPaintError(.missing, file: root, "expected a cloud with at least one finite point to export, found none of \(cloud.count)")
        }
        try writeFile(NodeRecord.table(octree), to: root + "/cloud/hierarchy.bin")
        try writeFile(metadata(cloud, octree: octree, layers: layers, framing: framing, options: options), to: root + "/cloud/metadata.json")
        return Summary(points: octree.pointCount, nodes: octree.nodes.count, nodeBytes: sizes.values.reduce(0, +))
    }

    /// `data` as the new file `path`, inside the folder being written (renamed into place once
    /// complete). `Data.write` would sync each file to the disk: for a 20M-point site's
    /// thousands of node files that doubled the export's wall time.
    static func writeFile(_ data: Data, to path: String) throws {
        try data.withUnsafeBytes { try writeFile($0, to: path) }
    }

    /// `bytes` as the new file `path`, as `writeFile(_:to:)`.
    static func writeFile(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        var sink = try FileSink(creating: path, file: path)
        try sink.write(bytes)
        try sink.finish()
    }

    /// `metadata.json`.
    static func metadata(_ cloud: VoxelCloud, octree: PointOctree, layers: WebNodeFile.Layers, framing: SceneFraming,
                         options: Options) throws -> Data {
        let view = framing.suggestedView
        func vector(_ v: SIMD3<Float>) -> [Double] { [Double(v.x), Double(v.y), Double(v.z)] }
        let object: [String: Any] = [
            "generator": generator,
            "version": layoutVersion,
            "title": options.title,
            "points": octree.pointCount,
            "nodes": octree.nodes.count,
            "budget": options.budget,
            "origin": [cloud.origin.x, cloud.origin.y, cloud.origin.z],
            "gridBits": PointOctree.gridBits,
            "framing": [
                "center": vector(framing.center), "radius": Double(framing.radius), "extent": vector(framing.extent),
                "fullCenter": vector(framing.fullCenter), "fullRadius": Double(framing.fullRadius),
                "fullExtent": vector(framing.fullExtent), "boxSize": Double(framing.boxSize),
            ],
            "view": ["yaw": Double(view.yaw), "pitch": Double(view.pitch)],
            "heat": ["views": layers.views, "spread": layers.spread],
            "wideColour": layers.wide,
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    /// `text` safe inside HTML text and attributes.
    static func htmlEscaped(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c.properties.generalCategory == .control ? " " : c)
            }
        }
        return out
    }
}

/// One node of the site's hierarchy (`cloud/hierarchy.bin`), 32 bytes, little-endian: the cube's
/// minimum corner (3 × float32, metres from the cloud's origin) and edge (float32), the parent
/// (int32, −1 for the root), the point count (uint32), the level (uint8), the octants that have a
/// child (uint8) and six bytes of padding. Nodes are listed as the octree holds them: the root
/// first, every node after its parent.
enum NodeRecord {
    static let size = 32

    /// Every node of `octree`.
    static func table(_ octree: PointOctree) -> Data {
        var data = Data(capacity: octree.nodes.count * size)
        for node in octree.nodes {
            for v in [node.origin.x, node.origin.y, node.origin.z, node.size] { data.appendLittleEndian(v.bitPattern) }
            data.appendLittleEndian(UInt32(bitPattern: node.parent))
            data.appendLittleEndian(UInt32(node.points.count))
            data.append(UInt8(node.level))
            data.append(node.childMask)
            data.append(contentsOf: [UInt8](repeating: 0, count: 6))
        }
        return data
    }
}

extension Data {
    mutating func appendLittleEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
