import Stage

/// Sortable events as JSON lines, with the web board's event names (`start`, `sort`, `end`,
/// `change`) and SortableJS's field names. The app's dock (`--events`) and
/// `imagestage board run` on a sortable scenario print the same lines.
public struct SortEventLines: Sendable {
  public var numericIDs: Set<String>

  public init(numericIDs: Set<String> = []) { self.numericIDs = numericIDs }

  func id(_ s: String) -> JSONValue { numericIDs.contains(s) ? .raw(s) : .string(s) }

  /// One sortable event as a JSON object line.
  public func line(_ event: SortEvent, at t: Double) -> String { value(event, at: t).text }

  public func value(_ event: SortEvent, at t: Double) -> JSONValue {
    switch event {
    case .start(let item, let list, let index):
      return ["type": "start", "t": .number(t), "item": id(item), "from": id(list), "oldIndex": .number(Double(index))]
    case .sort(let item, let list, let index):
      return ["type": "sort", "t": .number(t), "item": id(item), "to": id(list), "newIndex": .number(Double(index))]
    case .end(let e):
      var fields: [(String, JSONValue)] = [
        ("type", "end"), ("t", .number(t)), ("item", id(e.item)), ("from", id(e.from)), ("to", id(e.to)),
        ("oldIndex", .number(Double(e.oldIndex))), ("newIndex", .number(Double(e.newIndex))),
      ]
      if e.items.count > 1 { fields.append(("items", .array(e.items.map(id)))) }
      if let clone = e.clone { fields.append(("clone", id(clone))) }
      if e.cancelled { fields.append(("cancelled", .bool(true))) }
      return .object(fields)
    case .change(let lists):
      return ["type": "change", "t": .number(t), "lists": .array(lists.map(id))]
    }
  }
}
