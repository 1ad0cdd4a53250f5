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

// MARK: Unicode normalization

// The web modules compare, hash and order strings by their Unicode scalars, as JS compares
// code units (`===`, a `Map`'s keys, `querySelector`): an id, an option name or a scene name
// matches only itself, not a canonically equivalent spelling. These four definitions stand
// in for the standard library's normalization tables (libswiftUnicodeDataTables'
// UnicodeNormalization member, 43 KB, about 22 KB of each module's gzipped weight): every
// scalar is its own NFC and NFD form with combining class 0, so `==`, hashing and `<` never
// rewrite a string. Hangul syllables still compose and decompose (the standard library does
// that by arithmetic), and grapheme breaking keeps its own tables: characters, `count` and
// `prefix` stay what the app's are. The app and the CLI link the full tables.

/// Normalization data for a scalar: 0, combining class 0 and quick-check Yes for NFC and NFD.
@_cdecl("_swift_stdlib_getNormData")
public func unicodeNormData(_ scalar: UInt32) -> UInt16 { 0 }

/// No scalar has a decomposition: the entry's low 18 bits, which must equal the scalar for
/// one to be read, never do.
@_cdecl("_swift_stdlib_getDecompositionEntry")
public func unicodeDecompositionEntry(_ scalar: UInt32) -> UInt32 { scalar ^ 1 }

/// No two scalars compose (`UInt32.max`: none).
@_cdecl("_swift_stdlib_getComposition")
public func unicodeComposition(_ first: UInt32, _ second: UInt32) -> UInt32 { .max }

/// The decompositions' table, never read (no entry matches its scalar).
@_silgen_name("_swift_stdlib_nfd_decompositions")
nonisolated(unsafe) public var unicodeDecompositions: UnsafePointer<UInt8>? = nil
