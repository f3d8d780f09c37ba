/// Where a source that was not filed stopped, as its outcome says it (`SourceOutcome.stage`, the
/// daemon's quarantine notes, `--json`). The steps that run are listed in `ImportSteps`; each
/// names the stage its failures are said to stop at (`ImportStep.stage`).
public enum ImportStage: String, CaseIterable, Codable, Sendable {
    /// Sources are found: `SourceDiscovery` walks the paths an import names; `InboxWatcher` hands
    /// on the inbox's settled files. One imported before and unchanged since is settled from the
    /// index without a byte read (`SourceWorker.unchangedImport`; hashed, when its status was
    /// racy when taken).
    case discover
    /// Its first bytes are read and the importer that recognises them is picked
    /// (`SourceWorker.sniffedHead`, `PluginRegistry.importer(for:)`); nothing that reads it is
    /// `skipped`.
    case sniff
    /// A text source's bytes are copied into the library's staging first, so its records can
    /// name the copy the library keeps (`SourceWorker.keepCopy`, `SourceKeeper`).
    case keep
    /// The importer reads it into items: photos, records, profiles (`Importer.read`, into a
    /// `SourceCollector`).
    case read
    /// Each item that names no subject gets the one its path gives (`SourceCollector`, the
    /// `Router`s in order); an item with none is `unassigned`.
    case route
    /// The transforms, in `TransformStage` order (`SourceWorker.transform`): a photo alone, records
    /// in batches behind the reader (`RecordBatchWriter`), custom items one at a time.
    case transform
    /// Written into the library, whole or not at all: photos by the `Filer`, records into their
    /// year files (`RecordSpill`, then `RecordStore.commit`), profiles and species by their items.
    case file
    /// Recorded in the index, in one transaction a source (`LibraryIndex.record`).
    case index
    /// With `--move` (and in the daemon), the source is removed once the library's copy is
    /// checked (`ImportPipeline.removeSource`).
    case remove
    /// Listeners hear the outcome (`OutcomeListener`): the terminal, `--json`, the daemon's log.
    case report
}
