import StageJSON

// Memory for text and bytes crossing the boundary, shared by every wasm module (the demo
// page's, the viewer's, the board component's): compiled into each, reached from JS through
// web/shared/wasm.js.
//
// Text crosses the boundary as UTF-8: JS writes into memory from `web_alloc` and passes a
// pointer and length; answers are left in one output buffer (`web_out_ptr`, the returned
// length). Nothing here keeps a pointer JS handed in past the call.

nonisolated(unsafe) var output = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
nonisolated(unsafe) var outputCapacity = 1 << 16

/// Leaves `text` in the output buffer; returns its length in bytes.
func answer(_ text: String) -> Int32 {
  var text = text
  return text.withUTF8 { bytes in
    if bytes.count > outputCapacity {
      output.deallocate()
      outputCapacity = max(bytes.count, outputCapacity * 2)
      output = UnsafeMutablePointer<UInt8>.allocate(capacity: outputCapacity)
    }
    if let base = bytes.baseAddress { output.update(from: base, count: bytes.count) }
    return Int32(bytes.count)
  }
}

func text(_ pointer: UnsafePointer<UInt8>?, _ count: Int32) -> String {
  guard let pointer, count > 0 else { return "" }
  return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
}

func bytes(_ pointer: UnsafePointer<UInt8>?, _ count: Int32) -> [UInt8] {
  guard let pointer, count > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
}

/// Leaves `value`'s JSON text in the output buffer.
func answer(_ value: JSONValue) -> Int32 { answer(value.text) }

// MARK: Memory

@_cdecl("web_alloc")
public func webAlloc(_ count: Int32) -> UnsafeMutablePointer<UInt8> {
  UnsafeMutablePointer<UInt8>.allocate(capacity: Int(max(count, 1)))
}

@_cdecl("web_free")
public func webFree(_ pointer: UnsafeMutablePointer<UInt8>) { pointer.deallocate() }

@_cdecl("web_out_ptr")
public func webOutPointer() -> UnsafeMutablePointer<UInt8> { output }
