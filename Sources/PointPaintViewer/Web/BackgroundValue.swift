import Foundation

/// A value worked out on another thread from the moment it is made, while the making thread goes
/// on with other work; `value` waits for it.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once, by the worker, before `done` is signalled; read only after waiting on it.
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = work()
            done.signal()
        }
    }

    /// The value (waits until it is worked out).
    var value: Value {
        done.wait()
        defer { done.signal() }  // for the next reader
        return result!
    }
}
