// Randomness for every wasm module, the board's sortable mode's too (which links no
// WasmMemory.swift: it speaks numbers only, through its own buffer).

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
