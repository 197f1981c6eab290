import Foundation

/// A nerfstudio-style folder: `transforms.json` and the images, depth maps and point cloud it
/// names (what `ns-process-data`, NeRFCapture, polyform and Spectacular AI write).
///
/// Intrinsics `fl_x, fl_y, cx, cy, w, h` stand at the top level or in each frame (a frame's own
/// value wins). As instant-ngp and the NeRF synthetic scenes (`transforms_train.json`) write
/// them, a focal length may be given as a field of view instead (`camera_angle_x`, and
/// `camera_angle_y` or else square pixels), the principal point left out (the image centre) and
/// the size too (the first image's), and `file_path` may lack its extension (`.png`, else
/// `.jpg`). `transform_matrix` is the camera-to-world matrix as four rows, with OpenGL's
/// camera axes, which are ARKit's: used as stored, in nerfstudio's world (which may have been
/// re-oriented and scaled: `applied_transform` and `applied_scale` are noted, not undone).
/// `file_path` names a JPEG, or a PNG whose R′G′B′ or grey (8 or 16 bits, alpha ignored) is
/// converted to Y′CbCr 4:4:4 (the one lossy step: see `YCbCrPlanes.init(_:encoding:)`).
/// `depth_file_path` (or instant-ngp's `depth_path`) names a 16-bit PNG in millimetres,
/// nerfstudio's default, or in `integer_depth_scale` metres a unit when the file gives one
/// (instant-ngp); `ply_file_path` names the cloud.
///
/// Pinhole cameras only: lens distortion (`k1`…, `p1`…) is noted but not undone; fisheye and
/// panoramic models are refused. The file records no times: frame `i`, in the order the file
/// lists them, is given time `i` seconds.
public struct NerfstudioCapture: CaptureSource {
    /// What the source was opened from: the folder or its `transforms.json`.
    public let path: String
    /// `transforms.json`.
    public let file: String
    /// Always `.nerfstudio`.
    public var format: CaptureFormat { .nerfstudio }
    /// The frames' size (`w` × `h`) and colour description.
    public let imageInfo: CaptureImageInfo
    /// The frames `transforms.json` lists.
    public var frameCount: Int { frames.entries.count }
    /// What was read and how: camera model, distortion, applied transforms, depth scale.
    public let notes: [CaptureNote]
    /// The file `ply_file_path` names, if any.
    public let cloudFile: String?

    private let frames: SourceFrames

    /// Camera models read, all pinhole (those with radial or tangential distortion terms too).
    static let pinholeModels: Set<String> = ["PINHOLE", "SIMPLE_PINHOLE", "OPENCV", "SIMPLE_RADIAL", "RADIAL"]
    /// Distortion terms nerfstudio and COLMAP write.
    static let distortionKeys = ["k1", "k2", "k3", "k4", "p1", "p2"]

