/// Where an importer hands its items, one at a time.
public protocol ItemSink {
    /// Takes the item over: a sink keeps it without a copy (an import of a million records
    /// would otherwise copy each one's strings once more).
    func accept(_ item: consuming Item) throws
    /// A problem with one part of the source (say "line 12: unknown name 'rex'"); the sink adds
    /// the path.
    func report(_ problem: String)
}
