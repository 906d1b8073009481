/// Reads something off the main thread for a window, which shows only the
/// newest reading it asked for: an earlier one that arrives late is dropped.
@MainActor
final class LatestReading {
    private var generation = 0

    /// Runs `read` on a thread of its own, then `show` with its result on the
    /// main actor, unless another reading was started meanwhile.
    func start<Value: Sendable>(
        _ read: @escaping @Sendable () throws -> Value,
        then show: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) {
        generation += 1
        let reading = generation
        Task { [weak self] in
            let result: Result<Value, any Error>
            do {
                result = .success(try await offMainThread(read))
            } catch {
                result = .failure(error)
            }
            guard let self, reading == self.generation else { return }
            show(result)
        }
    }
}
