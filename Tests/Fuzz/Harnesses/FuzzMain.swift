import Foundation

/// The fuzz binary: every harness linked into one program (one link for all, which keeps the
/// CI smoke inside its time), the one to run named by `FUZZ_TARGET`.

/// One harness: a parser entry point the CLI runs, fed one input.
protocol FuzzHarness: SendableMetatype {
    /// The target's name (`scripts/fuzz.sh TARGET`).
    static var name: String { get }
    /// Runs the entry point on `bytes`; a `PointPaintError` thrown is checked by `Fuzz.check`.
    static func fuzz(_ bytes: [UInt8]) throws
}

/// A harness as the program keeps it: its name and its entry point.
struct Entry: Sendable {
    let name: String
    let fuzz: @Sendable ([UInt8]) throws -> Void

    init<H: FuzzHarness>(_: H.Type) {
        name = H.name
        fuzz = { try H.fuzz($0) }
    }
}

/// Every harness, in the order `scripts/fuzz.sh --list` prints them.
let harnesses: [Entry] = [
    Entry(ManifestHarness.self), Entry(XYZHarness.self), Entry(CubeHarness.self),
    Entry(PLYHeaderHarness.self), Entry(PLYASCIIHarness.self), Entry(PLYBinaryHarness.self), Entry(PLYCloudHarness.self),
    Entry(PNGCubeHarness.self), Entry(PNGImageHarness.self), Entry(PNGPlaneHarness.self),
    Entry(JPEGHarness.self), Entry(EXRHarness.self), Entry(LZFSEHarness.self), Entry(ZipHarness.self), Entry(NPYHarness.self),
    Entry(StoreHarness.self), Entry(LASHarness.self), Entry(LAZHarness.self), Entry(COPCHarness.self), Entry(StrayCSVHarness.self), Entry(Record3DArchiveHarness.self), Entry(Record3DMetadataHarness.self),
    Entry(PolycamCameraHarness.self), Entry(ScannerAppFrameHarness.self), Entry(NerfstudioTransformsHarness.self), Entry(PosesHarness.self),
]

/// The harness `FUZZ_TARGET` names; the run stops at once when it names none.
let selected: @Sendable ([UInt8]) throws -> Void = {
    let names = harnesses.map { $0.name }.joined(separator: ", ")
    guard let raw = getenv("FUZZ_TARGET") else { fatalError("set FUZZ_TARGET to one of: \(names)") }
    let name = String(cString: raw)
    guard let harness = harnesses.first(where: { $0.name == name }) else { fatalError("no fuzz target '\(name)': \(names)") }
    return harness.fuzz
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Fuzz.run(data, count, selected)
}
