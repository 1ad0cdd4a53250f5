/// Builds a ``JSON`` value from one call per token, for a host that has already parsed its
/// text (the web viewer's JS walks `JSON.parse`'s object, or the page's own, and feeds it
/// here), so the readers that take a ``JSON`` (``ViewerConfig/read(_:source:)``) need no
/// parser in that module.
///
/// ```swift
/// var b = JSONBuilder()
/// b.open(array: false)
/// b.key("hfov")
/// b.add(.number(110))
/// b.close()
/// b.result  // {"hfov": 110}
/// ```
///
/// Misuse (a member without its key, `close` with nothing open, a value past the root) is
/// refused: the builder is marked broken and `result` is nil, never a trap, since the calls
/// cross a module boundary. Nesting is limited as ``JSONParser``'s is, and the containers
/// are kept on an explicit stack, so a deep input cannot exhaust the call stack.
public struct JSONBuilder: Sendable {
  /// The containers open, outermost first: an array's elements, or an object's members and
  /// the key of the one to come.
  private var open: [(isArray: Bool, elements: [JSON], members: [(key: String, value: JSON)], key: String?)] = []
  private var root: JSON?
  /// Whether a call was out of order or too deep (`result` is then nil).
  public private(set) var broken = false
  public let maxDepth: Int

  public init(maxDepth: Int = 256) { self.maxDepth = maxDepth }

  /// The value built, once every container is closed; nil while one is open or after misuse.
  public var result: JSON? { broken || !open.isEmpty ? nil : root }

  /// Names the next member of the object open.
  public mutating func key(_ name: String) {
    guard let last = open.indices.last, !open[last].isArray, open[last].key == nil else { return fail() }
    open[last].key = name
  }

  /// A scalar value (`null`, a flag, a number, a string): the next element or member, or the root.
  public mutating func add(_ value: JSON.Value) { place(JSON(value)) }

  /// Opens an array or an object.
  public mutating func open(array: Bool) {
    guard open.count < maxDepth, !broken else { return fail() }
    open.append((array, [], [], nil))
  }

  /// Closes the container opened last.
  public mutating func close() {
    guard let c = open.popLast() else { return fail() }
    guard c.isArray || c.key == nil else { return fail() }
    place(JSON(c.isArray ? .array(c.elements) : .object(c.members)))
  }

  private mutating func place(_ value: JSON) {
    guard !broken else { return }
    guard let last = open.indices.last else {
      guard root == nil else { return fail() }
      root = value
      return
    }
    if open[last].isArray {
      open[last].elements.append(value)
    } else {
      guard let k = open[last].key else { return fail() }
      open[last].members.append((k, value))
      open[last].key = nil
    }
  }

  private mutating func fail() {
    broken = true
    open = []
    root = nil
  }
}
