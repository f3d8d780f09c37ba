import DossierCLI

/// Exit status: 0 all good; 1 some files failed; 2 the library itself could not be used;
/// 64 the command line was wrong (argument-parser's usage code). DossierCommand maps its errors.
@main
struct DossierMain {
    static func main() async {
        let arguments = DossierCommand.argumentsAsGiven
        DossierCommand.prepareProcess(for: arguments)
        await DossierCommand.run(arguments)
    }
}
