/// A named bundle of extensions. Built-in plugins are listed in one place (`BuiltinPlugins`), and
/// `dossier plugins` prints each with what it registers.
public struct Plugin: Sendable {
    public let name: String
    public let summary: String
    public let importers: [any Importer]
    public let transforms: [any Transform]
    public let routers: [any Router]
    public let listeners: [any OutcomeListener]
    /// Steps it adds to every import (`ImportSteps`), each where it asks.
    public let steps: [PluginStep]
    /// The formats its importers file photos and movies in: Core knows none but these.
    public let photoFormats: [PhotoFormat]

    public init(name: String, summary: String, importers: [any Importer] = [], transforms: [any Transform] = [],
                routers: [any Router] = [], listeners: [any OutcomeListener] = [], steps: [PluginStep] = [],
                photoFormats: [PhotoFormat] = []) {
        self.steps = steps
        self.name = name
        self.summary = summary
        self.importers = importers
        self.transforms = transforms
        self.routers = routers
        self.listeners = listeners
        self.photoFormats = photoFormats
    }
}
