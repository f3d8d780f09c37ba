import DossierTestSupport
import Foundation
import Testing

/// `scripts/install` as a packager or a user runs it, with the binary these tests built
/// (`--no-build`: a release build would take longer than the whole suite may).
@Suite("scripts/install installs dossier like a real tool")
struct InstallScriptTests {
    /// The tool `swift package plugin generate-manual` builds; scripts/test builds it before the tests.
    static let manualGenerator = DossierBinary.url.deletingLastPathComponent().appendingPathComponent("generate-manual-tool")

    static var canInstall: Bool {
        FileManager.default.isExecutableFile(atPath: manualGenerator.path) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    static var generatorNeeded: ConditionTrait { .enabled(if: canInstall, noGenerator) }

    static var noGenerator: Comment {
        Comment(rawValue: "no \(manualGenerator.path) to make the man pages with: scripts/test makes it "
            + "(swift package plugin generate-manual --configuration debug)")
    }

    static let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    let folder: TemporaryFolder
    var prefix: String { folder.path("prefix") }

    init() throws {
        folder = try TemporaryFolder()
    }

    struct Outcome {
        let status: Int32
        let output: String
    }

    /// Runs a program to its end, its standard output and error together.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = DossierBinary.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    func install(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let script = DossierBinary.packageRoot.appendingPathComponent("scripts/install").path
        return try InstallScriptTests.run(script, ["--no-build"] + arguments, environment: [
            "DOSSIER_BINARY": DossierBinary.url.path, "GENERATE_MANUAL": InstallScriptTests.manualGenerator.path,
        ].merging(environment) { $1 })
    }

    func text(_ relative: String) -> String {
        (try? String(contentsOfFile: "\(prefix)/\(relative)", encoding: .utf8)) ?? ""
    }

    /// Every file the install promises, under the prefix.
    static let promised = [
        "bin/dossier", "share/man/man1/dossier.1", "share/man/man1/dossier.watch.1", "share/man/man1/dossier.import.1",
        "share/bash-completion/completions/dossier", "share/zsh/site-functions/_dossier",
        "share/fish/vendor_completions.d/dossier.fish", "lib/systemd/user/dossier-watch.service",
        "lib/systemd/system/dossier-watch.service", "lib/sysusers.d/dossier.conf", "lib/tmpfiles.d/dossier.conf",
    ]

