import Testing

/// Waits until `condition` holds, looking every `interval`, for at most `timeout`. When it does not
/// hold in time, records a failure at the caller saying what was waited for and for how long.
/// Says whether it held.
///
/// A wait for something to happen, in place of a fixed sleep: as quick as the machine allows, and
/// as patient as `timeout` on a loaded one. It cannot show that something did *not* happen; for
/// that, wait for a signal that the work is done (`InboxWatcher.idle()`), then look.
@discardableResult
public func waitUntil(_ what: String, upTo timeout: Duration = .seconds(10), pollingEvery interval: Duration = .milliseconds(5),
                      sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: interval)
    }
    if condition() { return true }
    Issue.record("gave up after \(timeout) waiting for \(what)", sourceLocation: sourceLocation)
    return false
}

/// Waits for `operation` to return, for at most `timeout`; when it does not return in time, cancels
/// it and records a failure at the caller saying what was waited for. Says whether it returned.
@discardableResult
public func waitFor(_ what: String, upTo timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
                    _ operation: @escaping @Sendable () async -> Void) async -> Bool {
    let returned = await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await operation()
            return true
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
    if !returned { Issue.record("gave up after \(timeout) waiting for \(what)", sourceLocation: sourceLocation) }
    return returned
}
