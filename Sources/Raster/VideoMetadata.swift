import CFFmpeg
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

extension VideoDecoder {
  /// The stream's spherical metadata: V1's XML from an MP4's `uuid` box where there is no
  /// V2 `sv3d` (read by `MP4SphericalReader`, the one reader of those boxes, which the web
  /// viewer runs too), else V2 from libavformat's side data (which also carries WebM's
  /// `Projection` and Matroska's `StereoMode`), else what the frame's shape suggests.
  static func spherical(_ stream: UnsafeMutablePointer<AVStream>, path: String, width: Int, height: Int) -> SphericalVideo {
    var size: Int = 0
    let boxes = readBoxes(path: path)
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
    // there is V1 and no sv3d box, the box reader speaks (with st3d's stereo, as here).
    if let video = boxes, video.source.hasPrefix(v1Source) { return video }
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

  /// `SphericalVideo.parseV1`'s source, which tells a V1 reading.
  static let v1Source = "Spherical Video V1"

  /// What `MP4SphericalReader` reads from the file's boxes (nil: not ISO BMFF, no spherical
  /// metadata, or a reason to refuse the boxes; libavformat's reading then speaks), feeding
  /// it the byte ranges it asks for.
  static func readBoxes(path: String) -> SphericalVideo? {
    // O_NONBLOCK: a FIFO opens at once (and fails its fstat check) rather than waiting for a writer.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    var reader = MP4SphericalReader(fileSize: Int64(status.st_size))
    // Each step reads further into the file or ends: the reader bounds the steps (64
    // top-level headers, then moov); the cap here only guards against a reader bug.
    for _ in 0..<256 {
      switch reader.next {
      case .done(let video, _): return video
      case .need(let offset, let count):
        guard offset >= 0, count >= 0, count <= MP4SphericalReader.maxMoov else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        guard n >= 0 else { return nil }
        bytes.removeSubrange(n...)
        reader.feed(bytes)
      }
    }
    return nil
  }
}
