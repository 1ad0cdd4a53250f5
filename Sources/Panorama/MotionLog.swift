import CoreMath

/// Motion logs in CSV, the format detected from the header (see `docs/motion.md`):
/// Sensor Logger's `Orientation.csv` and `Gyroscope.csv`, SensorLog's export, and our own
/// `t,qx,qy,qz,qw` / `t,gx,gy,gz`.
public struct MotionLog: Sendable {
  /// The log formats read; the raw value is what a message names.
  public enum Format: String, Sendable {
    /// Sensor Logger's attitude quaternions.
    case sensorLoggerOrientation = "Sensor Logger Orientation.csv"
    /// Sensor Logger's angular rates, rad/s.
    case sensorLoggerGyroscope = "Sensor Logger Gyroscope.csv"
    /// SensorLog's export: its motion quaternion columns.
    case sensorLog = "SensorLog"
    /// Ours: seconds and a unit quaternion (x, y, z, w) per line.
    case plainAttitude = "t,qx,qy,qz,qw"
    /// Ours: seconds and angular rates in rad/s about the device's x, y, z per line.
    case plainRate = "t,gx,gy,gz"
  }

  /// What is wrong with a log, and on which line.
  public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line at fault, or 0 for the log as a whole.
    public var line: Int
    /// What is wrong.
    public var message: String
    /// `line N: message`, or the message alone for the whole log.
    public var description: String { line > 0 ? "line \(line): \(message)" : message }
  }

  /// The format the header matched.
  public var format: Format
  /// Samples in file order, times in seconds from the first sample.
  public var samples: [MotionSample]

  /// Parses a log. Rows with an empty or non-numeric value in a column we use are errors;
  /// blank lines are skipped. At most `maxRows` rows are read.
  public static func parse(_ bytes: [UInt8], maxRows: Int = 5_000_000) throws(ParseError) -> MotionLog {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    guard let headerBytes = lines.first else { throw ParseError(line: 1, message: "empty file") }
    lines.removeFirst()
    let header = Self.fields(headerBytes).map(Self.asciiLowercased)
    func column(_ name: String) -> Int? { header.firstIndex(of: Self.asciiLowercased(name)) }

    let format: Format
    var columns: [Int]
    var timeScale = 1.0
    if let t = column("seconds_elapsed"), let qx = column("qx"), let qy = column("qy"), let qz = column("qz"),
      let qw = column("qw")
    {
      format = .sensorLoggerOrientation
      columns = [t, qx, qy, qz, qw]
    } else if let t = column("seconds_elapsed"), let x = column("x"), let y = column("y"), let z = column("z") {
      format = .sensorLoggerGyroscope
      columns = [t, x, y, z]
    } else if let t = column("motionTimestamp_sinceReboot(s)"), let qx = column("motionQuaternionX(R)"),
      let qy = column("motionQuaternionY(R)"), let qz = column("motionQuaternionZ(R)"), let qw = column("motionQuaternionW(R)")
    {
      format = .sensorLog
      columns = [t, qx, qy, qz, qw]
    } else if let t = column("t"), let qx = column("qx"), let qy = column("qy"), let qz = column("qz"), let qw = column("qw") {
      format = .plainAttitude
      columns = [t, qx, qy, qz, qw]
    } else if let t = column("t"), let x = column("gx"), let y = column("gy"), let z = column("gz") {
      format = .plainRate
      columns = [t, x, y, z]
    } else if let t = column("time"), let qx = column("qx"), let qy = column("qy"), let qz = column("qz"), let qw = column("qw") {
      // Sensor Logger without seconds_elapsed: `time` is in nanoseconds.
      format = .sensorLoggerOrientation
      columns = [t, qx, qy, qz, qw]
      timeScale = 1e-9
    } else {
      let expected = "expected Sensor Logger, SensorLog, t,qx,qy,qz,qw or t,gx,gy,gz"
      throw ParseError(line: 1, message: "\(Self.describeHeader(headerBytes)); \(expected)")
    }

    var samples: [MotionSample] = []
    var firstTime: Double?
    for (n, lineBytes) in lines.enumerated() {
      let lineNumber = n + 2
      let fields = Self.fields(lineBytes)
      if fields.count == 1 && fields[0].isEmpty { continue }
      guard samples.count < maxRows else { throw ParseError(line: lineNumber, message: "more than \(maxRows) rows") }
      var values: [Double] = []
      for c in columns {
        guard c < fields.count else {
          throw ParseError(line: lineNumber, message: "expected \(header.count) columns, found \(fields.count)")
        }
        // Non-finite values are parsed and passed on: the tracker drops and counts them.
        guard let v = DecimalText.parse(Substring(fields[c])) else {
          throw ParseError(line: lineNumber, message: "column \"\(header[c])\": \"\(fields[c])\" is not a number")
        }
        values.append(v)
      }
      let raw = values[0] * timeScale
      let t = raw - (firstTime ?? raw)
      if firstTime == nil { firstTime = raw }
      if values.count == 5 {
        samples.append(.attitude(t: t, Quaternion(x: values[1], y: values[2], z: values[3], w: values[4])))
      } else {
        samples.append(.rate(t: t, Vector3(values[1], values[2], values[3])))
      }
    }
    guard !samples.isEmpty else { throw ParseError(line: 0, message: "no samples after the header") }
    return MotionLog(format: format, samples: samples)
  }

  /// ASCII-only lowercasing: headers are ASCII, and Unicode case tables are not in Embedded Swift.
  static func asciiLowercased(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
  }

  static func fields(_ line: ArraySlice<UInt8>) -> [String] {
    var text = String(decoding: line, as: UTF8.self)
    if text.hasSuffix("\r") { text.removeLast() }
    return text.split(separator: ",", omittingEmptySubsequences: false).map {
      var field = String($0)
      while field.hasPrefix(" ") { field.removeFirst() }
      while field.hasSuffix(" ") { field.removeLast() }
      if field.hasPrefix("\""), field.hasSuffix("\""), field.count >= 2 { field = String(field.dropFirst().dropLast()) }
      return field
    }
  }
}

extension MotionLog {
  /// The header in the message: quoted when it is text, otherwise what the file seems to be
  /// (a JPEG given as --motion printed its binary header, control characters and all).
  static func describeHeader<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "not a motion log: this is a JPEG image" }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "not a motion log: this is a PNG image" }
    // Bytes from 0x80 are UTF-8 text's; control characters are not in a CSV header.
    guard bytes.allSatisfy({ ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 || $0 == 0x0D }) else {
      return "not a motion log: its first line is binary data, not CSV text"
    }
    let shown = String(decoding: bytes.prefix(120), as: UTF8.self) + (bytes.count > 120 ? "…" : "")
    return "unknown motion log header \"\(shown)\""
  }
}
