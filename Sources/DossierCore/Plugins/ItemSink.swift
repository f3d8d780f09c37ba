/// Where an importer hands its items, one at a time.
public protocol ItemSink {
    /// Takes the item over: a sink keeps it without a copy (an import of a million records
    /// would otherwise copy each one's strings once more).
    func accept(_ item: consuming Item) throws
    /// A part of the source that is not filed; the sink adds the path, and the problems ledger
    /// keeps it.
    func report(_ problem: SourceProblem)
}

extension ItemSink {
    /// A problem described as `line 12: unknown name 'rex'` (or `entry 3: …`).
    public func report(_ description: String) {
        report(SourceProblem(describedAs: description))
    }
}