    @Test("installs the binary, its man pages, three shells' completions and the units into a prefix of the user's, twice",
          InstallScriptTests.generatorNeeded)
    func installsEverythingIntoAUsersPrefix() throws {
        for _ in 1...2 {
            let outcome = try install([prefix])
            #expect(outcome.status == 0, "\(outcome.output)")
            #expect(outcome.output.contains("systemctl --user"), "the next steps name the commands")
        }
        for file in InstallScriptTests.promised {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file) was not installed")
        }
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/dossier"))
        for (file, says) in [("share/bash-completion/completions/dossier", "watch"), ("share/zsh/site-functions/_dossier", "quarantine"),
                             ("share/fish/vendor_completions.d/dossier.fish", "subjects")] {
            #expect(text(file).contains(says) && text(file).contains("import"), "\(file) does not complete the subcommands")
        }
        for manager in ["user", "system"] {
            let unit = text("lib/systemd/\(manager)/dossier-watch.service")
            #expect(unit.contains("ExecStart=\(prefix)/bin/dossier watch ${DOSSIER_INBOX}"), "\(manager) unit: \(unit)")
            #expect(!["@BINDIR@", "@INBOX@", "@LIBRARY@"].contains { unit.contains($0) }, "\(manager) unit kept a placeholder")
        }
        let system = text("lib/systemd/system/dossier-watch.service")
        #expect(system.contains("\nUser=dossier\n"), "the system unit must never run as root")
        #expect(system.contains("\nReadWritePaths=/srv/dossier/inbox /srv/dossier/library\n"))
    }

    @Test("makes man pages groff reads without a warning", InstallScriptTests.generatorNeeded)
    func manPagesAreValid() throws {
        #expect(try install([prefix]).status == 0)
        let page = "\(prefix)/share/man/man1/dossier.watch.1"
        #expect(text("share/man/man1/dossier.1").contains(".Dt DOSSIER 1"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        #expect(text("share/man/man1/dossier.watch.1").contains("shutdown-timeout"))
        // -z: formatted, not written; what is left on the output is groff's warnings.
        let rendered = try InstallScriptTests.run("/usr/bin/groff", ["-mandoc", "-Tutf8", "-ww", "-z", page],
                                                  environment: ["LC_ALL": "C.UTF-8"])
        #expect(rendered.status == 0 && rendered.output.isEmpty, "\(rendered.output.prefix(2000))")
    }

    @Test("gives the system unit the --inbox and --library asked for, and stages into DESTDIR naming the real prefix",
          InstallScriptTests.generatorNeeded)
    func foldersAndStaging() throws {
        let stage = folder.path("stage")
        let outcome = try install(["--inbox", "/mnt/nas/inbox", "--library=/mnt/nas/dossier", "/opt/dossier"],
                                  environment: ["DESTDIR": stage])
        #expect(outcome.status == 0, "\(outcome.output)")
        let system = (try? String(contentsOfFile: "\(stage)/opt/dossier/lib/systemd/system/dossier-watch.service",
                                  encoding: .utf8)) ?? ""
        #expect(system.contains("\nExecStart=/opt/dossier/bin/dossier watch"))
        #expect(system.contains("\nEnvironment=DOSSIER_INBOX=/mnt/nas/inbox\n"))
        #expect(system.contains("\nReadWritePaths=/mnt/nas/inbox /mnt/nas/dossier\n"))
        #expect(FileManager.default.isExecutableFile(atPath: "\(stage)/opt/dossier/bin/dossier"))
    }

    @Test("refuses a relative prefix, a folder a unit would need quoted, and an unknown option, saying which",
          InstallScriptTests.generatorNeeded)
    func refusesWhatItCannotInstall() throws {
        for (arguments, says) in [(["relative/prefix"], "absolute"), (["--library", "/srv/my dossier", prefix], "--library"),
                                  (["--frobnicate", prefix], "--frobnicate")] {
            let outcome = try install(arguments)
            #expect(outcome.status != 0 && outcome.output.contains(says), "\(arguments): \(outcome.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix), "nothing is installed after a refusal")
    }

    @Test("installs units systemd-analyze verifies, the system unit rated at most 3.5 (SAFE or OK)",
          InstallScriptTests.generatorNeeded,
          .enabled(if: InstallScriptTests.systemdAnalyze != nil, "systemd-analyze is not installed: the units are not checked"))
    func unitsPassSystemdAnalyze() throws {
        let analyze = try #require(InstallScriptTests.systemdAnalyze)
        #expect(try install([prefix]).status == 0)
        // verify runs `man` on Documentation=: the installed pages must be the ones it names.
        let manPath = ["MANPATH": "\(prefix)/share/man:"]
        for manager in ["user", "system"] {
            let unit = "\(prefix)/lib/systemd/\(manager)/dossier-watch.service"
            let verified = try InstallScriptTests.run(analyze, ["verify", unit], environment: manPath)
            #expect(verified.status == 0 && verified.output.isEmpty, "\(manager) unit: \(verified.output)")
        }
        let system = "\(prefix)/lib/systemd/system/dossier-watch.service"
        // The threshold is on systemd's scale of 0 to 100 (3.5 shown as the level).
        let rated = try InstallScriptTests.run(analyze, ["security", "--offline=yes", "--threshold=35", system])
        #expect(rated.status == 0, "\(rated.output.split(separator: "\n").filter { $0.contains("✗") || $0.contains("→") }.joined(separator: "\n"))")
    }
}
