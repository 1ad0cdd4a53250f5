import CJPEGRows
import Panorama

/// libjpeg's scanline decoder over a file or bytes in memory (CJPEGRows, the setjmp
/// boundary), with the limits a hostile JPEG needs checked before libjpeg allocates what the
/// image's size decides: the header is read at `init`; `start` checks what the decode will
/// hold (`decoderBytes`, plus what the caller adds) against `ImageLimits.maxMemory`, and
/// only then lets libjpeg allocate (under the same bound, its own) and read the scans
/// (at most `ImageLimits.maxScans`).
final class JPEGRows {
  let reader: OpaquePointer
  /// Kept alive while libjpeg reads them (`jpeg_mem_src` does not copy).
  let bytes: [UInt8]?
  /// The file's path, to name it in messages (nil for bytes: the caller names them).
  let path: String?

  /// Opens the JPEG at `path` and reads its header.
  init(path: String, limits: ImageLimits) throws(RasterError) {
    var message = [CChar](repeating: 0, count: 256)
    guard let reader = jpeg_rows_open(path, Int32(clamping: limits.maxScans), &message, message.count) else {
      throw RasterError(.corrupt, "\(path): \(Self.text(message))")
    }
    self.reader = reader
    bytes = nil
    self.path = path
  }

  /// Reads the header of the JPEG in `bytes`.
  init(bytes: [UInt8], limits: ImageLimits) throws(RasterError) {
    var message = [CChar](repeating: 0, count: 256)
    let opened = bytes.withUnsafeBufferPointer {
      jpeg_rows_open_memory($0.baseAddress, $0.count, Int32(clamping: limits.maxScans), &message, message.count)
    }
    guard let opened else { throw RasterError(.corrupt, "corrupt JPEG data: \(Self.text(message))") }
    reader = opened
    self.bytes = bytes
    path = nil
  }

  deinit { jpeg_rows_close(reader) }

  /// The output size (after `scale`).
  var width: Int { Int(jpeg_rows_width(reader)) }
  var height: Int { Int(jpeg_rows_height(reader)) }
  /// About what libjpeg holds while decoding: for a progressive JPEG, every coefficient of
  /// the image (2 bytes a sample a component) until its last scan.
  var decoderBytes: Int { Int(clamping: jpeg_rows_decoder_bytes(reader)) }
  var isProgressive: Bool { jpeg_rows_is_progressive(reader) != 0 }

  /// Decodes at 1/`denominator` of the size (1, 2, 4 or 8).
  func scale(_ denominator: Int) { jpeg_rows_scale(reader, Int32(denominator)) }

  /// Refuses a decode that would hold more than `limits.maxMemory` (`decoderBytes` and the
  /// caller's `plus`), then starts it (a progressive JPEG's scans are all read here).
  func start(limits: ImageLimits, plus callerBytes: Int = 0, what: String = "decoding it") throws(RasterError) {
    let total = decoderBytes.addingReportingOverflow(callerBytes)
    guard !total.overflow, total.partialValue <= limits.maxMemory else {
      let kind = isProgressive ? "a progressive JPEG" : "a JPEG"
      throw RasterError(
        .tooLarge,
        "\(path.map { "\($0) is " } ?? "the image is ")\(kind) of \(width)×\(height): \(what) needs about \(Self.megabytes(total.overflow ? Int.max : total.partialValue)) MB, over the limit of \(limits.maxMemory >> 20) MB (--max-memory)"
      )
    }
    var message = [CChar](repeating: 0, count: 256)
    guard jpeg_rows_start(reader, UInt64(limits.maxMemory), &message, message.count) == 0 else {
      throw RasterError(.corrupt, "\(path.map { "\($0): " } ?? "")\(Self.text(message))")
    }
  }

  /// Decodes the next `count` rows as RGBA, `stride` bytes apart.
  func read(into rows: UnsafeMutableRawPointer, count: Int, stride: Int, row: Int) throws(RasterError) {
    var message = [CChar](repeating: 0, count: 256)
    let status = jpeg_rows_read(
      reader, rows.assumingMemoryBound(to: UInt8.self), Int32(count), stride, &message, message.count)
    guard status == 0 else {
      let place = path.map { "\($0): corrupt JPEG data at row \(row)" } ?? "corrupt JPEG data"
      throw RasterError(.corrupt, "\(place): \(Self.text(message))")
    }
  }

  /// The whole image (after `start`).
  func readAll() throws(RasterError) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    let (w, h) = (width, height)
    var failure: RasterError?
    image.pixels.withUnsafeMutableBytes { pixels in
      do throws(RasterError) {
        try read(into: pixels.baseAddress!, count: h, stride: w * 4, row: 0)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return image
  }

  static func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }

  /// A C message buffer's text, up to its terminating zero.
  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
