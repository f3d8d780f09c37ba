@testable import DossierCLI
import DossierCore
import Foundation
import DossierTestSupport
import Logging
import Synchronization
import Testing

@Suite("The import's steps, as the list runs them")
struct ImportStepsTests {
    let folder: TemporaryFolder
    var library: LibraryLayout { LibraryLayout(root: folder.url.appendingPathComponent("Library")) }

    /// A photo, a notepad log and a CSV export from the samples, each under its subject's folder.
    static let samples = ["children/mina/photo-4.jpg", "pets/leo/care-log-2023.txt", "children/mina/feeding.csv"]

    init() throws {
        folder = try TemporaryFolder()
        for sample in ImportStepsTests.samples {
            let bytes = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/\(sample)")))
            try folder.write(bytes, to: "dump/\(sample)")
        }
    }

    /// Imports `dump/` through the built-in plugins (and `extra`), one source at a time, and
    /// returns the steps each source went through, each named once, in the order each first ran.
    func stepsRun(adding extra: [Plugin] = [], move: Bool = false) async throws -> (steps: [String: [String]], outcomes: [SourceOutcome]) {
        let heard = Mutex<[(step: String, source: String)]>([])
        let registry = try PluginRegistry(plugins: try BuiltinPlugins.registry().plugins + extra)
        let pipeline = ImportPipeline(registry: registry, layout: library, options: ImportOptions(move: move, jobs: 1, createsSubjects: true),
                                      logger: Logger(label: "test"),
                                      stepObserver: { step, source in heard.withLock { $0.append((step, source)) } })
        let recorder = OutcomeRecorder()
        _ = try await pipeline.run([folder.path("dump")], listeners: [recorder])
        var steps: [String: [String]] = [:]
        for (step, source) in heard.withLock({ $0 }) {
            let sample = String(source.dropFirst(folder.path("dump").count + 1))
            if steps[sample]?.contains(step) != true { steps[sample, default: []].append(step) }
        }
        return (steps, try ImportStepsTests.samples.map { try #require(recorder.outcome(of: folder.path("dump/\($0)"))) })
    }

    @Test("A photo, a log and a CSV each go through the steps in the order the list gives, items routed, transformed and filed within read")
    func everySourceRunsTheListInOrder() async throws {
        let (steps, outcomes) = try await stepsRun()
        #expect(outcomes.map(\.status) == [.imported, .imported, .imported])
        let expected = ["discover", "skip-unchanged", "sniff", "keep", "skip-same-bytes", "read", "route", "transform", "file",
                        "same-bytes-filed-at-once", "commit", "index", "remove", "report"]
        for sample in ImportStepsTests.samples {
            #expect(steps[sample] == expected, "\(sample)")
        }
        // The list itself, with the item steps where `read` streams its items through them.
        let names = ImportSteps.standard.names
        let read = try #require(names.firstIndex(of: "read"))
        #expect(Array(names[...read]) + ImportSteps.itemSteps + Array(names[(read + 1)...]) == expected)
    }

    @Test("An unchanged source imported again is decided by skip-unchanged: nothing of it is sniffed or read")
    func unchangedSourceStopsWorkingAtSkipUnchanged() async throws {
        _ = try await stepsRun()
        let (steps, outcomes) = try await stepsRun()
        #expect(outcomes.map(\.status) == [.duplicate, .duplicate, .duplicate])
        for sample in ImportStepsTests.samples {
            #expect(steps[sample] == ["discover", "skip-unchanged", "same-bytes-filed-at-once", "commit", "index", "remove", "report"],
                    "\(sample)")
        }
    }

    @Test("A step a plugin adds after index runs there for every source, and what it notes reaches the report")
    func pluginStepRunsWhereItAsks() async throws {
        let plugin = Plugin(name: "witness", summary: "notes each source indexed",
                            steps: [PluginStep(WitnessStep(), .after, "index")])
        let (steps, outcomes) = try await stepsRun(adding: [plugin])
        for sample in ImportStepsTests.samples {
            let list = try #require(steps[sample])
            #expect(Array(list.suffix(4)) == ["index", "witness", "remove", "report"], "\(sample)")
        }
        #expect(outcomes.map(\.warnings) == Array(repeating: ["witnessed after index"], count: 3))
    }

    @Test("A failed source stops at the settling step that failed, and still reaches the report")
    func stoppedSourceStillReported() async throws {
        let plugin = Plugin(name: "refuser", summary: "fails every source at commit",
                            steps: [PluginStep(RefusingStep(), .before, "commit")])
        let (steps, outcomes) = try await stepsRun(adding: [plugin], move: true)
        #expect(outcomes.map(\.status) == [.failed, .failed, .failed])
        #expect(outcomes.map(\.stage) == [.file, .file, .file])
        for sample in ImportStepsTests.samples {
            let list = try #require(steps[sample])
            #expect(Array(list.suffix(2)) == ["refuse", "report"], "\(sample)")
            // --move: a failed source is never removed.
            #expect(FileManager.default.fileExists(atPath: folder.path("dump/\(sample)")))
        }
    }

    @Test("A source a step fails with an error that has codes keeps them: errorCode and cause in its --json line")
    func failureKeepsItsCodes() async throws {
        let plugin = Plugin(name: "unreadable", summary: "fails every source as a read error would",
                            steps: [PluginStep(UnreadableStep(), .before, "read")])
        let (_, outcomes) = try await stepsRun(adding: [plugin])
        for outcome in outcomes {
            #expect(outcome.status == .failed)
            #expect(outcome.stage == .read)
            #expect(outcome.errorCode == "cannot-read")
            #expect(outcome.cause == .errno(EIO))
            #expect(outcome.error == "cannot read \(outcome.source): Input/output error")
            let line = try #require(try JSONSerialization.jsonObject(with: Data(JSONLinesReporter.line(for: outcome).utf8))
                as? [String: Any])
            #expect(line["errorCode"] as? String == "cannot-read")
            #expect(line["cause"] as? String == "EIO")
            #expect(line["stage"] as? String == "read")
        }
    }
}

/// Fails every source as a read error in the library's file system layer would.
struct UnreadableStep: ImportStep {
    let name = "unreadable"
    let phase = ImportStepPhase.working
    let stage = ImportStage.read

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        throw LibraryError.cannotRead(path: source.path, reason: .errno(EIO))
    }
}

/// Notes in each outcome that it ran.
struct WitnessStep: ImportStep {
    let name = "witness"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.index

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        source.outcome?.warnings.append("witnessed after index")
        return .next
    }
}

/// Fails every source.
struct RefusingStep: ImportStep {
    let name = "refuse"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.file

    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused by the test's step" }
    }

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        throw Refused()
    }
}
