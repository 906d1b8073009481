import Foundation

/// A relay on loopback between a sender and the test server that breaks the
/// link once, at a point the test chooses, and passes everything after that
/// untouched: the network failing at the worst moment, on demand.
///
/// Blocking sockets on threads of its own, so that a cut never waits on the
/// Swift concurrency pool the sender runs on.
final class CuttingProxy: @unchecked Sendable {
    enum Cut: Sendable {
        /// After the first `n` bytes the sender sends on a connection.
        case afterClientBytes(Int)
        /// Just before the sender's bytes that hold `text` (halfway through
        /// a batch's statement: the server never runs it).
        case beforeClientSends(String)
        /// Just before the server's bytes that hold `text` (the reply to a
        /// batch: the server has committed it, the sender never hears so).
        case beforeServerSends(String)
        /// Not a cut: from the server's bytes that hold `text` on, nothing
        /// more reaches the sender, and the link stays open (a server that
        /// stops answering).
        case stallBeforeServerSends(String)
    }

    /// How long each of the server's replies is held back (a slow link).
    let serverDelay: TimeInterval
    private var stopped = false

    let port: Int
    private let targetPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var pendingCut: Cut?
    private var cuts = 0
    private var largestClientStream = 0

    init(to targetPort: Int, cut: Cut?, serverDelay: TimeInterval = 0) throws {
        self.targetPort = targetPort
        self.serverDelay = serverDelay
        pendingCut = cut
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw TestServerError("the proxy cannot listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many times the link was cut (0 or 1).
    var cutCount: Int { lock.withLock { cuts } }

    /// The most bytes a sender sent on one connection.
    var clientBytes: Int { lock.withLock { largestClientStream } }

    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: targetPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            let link = Link(client: client, server: server)
            Thread.detachNewThread { [self] in relay(link, fromClient: true) }
            Thread.detachNewThread { [self] in relay(link, fromClient: false) }
        }
    }

    /// Both ends of one connection; closed once both directions are done.
    private final class Link: @unchecked Sendable {
        let client: Int32
        let server: Int32
        private let lock = NSLock()
        private var open = 2
        var clientBytes = 0

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func breakBoth() {
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }

        func directionDone() {
            breakBoth()
            let last = lock.withLock { () -> Bool in
                open -= 1
                return open == 0
            }
            if last {
                close(client)
                close(server)
            }
        }
    }

    private func relay(_ link: Link, fromClient: Bool) {
        defer { link.directionDone() }
        let source = fromClient ? link.client : link.server
        let sink = fromClient ? link.server : link.client
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // The end of the previous read, so that text split across two reads is found.
        var tail: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let chunk = Array(buffer[0..<count])
            if !fromClient && serverDelay > 0 { usleep(useconds_t(serverDelay * 1_000_000)) }
            var stall = false
            let passed = lock.withLock { () -> Int in
                defer {
                    if fromClient {
                        link.clientBytes += count
                        largestClientStream = max(largestClientStream, link.clientBytes)
                    }
                }
                guard let cut = pendingCut, let at = Self.cutPoint(cut, in: chunk, tail: tail, fromClient: fromClient,
                                                                   before: link.clientBytes) else { return count }
                pendingCut = nil
                cuts += 1
                if case .stallBeforeServerSends = cut { stall = true }
                return at
            }
            if passed > 0, !Self.writeAll(sink, chunk[0..<passed]) { return }
            if stall {
                while !lock.withLock({ stopped }) { usleep(50_000) }
                return
            }
            if passed < count { return }
            tail = Array((tail + chunk).suffix(64))
        }
    }

    /// Where in `chunk` to cut for `cut`, or `nil` when not in this chunk.
    private static func cutPoint(_ cut: Cut, in chunk: [UInt8], tail: [UInt8], fromClient: Bool, before sent: Int) -> Int? {
        switch cut {
        case .afterClientBytes(let limit):
            guard fromClient, sent + chunk.count > limit else { return nil }
            return max(limit - sent, 0)
        case .beforeClientSends(let text):
            guard fromClient else { return nil }
            return find(Array(text.utf8), in: chunk, tail: tail)
        case .beforeServerSends(let text), .stallBeforeServerSends(let text):
            guard !fromClient else { return nil }
            return find(Array(text.utf8), in: chunk, tail: tail)
        }
    }

    /// Where the message holding `needle` starts to be passed on: at the
    /// needle, or at the start of the chunk when it began in the last one.
    private static func find(_ needle: [UInt8], in chunk: [UInt8], tail: [UInt8]) -> Int? {
        let joined = tail + chunk
        guard joined.count >= needle.count else { return nil }
        for start in 0...(joined.count - needle.count) where joined[start..<(start + needle.count)].elementsEqual(needle) {
            return max(start - tail.count, 0)
        }
        return nil
    }

    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
