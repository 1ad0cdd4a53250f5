import CFFmpeg
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

extension VideoDecoder {
  /// The stream's spherical metadata: V2 from libavformat's side data (which also carries
  /// WebM's `Projection` and Matroska's `StereoMode`), else V1's XML from an MP4's `uuid`
  /// box, else what the frame's shape suggests.
  static func spherical(_ stream: UnsafeMutablePointer<AVStream>, path: String, width: Int, height: Int) -> SphericalVideo {
    var size: Int = 0
    let boxes = MP4Boxes.scan(path: path)
    var stereo = SphericalVideo.Stereo.mono
    var stereoFound = false
    if let raw = av_stream_get_side_data(stream, AV_PKT_DATA_STEREO3D, &size), size >= MemoryLayout<AVStereo3D>.size {
      let s = UnsafeRawPointer(raw).loadUnaligned(as: AVStereo3D.self)
      stereoFound = true
      switch s.type {
      case AV_STEREO3D_TOPBOTTOM: stereo = .topBottom
      case AV_STEREO3D_SIDEBYSIDE: stereo = .leftRight
      default: stereo = .mono
      }
    }
    // libavformat turns V1's XML into side data too (without its crop or heading): where
    // there is V1 and no sv3d box, our reader of the XML speaks.
    if !boxes.hasSV3D, let xml = boxes.v1XML, var video = try? SphericalVideo.parseV1(xml) {
      if stereoFound && stereo != .mono { video.stereo = stereo }
      return video
    }
    if let raw = av_stream_get_side_data(stream, AV_PKT_DATA_SPHERICAL, &size), size >= MemoryLayout<AVSphericalMapping>.size {
      let m = UnsafeRawPointer(raw).loadUnaligned(as: AVSphericalMapping.self)
      var video = SphericalVideo(source: "Spherical Video V2 (sv3d\(stereoFound ? ", st3d" : ""))")
      switch m.projection {
      case AV_SPHERICAL_EQUIRECTANGULAR, AV_SPHERICAL_EQUIRECTANGULAR_TILE: video.projection = .equirectangular
      case AV_SPHERICAL_CUBEMAP: video.projection = .cubemap
      default: video.projection = .other
      }
      // 16.16 degrees; bounds 0.32 fractions.
      func degrees(_ x: Int32) -> Double { Double(x) / 65536 * Double.pi / 180 }
      video.pose = ViewAngles(yaw: degrees(m.yaw), pitch: degrees(m.pitch), roll: degrees(m.roll))
      if m.projection == AV_SPHERICAL_EQUIRECTANGULAR_TILE {
        func fraction(_ x: UInt32) -> Double { Double(x) / 4_294_967_296 }
        video.cropLeft = fraction(m.bound_left)
        video.cropRight = fraction(m.bound_right)
        video.cropTop = fraction(m.bound_top)
        video.cropBottom = fraction(m.bound_bottom)
      }
      video.stereo = stereo
      return video
    }
    var assumed = SphericalVideo.assumed(width: width, height: height)
    if stereoFound && stereo != .mono {
      assumed = SphericalVideo(source: "stereo (\(stereo.rawValue)) with no spherical metadata; assumed equirectangular")
      assumed.stereo = stereo
    }
    return assumed
  }
}

/// Just enough of ISO BMFF (MP4, MOV) to find Spherical Video V1's XML: the `uuid` box
/// `ffcc8263-f855-4a93-8814-587a02521fdd` inside a `moov/trak`.
enum MP4Boxes {
  static let sphericalUUID: [UInt8] = [
    0xFF, 0xCC, 0x82, 0x63, 0xF8, 0x55, 0x4A, 0x93, 0x88, 0x14, 0x58, 0x7A, 0x02, 0x52, 0x1F, 0xDD,
  ]

  /// The V1 XML (nil when the file is not ISO BMFF or has none) and whether a V2 `sv3d`
  /// box is there. Reads the top-level box headers and the `moov` box (at most 64 MB).
  static func scan(path: String) -> (v1XML: [UInt8]?, hasSV3D: Bool) {
    guard let moov = moov(path: path) else { return (nil, false) }
    let sv3d = Array("sv3d".utf8)
    var hasSV3D = false
    var i = moov.startIndex
    while i + 4 <= moov.endIndex {
      if moov[i] == sv3d[0], moov[i..<(i + 4)].elementsEqual(sv3d) {
        hasSV3D = true
        break
      }
      i += 1
    }
    return (find(in: moov[...]), hasSV3D)
  }

  static func moov(path: String) -> [UInt8]? {
    // O_NONBLOCK: a FIFO opens at once (and fails its pread) rather than waiting for a writer.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var offset: Int64 = 0
    var header = [UInt8](repeating: 0, count: 16)
    for _ in 0..<64 {
      guard pread(fd, &header, 16, off_t(offset)) >= 8 else { return nil }
      var size = Int64(be32(header, 0))
      let type = String(decoding: header[4..<8], as: UTF8.self)
      var headerSize: Int64 = 8
      if size == 1 {
        size = Int64(bitPattern: UInt64(be32(header, 8)) << 32 | UInt64(be32(header, 12)))
        headerSize = 16
      }
      guard size >= headerSize || size == 0 else { return nil }
      if type == "moov" {
        let length = size == 0 ? 64 << 20 : size - headerSize
        guard length > 0, length <= 64 << 20 else { return nil }
        var body = [UInt8](repeating: 0, count: Int(length))
        let n = pread(fd, &body, Int(length), off_t(offset + headerSize))
        guard n > 0 else { return nil }
        if n < body.count { body.removeSubrange(n...) }
        return body
      }
      guard size > 0 else { return nil }
      offset += size
    }
    return nil
  }

  static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  /// Walks `moov`'s children: `trak` boxes are entered, a spherical `uuid` box answers.
  static func find(in boxes: ArraySlice<UInt8>, depth: Int = 0) -> [UInt8]? {
    var i = boxes.startIndex
    while i + 8 <= boxes.endIndex {
      let size = Int(UInt32(boxes[i]) << 24 | UInt32(boxes[i + 1]) << 16 | UInt32(boxes[i + 2]) << 8 | UInt32(boxes[i + 3]))
      guard size >= 8, i + size <= boxes.endIndex else { return nil }
      let type = String(decoding: boxes[(i + 4)..<(i + 8)], as: UTF8.self)
      let body = boxes[(i + 8)..<(i + size)]
      if type == "uuid", body.count >= 16, body.prefix(16).elementsEqual(sphericalUUID) {
        return Array(body.dropFirst(16))
      }
      if type == "trak", depth < 2, let found = find(in: body, depth: depth + 1) { return found }
      i += size
    }
    return nil
  }
}
