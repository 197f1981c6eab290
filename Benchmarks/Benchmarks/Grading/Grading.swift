import Benchmark
import PointPaint

let benchmarks: @Sendable () -> Void = {
}
