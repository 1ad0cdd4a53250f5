import CSDL2
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Sound through an SDL audio device: interleaved float chunks queued by a feeding thread,
/// pulled by SDL's audio callback, and a clock of what is heard now, the master clock of a
/// video's picture. Chunks carry a `serial`: after a seek only the new serial's sound plays
/// and counts for the clock. Owns the device; `deinit` closes it.
public final class AudioOutput: @unchecked Sendable {
  public let sampleRate: Int
  public let channels: Int
  /// The SDL audio driver playing it ("pulseaudio", "alsa", "dummy", …).
  public let driver: String
  let device: SDL_AudioDeviceID
  let shared = AudioShared()
  /// Seconds one callback's buffer lasts: what is heard lags the buffer written by this much.
  let bufferSeconds: Double

  /// Opens the default output for `channels` channels of 32-bit floats at `sampleRate` Hz
  /// (SDL converts to what the device takes).
  public init(sampleRate: Int, channels: Int) throws(SDLError) {
    if SDL_WasInit(SDL_INIT_AUDIO) == 0 {
      // Without a sound card only a sound server can play; trying ALSA then prints eight
      // lines of its own errors on stderr before failing. The user's SDL_AUDIODRIVER wins.
      let noCards = !Self.hasSoundCards
      var started = false
      var why: String?
      if noCards && (getenv("SDL_AUDIODRIVER").map { $0.pointee == 0 } ?? true) {
        for server in ["pulseaudio", "pipewire"] where !started {
          SDL_SetHint(SDL_HINT_AUDIODRIVER, server)
          started = SDL_InitSubSystem(SDL_INIT_AUDIO) == 0
          // The first server's words: PulseAudio's is the one most desktops run.
          if !started && why == nil { why = String(cString: SDL_GetError()) }
        }
        SDL_SetHint(SDL_HINT_AUDIODRIVER, nil)
      } else {
        started = SDL_InitSubSystem(SDL_INIT_AUDIO) == 0
        if !started { why = String(cString: SDL_GetError()) }
      }
      guard started else {
        let why = why ?? "unknown"
        throw SDLError(message: noCards ? "no sound card, and no sound server answers (\(why))" : "no sound device (\(why))")
      }
    }
    var want = SDL_AudioSpec()
    want.freq = Int32(sampleRate)
    want.format = SDL_AudioFormat(AUDIO_F32SYS)
    want.channels = UInt8(channels)
    // 2048 frames (43 ms at 48 kHz), as ffplay asks for: fewer wake-ups than 1024, and
    // what is heard is still known to a buffer's length (the clock allows for it).
    want.samples = 2048
    want.callback = audioCallback
    want.userdata = Unmanaged.passUnretained(shared).toOpaque()
    var have = SDL_AudioSpec()
    let id = SDL_OpenAudioDevice(nil, 0, &want, &have, 0)
    guard id != 0 else {
      let error = SDLError.current("cannot open a sound device")
      SDL_QuitSubSystem(SDL_INIT_AUDIO)
      throw error
    }
    device = id
    self.sampleRate = sampleRate
    self.channels = channels
    shared.frameSeconds = 1 / Double(sampleRate)
    shared.channels = channels
    bufferSeconds = Double(have.samples) / Double(max(have.freq, 1))
    driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "unknown"
  }

  deinit {
    SDL_CloseAudioDevice(device)
  }

  /// Whether the kernel lists a sound card (ALSA's /proc/asound/cards).
  static var hasSoundCards: Bool {
    guard let file = fopen("/proc/asound/cards", "r") else { return false }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, Int32(line.count), file) != nil else { return false }
    let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return !text.contains("no soundcards")
  }

  /// Starts or stops the device pulling sound (the clock stands still while paused).
  public func setPaused(_ paused: Bool) {
    SDL_PauseAudioDevice(device, paused ? 1 : 0)
    if !paused { shared.state.withLock { $0.heard = nil } }
  }

  /// From now on only chunks of `serial` play: what was queued before goes.
  public func flush(serial: Int) {
    shared.state.withLock {
      $0.serial = serial
      $0.chunks.removeAll()
      $0.head = 0
      $0.heard = nil
    }
  }

  /// Queues a chunk of `serial`, starting at `time` seconds (dropped when another serial plays).
  public func enqueue(_ samples: [Float], at time: Double, serial: Int) {
    shared.state.withLock {
      guard $0.serial == serial, !samples.isEmpty else { return }
      $0.chunks.append((time, samples))
    }
  }

  /// Seconds of sound queued and not yet handed to the device.
  public var queuedSeconds: Double {
    let frames = shared.state.withLock { s in s.chunks.reduce(0) { $0 + $1.samples.count } - s.head }
    return Double(frames) / Double(channels) / Double(sampleRate)
  }

  /// The time (seconds, on the chunks' clock) of the sound heard now, for `serial`: nil
  /// before any of its sound reached the device since the last seek or resume.
  public func heardTime(serial: Int) -> Double? {
    let now = SDL_GetPerformanceCounter()
    let frequency = Double(SDL_GetPerformanceFrequency())
    return shared.state.withLock { s in
      guard s.serial == serial, let h = s.heard else { return nil }
      let elapsed = Double(now &- h.wall) / frequency
      return h.time + min(max(elapsed, 0), h.duration) - bufferSeconds
    }
  }

  /// How many times SDL asked for sound: a device that never asks plays nothing.
  public var callbacks: Int { shared.state.withLock { $0.callbacks } }
}

/// What the feeding thread and SDL's audio thread share.
final class AudioShared: @unchecked Sendable {
  struct State {
    var chunks: [(time: Double, samples: [Float])] = []
    /// Samples of the first chunk already played.
    var head = 0
    var serial = 0
    /// The last callback's buffer: the time of its first sample, its length, and when it was asked for.
    var heard: (time: Double, duration: Double, wall: UInt64)?
    var callbacks = 0
  }
  let state = Mutex(State())
  var frameSeconds = 1.0 / 48000
  var channels = 2

  /// Fills `out` (`count` floats) from the queue, silence where it runs dry.
  func fill(_ out: UnsafeMutablePointer<Float>, count: Int) {
    let channels = self.channels, frameSeconds = self.frameSeconds
    state.withLock { s in
      s.callbacks += 1
      var written = 0
      var start: Double?
      while written < count, !s.chunks.isEmpty {
        let chunk = s.chunks[0]
        if start == nil { start = chunk.time + Double(s.head / channels) * frameSeconds }
        let n = min(count - written, chunk.samples.count - s.head)
        chunk.samples.withUnsafeBufferPointer { src in
          (out + written).update(from: src.baseAddress! + s.head, count: n)
        }
        written += n
        s.head += n
        if s.head >= chunk.samples.count {
          s.chunks.removeFirst()
          s.head = 0
        }
      }
      if written < count { (out + written).update(repeating: 0, count: count - written) }
      if let start {
        s.heard = (start, Double(written / channels) * frameSeconds, SDL_GetPerformanceCounter())
      }
    }
  }
}

/// SDL's audio thread asks for `length` bytes of sound.
private func audioCallback(_ userdata: UnsafeMutableRawPointer?, _ stream: UnsafeMutablePointer<UInt8>?, _ length: Int32) {
  guard let userdata, let stream else { return }
  let shared = Unmanaged<AudioShared>.fromOpaque(userdata).takeUnretainedValue()
  let count = Int(length) / MemoryLayout<Float>.size
  stream.withMemoryRebound(to: Float.self, capacity: count) { shared.fill($0, count: count) }
}
