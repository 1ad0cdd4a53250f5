import CFFmpeg
import Panorama

/// Why a video's sound could not be opened or decoded, in words a user reads.
public struct AudioError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
  public init(_ message: String) { self.message = message }
}

/// Decoded sound: interleaved 32-bit float samples (−1…1), `channels` to a frame.
public struct AudioChunk: Sendable {
  /// Seconds of its first sample, on the clock of the video's frames (`VideoFrame.time`).
  public var time: Double
  public var samples: [Float]
  public var channels: Int
  public var frames: Int { channels > 0 ? samples.count / channels : 0 }
}

/// Decodes a video file's best audio stream through libavformat and libavcodec, on a file
/// handle of its own (so it runs on its own thread beside `VideoDecoder`), into interleaved
/// float samples at the stream's own rate. Every sample format FFmpeg decodes to (8-, 16-,
/// 32- and 64-bit integers, floats, doubles; packed or planar) is converted here, so no
/// resampler is needed: the sound device converts the rate. More than two channels keep
/// their first two (front left and right in every FFmpeg layout).
/// One thread at a time.
public final class AudioDecoder: @unchecked Sendable {
  public let path: String
  public let sampleRate: Int
  /// Channels of the chunks (1 or 2).
  public let channels: Int
  public let codecName: String

  let format: UnsafeMutablePointer<AVFormatContext>
  let codec: UnsafeMutablePointer<AVCodecContext>
  let packet: UnsafeMutablePointer<AVPacket>
  let frame: UnsafeMutablePointer<AVFrame>
  let streamIndex: Int32
  let timeBase: AVRational
  /// Seconds subtracted from every timestamp: the video stream's start, so times match its frames'.
  let origin: Double
  /// Seconds of the next sample, when a frame has no timestamp.
  var running: Double?
  var draining = false
  var finished = false

