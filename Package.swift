// swift-tools-version:6.1
import PackageDescription

// Debian packages that provide the system libraries; scripts/demo and scripts/test install them.
let imageLibraryProviders: [SystemPackageProvider] = [
    .apt(["libexif-dev", "libjpeg-dev", "libpng-dev", "libheif-dev", "libraw-dev", "libvips42"]),
]

let package = Package(
    name: "Dossier",
    // Linux only, and so no Apple platform named: the library and the daemon stand on inotify,
    // /proc/self/mountinfo, file leases and Glibc.
    products: [
        .executable(name: "dossier", targets: ["dossier"]),
        .library(name: "DossierCore", targets: ["DossierCore"]),
        .library(name: "DossierPhotos", targets: ["DossierPhotos"]),
        .library(name: "DossierRecords", targets: ["DossierRecords"]),
        .library(name: "DossierWatch", targets: ["DossierWatch"]),
        .library(name: "DossierReport", targets: ["DossierReport"]),
        .library(name: "DossierCLI", targets: ["DossierCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: imageLibraryProviders),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: imageLibraryProviders),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: imageLibraryProviders),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: imageLibraryProviders),
        .target(
            name: "CImageShims",
            dependencies: ["CJPEG", "CPNG", "CHeif"],
            // LibRaw (libraw-dev) by name: its pkg-config file asks for -fopenmp, which SwiftPM
            // refuses with a warning on every build. zlib (libpng-dev brings it) inflates
            // compressed XMP. libvips is loaded with dlopen when a rendition needs it
            // (vips_codec.c says why).
            linkerSettings: [.linkedLibrary("raw"), .linkedLibrary("z"), .linkedLibrary("dl")]
        ),
        .target(
            name: "DossierCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "DossierPhotos",
            dependencies: ["DossierCore", "CImageShims", "CExif"]
        ),
        .target(
            name: "DossierRecords",
            dependencies: ["DossierCore"]
        ),
        // `dossier report`: the static site of a library (pages, charts, the WHO growth standards).
        .target(
            name: "DossierReport",
            dependencies: [
                "DossierCore",
                "DossierRecords",
                "DossierPhotos",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "DossierWatch",
            dependencies: [
                "DossierCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "DossierCLI",
            dependencies: [
                "DossierCore",
                "DossierWatch",
                "DossierPhotos",
                "DossierRecords",
                "DossierReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "dossier",
            dependencies: ["DossierCLI"]
        ),
        // scripts/fuzz builds this with libFuzzer (-sanitize=fuzzer -D FUZZING); a plain build makes
        // a tool that replays saved inputs. Not a product: nothing ships it.
        .executableTarget(
            name: "DossierFuzz",
            dependencies: ["DossierCore", "DossierPhotos", "DossierRecords", .product(name: "Logging", package: "swift-log")]
        ),
        // Helpers the test targets share; not a product.
        .target(name: "DossierTestSupport", path: "Tests/DossierTestSupport"),
        .testTarget(name: "DossierCoreTests", dependencies: ["DossierCore", "DossierTestSupport"]),
        .testTarget(name: "DossierPhotosTests", dependencies: ["DossierPhotos", "CImageShims", "CExif", "DossierTestSupport"]),
        .testTarget(name: "DossierRecordsTests", dependencies: ["DossierRecords", "DossierCore", "DossierTestSupport"]),
        .testTarget(name: "DossierWatchTests", dependencies: ["DossierWatch", "DossierCore", "DossierTestSupport"]),
        .testTarget(name: "DossierCLITests",
                    dependencies: ["DossierCLI", "DossierCore", "DossierPhotos", "DossierRecords", "DossierReport", "CImageShims",
                                   "DossierTestSupport"]),
        // The safety suite: every way found to lose or expose a user's data, tried against the
        // built `dossier` binary as a user (or a hostile tester) would.
        .testTarget(name: "DossierSafetyTests",
                    dependencies: ["DossierCore", "DossierPhotos", "DossierWatch", "CImageShims", "DossierTestSupport"]),
    ]
)
