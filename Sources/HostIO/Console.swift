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

  /// `text` (a path, a name from a file) made safe to print in a message: control
  /// characters written as `\n`, `\t`, `\r` or `\u{1b}`, so that a file named
  /// "a\n\u{1b}[31mb.jpg" can neither forge a line of output nor drive the terminal; bidi
  /// overrides too, which reorder what a terminal shows. Every path a message holds goes
  /// through here (`FileError`, the CLI's `Failures`).
  public static func escaped(_ text: String) -> String { escaped(text, keepingLines: false) }

  /// `text` escaped as `escaped(_:)` does, but for its line breaks and tabs (a message of
  /// several lines stays so).
  static func escaped(_ text: String, keepingLines: Bool) -> String {
    func needs(_ scalar: Unicode.Scalar) -> Bool {
      needsEscape(scalar) && !(keepingLines && (scalar == "\n" || scalar == "\t"))
    }
    guard text.unicodeScalars.contains(where: needs) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      guard needs(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return out
  }

  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
  }

  /// Prints `programName: message` on stderr. Escape codes and other control characters in
  /// it are escaped (its line breaks kept): whatever a message quotes (a name from a file,
  /// ffmpeg's words) never reaches the terminal as a command. Paths in it are escaped whole
  /// where the message is made (`escaped(_:)`), line breaks too.
  public static func error(_ s: String) {
    writeAll(2, Array("\(programName): \(escaped(s, keepingLines: true))\n".utf8))
  }
}
