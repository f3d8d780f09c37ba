/// Where an importer hands its items, one at a time.
public protocol ItemSink {
    func accept(_ item: Item) throws
    /// A problem with one part of the source (say "line 12: unknown name 'rex'"); the sink adds
    /// the path.
    func report(_ problem: String)
}
