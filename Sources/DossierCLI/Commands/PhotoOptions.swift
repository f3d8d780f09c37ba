import ArgumentParser
import DossierPhotos

/// The options of the commands that file photos (`import`, `watch`).
struct PhotoOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "What is filed beside each HEIC: jpeg (a JPEG of it upright, or a PNG when it has alpha), or none.",
        discussion: "The HEIC itself is filed as it is; the rendition is for browsers and programs that cannot "
            + "read HEIC.",
        valueName: "jpeg|none"))
    var renditions: PhotoRenditions = .jpeg
}

extension PhotoRenditions: ExpressibleByArgument {}
