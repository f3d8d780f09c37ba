/// Where an importer hands its items, one at a time.
public protocol ItemSink {
    /// Takes the item over: a sink keeps it without a copy (an import of a million records
    /// would otherwise copy each one's strings once more).
    func accept(_ item: consuming Item) throws
    /// A part of the source that is not filed; the sink adds the path, and the problems ledger
    /// keeps it.
    func report(_ problem: SourceProblem)
    /// The subject every item that names none goes to, as the source's path or `--subject` says
    /// (`pets/leo/log.txt`, `Leo.txt`); nil when they say nothing. An importer reads a one-subject
    /// file differently: there `Note: …` is text, not the name of another subject.
    var sourceSubject: Subject? { get }
    /// How the importer read the source, in one line the import shows beside its outcome
    /// (`412 rows -> 410 records, 2 problems; dates D/M/Y in 'Date' (from 24/01/2024)`), so a
    /// person sees a misreading at a glance.
    func describe(reading: String)
}

extension ItemSink {
    public var sourceSubject: Subject? { nil }

    public func describe(reading: String) {}

    /// A problem described as `line 12: unknown name 'rex'` (or `entry 3: …`).
    public func report(_ description: String) {
        report(SourceProblem(describedAs: description))
    }
}
