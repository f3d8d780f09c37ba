extension Duration {
    /// As `poll(2)` takes a time-out: whole milliseconds, none below zero, at most `Int32.max`.
    var pollTimeout: Int32 {
        let (seconds, attoseconds) = components
        return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
