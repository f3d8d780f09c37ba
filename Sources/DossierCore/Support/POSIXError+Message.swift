import Foundation

/// The C library's words for the current `errno`, e.g. "No space left on device".
func errnoMessage(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
