import Foundation
import Glibc

/// Tells systemd how the daemon is doing, when it runs as a `Type=notify` service: one datagram
/// to `$NOTIFY_SOCKET` per message (`READY=1`, `STATUS=...`, `WATCHDOG=1`, `STOPPING=1`), the
/// protocol sd_notify(3) describes, without linking libsystemd.
public struct SystemdNotifier: Sendable {
    public let socketPath: String

    /// Nil when not started by systemd (no `NOTIFY_SOCKET`).
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        socketPath = path
    }

    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`, as sd_watchdog_enabled(3) advises;
    /// nil when systemd asks for none (or asks it of another process).
    public static func watchdogInterval(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() { return nil }
        return .microseconds(microseconds / 2)
    }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func status(_ status: String) { send("STATUS=\(status)") }
    public func watchdog() { send("WATCHDOG=1") }
    public func stopping() { send("STOPPING=1") }

    /// Sends one datagram; a socket that is gone is not the daemon's problem, so failures are ignored.
    public func send(_ message: String) {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return }
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract socket is written `@name` and addressed with a leading NUL.
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
    }
}
