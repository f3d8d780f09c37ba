/// What the library knows it holds, and where it came from: the filed files, the sources and
/// their versions, the problems ledger, departures and stuck sources. The pipeline's steps ask
/// and tell it through this protocol alone; `LibraryIndex` (SQLite, one file in the library) is
/// its implementation today, and a shared catalog (several hosts filing into one library) could
/// stand in for it without the steps changing.
///
/// Every write is one transaction: what it records is all there after it returns, or none of it.
public protocol LibraryCatalog: Sendable {
    // What is filed.
    func filedFile(for subject: Subject, sourceDigest: ContentDigest) throws(LibraryError) -> FiledFile?
    func filedFiles(for subject: Subject, sourceDigest: ContentDigest) throws(LibraryError) -> [FiledFile]
    func filedFile(at path: String) throws(LibraryError) -> FiledFile?
    func filedFile(for subject: Subject, digest: ContentDigest) throws(LibraryError) -> FiledFile?
    func filedFiles(contentIdentifier identifier: String) throws(LibraryError) -> [FiledFile]
    func filedFiles(sha256 digest: ContentDigest) throws(LibraryError) -> [FiledFile]
    func renditions(ofPhoto path: String) throws(LibraryError) -> [FiledRendition]
    func rendition(at path: String) throws(LibraryError) -> FiledRendition?
    func moveFiledFile(from oldPath: String, to newPath: String) throws(LibraryError)
    /// What `dossier remove` or `dossier move` took out of the subject's folder from a source
    /// with these bytes, or holding these filed bytes: what an import does not file there again.
    func removal(of subject: Subject, sourceDigest: ContentDigest?, digest: ContentDigest?) throws(LibraryError) -> RemovedItem?

    /// Everything it says the library holds, read as one moment (`dossier verify`).
    func contents() throws(LibraryError) -> LibraryContents
    /// What `verify` found damaged or missing with a good copy, for the next import to file again.
    func copiesToMend() throws(LibraryError) -> [CopyToMend]
    func record(copiesToMend copies: [CopyToMend], replacingAll: Bool) throws(LibraryError)
    func forgetCopiesToMend(_ paths: [String]) throws(LibraryError)

    // Sources and their versions.
    func unchangedSource(_ source: SourceFile, requestedSubject: Subject?) throws(LibraryError) -> ImportedSource?
    func importedSources(at path: String) throws(LibraryError) -> [ImportedSource]
    /// Those of each path, in one read, grouped in the order of `paths`.
    func importedSources(atAnyOf paths: [String]) throws(LibraryError) -> [ImportedSource]
    func keptSource(sha256: String) throws(LibraryError) -> KeptSource?
    func originals(sha256: String) throws(LibraryError) -> [KeptOriginal]
    func lineage(ofSource path: String, otherThan kept: String) throws(LibraryError) -> [SourceYearFile]
    func otherCurrentSource(keptAs kept: String, yearFile: String, routeSubject: String?,
                            otherThan path: String) throws(LibraryError) -> String?
    func sourceStandingFor(keptAs kept: String, routeSubject: String?, otherThan path: String) throws(LibraryError)
        -> [SourceYearFile]
    func yearFiles(ofSource path: String, kept: String) throws(LibraryError) -> [SourceYearFile]
    func recordFile(at path: String) throws(LibraryError) -> RecordFileSummary?
    func version(ofSource path: String, kept: String) throws(LibraryError) -> SourceYearFile?
    /// Records what several photo sources gave (their filed files, renditions and source rows),
    /// in one transaction (`IndexBatch`).
    func record(photos: [PhotoRows]) throws(LibraryError)
    /// Records what one source gave, in one transaction (see `LibraryIndex.record`).
    func record(_ filed: [FiledFile], renditions: [FiledRendition], recordFiles: [RecordFileSummary], source: ImportedSource?,
                kept: KeptSource?, originals: [KeptOriginal], ledger: SourceLedger?, yearFiles: [SourceYearFile],
                superseded: [String], departure: SourceDeparture?) throws(LibraryError)

    // Departures: sources that left their paths.
    func record(_ departure: SourceDeparture) throws(LibraryError)
    func record(_ departures: [SourceDeparture]) throws(LibraryError)
    func undo(_ departure: SourceDeparture) throws(LibraryError)

    // Problems and the quarantine's stuck sources.
    func problems() throws(LibraryError) -> [LedgerProblem]
    func dismissProblem(id: Int64) throws(LibraryError) -> Bool
    func stuckSources() throws(LibraryError) -> [StuckSource]
    func updateStuckSources(_ stuck: [StuckSource], forgetting left: [String]) throws(LibraryError)
}

extension LibraryIndex: LibraryCatalog {}