    /// Opens `transforms.json` at `path` (or in the folder `path`) and checks every frame's
    /// entry and the first frame's image and depth headers.
    /// - Throws: `PointPaintError` naming the file and place: `.missing` files and keys;
    ///   `.malformed` matrices, lengths, non-finite numbers and sizes; `.unsupported` camera
    ///   models and file kinds; `.outOfRange` focal lengths and sizes.
    public init(path: String) throws {
        self.path = path
        let file = SourceFiles.isFolder(path) ? (path as NSString).appendingPathComponent("transforms.json") : path
        self.file = file
        let folder = FilePaths.parent(of: file)
        func resolve(_ relative: String) -> String {
            relative.hasPrefix("/") ? relative : (folder as NSString).appendingPathComponent(relative)
        }
        let json = try SourceJSON(contentsOf: file).root
        _ = try json.object()
        var notes: [CaptureNote] = []

        let model = json["camera_model"].exists ? try json["camera_model"].string() : "PINHOLE"
        guard Self.pinholeModels.contains(model) else {
            throw PointPaintError(.unsupported, file: file, place: .jsonPath("camera_model"),
                                  "expected a pinhole camera model (\(Self.pinholeModels.sorted().joined(separator: ", "))), found \(PointPaintError.quote(model)): fisheye and panoramic images are not read")
        }
        notes.append(.camera("camera model: \(model)" + (json["camera_model"].exists ? "" : " (camera_model absent)")))

        let list = try json["frames"].array()
        guard !list.isEmpty else { throw json["frames"].failure("an array of at least one frame") }
        var frames: [SourceFrames.Entry] = []
        frames.reserveCapacity(list.count)
        var size: (width: Int, height: Int)?
        var distortion: [String: Set<Double>] = [:]
        var pngFrames = 0
        var intrinsicsPerFrame = false, focalLengthOnce = false
        var derived: Set<String> = []  // intrinsics taken from angles, the centre or the first image
        var firstImageInfo: CaptureImageInfo?  // frame 0's image header, when w and h are absent
        for (index, frame) in list.enumerated() {
            _ = try frame.object()
            /// The frame's own value of `key`, or the top level's.
            func value(_ key: String) throws -> JSONNode {
                if frame[key].exists { return frame[key] }
                if json[key].exists { return json[key] }
                throw PointPaintError(.missing, file: file, place: .jsonPath(frame[key].path),
                                      "expected \(key) in the frame or at the top level, found it in neither")
            }
            func given(_ key: String) -> Bool { frame[key].exists || json[key].exists }
            intrinsicsPerFrame = intrinsicsPerFrame
                || ["fl_x", "fl_y", "cx", "cy", "w", "h", "camera_angle_x", "camera_angle_y"].contains { frame[$0].exists }

            let imageNode = frame["file_path"]
            let image = try Self.imagePath(imageNode, resolve: resolve, file: file)
            let kind = (image as NSString).pathExtension.lowercased()
            pngFrames += kind == "png" ? 1 : 0

            let frameSize: (width: Int, height: Int)
            if given("w") || given("h") {
                frameSize = try (width: value("w").positiveInteger(atMost: CaptureManifest.maximumDimension),
                                 height: value("h").positiveInteger(atMost: CaptureManifest.maximumDimension))
                try SourceFiles.checkFramePixels(width: frameSize.width, height: frameSize.height, file: file, place: .jsonPath(value("w").path))
            } else {
                // Frame 0 reads its image's header; later frames have the first frame's size.
                if size == nil { firstImageInfo = try Self.imageInfo(image, frame: index) }
                frameSize = size ?? (firstImageInfo!.width, firstImageInfo!.height)
                derived.insert("w × h from the first image")
            }
            let fx: Double
            if given("fl_x") {
                fx = try value("fl_x").positiveNumber()
            } else if !given("camera_angle_x") {
                throw PointPaintError(.missing, file: file, place: .jsonPath(frame["fl_x"].path),
                                      "expected fl_x (or camera_angle_x) in the frame or at the top level, found neither")
            } else {
                fx = try Self.focalLength(value("camera_angle_x"), pixels: frameSize.width, file: file)
                derived.insert("fl_x from camera_angle_x")
            }
            let fy: Double
            if given("fl_y") {
                fy = try value("fl_y").positiveNumber()
            } else if given("camera_angle_y") {
                fy = try Self.focalLength(value("camera_angle_y"), pixels: frameSize.height, file: file)
                derived.insert("fl_y from camera_angle_y")
            } else {
                focalLengthOnce = true
                fy = fx
            }
            let cx = given("cx") ? try value("cx").number() : Double(frameSize.width) / 2
            let cy = given("cy") ? try value("cy").number() : Double(frameSize.height) / 2
            if !given("cx") || !given("cy") { derived.insert("an absent cx, cy at the image centre") }
            let k = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy)
            if let size, size != frameSize {
                throw PointPaintError(.malformed, file: file, place: .jsonPath("frames[\(index)]"),
                                      "expected intrinsics for a \(size.width)x\(size.height) image like the first frame's, found w \(frameSize.width), h \(frameSize.height)")
            }
            size = frameSize
            for key in Self.distortionKeys where frame[key].exists || json[key].exists {
                let d = try value(key).number()
                if d != 0 { distortion[key, default: []].insert(d) }
            }
            for node in [json["distortion_params"], frame["distortion_params"]] where node.exists {
                for (i, d) in try node.array().map({ try $0.number() }).enumerated() where d != 0 {
                    distortion["distortion_params[\(i)]", default: []].insert(d)
                }
            }

            let matrix = frame["transform_matrix"]
            let m = try matrix.matrix(rows: 4, columns: 4)
            guard abs(m[12]) <= 1e-6, abs(m[13]) <= 1e-6, abs(m[14]) <= 1e-6, abs(m[15] - 1) <= 1e-6 else {
                throw PointPaintError(.malformed, file: file, place: .jsonPath(matrix.path),
                                      "expected a camera-to-world matrix whose last row is 0, 0, 0, 1, found \(m[12]), \(m[13]), \(m[14]), \(m[15])")
            }
            let transform = Matrix4x4(columnMajor: (0 ..< 16).map { m[($0 % 4) * 4 + $0 / 4] })
            guard let camera = Camera(intrinsics: k, transform: transform) else {
                throw PointPaintError(.malformed, file: file, place: .jsonPath(matrix.path), "expected an invertible camera-to-world matrix, found a singular one")
            }

            let depthNode = frame["depth_file_path"].exists ? frame["depth_file_path"] : frame["depth_path"]
            let depth = depthNode.exists ? try depthNode.string() : nil
            if let depth, (depth as NSString).pathExtension.lowercased() != "png" {
                throw PointPaintError(.unsupported, file: file, place: .jsonPath(depthNode.path),
                                      "expected a 16-bit .png depth map, found \(PointPaintError.quote(depth))")
            }
            frames.append(SourceFrames.Entry(timestamp: Double(index), camera: camera, image: image, depth: depth.map(resolve)))
        }
        let imageSize = size!

