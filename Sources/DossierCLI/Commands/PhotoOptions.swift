import ArgumentParser
import DossierPhotos

/// The options of the commands that file photos (`import`, `watch`).
struct PhotoOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "What is filed beside each HEIC, AVIF, TIFF, BMP, JPEG XL and raw: jpeg (a JPEG of it upright, or a PNG "
            + "when it has alpha), or none.",
        discussion: "The photo itself is filed as it is; the rendition is for browsers and programs that cannot "
            + "read it. A raw's is its camera's own preview, turned; a raw shot with a JPEG has none (the JPEG "
            + "stands beside it under its name).",
        valueName: "jpeg|none"))
    var renditions: PhotoRenditions = .jpeg
}

extension PhotoRenditions: ExpressibleByArgument {}
