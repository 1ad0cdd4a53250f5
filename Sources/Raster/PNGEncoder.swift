import CZlib
import Panorama

/// Writes PNGs with the image cut into bands of rows that are filtered and deflated on
/// several threads at once, then joined into one zlib stream: each band is its own raw
/// deflate stream ending on a byte boundary (`Z_SYNC_FLUSH`; the last one `Z_FINISH`), and
/// the Adler-32 of the whole follows from the bands' (`adler32_combine`). pigz makes gzip
/// files the same way. Rows are Paeth-filtered and deflated with zlib's run-length strategy
/// (libspng's default, level 6 with every filter tried per row, took 5× as long for files
/// of the same size; see `Raster.encodePNG`).
///
/// A band restarts the deflate window, so the file is a little larger than one stream's
/// (under 0.1 % for bands of 64 rows and more at 8192 px wide).
enum PNGEncoder {
  struct Band: Sendable {
    var bytes: [UInt8] = []
    var adler: UInt = 1
    var length = 0
    var status: Int32 = Z_OK
  }

  /// Rows per band: enough that the restarted window costs nothing measurable, few enough
  /// that two threads share a 720-row frame.
  static let bandRows = 128

  static func encode(_ image: RGBAImage, executor: any RowExecutor) throws(RasterError) -> [UInt8] {
    let width = image.width, height = image.height
    guard width > 0, height > 0, width <= Int(Int32.max) / 4 else {
      throw RasterError(.encode, "cannot encode PNG: the image is \(width)×\(height)")
    }
    let bands = (height + bandRows - 1) / bandRows
    let results = UnsafeMutableBufferPointer<Band>.allocate(capacity: bands)
    results.initialize(repeating: Band())
    defer { results.deallocate() }
    let shared = UnsafeSendable(results)
    image.pixels.withUnsafeBytes { pixels in
      let source = UnsafeSendable(pixels)
      executor.run(bands) { band in
        let first = band * bandRows, last = min(height, first + bandRows)
        shared.value[band] = deflateBand(source.value, width: width, rows: first..<last, final: last == height)
      }
    }
    for band in results where band.status != Z_OK && band.status != Z_STREAM_END {
      throw RasterError(.encode, "cannot encode PNG: zlib error \(band.status)")
    }
    var adler: UInt = 1
    for band in results { adler = adler32_combine(adler, band.adler, off_t(band.length)) }

    var zlibStream: [UInt8] = [0x78, 0x01]  // deflate, 32 KB window, "fastest" (level 1)
    zlibStream.reserveCapacity(results.reduce(2) { $0 + $1.bytes.count } + 4)
    for band in results { zlibStream += band.bytes }
    zlibStream += bigEndian(UInt32(truncatingIfNeeded: adler))

    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png.reserveCapacity(zlibStream.count + 64 + zlibStream.count / (1 << 20) * 12)
    // 8-bit RGBA, deflate, adaptive filtering, no interlace.
    chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0], into: &png)
    // IDAT chunks of 1 MB, as most writers make them.
    var start = 0
    repeat {
      let end = min(zlibStream.count, start + (1 << 20))
      chunk("IDAT", zlibStream[start..<end], into: &png)
      start = end
    } while start < zlibStream.count
    chunk("IEND", [], into: &png)
    return png
  }

  /// Paeth-filters rows `rows` (each preceded by its filter type byte) and deflates them.
  static func deflateBand(_ pixels: UnsafeRawBufferPointer, width: Int, rows: Range<Int>, final: Bool) -> Band {
    let stride = width * 4
    var filtered = [UInt8](repeating: 0, count: rows.count * (stride + 1))
    let base = pixels.bindMemory(to: UInt8.self).baseAddress!
    filtered.withUnsafeMutableBufferPointer { out in
      var o = 0
      for y in rows {
        out[o] = 4  // Paeth
        o += 1
        let row = base + y * stride
        let up = y > 0 ? base + (y - 1) * stride : nil
        paeth(row, up, stride, out.baseAddress! + o)
        o += stride
      }
    }
    var band = Band()
    band.length = filtered.count
    band.adler = filtered.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }
    var stream = z_stream()
    band.status = imagestage_deflate_init_raw(&stream, 1, Z_RLE)
    guard band.status == Z_OK else { return band }
    defer { deflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(filtered.count))) + 16)
    filtered.withUnsafeMutableBufferPointer { input in
      out.withUnsafeMutableBufferPointer { output in
        stream.next_in = input.baseAddress
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress
        stream.avail_out = uInt(output.count)
        band.status = deflate(&stream, final ? Z_FINISH : Z_SYNC_FLUSH)
      }
    }
    let done = final ? band.status == Z_STREAM_END : band.status == Z_OK && stream.avail_in == 0
    if done { band.status = Z_OK } else if band.status == Z_OK { band.status = Z_BUF_ERROR }
    out.removeLast(Int(stream.avail_out))
    band.bytes = out
    return band
  }

  /// PNG's Paeth filter for one RGBA row: each byte minus the predictor of its left, upper
  /// and upper-left neighbours (zero outside the image).
  @inline(__always)
  static func paeth(_ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>?, _ count: Int, _ out: UnsafeMutablePointer<UInt8>) {
    guard let up else {
      // First row: up and upper-left are zero, so Paeth predicts the left byte (Sub).
      for i in 0..<min(4, count) { out[i] = row[i] }
      var i = 4
      while i < count {
        out[i] = row[i] &- row[i - 4]
        i += 1
      }
      return
    }
    for i in 0..<min(4, count) { out[i] = row[i] &- up[i] }  // left and upper-left are zero
    var i = 4
    while i < count {
      let a = Int(row[i - 4]), b = Int(up[i]), c = Int(up[i - 4])
      let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
      let predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      out[i] = row[i] &- UInt8(truncatingIfNeeded: predictor)
      i += 1
    }
  }

  static func chunk<C: Collection>(_ type: String, _ data: C, into png: inout [UInt8]) where C.Element == UInt8 {
    png += bigEndian(UInt32(data.count))
    let typeBytes = Array(type.utf8)
    var crc = crc32(0, typeBytes, 4)
    png += typeBytes
    let body = Array(data)
    crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    png += body
    png += bigEndian(UInt32(truncatingIfNeeded: crc))
  }

  static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }
}

/// A pointer handed to the worker threads, each of which touches its own part.
struct UnsafeSendable<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