        let imageInfo: CaptureImageInfo
        if let firstImageInfo {
            imageInfo = firstImageInfo
        } else if frames[0].image.lowercased().hasSuffix(".png") {
            imageInfo = CaptureImageInfo(width: imageSize.width, height: imageSize.height)
        } else {
            imageInfo = try SourceFiles.jpegImageInfo(frames[0].image, frame: 0)
            guard imageInfo.width == imageSize.width, imageInfo.height == imageSize.height else {
                throw PointPaintError(.malformed, file: frames[0].image, place: .frame(0),
                                      "expected a \(imageSize.width)x\(imageSize.height) image (w and h), found \(imageInfo.width)x\(imageInfo.height)")
            }
        }
        self.imageInfo = imageInfo
        notes.append(.poses("poses: transform_matrix, camera-to-world with OpenGL camera axes (ARKit's), used as stored"))
        notes.append(.camera("intrinsics: fl_x, fl_y, cx, cy for w × h, " + (intrinsicsPerFrame ? "per frame where a frame gives them" : "at the top level")
                     + (focalLengthOnce ? "; fl_y absent, taken as fl_x" : "")
                     + (derived.isEmpty ? "" : "; " + derived.sorted().joined(separator: "; "))))
        notes.append(.timestamps("timestamps: none recorded; frame i, in the order \((file as NSString).lastPathComponent) lists them, at i s"))
        if pngFrames > 0 {
            notes.append(.colour(SourceFiles.count(pngFrames, "PNG frame") + ": sRGB R′G′B′ or grey (8 or 16 bits, alpha ignored) converted to Y′CbCr 4:4:4 (BT.601 full range), rounded to the nearest code"))
        }
        if !distortion.isEmpty {
            let terms = distortion.keys.sorted().map { key in "\(key) \(distortion[key]!.sorted().map { "\($0)" }.joined(separator: "/"))" }
            notes.append(.camera("lens distortion not undone: " + terms.joined(separator: ", ")))
        }
        for key in ["applied_transform", "applied_scale", "orientation_override"] where json[key].exists {
            notes.append(.ignored("\(key) present: the world is nerfstudio's, as saved (not turned back into the original data's)"))
        }
        if json["applied_transform"].exists { _ = try json["applied_transform"].matrix(rows: 3, columns: 4) }
        if json["applied_scale"].exists { _ = try json["applied_scale"].positiveNumber() }

        let metresPerDepthUnit = json["integer_depth_scale"].exists ? try json["integer_depth_scale"].positiveNumber() : 0.001
        var depthSize: (width: Int, height: Int)?
        if let first = frames.firstIndex(where: { $0.depth != nil }) {
            let depthPath = frames[first].depth!
            let depth = try SourceFiles.depthPNGSize(depthPath, frame: first)
            try SourceFiles.checkRegistered(depth: depth, image: imageSize, file: depthPath, frame: first)
            depthSize = depth
            notes.append(.depth("depth: 16-bit PNG, \(depth.width)x\(depth.height), "
                         + (json["integer_depth_scale"].exists ? "\(metresPerDepthUnit) m a unit (integer_depth_scale)" : "millimetres (nerfstudio's default scale)")
                         + "; no confidence"))
            let without = frames.count(where: { $0.depth == nil })
            if without > 0 { notes.append(.depth(SourceFiles.count(without, "frame") + " without a depth map")) }
        } else {
            notes.append(.depth("no depth maps"))
        }

