import CPointPaintKernels

/// Which variant of a per-point C kernel runs: paint's projection and z-buffer splat
/// (`FrameProjection`, `SplatDepthBuffer`) and the sampler's bilinear batch
/// (`CapturedImageSampler.sample(_:into:space:)`). `.automatic` (the default) takes the fastest
/// this CPU runs; tests force each one against the Swift model of the arithmetic.
enum CPUKernel: Sendable, CaseIterable, CustomStringConvertible {
    case automatic
    /// C, 256-bit vectors (x86-64 with AVX2): four points a step for the projection, eight for
    /// the footprints of the splat and for the sampler.
    case avx2
    /// C, one point at a time: the reference, on every architecture.
    case c

    /// `pointpaint_cpu_kernels()`, read once for every kernel choice (CPUID is slow in a virtual
    /// machine): the `POINTPAINT_KERNELS_*` bits this CPU runs.
    static let cpu = Int(pointpaint_cpu_kernels())

    /// Whether this CPU can run the kernel.
    var isAvailable: Bool {
        switch self {
        case .automatic, .c: true
        case .avx2: Self.cpu & Int(POINTPAINT_KERNELS_AVX2) != 0
        }
    }

    /// What `.automatic` runs on this CPU.
    static let best: CPUKernel = CPUKernel.avx2.isAvailable ? .avx2 : .c

    /// The kernel `self` stands for on this CPU (`.automatic` resolved).
    var resolved: CPUKernel { self == .automatic ? Self.best : self }

    var description: String {
        switch self {
        case .automatic: "automatic"
        case .avx2: "AVX2"
        case .c: "C reference"
        }
    }
}
