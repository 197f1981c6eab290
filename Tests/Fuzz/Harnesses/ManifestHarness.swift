import Foundation
@testable import PointPaint

/// `capture.json`: the manifest parser every capture command runs first. A manifest that parses
/// must write back as JSON that parses to the same manifest.
enum ManifestHarness: FuzzHarness {
    static let name = "manifest"

    static func fuzz(_ bytes: [UInt8]) throws {
        let manifest = try CaptureManifest(json: Data(bytes), file: "capture.json")
        let again = try CaptureManifest(json: Data(manifest.jsonText().utf8), file: "written.json")
        Fuzz.require(again == manifest, "a manifest that does not read back as written")
    }
}