        if json["ply_file_path"].exists {
            let cloud = resolve(try json["ply_file_path"].string())
            guard FileBytes.size(of: cloud) != nil else {
                throw PointPaintError(.missing, file: file, place: .jsonPath("ply_file_path"), "expected the point cloud \(PointPaintError.quote(cloud)), found no such file")
            }
            cloudFile = cloud
        } else {
            cloudFile = nil
        }
        self.notes = notes
        self.frames = SourceFrames(frames, imageInfo: imageInfo, depthSize: depthSize, metresPerDepthUnit: metresPerDepthUnit, file: file)
    }

    /// The image `node` (a frame's `file_path`) names, resolved: a .jpg, .jpeg or .png file, or,
    /// for a path without an extension, the .png (the NeRF synthetic scenes') or else the .jpg
    /// or .jpeg file beside it that exists.
    private static func imagePath(_ node: JSONNode, resolve: (String) -> String, file: String) throws -> String {
        let image = try node.string()
        let kind = (image as NSString).pathExtension.lowercased()
        if ["jpg", "jpeg", "png"].contains(kind) { return resolve(image) }
        guard kind.isEmpty else {
            throw PointPaintError(.unsupported, file: file, place: .jsonPath(node.path),
                                  "expected a .jpg, .jpeg or .png image, found \(PointPaintError.quote(image))")
        }
        let candidates = ["png", "jpg", "jpeg"].map { resolve(image + "." + $0) }
        guard let found = candidates.first(where: { FileBytes.size(of: $0) != nil }) else {
            throw PointPaintError(.missing, file: file, place: .jsonPath(node.path),
                                  "expected an image \(PointPaintError.quote(image)) names without an extension (.png, .jpg or .jpeg), found none")
        }
        return found
    }

    /// The description of the image at `path` from its header (a JPEG's encoding and primaries,
    /// a PNG's size), for a file without `w`, `h`; at most `CaptureManifest.maximumDimension` a side.
    private static func imageInfo(_ path: String, frame: Int) throws -> CaptureImageInfo {
        let info: CaptureImageInfo
        if (path as NSString).pathExtension.lowercased() == "png" {
            let header = try SourceFiles.pngHeader(path, frame: frame, what: "PNG frame")
            try SourceFiles.checkFramePixels(width: header.width, height: header.height, file: path, place: .frame(frame))
            info = CaptureImageInfo(width: header.width, height: header.height)
        } else {
            info = try SourceFiles.jpegImageInfo(path, frame: frame)
        }
        guard info.width <= CaptureManifest.maximumDimension, info.height <= CaptureManifest.maximumDimension else {
            throw PointPaintError(.outOfRange, file: path, place: .frame(frame),
                                  "expected an image of at most \(CaptureManifest.maximumDimension) pixels a side, found \(info.width)x\(info.height)")
        }
        return info
    }

    /// The focal length in pixels of a field of view `angle` (radians, across `pixels`).
    private static func focalLength(_ angle: JSONNode, pixels: Int, file: String) throws -> Double {
        let radians = try angle.number()
        guard radians > 0, radians < .pi else {
            throw PointPaintError(.outOfRange, file: file, place: .jsonPath(angle.path),
                                  "expected a field of view between 0 and π radians, found \(radians)")
        }
        return Double(pixels) / (2 * tan(radians / 2))
    }

    /// The time (`index` seconds) and camera of frame `index`.
    public func frameInfo(at index: Int) throws -> CaptureFrameInfo { try frames.info(at: index) }

    /// Frame `index`: its image as Y′CbCr planes (a JPEG's own; a PNG's converted), its camera,
    /// and its depth map (metres) when it has one.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized file.
    public func frame(at index: Int) throws -> CaptureFrame { try frames.frame(at: index) }

    /// The JPEG file of frame `index`, byte for byte; nil for a PNG frame.
    public func jpegData(at index: Int) throws -> [UInt8]? { try frames.jpegData(at: index) }
}
