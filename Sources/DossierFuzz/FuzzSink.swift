import DossierCore

/// Keeps what an importer hands over, for the transforms after it; problems are only counted.
final class FuzzSink: ItemSink {
    private(set) var items: [Item] = []
    private(set) var problems = 0

    func accept(_ item: consuming Item) throws {
        // A log of a million lines must not hold a million records here either.
        if items.count < 64 { items.append(item) }
    }

    func report(_ problem: SourceProblem) {
        problems += 1
    }
}
