import Foundation

/// Shows progress on standard error: a redrawn bar with rate and ETA on a terminal, plain
/// lines every few seconds otherwise (logs, CI). A plain line comes only once a run has lasted
/// the interval, so a short run, or one that fails early, prints no progress before its result
/// or its one error line.
struct ProgressReporter {
    /// Frames a second as a summary prints it: whole numbers from 100 up, three significant
    /// digits below (12 frames in 29 s is "0.414", not "0").
    static func rate(frames: Int, seconds: Double) -> String {
        let r = Double(frames) / max(seconds, 1e-9)
        return r >= 100 ? String(format: "%.0f", r) : String(format: "%.3g", r)
    }

    let label: String
    let total: Int
    let isTerminal = isatty(STDERR_FILENO) == 1
    let start = Date()
    private var lastDraw: Date

    init(label: String, total: Int) {
        self.label = label
        self.total = total
        lastDraw = isTerminal ? .distantPast : start
    }

    /// Reports `done` of `total`; `detail` is appended (for example a voxel count).
    mutating func update(done: Int, detail: String) {
        let now = Date()
        let finished = done == total
        let interval: TimeInterval = isTerminal ? 0.1 : 2
        // Off a terminal, a run shorter than the interval prints no line at all.
        guard (finished && (isTerminal || now.timeIntervalSince(start) >= interval)) || now.timeIntervalSince(lastDraw) >= interval else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let numbers = String(format: "%d/%d %@  %.0f %@/s  ETA %.1f s  %@", done, total, label, rate, label, eta, detail)
        if isTerminal {
            let width = 28
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(numbers)".utf8))
            if finished { FileHandle.standardError.write(Data("\n".utf8)) }
        } else {
            FileHandle.standardError.write(Data("progress: \(numbers)\n".utf8))
        }
    }
}
