import Foundation

/// The target a run fuzzes, named by `DOSSIER_FUZZ_TARGET` (libFuzzer owns the command line).
let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["DOSSIER_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("set DOSSIER_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

/// libFuzzer's entry point: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The executable's entry point under libFuzzer. SwiftPM links an executable target's main
/// as `<module>_main`, so libFuzzer's own `main` is never linked in: this one hands the
/// command line to libFuzzer's driver instead.
@_cdecl("DossierFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
/// Without libFuzzer (`swift build`), the same targets replay saved inputs, so a crash that
/// `scripts/fuzz` found is reproduced in a debugger: `DOSSIER_FUZZ_TARGET=csv dossier-fuzz FILE...`.
@main
struct FuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(1)
            }
            fuzzTarget.run(Array(data))
            print("\(path): no crash")
        }
    }
}
#endif
