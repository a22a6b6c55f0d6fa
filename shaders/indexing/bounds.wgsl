// Flat index bounds for take/put: v in [−size, size) wraps to [0, size) (torch's negative
// indices); anything else is out of range: the caller records the position e in the status
// word as atomicMax(~e), so the word ends as ~(first bad position), 0 when none.
// unsigned: the index tensor is uint32 (its bits arrive as i32): no negatives to wrap.
struct FlatIndex { j: u32, ok: bool }

fn flat_index(v: i32, size: u32, unsigned: u32) -> FlatIndex {
  if (unsigned != 0u) { return FlatIndex(bitcast<u32>(v), bitcast<u32>(v) < size); }
  if (v < 0) {
    let neg = u32(-(v + 1)) + 1u;   // |v| without overflowing at i32's minimum
    return FlatIndex(size - neg, neg <= size);
  }
  return FlatIndex(u32(v), u32(v) < size);
}
