// The fuzzer's pure-Swift readers (fuzz/PortableReaders.swift) as wasm exports, so that
// embedded/replay.mjs can replay the corpus where `Int` is 32 bits.

@_cdecl("replay_alloc")
public func replayAlloc(_ count: Int32) -> UnsafeMutablePointer<UInt8> {
  UnsafeMutablePointer<UInt8>.allocate(capacity: Int(max(count, 1)))
}

@_cdecl("replay_free")
public func replayFree(_ pointer: UnsafeMutablePointer<UInt8>) { pointer.deallocate() }

/// Runs the reader the first byte picks over the rest; 1 when it was one of the portable ones.
@_cdecl("replay_input")
public func replayInput(_ pointer: UnsafePointer<UInt8>, _ count: Int32) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(max(count, 0))))
  guard let selector = bytes.first else { return 0 }
  return PortableReaders.run(selector, Array(bytes.dropFirst()), runFrames: (bytes.last ?? 0) & 1 == 1) ? 1 : 0
}