  /// Opens the sound of `path`, its times on the clock of `video`'s frames.
  public init(path: String, alignedWith video: VideoDecoder) throws(AudioError) {
    self.path = path
    let context: UnsafeMutablePointer<AVFormatContext>
    switch VideoInput.openContext(path) {
    case .success(let opened): context = opened
    case .failure(.refused(let reason)): throw AudioError(reason)
    case .failure(.status(let status)): throw AudioError("\(path): cannot read it (\(VideoDecoder.message(status)))")
    }
    var status: Int32
    format = context
    func fail(_ message: String) -> AudioError {
      var c: UnsafeMutablePointer<AVFormatContext>? = context
      avformat_close_input(&c)
      return AudioError(message)
    }
    status = avformat_find_stream_info(context, nil)
    guard status >= 0 else { throw fail("\(path): cannot read its streams (\(VideoDecoder.message(status)))") }
    let best = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
    guard best >= 0, let stream = context.pointee.streams[Int(best)], let parameters = stream.pointee.codecpar else {
      throw fail("\(path): has no sound")
    }
    streamIndex = best
    guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
      throw fail("\(path): no decoder for its sound (\(String(cString: avcodec_get_name(parameters.pointee.codec_id))))")
    }
    codecName = String(cString: decoder.pointee.name)
    guard let codec = avcodec_alloc_context3(decoder) else { throw fail("\(path): out of memory") }
    func failCodec(_ message: String) -> AudioError {
      var c: UnsafeMutablePointer<AVCodecContext>? = codec
      avcodec_free_context(&c)
      return fail(message)
    }
    status = avcodec_parameters_to_context(codec, parameters)
    guard status >= 0 else { throw failCodec("\(path): its sound: \(VideoDecoder.message(status))") }
    codec.pointee.thread_count = 1
    status = avcodec_open2(codec, decoder, nil)
    guard status >= 0 else {
      throw failCodec("\(path): cannot open the \(codecName) sound decoder (\(VideoDecoder.message(status)))")
    }
    let rate = Int(codec.pointee.sample_rate), inChannels = Int(codec.pointee.ch_layout.nb_channels)
    guard (1...768_000).contains(rate), (1...64).contains(inChannels) else {
      throw failCodec("\(path): its sound has \(inChannels) channels at \(rate) Hz: not something to play")
    }
    self.codec = codec
    sampleRate = rate
    channels = min(inChannels, 2)
    packet = av_packet_alloc()
    frame = av_frame_alloc()
    timeBase = stream.pointee.time_base
    origin = Double(video.startTimestamp) * Double(video.timeBase.num) / Double(video.timeBase.den)
  }

  deinit {
    var p: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&p)
    var f: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&f)
    var c: UnsafeMutablePointer<AVCodecContext>? = codec
    avcodec_free_context(&c)
    var fc: UnsafeMutablePointer<AVFormatContext>? = format
    avformat_close_input(&fc)
  }

  /// Goes to the last key frame at or before `seconds` (on the video's clock); `next()`
  /// then returns chunks from there (the caller trims what comes before `seconds`).
  public func seek(to seconds: Double) throws(AudioError) {
    let target = Int64(((max(0, seconds) + origin) * Double(timeBase.den) / Double(timeBase.num)).rounded(.down))
    let status = av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD)
    guard status >= 0 else { throw AudioError("\(path): cannot seek its sound to \(seconds) s") }
    avcodec_flush_buffers(codec)
    running = nil
    draining = false
    finished = false
  }

  /// The next chunk of sound, or nil at the end of the stream.
  public func next() throws(AudioError) -> AudioChunk? {
    while !finished {
      let received = avcodec_receive_frame(codec, frame)
      if received >= 0 {
        defer { av_frame_unref(frame) }
        if let chunk = convert() { return chunk }
        continue
      }
      if received == imagestage_averror_eof() {
        finished = true
        break
      }
      guard received == imagestage_averror_eagain() else {
        throw AudioError("\(path): its sound cannot be decoded (\(VideoDecoder.message(received)))")
      }
      if draining { continue }
      let read = av_read_frame(format, packet)
      if read < 0 {
        // A truncated file ends its sound where it ends: the video says what is wrong.
        avcodec_send_packet(codec, nil)
        draining = true
        continue
      }
      defer { av_packet_unref(packet) }
      guard packet.pointee.stream_index == streamIndex else { continue }
      let sent = avcodec_send_packet(codec, packet)
      // A damaged packet is skipped: a gap in the sound, not the end of the picture.
      _ = sent
    }
    return nil
  }

  /// The decoded frame as interleaved floats; nil for a frame with nothing in it.
  func convert() -> AudioChunk? {
    let f = frame.pointee
    let count = Int(f.nb_samples), inChannels = Int(f.ch_layout.nb_channels)
    guard count > 0, inChannels > 0, let planes = f.extended_data else { return nil }
    let out = min(inChannels, channels)
    let sampleFormat = AVSampleFormat(rawValue: f.format)
    let planar = av_sample_fmt_is_planar(sampleFormat) != 0
    var samples = [Float](repeating: 0, count: count * channels)
    // Reads sample `i` of channel `c` as Float, whatever the layout.
    func read<T>(_ type: T.Type, _ convert: (T) -> Float) {
      samples.withUnsafeMutableBufferPointer { dst in
        for c in 0..<out {
          guard let base = planar ? planes[c] : planes[0] else { continue }
          let src = UnsafeRawPointer(base).assumingMemoryBound(to: T.self)
          for i in 0..<count {
            dst[i * channels + c] = convert(planar ? src[i] : src[i * inChannels + c])
          }
        }
        // Mono into two channels never happens (channels ≤ inChannels); a mono stream stays mono.
      }
    }
    switch sampleFormat {
    case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: read(Float.self) { $0 }
    case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP: read(Double.self) { Float($0) }
    case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: read(Int16.self) { Float($0) / 32768 }
    case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P: read(Int32.self) { Float(Double($0) / 2_147_483_648) }
    case AV_SAMPLE_FMT_S64, AV_SAMPLE_FMT_S64P: read(Int64.self) { Float(Double($0) / 9_223_372_036_854_775_808) }
    case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: read(UInt8.self) { (Float($0) - 128) / 128 }
    default: return nil
    }
    let pts = f.best_effort_timestamp == Int64.min ? f.pts : f.best_effort_timestamp
    let time =
      pts == Int64.min ? (running ?? 0) : Double(pts) * Double(timeBase.num) / Double(timeBase.den) - origin
    running = time + Double(count) / Double(sampleRate)
    return AudioChunk(time: time, samples: samples, channels: channels)
  }
}
