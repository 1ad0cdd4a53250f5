// What every wasm module's runtime needs from the page's side of libc, shared by the demo
// page's, the viewer's, the board's and the sortable board's modules (no StageJSON here, so
// a module that speaks only numbers links it too): random bytes without libc's printf, and
// the standard library's normalization tables left out.

/// Random bytes for the standard library's hashing seed, straight from the host (WASI's
/// `random_get`, through libc's `getentropy`). wasi-libc's own `arc4random_buf` runs a
/// ChaCha20 generator over them and asserts through `fprintf`, which linked the whole of
/// `printf` into every module (15 KB of code and data: the size report's `printf_core`);
/// defining the symbol here keeps libc's out of the link.
@_cdecl("arc4random_buf")
public func arc4randomBuffer(_ buffer: UnsafeMutableRawPointer?, _ count: Int) {
  guard let buffer else { return }
  var done = 0
  while done < count {
    let n = min(count - done, 256)  // getentropy's limit
    precondition(getentropy(buffer + done, n) == 0, "the host gave no random bytes")
    done += n
  }
}

@_extern(c, "getentropy")
func getentropy(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int32

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
