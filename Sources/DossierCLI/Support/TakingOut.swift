import ArgumentParser
import DossierCore
import Foundation

/// What `dossier remove` and `dossier move` share: the items their paths name, the library
/// opened for them (never made), and how they say what they did.
struct TakingOut {
    let layout: LibraryLayout
    let json: Bool
    let dryRun: Bool

    /// One path from the command line, and the item it names (or why it names none).
    struct Named {
        let argument: String
        let item: Result<FiledItem, FiledItemMover.Refusal>
    }

    /// Opens the library for the command (its lock held; a removal or move stopped part way
    /// undone or finished first), or read-only for a dry run; runs `body` with a mover.
    func withMover(_ body: (FiledItemMover) throws -> Void) throws {
        let identity = try CommandSupport.requireLibrary(layout)
        try CommandSupport.withLibraryError {
            if dryRun {
                guard let index = try LibraryIndex.openReadOnly(layout, identity: identity) else {
                    throw LibraryError.index(path: layout.indexFile.path,
                                             reason: "there is none; run `dossier index rebuild` to build it from the folders")
                }
                defer { index.close() }
                try body(FiledItemMover(layout: layout, index: index))
                return
            }
            let session = try CommandSupport.openLibrary(layout, access: .existing)
            defer { session.close() }
            guard let index = session.index else { return }
            try body(FiledItemMover(layout: layout, index: index))
        }
    }

    /// What a command did to its items: how many it took and refused, and the steps of each taken.
    struct Tally {
        var taken: [(item: FiledItem, steps: [FiledItemMover.Step])] = []
        var failed = 0
        var files: Int { taken.reduce(0) { $0 + $1.steps.count } }
    }

    /// Takes each item the paths name (`act`: remove it, or move it), saying each as it goes; a
    /// path that names none, or an item refused, is said and counted, and the others go on.
    func take(_ arguments: [String], verb: String, _ act: (FiledItemMover, FiledItem) throws -> [FiledItemMover.Step])
        throws -> Tally
    {
        var tally = Tally()
        try withMover { mover in
            for named in try items(arguments, mover: mover) {
                do {
                    let item = try named.item.get()
                    let steps = try act(mover, item)
                    try say(named.argument, verb: verb, steps: steps)
                    tally.taken.append((item, steps))
                } catch let refusal as FiledItemMover.Refusal {
                    // A path that named no item says so after it; an item refused names its file.
                    if case .failure = named.item {
                        try sayRefused(named.argument, refusal.description, naming: true)
                    } else {
                        try sayRefused(named.argument, refusal.description, naming: false)
                    }
                    tally.failed += 1
                }
            }
        }
        return tally
    }

    /// The items the paths name, each once (a still and its movie named both are one item).
    func items(_ arguments: [String], mover: FiledItemMover) throws(LibraryError) -> [Named] {
        var named: [Named] = []
        var seen = Set<String>()
        for argument in arguments {
            guard let relative = TakingOut.libraryPath(argument, in: layout) else {
                named.append(Named(argument: argument, item: .failure(FiledItemMover.Refusal(
                    description: "not in the library \(layout.root.path): give a path below it, or one relative to it as "
                        + "`dossier verify` names them"))))
                continue
            }
            guard let item = try mover.item(at: relative) else {
                named.append(Named(argument: argument, item: .failure(FiledItemMover.Refusal(description: TakingOut.notFiled(relative)))))
                continue
            }
            if seen.insert(item.head.path).inserted { named.append(Named(argument: argument, item: .success(item))) }
        }
        return named
    }

    /// Why a path in the library names no item.
    static func notFiled(_ relative: String) -> String {
        let parts = relative.split(separator: "/")
        if parts.count == 4, parts[2] == "records" {
            return "a year file of records: records are not taken out this way (each line comes from its source: edit "
                + "the source and import it again); photos, videos and sounds are"
        }
        return "the index knows no photo, video or sound filed there (see `dossier verify`)"
    }

