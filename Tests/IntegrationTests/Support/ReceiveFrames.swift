import Glibc
import LifeSignalProtocol

/// One recv(2) on a test's raw socket (waiting up to its receive timeout): each whole frame's body
/// goes to `onFrame`. Returns the bytes read (0 when nothing came in time), or nil once the peer
/// has closed or the socket failed. A frame that cannot be decoded ends the feed, as a broker would.
func receiveFrames(from fd: Int32, into decoder: inout FrameDecoder,
                   _ onFrame: (UnsafeRawBufferPointer) -> Void) -> Int? {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return nil }
    guard count > 0 else { return 0 }
    try? chunk.withUnsafeBytes { bytes in
        try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { body in
            onFrame(body)
            return true
        }
    }
    return count
}
