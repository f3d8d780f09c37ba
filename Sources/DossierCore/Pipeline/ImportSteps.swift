/// The steps of an import, in the order they run: the list to read first. `ImportPipeline` runs
/// it for every source, for `dossier import` and `dossier watch` alike; only where the sources
/// come from differs (`SourceDiscovery` walks the paths an import names; `InboxWatcher` hands on
/// the inbox's settled files).
///
/// The working steps run for up to `--jobs` sources at once, each source on its own; the
/// settling steps one source at a time, in the order sources finish working. `read` streams
/// each item it reads through the item steps, in their order: routed (the `Router`s), then
/// transformed (the `Transform`s, in `TransformStage` order), then filed (a photo by the
/// `Filer`; records spilled to sorted runs that `commit` merges; profiles by `commit`).
public struct ImportSteps: Sendable {
    public private(set) var steps: [any ImportStep]

    /// Every import's steps, before any plugin adds its own.
    public static let standard = ImportSteps(steps: [
        // Working: up to --jobs sources at once.
        DiscoverStep(),         // a path that could not be read, or a library passed over, is decided
        SkipUnchangedStep(),    // imported before, unchanged since: a duplicate, not a byte read
        SniffStep(),            // its first bytes pick the importer
        KeepStep(),             // a text source's bytes copied into staging
        SkipSameBytesStep(),    // a text source whose very bytes are filed: a duplicate
        ReadStep(),             // read into items, each routed, transformed and filed as it comes
        // Settling: one source at a time.
        SameBytesFiledAtOnceStep(), // the same bytes filed by two sources at once: the second a duplicate
        CommitStep(),           // its copy kept, its records merged into year files, its profiles filed
        IndexStep(),            // recorded in the index, in one transaction
        RemoveStep(),           // --move: removed once the library's copy is checked
        ReportStep(),           // the listeners hear its outcome
    ])

    /// The item steps `read` streams each item through, in order (see `SourceCollector`).
    public static let itemSteps = ["route", "transform", "file"]

    public init(steps: [any ImportStep]) {
        self.steps = steps
    }

    /// The steps, with those the plugins add each put where it asks.
    public func adding(_ added: [PluginStep]) -> ImportSteps {
        var steps = self.steps
        for plugin in added {
            let at = steps.firstIndex { $0.name == plugin.anchor } .map { plugin.placement == .before ? $0 : $0 + 1 }
            steps.insert(plugin.step, at: at ?? steps.endIndex)
        }
        return ImportSteps(steps: steps)
    }

    public var names: [String] { steps.map(\.name) }
    var working: [any ImportStep] { steps.filter { $0.phase == .working } }
    var settling: [any ImportStep] { steps.filter { $0.phase == .settling } }
}

/// A step a plugin adds to every import, and where: before or after the step of a name (at the
/// end when there is none of that name).
public struct PluginStep: Sendable {
    public enum Placement: Sendable { case before, after }

    public let step: any ImportStep
    public let placement: Placement
    public let anchor: String

    public init(_ step: any ImportStep, _ placement: Placement, _ anchor: String) {
        self.step = step
        self.placement = placement
        self.anchor = anchor
    }
}