    /// `argument` as a path relative to the library's root: a path below the root as named, or
    /// below the root's folder seen through another path (a link, a bind mount: the same device
    /// and inode); else, for a relative one, the path relative to the root (as `verify` names
    /// files). Nil when it is none of these. The path found is then walked from the root without
    /// following any link (`LibraryFileSystem`).
    static func libraryPath(_ argument: String, in layout: LibraryLayout) -> String? {
        let root = layout.root.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let absolute = URL(fileURLWithPath: argument, relativeTo: here).standardizedFileURL.path
        if absolute.hasPrefix(root + "/") { return String(absolute.dropFirst(root.count + 1)) }
        if let library = SourcePath.status(root) {
            var rest: [String] = [(absolute as NSString).lastPathComponent]
            var folder = (absolute as NSString).deletingLastPathComponent
            while folder.count > 1 {
                if let info = SourcePath.status(folder), info.st_dev == library.st_dev, info.st_ino == library.st_ino {
                    return rest.reversed().joined(separator: "/")
                }
                rest.append((folder as NSString).lastPathComponent)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        if !argument.hasPrefix("/"), (try? layout.url(forRelativePath: argument)) != nil { return argument }
        return nil
    }

    // MARK: Saying it

    /// One item done (`verb`: removed, moved), in text or `--json`.
    func say(_ argument: String, verb: String, steps: [FiledItemMover.Step]) throws {
        if json {
            StandardStreams.writeOut(try CommandSupport.json(ItemLine(path: argument, status: verb, dryRun: dryRun,
                                                                     files: steps.map(FileLine.init), error: nil)) + "\n")
            return
        }
        for step in steps {
            let what = step.role == .filed ? "" : step.role == .rendition ? " (a rendition)" : " (its original)"
            guard let to = step.to else {
                StandardStreams.writeOut("\(dryRun ? "would forget" : "forgot") \(SourcePath.displayed(step.from))\(what): nothing was there\n")
                continue
            }
            let there = step.wasThere ? " (its bytes were there already)" : ""
            StandardStreams.writeOut("\(dryRun ? "would \(verb.dropLast())" : verb) \(SourcePath.displayed(step.from))\(what) -> "
                + "\(SourcePath.displayed(to))\(there)\n")
        }
    }

    /// A path that names no item (`naming`: the reason does not name the file), or an item
    /// that could not be taken (the reason names the file of it that stood in the way).
    func sayRefused(_ argument: String, _ reason: String, naming: Bool) throws {
        let line = naming ? "\(argument): \(reason)" : reason
        if json {
            StandardStreams.writeOut(try CommandSupport.json(ItemLine(path: argument, status: "failed", dryRun: dryRun, files: [],
                                                                     error: line)) + "\n")
        }
        StandardStreams.writeError("dossier: \(SourcePath.displayed(line))\n")
    }

    func saySummary(done: Int, failed: Int, files: Int, verb: String, closing: String) throws {
        if json {
            StandardStreams.writeOut(try CommandSupport.json(SummaryLine(summary: .init(
                library: layout.root.path, items: done, files: files, failed: failed, dryRun: dryRun))) + "\n")
            return
        }
        guard done > 0 || failed == 0 else { return }
        let items = "\(done) \(done == 1 ? "item" : "items") (\(files) \(files == 1 ? "file" : "files"))"
        StandardStreams.writeOut(dryRun ? "Would \(verb.dropLast()) \(items) in \(layout.root.path); nothing was changed.\n"
                                        : "\(verb.prefix(1).uppercased())\(verb.dropFirst()) \(items) in \(layout.root.path)\(closing)\n")
    }

    struct FileLine: Encodable {
        let role: String
        let from: String
        let to: String?
        let wasThere: Bool

        init(_ step: FiledItemMover.Step) {
            role = step.role.rawValue
            from = step.from
            to = step.to
            wasThere = step.wasThere
        }
    }

    struct ItemLine: Encodable {
        let path: String
        let status: String
        let dryRun: Bool
        let files: [FileLine]
        let error: String?
    }

    struct SummaryLine: Encodable {
        struct Summary: Encodable {
            let library: String
            let items: Int
            let files: Int
            let failed: Int
            let dryRun: Bool
        }

        let summary: Summary
    }
}
