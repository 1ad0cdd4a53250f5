#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Buffered stdout and unbuffered stderr for the executables, without Foundation.
/// Used from the main thread only.
public enum Console {
  nonisolated(unsafe) static var buffer: [UInt8] = []
  /// Program name prefixed to error messages.
  nonisolated(unsafe) public static var programName = "imagestage"

  /// Queues one line for stdout.
  public static func line(_ s: String) {
    buffer.append(contentsOf: s.utf8)
    buffer.append(0x0A)
    if buffer.count > 1 << 16 { flush() }
  }

  /// Writes queued stdout lines.
  public static func flush() {
    writeAll(1, buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes `bytes` to a file descriptor, retrying short writes.
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { writeAll(fd, $0) }
  }

  /// Writes all of `raw` to `fd` (no copy: a video frame goes straight from its buffer).
  /// Returns false when the reader went away or the write failed.
  @discardableResult
  public static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
    var off = 0
    while off < raw.count {
      let n = write(fd, raw.baseAddress! + off, raw.count - off)
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        return false
      }
      off += n
    }
    return true
  }

  /// Prints `programName: message` on stderr.
  public static func error(_ s: String) {
    writeAll(2, Array("\(programName): \(s)\n".utf8))
  }
}
