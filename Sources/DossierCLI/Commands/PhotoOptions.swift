import ArgumentParser
import DossierCore
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

    @Option(help: ArgumentHelp(
        "Which photos' own bytes are kept under <library>/originals/: lossy (those whose filed copy had its pixels "
            + "encoded again), all, or none.",
        discussion: "Defaults to the library's \"originals\" setting in config/library.json, else lossy. An original "
            + "is kept once per content, named after the filed photo, and is durable before --move or the daemon "
            + "removes the source.",
        valueName: "lossy|all|none"))
    var originals: OriginalsPolicy?
}

extension PhotoRenditions: ExpressibleByArgument {}
extension OriginalsPolicy: ExpressibleByArgument {}
