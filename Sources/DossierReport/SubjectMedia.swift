import DossierCore

/// Reads a subject's `photos/`, `videos/` and `audio/` folders into what the timeline shows,
/// pairing each still with its rendition and movie by their shared name. Where the index is at
/// hand, a picture is shown as a photo's rendition only when the index says it is one (its
/// `rendition` row), or when it is a filed photo itself: a stray file that merely has a
/// rendition's name is never shown as the photo.
struct SubjectMedia {
    /// Extensions every browser shows as a picture.
    static let browserPictures: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]
    static let movies: Set<String> = ["mov", "mp4", "m4v", "3gp"]
    /// Beside a photo, but not for looking at.
    static let sidecars: Set<String> = ["aae", "xmp"]

    /// The media, oldest first, and one line per file seen (its path, size and time): what the
    /// page is made from, for the report's digest of its inputs.
    /// `digests`: the SHA-256 of each filed file the index knows, by its path in the library;
    /// `renditions`: each indexed rendition's photo, by the rendition's path (nil: no index).
    static func read(_ subject: Subject, layout: LibraryLayout, digests: [String: String] = [:],
                     renditions: [String: String]? = nil) throws(LibraryError) -> (media: [FiledMedia], inputs: [String]) {
        let files = layout.files
        var media: [FiledMedia] = []
        var inputs: [String] = []
        for folder in ["photos", "videos", "audio"] {
            let folderPath = "\(subject.path)/\(folder)"
            for year in try FolderListing.entries(of: "\(files.root)/\(folderPath)", in: files) where year.isFolder {
                let yearPath = "\(folderPath)/\(year.name)"
                let entries = try FolderListing.entries(of: "\(files.root)/\(yearPath)", in: files).filter { !$0.isFolder }
                for entry in entries { inputs.append("\(yearPath)/\(entry.name) \(entry.size) \(entry.modified)") }
                let known = renditions.map { renditions in
                    { (picture: String, photo: String?) in digests[picture] != nil || (photo.map { renditions[picture] == $0 } ?? false) }
                }
                media += group(entries.map(\.name), in: yearPath, folder: folder, isShowable: known).map { item in
                    var item = item
                    if item.kind != .audio, let filed = item.original ?? item.shown { item.sha256 = digests[filed] }
                    return item
                }
            }
        }
        return (media.sorted { ($0.stamp, $0.shown ?? $0.original ?? "") < ($1.stamp, $1.shown ?? $1.original ?? "") }, inputs)
    }

    /// The files of one year folder, grouped by name without extension. `isShowable(picture,
    /// photo)`, when given, says whether a browser picture may be shown for `photo`, the group's
    /// photo browsers cannot show; nil pairs by name alone.
    static func group(_ names: [String], in yearPath: String, folder: String,
                      isShowable: ((String, String?) -> Bool)? = nil) -> [FiledMedia] {
        var byStem: [String: [String]] = [:]
        for name in names {
            guard let dot = name.lastIndex(of: ".") else { continue }
            byStem[String(name[..<dot]), default: []].append(name)
        }
        var media: [FiledMedia] = []
        for (stem, group) in byStem {
            func ext(_ name: String) -> String { String(name[name.index(after: name.lastIndex(of: ".")!)...]).lowercased() }
            let stamp = String(stem.prefix(17))
            switch folder {
            case "videos":
                for name in group { media.append(FiledMedia(kind: .video, shown: "\(yearPath)/\(name)", original: nil, movie: nil, stamp: stamp)) }
            case "audio":
                for name in group { media.append(FiledMedia(kind: .audio, shown: "\(yearPath)/\(name)", original: nil, movie: nil, stamp: stamp)) }
            default:
                let pictures = group.filter { !movies.contains(ext($0)) && !sidecars.contains(ext($0)) }
                let original = pictures.first { !browserPictures.contains(ext($0)) }
                // Beside a photo browsers cannot show, only its rendition stands for it; a picture
                // alone is shown whether or not the index knows it (put there by hand, say).
                let showable = original == nil ? pictures : pictures.filter {
                    isShowable?("\(yearPath)/\($0)", original.map { "\(yearPath)/\($0)" }) ?? true
                }
                let shown = showable.first { ext($0) == "jpg" || ext($0) == "jpeg" } ?? showable.first { browserPictures.contains(ext($0)) }
                let movie = group.first { movies.contains(ext($0)) }
                guard shown != nil || original != nil else {
                    // A movie alone in photos/ (its still went elsewhere): shown as a video.
                    if let movie { media.append(FiledMedia(kind: .video, shown: "\(yearPath)/\(movie)", original: nil, movie: nil, stamp: stamp)) }
                    continue
                }
                media.append(FiledMedia(kind: .photo, shown: shown.map { "\(yearPath)/\($0)" }, original: original.map { "\(yearPath)/\($0)" },
                                        movie: movie.map { "\(yearPath)/\($0)" }, stamp: stamp))
            }
        }
        return media
    }
}
