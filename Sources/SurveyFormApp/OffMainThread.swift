/// Runs `work` on a thread of the concurrent pool and returns what it
/// returns: for work that waits on the disk (a durable write's sync, a
/// reading of 100,000 responses), which the main thread must not, so that the
/// window keeps drawing meanwhile.
@concurrent
func offMainThread<Value: Sendable>(_ work: @Sendable () throws -> Value) async throws -> Value {
    try work()
}
